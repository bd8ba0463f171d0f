#include "cli/csv.hpp"

#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace cli {

CsvFile::~CsvFile() {
  if (f_ && !stdout_) {
    std::fclose(f_);
    std::remove(tmp_.c_str());  // never committed: leave nothing behind
  }
}

bool CsvFile::open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    f_ = stdout;
    stdout_ = true;
    return true;
  }
  tmp_ = path + ".tmp" + std::to_string(::getpid());
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) {
    error_ = path + ": cannot open for writing: " + std::strerror(errno);
    return false;
  }
  static thread_local char buf[1 << 16];
  std::setvbuf(f_, nullptr, _IOFBF, sizeof buf);
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
  const bool ok = std::fflush(f_) == 0 && !std::ferror(f_);
  if (stdout_) {
    f_ = nullptr;
    if (!ok) error_ = "standard output: write failed";
    return ok;
  }
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!ok || !closed) {
    error_ = path_ + ": write failed: " + std::strerror(errno);
    std::remove(tmp_.c_str());
    return false;
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    error_ = path_ + ": cannot rename into place: " + std::strerror(errno);
    std::remove(tmp_.c_str());
    return false;
  }
  return true;
}

}  // namespace cli
