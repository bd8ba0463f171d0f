// CSV output that reads back exactly (17 significant digits) and never leaves a truncated file:
// a named file is a util::AtomicFile, renamed into place by commit().
#pragma once

#include <cstdio>
#include <string>

#include "util/atomic_file.hpp"

namespace cli {

class CsvFile {
 public:
  CsvFile() = default;
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;

  // "-" is standard output. Returns false with error() set.
  bool open(const std::string& path);
  bool isOpen() const { return f_ != nullptr; }
  void text(const char* s) { std::fputs(s, f_); }
  void number(double v);  // preceded by a comma unless first in the row
  void endRow();
  bool commit();  // flush, close, rename; false with error() set
  const std::string& error() const { return error_; }

 private:
  std::FILE* f_ = nullptr;  // standard output or file_'s temporary
  util::AtomicFile file_;
  bool first_ = true;
  std::string error_;
};

}  // namespace cli
