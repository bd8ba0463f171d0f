#include "cli/csv.hpp"

#include <charconv>

namespace cli {

namespace {
constexpr size_t kWriteBuffer = 1 << 16;  // bytes: rows are small, fewer write calls
}  // namespace

bool CsvFile::open(const std::string& path) {
  if (path == "-") {
    f_ = stdout;
    return true;
  }
  if (!file_.open(path)) {
    error_ = file_.error();
    return false;
  }
  f_ = file_.file();
  std::setvbuf(f_, nullptr, _IOFBF, kWriteBuffer);
  return true;
}

void CsvFile::number(double v) {
  char buf[40];
  char* p = buf;
  if (!first_) *p++ = ',';
  first_ = false;
  p = std::to_chars(p, buf + sizeof buf, v, std::chars_format::general, 17).ptr;
  std::fwrite(buf, 1, p - buf, f_);
}

void CsvFile::endRow() {
  std::fputc('\n', f_);
  first_ = true;
}

bool CsvFile::commit() {
  if (!f_) return true;
  std::FILE* f = f_;
  f_ = nullptr;
  if (f == stdout) {
    const bool ok = std::fflush(f) == 0 && !std::ferror(f);
    if (!ok) error_ = "standard output: write failed";
    return ok;
  }
  if (!file_.commit()) {
    error_ = file_.error();
    return false;
  }
  return true;
}

}  // namespace cli
