// The report's provenance as a person reads it (src/report/html_provenance*): no JSON text, each
// field in its own form (settings -> knobs, variables -> values, the ceiling's path, rate and
// basis, MPI's library lines, NCCL's versions and GPUs), long lists collapsed, everything escaped,
// and any other shape shown as text without throwing. The whole page is in the golden file
// tests/golden/html/report-fixtures.html (html_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "html/fact_table.hpp"
#include "html/table.hpp"
#include "report/html_provenance.hpp"
#include "report/html_provenance_facts.hpp"

namespace commtune {
namespace {

using nlohmann::json;

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

json environment_of(int n) {
  json env = json::object();
  for (int i = 0; i < n; ++i) env["NCCL_VAR_" + std::to_string(10 + i)] = "v" + std::to_string(i);
  return env;
}

json mpi_provenance() {
  return {
      {"tool", "commtune"},
      {"tool_version", "0.1.0"},
      {"argv", {"commtune", "sweep", "--out", "my results.json"}},
      {"config", {{"name", "quick"}, {"description", "a first look"}}},
      {"environment", environment_of(10)},
      {"ceiling",
       {{"gbps", 450.0},
        {"path", "NVLink 4 x18"},
        {"basis", "18 links x 25 GB/s per direction (NVLink 4)"},
        {"expected_low", 0.78},
        {"expected_high", 0.84},
        {"expected_source", "nccl-tests on DGX H100"}}},
      {"mpi", {{"mpi_library", "MPICH Version: 4.1\nMPICH Release date: <today>"}, {"mpi_standard", "4.0"}}},
      {"launcher",
       {{"name", "srun"},
        {"slurm",
         {{"job_id", "7"}, {"nodelist", "n[1-2]"}, {"nnodes", 2}, {"step_id", "0"}, {"ntasks", 4}}}}},
      {"layout",
       {{"nranks", 4},
        {"nhosts", 2},
        {"local_sizes", {2, 2}},
        {"hosts", {{"n1", {{"cpu_model", "EPYC"}, {"cores", 64}, {"memory_bytes", 1ull << 40}}}}},
        {"ranks", {{{"rank", 0}, {"host", "n1"}, {"local_rank", 0}, {"pid", 11}, {"device", "cpu"}}}}}},
      {"future_field", {{"depth", {{"inner", 1.5}}}, {"flags", {true, false}}}}};
}

ResultsDocument results_with(const json& provenance) {
  ResultsDocument doc;
  doc.backend = BackendKind::Mpi;
  doc.provenance = provenance;
  doc.settings = {
      Setting{"default", "", {}, {}},
      Setting{"ring", "", {{"OMPI_MCA_coll_tuned_allreduce_algorithm", "4"}}, {Collective::AllReduce}}};
  return doc;
}

std::string page_of(const json& provenance) {
  return provenance_html({ReportInput{"r.json", results_with(provenance)}}, "commtune report r.json");
}

TEST(HtmlProvenance, ShowsEachFieldAsTextAndTablesNotJson) {
  const std::string html = page_of(mpi_provenance());
  EXPECT_FALSE(has(html, "{&quot;")) << html;
  EXPECT_FALSE(has(html, "[&quot;")) << html;
  EXPECT_TRUE(has(html, "<td>command</td><td>commtune sweep --out &#39;my results.json&#39;</td>")) << html;
  EXPECT_TRUE(has(html, "<td>tool</td><td>commtune 0.1.0</td>"));
  EXPECT_TRUE(has(html, "<td>config</td><td>quick<br>a first look</td>"));
  EXPECT_TRUE(has(
      html, "<tr><td>ring</td><td>OMPI_MCA_coll_tuned_allreduce_algorithm=4</td><td>allreduce</td></tr>"));
  EXPECT_TRUE(has(html, "<tr><td>default</td><td>none: the library&#39;s own choice</td><td>all</td></tr>"));
  EXPECT_TRUE(
      has(html,
          "NVLink 4 x18: 450.0 GB/s per direction<br>basis: 18 links x 25 GB/s per direction (NVLink 4)"
          "<br>published runs reach 78-84% of it (nccl-tests on DGX H100)"));
  EXPECT_TRUE(
      has(html, "<td>MPI library</td><td>MPICH Version: 4.1<br>MPICH Release date: &lt;today&gt;</td>"));
  EXPECT_TRUE(has(html, "<td>MPI standard</td><td>4.0</td>"));
  EXPECT_TRUE(has(html, "srun<br>Slurm job 7 on n[1-2] (2 nodes); step 0, 4 tasks"));
  EXPECT_TRUE(has(html, "<td>ranks</td><td>4 ranks on 2 nodes, 2 per node</td>"));
  EXPECT_TRUE(has(html, "<tr><td>n1</td><td>EPYC: 64 cores</td><td>1 TiB</td></tr>"));
  EXPECT_TRUE(has(html, "<tr><td>0</td><td>n1</td><td>0</td><td>11</td><td>cpu</td></tr>"));
  EXPECT_TRUE(
      has(html, "<tr><td>depth / inner</td><td>1.5</td></tr><tr><td>flags</td><td>yes, no</td></tr>"));
}

TEST(HtmlProvenance, EnvironmentIsANameValueTableWithTheLongTailFolded) {
  const std::string html = page_of(mpi_provenance());
  EXPECT_TRUE(has(html, "<th>variable</th><th>value</th>"));
  EXPECT_TRUE(has(html, "<tr><td>NCCL_VAR_10</td><td>v0</td></tr>"));
  EXPECT_TRUE(has(html, "<details><summary>2 more variables</summary>"));
  EXPECT_TRUE(has(html, "<tr><td>NCCL_VAR_19</td><td>v9</td></tr></tbody></table></details>"));
}

json nccl_supervisor(const std::string& host) {
  return {{"host", host},
          {"device_memory_bytes", 85899345920ull},
          {"workers", {{{"rank", 0}, {"device", 0}}, {{"rank", 1}, {"device", 0}}}},
          {"devices",
           {{"nccl_version", "2.28.9"},
            {"cuda_runtime", "12.8"},
            {"cuda_driver", "12.8"},
            {"devices",
             {{{"index", 0}, {"name", "H100"}, {"total_bytes", 85899345920ull}, {"multicast", true}}}}}},
          {"gpu_topology", {{"source", "nvidia-smi topo -m"}, {"matrix", "\tGPU0\nGPU0\t X <&>"}}},
          {"infiniband",
           {{{"name", "mlx5_0"},
             {"ports",
              {{{"port", "1"},
                {"state", "4: ACTIVE"},
                {"rate", "400 Gb/sec"},
                {"link_layer", "InfiniBand"}}}}}}}};
}

TEST(HtmlProvenance, NcclVersionsOnceGpusAsATableTopologyFolded) {
  json p{{"tool", "commtune"},
         {"nccl",
          {{"supervisors", {nccl_supervisor("a"), nccl_supervisor("b")}},
           {"nccl_choice", {{"recorded", false}, {"reason", "one rank"}}},
           {"emulated_nodes", false},
           {"init_timeout_s", 120.0}}}};
  const std::string html = page_of(p);
  EXPECT_FALSE(has(html, "{&quot;")) << html;
  EXPECT_TRUE(has(html, "<td>NCCL</td><td>NCCL 2.28.9, CUDA runtime 12.8, driver 12.8</td>")) << html;
  EXPECT_TRUE(has(html, "<tr><td>b</td><td>0</td><td>H100</td><td>80 GiB</td><td>yes</td><td>0, 1</td></tr>"))
      << html;
  EXPECT_TRUE(
      has(html,
          "<details><summary>nvidia-smi topo -m on a, b</summary><pre>\tGPU0\nGPU0\t X &lt;&amp;&gt;</pre>"));
  EXPECT_TRUE(has(html, "<td>InfiniBand</td><td>mlx5_0 port 1: 4: ACTIVE, 400 Gb/sec, InfiniBand</td>"));
  EXPECT_TRUE(has(html, "<td>NCCL&#39;s own choice</td><td>not recorded: one rank</td>"));
  EXPECT_TRUE(
      has(html, "<td>NCCL run</td><td>emulated nodes: no<br>time limits: communicator set-up 120 s</td>"));
  p["nccl"]["supervisors"][1]["devices"]["nccl_version"] = "2.29.1";
  EXPECT_TRUE(
      has(page_of(p), "<td>NCCL</td><td>a: NCCL 2.28.9, CUDA runtime 12.8, driver 12.8<br>b: NCCL 2.29.1,"));
}

TEST(HtmlProvenance, NcclTestsShortFormIsOneLine) {
  const std::string html =
      page_of({{"tool", "commtune"}, {"nccl", {{"version", "2.28.9"}, {"driver", "580"}}}});
  EXPECT_TRUE(has(html, "<td>NCCL</td><td>NCCL 2.28.9, driver 580</td>")) << html;
}

// Provenance is free-form: any field of an unexpected shape is shown as text, escaped, never thrown on.
TEST(HtmlProvenance, UnexpectedShapesAreShownEscapedWithoutThrowing) {
  const std::vector<json> odd{json(),           json(7),
                              json("<b>x</b>"), json::array({1, json::object()}),
                              json::object(),   json{{"k", json::array({json::array({1})})}}};
  for (const char* key :
       {"argv", "config", "environment", "ceiling", "mpi", "launcher", "layout", "nccl", "labels"})
    for (const auto& value : odd) {
      json p{{"tool", "commtune"}, {key, value}};
      std::string html;
      ASSERT_NO_THROW(html = page_of(p)) << key << " = " << value.dump();
      EXPECT_FALSE(has(html, "<b>")) << html;
    }
  json layout{{"nranks", 2},
              {"nhosts", "x"},
              {"hosts", {{"h", 3}}},
              {"ranks", {1, {{"device", {{"index", "<i>"}}}}}}};
  EXPECT_NO_THROW(page_of({{"tool", "commtune"}, {"layout", layout}}));
  EXPECT_TRUE(has(page_of({{"tool", "commtune"}, {"layout", layout}}), "GPU &lt;i&gt;"));
}

TEST(HtmlProvenance, LongNestedValuesAreCollapsedAndCut) {
  json big = json::object();
  for (int i = 0; i < 300; ++i) big["k" + std::to_string(1000 + i)] = std::string(500, 'x');
  const std::string html = value_html(big);
  EXPECT_TRUE(has(html, "<details><summary>193 more fields</summary>")) << html.substr(0, 300);
  EXPECT_TRUE(has(html, "<tr><td>...</td><td>100 more fields not shown</td></tr>"));
  EXPECT_TRUE(has(html, std::string(kMaxFactChars, 'x') + " ...</td>"));
  EXPECT_EQ(counted_list(json{"H100", "H100", "A100", 3}), "2 x H100, A100, 3");
}

TEST(HtmlTables, CollapsedTableFoldsTheRowsPastTheShownOnes) {
  html::Table t{{"a", "b"}, {{"1", "x"}, {"2", ""}, {"3", "<"}}, {}};
  EXPECT_EQ(html::render_collapsed_table(t, "c", 3, "rows"), html::render_table(t, "c"));
  EXPECT_EQ(
      html::render_collapsed_table(t, "c", 1, "rows"),
      "<table class=\"c\"><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>x</td></tr>"
      "</tbody></table><details><summary>2 more rows</summary><table class=\"c\"><thead><tr><th>a</th>"
      "<th>b</th></tr></thead><tbody><tr><td>2</td><td></td></tr><tr><td>3</td><td>&lt;</td></tr></tbody>"
      "</table></details>");
  html::Table sparse{{"a", "b", "c"}, {{"", "", "1"}, {"", "", ""}}, {false, true, true}};
  html::drop_empty_columns(sparse);
  EXPECT_EQ(sparse.headers, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(sparse.rows[0], (std::vector<std::string>{"", "1"}));
  EXPECT_EQ(sparse.numeric, (std::vector<bool>{false, true}));
}

TEST(HtmlTables, FactTableEscapesLabelsAndKeepsValueHtml) {
  EXPECT_EQ(html::render_fact_table({{"<a>", html::text_lines({"x<", "y"})}}, "f", "v", "t"),
            "<table class=\"t\"><thead><tr><th>f</th><th>v</th></tr></thead><tbody><tr><td>&lt;a&gt;</td>"
            "<td>x&lt;<br>y</td></tr></tbody></table>");
  EXPECT_EQ(html::folded("a<b", html::preformatted(" 1\n2")),
            "<details><summary>a&lt;b</summary><pre> 1\n2</pre></details>");
}

}  // namespace
}  // namespace commtune
