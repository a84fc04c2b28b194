#include "html/document.hpp"

#include "html/escape.hpp"
#include "html/figure.hpp"

namespace commtune::html {
namespace {

constexpr const char* kPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0 auto;max-width:1000px;padding:0 16px 48px;color:#1a1a1a;background:#fff;line-height:1.4}
h1{font-size:1.6em;margin:24px 0 8px}h2{font-size:1.3em;border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:32px}h3{font-size:1.05em;margin:16px 0 4px}
nav ul{padding-left:20px;margin:4px 0}.provenance{background:#f6f6f6;border:1px solid #ddd;padding:8px 12px;border-radius:4px}
table{border-collapse:collapse;font-size:0.85em;margin:6px 0}th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
table.provenance-facts{width:100%;table-layout:fixed}table.provenance-facts td{overflow-wrap:anywhere}table.provenance-facts>thead>tr>th:first-child{width:11em}
table.provenance-facts table{font-size:1em;margin:2px 0}.provenance pre{margin:2px 0;font-size:0.9em;white-space:pre;overflow-x:auto}
th{background:#eee}td.num{text-align:right;font-variant-numeric:tabular-nums}
svg.plot{max-width:100%;height:auto;display:block;font-size:11px}svg .grid{stroke:#e4e4e4}svg .tick-mark{stroke:#555}
svg .plot-area{fill:none;stroke:#888}svg .axis-title{font-size:12px;font-weight:bold}
figure.plot-figure{margin:12px 0 24px;break-inside:avoid;page-break-inside:avoid}figcaption p.alt{margin:4px 0;color:#333}
summary{cursor:pointer;color:#0b57a4}.verdict-FASTER{color:#0072B2;font-weight:bold}.verdict-SLOWER{color:#D55E00;font-weight:bold}
.verdict-AMBIGUOUS{color:#9a6a00;font-weight:bold}.severity-critical{color:#D55E00;font-weight:bold}.severity-warning{color:#9a6a00;font-weight:bold}
.note{color:#555;font-style:italic}table.findings td:nth-child(-n+3){white-space:nowrap}footer{margin-top:40px;color:#777;font-size:0.8em}
@media print{body{max-width:none;padding:0}nav{display:none}h2{break-before:auto}a{color:inherit;text-decoration:none}summary{color:inherit}}
)";

constexpr const char* kScript =
    "window.addEventListener('beforeprint',function(){document.querySelectorAll('details').forEach(function("
    "d){d.open=true;});});";

std::string contents(const Document& doc) {
  std::string out = "<nav><strong>Contents</strong><ul>";
  for (const auto& s : doc.sections)
    out += "<li><a href=\"#" + element_id(s.id) + "\">" + escape(s.title) + "</a></li>";
  return out + "</ul></nav>\n";
}

}  // namespace

std::string render_document(const Document& doc) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"" +
      std::string(kPolicy) +
      "\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"" +
      escape(doc.generator) + "\">\n<title>" + escape(doc.title) + "</title>\n<style>" + kStyle +
      "</style>\n<script>" + kScript + "</script>\n</head>\n<body>\n<h1>" + escape(doc.title) +
      "</h1>\n<section class=\"provenance\" id=\"provenance\">" + doc.provenance + "</section>\n" +
      contents(doc);
  for (const auto& s : doc.sections)
    out += "<section class=\"report-section\" id=\"" + element_id(s.id) + "\">\n<h2>" + escape(s.title) +
           "</h2>\n" + s.body + "</section>\n";
  return out + "<footer>Made by " + escape(doc.generator) +
         ". Self-contained: no script, font or image is loaded from anywhere.</footer>\n</body>\n</html>\n";
}

}  // namespace commtune::html
