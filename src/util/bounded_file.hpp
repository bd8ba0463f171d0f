// Reading a whole input file (a scene, an OBJ mesh, a provenance file) with a ceiling on its size:
// a path to /dev/zero or a folder, or a multi-gigabyte file named by mistake, is one clear problem,
// never a hang or an exhausted memory, while a pipe (`springlab run <(generate_scene)`) is read.
#pragma once

#include <cstddef>
#include <string>

#include "util/expected.hpp"

namespace util {

// "256 MiB" for a whole number of mebibytes (the limits' messages).
std::string mebibytes(std::size_t bytes);

// The whole of the file at `path`, or the problem: one of "cannot open the file", "is a folder, not
// a file", "larger than N MiB" (more than maxBytes bytes) or "cannot read the file". A regular
// file's size is checked before anything is read; a pipe or a device (process substitution,
// /dev/stdin) is read up to maxBytes + 1 bytes, so /dev/zero is refused after the limit's worth. A
// FIFO that no one writes to reads as empty at once, never a hang.
Expected<std::string> readBoundedFile(const std::string& path, std::size_t maxBytes);

}  // namespace util
