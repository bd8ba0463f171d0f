// Test helpers: run the springlab binary, temporary files, CSV parsing.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace testutil {

namespace fs = std::filesystem;

inline fs::path tempDir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("springlab_test_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

inline std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline fs::path writeFile(const std::string& name, const std::string& text) {
  const fs::path p = tempDir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

struct RunResult {
  int status = -1;  // exit status, or 128 + signal
  std::string out, err;
};

// Runs `springlab ARGS` through the shell (arguments are single-quoted), after `prefix` (a
// command such as "timeout 2 " that runs springlab).
inline RunResult springlab(const std::vector<std::string>& args, const std::string& prefix = "") {
  static int counter = 0;
  const std::string tag = std::to_string(++counter);
  const fs::path out = tempDir() / ("stdout" + tag), err = tempDir() / ("stderr" + tag);
  std::string cmd = prefix;
  cmd += "'";
  cmd += SPRINGLAB_BIN;
  cmd += "'";
  for (const auto& a : args) {
    cmd += " '";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "x" + s + "y"
    cmd += a;
    cmd += "'";
  }
  for (const std::string& piece : {std::string(" >'"), out.string(), std::string("' 2>'"),
                                   err.string(), std::string("' </dev/null")})
    cmd += piece;
  const int raw = std::system(cmd.c_str());
  RunResult r;
  if (WIFEXITED(raw))
    r.status = WEXITSTATUS(raw);
  else if (WIFSIGNALED(raw))
    r.status = 128 + WTERMSIG(raw);
  r.out = readFile(out);
  r.err = readFile(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

inline std::vector<std::vector<double>> csvRows(const std::string& text) {
  std::vector<std::vector<double>> rows;
  auto ls = lines(text);
  for (size_t i = 1; i < ls.size(); ++i) {
    std::vector<double> row;
    std::istringstream in(ls[i]);
    for (std::string cell; std::getline(in, cell, ',');)
      row.push_back(std::strtod(cell.c_str(), nullptr));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace testutil
