// Error messages are one line on standard error (docs/cli.md#exit-status), whatever the input:
// the line breaks a user's text brings into one (a name typed with a newline, a JSON string's
// "\n" quoted back) are written as the escapes \n and \r. Applied where a parser's message leaves
// it (scene::parse and scene::build, the option and spec parsers, the provenance file's reader).
#pragma once

#include <string>

namespace util {

inline std::string oneLine(std::string message) {
  std::string out;
  out.reserve(message.size());
  for (char c : message) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace util
