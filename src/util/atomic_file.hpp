// Files are never left truncated under their final name: they are written to a temporary file
// beside the target (same folder, so the rename cannot cross file systems) and renamed into place
// only when every write and the close succeeded. Used for CSVs, PNGs and preferences.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "util/expected.hpp"

namespace util {

class AtomicFile {
 public:
  AtomicFile() = default;
  ~AtomicFile();  // an uncommitted file is removed: nothing is left behind
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Opens "PATH.tmpPID" for writing; false with error() set ("PATH: cannot open ...: reason").
  bool open(const std::string& path);
  std::FILE* file() const { return f_; }
  // Flushes, closes and renames into place; false with error() set (the temporary is removed).
  bool commit();
  const std::string& error() const { return error_; }

 private:
  void discard();
  std::FILE* f_ = nullptr;
  std::string path_, tmp_, error_;
};

// Writes `data` to `path` through an AtomicFile; the problem is AtomicFile's error().
Problem writeFileAtomically(const std::string& path, std::string_view data);

}  // namespace util
