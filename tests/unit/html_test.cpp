// The HTML/SVG generator (src/html) on synthetic data, and `commtune report`'s page on the
// fixtures: axis ticks and their labels, escaping, series and bar counts, heatmap cells, and
// golden files of each plot kind and of the whole page (tests/golden/html/).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "html/axis.hpp"
#include "html/bar_chart.hpp"
#include "html/stacked_bars.hpp"
#include "html/escape.hpp"
#include "html/heatmap.hpp"
#include "html/line_plot.hpp"
#include "html/number_text.hpp"
#include "report/html_report.hpp"
#include "inputs/report_input.hpp"
#include "unit/golden.hpp"

namespace commtune {
namespace {

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::vector<std::string> labels(const std::vector<html::Tick>& ticks) {
  std::vector<std::string> out;
  for (const auto& t : ticks) out.push_back(t.label);
  return out;
}

TEST(HtmlAxis, Log2TicksHaveBinaryLabelsFrom8BTo16GiB) {
  const html::Axis axis = html::fitted_axis(html::Scale::Log2Bytes, 8, 16.0 * (1ull << 30), "size");
  EXPECT_EQ(axis.lo, 8);
  EXPECT_EQ(axis.hi, 16.0 * (1ull << 30));
  const auto ticks = labels(axis.ticks(12));
  EXPECT_EQ(ticks, (std::vector<std::string>{"8 B", "64 B", "512 B", "4 KiB", "32 KiB", "256 KiB", "2 MiB",
                                             "16 MiB", "128 MiB", "1 GiB", "8 GiB"}));
  EXPECT_EQ(labels(html::Axis{html::Scale::Log2Bytes, 1024, 8192, ""}.ticks()),
            (std::vector<std::string>{"1 KiB", "2 KiB", "4 KiB", "8 KiB"}));
}

TEST(HtmlAxis, LinearTicksAreRoundAndShort) {
  const html::Axis axis = html::fitted_axis(html::Scale::Linear, 0, 0.073, "busbw");
  EXPECT_EQ(axis.lo, 0);
  EXPECT_NEAR(axis.hi, 0.08, 1e-12);
  EXPECT_EQ(labels(axis.ticks(7)), (std::vector<std::string>{"0", "0.02", "0.04", "0.06", "0.08"}));
  EXPECT_EQ(labels(html::fitted_axis(html::Scale::Linear, -12, 30, "").ticks(7)),
            (std::vector<std::string>{"-20", "-10", "0", "10", "20", "30"}));
}

TEST(HtmlAxis, Log10TicksAreDecadesAndFractionsMapLogarithmically) {
  const html::Axis axis = html::fitted_axis(html::Scale::Log10, 3, 4500, "us");
  EXPECT_EQ(labels(axis.ticks()), (std::vector<std::string>{"1", "10", "100", "1000", "10000"}));
  EXPECT_NEAR(axis.fraction(100), 0.5, 1e-12);
}

TEST(HtmlText, EscapesMarkupQuotesAndControlCharacters) {
  EXPECT_EQ(html::escape("<b a=\"x\">'&'</b>"), "&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;");
  EXPECT_EQ(html::escape(std::string("a\x01z", 3)), "a\xEF\xBF\xBDz");
  EXPECT_EQ(html::binary_size(8), "8 B");
  EXPECT_EQ(html::binary_size(1536), "1.5 KiB");
  EXPECT_EQ(html::binary_size(16.0 * (1ull << 30)), "16 GiB");
  EXPECT_EQ(html::signed_percent(0.125), "+12.5%");
}

html::LinePlot two_series_plot() {
  html::LinePlot plot{"allreduce <busbw>",
                      "two settings",
                      html::Axis{html::Scale::Log2Bytes, 8, 1024, "size"},
                      html::Axis{html::Scale::Linear, 0, 10, "busbw (GB/s)"},
                      {},
                      {{8, "ceiling 8 GB/s"}}};
  plot.series.push_back({"default", {{8, 1, 0.5, 1.5}, {64, 4, 3, 5}, {1024, 7, 6, 7.5}}, true, ""});
  plot.series.push_back({"ring \"fast\"", {{8, 0.5, 0, 0}, {1024, 9, 8, 9.5}}, false, "(recommended)"});
  return plot;
}

TEST(HtmlLinePlot, DrawsOneGroupPerSeriesWithBandsTicksAndTheCeiling) {
  const std::string svg = html::render_line_plot(two_series_plot());
  EXPECT_EQ(count(svg, "<g class=\"series"), 2u);
  EXPECT_NE(svg.find("data-series=\"2\""), std::string::npos);
  EXPECT_EQ(count(svg, "<g class=\"series emphasised\""), 1u);
  EXPECT_EQ(count(svg, "<polygon class=\"band\""), 2u);
  EXPECT_EQ(count(svg, "<circle class=\"marker\""), 5u);
  EXPECT_EQ(count(svg, "<g class=\"tick x\""), 8u);  // 8 B .. 1 KiB
  EXPECT_NE(svg.find(">1 KiB</text>"), std::string::npos);
  EXPECT_NE(svg.find("ceiling 8 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("ring &quot;fast&quot;"), std::string::npos);
  EXPECT_EQ(svg.find("<busbw>"), std::string::npos);
  testing::expect_golden("html/line-plot.svg", svg + "\n");
}

TEST(HtmlBarChart, DrawsEveryBarWithItsCategoryAndInterval) {
  html::BarChart chart{"change",
                       "three cases",
                       html::Axis{html::Scale::Log2Bytes, 4, 2048, "size"},
                       html::Axis{html::Scale::Linear, -20, 40, "change (%)"},
                       2,
                       {},
                       {{"SLOWER", "#D55E00", "", false, true}}};
  chart.bars = {{8, 0, 30, 20, 38, "#D55E00", false, "SLOWER", "8 B"},
                {8, 1, -10, -15, -5, "#0072B2", false, "FASTER", "8 B in-place"},
                {1024, 0, 0, 0, 0, "#999999", true, "SAME", "1 KiB"}};
  const std::string svg = html::render_bar_chart(chart);
  EXPECT_EQ(count(svg, "<rect class=\"bar\""), 3u);
  EXPECT_EQ(count(svg, "data-category=\"SLOWER\""), 1u);
  EXPECT_EQ(count(svg, "<line class=\"interval\""), 2u);
  EXPECT_EQ(count(svg, "<g class=\"legend-entry\""), 1u);
  testing::expect_golden("html/bar-chart.svg", svg + "\n");
}

TEST(HtmlStackedBars, DrawsOneBarPerCategoryStackedFromItsSegmentsWithItsInterval) {
  html::StackedBars chart{
      "step", "two settings", "step (ms)", {}, {{"bucket 0", "#0072B2", "", false, true}}};
  chart.bars = {
      {"default", {{3, "#0072B2", "call 0", "3 ms"}, {9, "#D55E00", "call 1", "9 ms"}}, 10, 9.5, 10.5},
      {"slow <&>", {{1, "#0072B2", "call 0", "1 ms"}, {15, "#D55E00", "call 1", "15 ms"}}, 16, 16, 16}};
  const std::string svg = html::render_stacked_bars(chart);
  EXPECT_EQ(count(svg, "<rect class=\"segment\""), 4u);
  EXPECT_EQ(count(svg, "data-category=\"call 1\""), 2u);
  EXPECT_EQ(count(svg, "<line class=\"interval\""), 1u);  // the second bar's interval is empty
  EXPECT_NE(svg.find("slow &lt;&amp;&gt;"), std::string::npos);
  testing::expect_golden("html/stacked-bars.svg", svg + "\n");
}

TEST(HtmlHeatmap, DrawsOneCellPerMeasuredPairAndLeavesTheDiagonalBlank) {
  html::Heatmap map{"pairs", "3 nodes", {"n1", "n2", "n<3>"}, {}, "GB/s"};
  map.values = {{std::nullopt, 4.0, 1.0}, {4.0, std::nullopt, 1.1}, {1.0, 1.1, std::nullopt}};
  const std::string svg = html::render_heatmap(map);
  EXPECT_EQ(count(svg, "<rect class=\"cell\""), 6u);
  EXPECT_NE(svg.find("data-cells=\"6\""), std::string::npos);
  EXPECT_NE(svg.find("n&lt;3&gt;"), std::string::npos);
  testing::expect_golden("html/heatmap.svg", svg + "\n");
}

// The page from one input of each kind; paths shown relative, so the golden file is the same on
// every machine.
ReportInput fixture(const std::string& relative) {
  ReportInput input = load_report_input(std::string(COMMTUNE_SOURCE_DIR) + "/" + relative);
  input.path = relative;
  return input;
}

TEST(HtmlReport, FixturesOfEveryKindMakeOnePageWithTheExpectedPlots) {
  const std::vector<ReportInput> inputs{
      fixture("tests/fixtures/nccl-results-h100x16.json"), fixture("tests/badinput/base/recommendation.json"),
      fixture("tests/golden/results-ceiling.json"),        fixture("tests/golden/tune/compare.json"),
      fixture("tests/fixtures/doctor-4nodes.json"),        fixture("tests/golden/replay/results.json")};
  EXPECT_EQ(kind_name(inputs[5]), "replay");
  EXPECT_EQ(kind_name(inputs[1]), "recommendation");
  EXPECT_EQ(kind_name(inputs[3]), "compare");
  EXPECT_EQ(kind_name(inputs[4]), "doctor");
  const std::string page = html_report(inputs, "commtune report (fixtures)");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(page, "<script src"), 0u);
  EXPECT_EQ(count(page, "http://"), count(page, "http://www.w3.org/2000/svg"));  // no link anywhere
  EXPECT_EQ(count(page, "https://"), 0u);
  EXPECT_EQ(count(page, "<svg "), count(page, "<figure class=\"plot-figure\""));
  EXPECT_EQ(count(page, "class=\"plot heatmap\""), 1u);
  EXPECT_EQ(count(page, "class=\"plot stacked-bars\""), 1u);
  EXPECT_EQ(count(page, "<details><summary>Numbers"), count(page, "<figure "));
  EXPECT_NE(page.find("class=\"reference\""), std::string::npos);  // the ceiling of results-ceiling.json
  EXPECT_NE(page.find("/dev/shm is 64 MiB &lt;script&gt;"), std::string::npos);
  // The NCCL fixture's busbw plots: six settings each, the recommended ones marked.
  const std::regex busbw("class=\"plot line-plot\"[^>]*data-series=\"6\"");
  EXPECT_GE(std::distance(std::sregex_iterator(page.begin(), page.end(), busbw), std::sregex_iterator()), 1);
  testing::expect_golden("html/report-fixtures.html", page);
}

// A multi-node NCCL doctor's JSON also maps the GPUs inside each node: one heatmap per node,
// titled with its host, after the map of the nodes.
TEST(HtmlReport, EachNodesGpuMapIsAHeatmapOfItsOwn) {
  const ReportInput input = fixture("tests/badinput/base/doctor.json");
  ASSERT_EQ(kind_name(input), "doctor");
  const std::string page = html_report({input}, "doctor");
  EXPECT_EQ(count(page, "class=\"plot heatmap\""), 2u);
  EXPECT_NE(page.find("<h3>GPUs of node n1: pairwise bandwidth (256 KiB messages)</h3>"), std::string::npos)
      << page;
  EXPECT_NE(
      page.find("2 ranks of node n1, row sends to column: from 180 GB/s (rank 1 - rank 0, the slowest pair)"),
      std::string::npos);
  EXPECT_LT(page.find("<h3>Pairwise bandwidth"), page.find("<h3>GPUs of node n1"));
}

TEST(HtmlReport, AFileOfNoKnownKindIsRefusedNamingIt) {
  const std::string path = std::string(COMMTUNE_SOURCE_DIR) + "/tests/badinput/base/config.json";
  try {
    load_report_input(path);
    FAIL() << "a config file was taken for a report input";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace commtune

namespace commtune {
namespace {

// The tuner's picture names what NCCL chose by itself, size range by size range, and draws one
// bar per size: the winner's gain, faint where not confirmed, a mark where the default stays.
TEST(HtmlTuneSection, ShowsWinnersTheirConfidenceAndWhatNcclChose) {
  Recommendation rec;
  rec.backend = BackendKind::Nccl;
  rec.nranks = 8;
  rec.settings = {Setting{"default", "", {}, {}}, Setting{"ring-ll128", "", {}, {}}};
  const auto decision = [](std::uint64_t bytes, std::string winner, double gain, bool confirmed,
                           NcclChoice chose) {
    SizeDecision d;
    d.bytes = bytes, d.winner = std::move(winner), d.gain = gain, d.confirmed = confirmed,
    d.nccl_chose = chose;
    d.default_us = 10, d.winner_us = 10 * (1 - gain),
    d.reason = d.winner.empty() ? "no setting beats it" : "";
    return d;
  };
  rec.sizes = {decision(1024, "", 0, false, recorded_choice("ring", "ll")),
               decision(2048, "", 0, false, recorded_choice("ring", "ll")),
               decision(4096, "ring-ll128", 0.12, true, recorded_choice("tree", "simple")),
               decision(8192, "ring-ll128", 0.05, false, recorded_choice("tree", "simple"))};
  const ReportInput input{"rec.json", rec};
  const std::string page = html_report({input}, "test");
  EXPECT_EQ(count(page, "<rect class=\"bar\""), 4u);
  EXPECT_EQ(count(page, "data-category=\"default\""), 2u);
  EXPECT_EQ(count(page, "data-category=\"ring-ll128\""), 2u);
  EXPECT_EQ(count(page, "fill-opacity=\"0.35\""), 1u);  // the unconfirmed win
  EXPECT_NE(page.find("NCCL chose by itself: RING/LL from 1 KiB to 2 KiB, TREE/SIMPLE from 4 KiB to 8 KiB."),
            std::string::npos);
  EXPECT_NE(
      page.find("2 of 4 size(s) have a winner over the default (1 confirmed), the largest saving 12.0%"),
      std::string::npos);
  EXPECT_NE(page.find("<td>confirmed by re-measure</td>"), std::string::npos);
}

}  // namespace
}  // namespace commtune
