#pragma once
// Text made safe for HTML and SVG: element content and attribute values alike. Everything the
// report shows comes from input files (setting names, host names, evidence), so every string
// goes through here before it reaches the page.
#include <string>
#include <string_view>

namespace commtune::html {

// & < > " ' become entities; control characters other than tab and newline become U+FFFD, which
// XML (inline SVG) does not allow either.
std::string escape(std::string_view text);

}  // namespace commtune::html
