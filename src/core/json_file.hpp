#pragma once
// Reads a whole JSON file. A file that cannot be opened or is not valid JSON is an InputError
// naming the file, so every reader of user files (configs, results, recommendations) says the same.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace commtune {

// `what` names the kind of file in the "cannot open" message ("config file" -> "cannot open
// config file 'PATH'"); empty gives "cannot open 'PATH'". Invalid JSON: "PATH: not valid JSON: ...".
nlohmann::json read_json_file(const std::string& path, std::string_view what = {});

}  // namespace commtune
