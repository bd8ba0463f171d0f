#include "util/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace util {

AtomicFile::~AtomicFile() {
  discard();
}

void AtomicFile::discard() {
  if (!f_) return;
  std::fclose(f_);
  f_ = nullptr;
  std::remove(tmp_.c_str());
}

bool AtomicFile::open(const std::string& path) {
  discard();
  path_ = path;
  // the pid keeps two processes writing the same target from sharing a temporary
  tmp_ = path + ".tmp" + std::to_string(::getpid());
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) {
    error_ = path + ": cannot open for writing: " + std::strerror(errno);
    return false;
  }
  return true;
}

bool AtomicFile::commit() {
  if (!f_) {
    if (error_.empty()) error_ = path_ + ": not open";
    return false;
  }
  // a full disk shows up in fflush or fclose, not always in the fwrite before them
  const bool written = std::fflush(f_) == 0 && !std::ferror(f_);
  int err = written ? 0 : errno;
  const bool closed = std::fclose(f_) == 0;
  if (!closed && written) err = errno;
  f_ = nullptr;
  if (!written || !closed) {
    error_ = path_ + ": write failed: " + std::strerror(err ? err : EIO);
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

Problem writeFileAtomically(const std::string& path, std::string_view data) {
  AtomicFile f;
  bool ok = f.open(path);
  if (ok) ok = std::fwrite(data.data(), 1, data.size(), f.file()) == data.size();
  if (ok) ok = f.commit();
  if (ok) return std::nullopt;
  return f.error().empty() ? path + ": write failed" : f.error();
}

}  // namespace util
