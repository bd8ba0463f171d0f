// Reading a whole input file (a scene, an OBJ mesh, a provenance file) with a ceiling on its size:
// a path to /dev/zero, a FIFO or a folder, or a multi-gigabyte file named by mistake, is one clear
// problem, never a hang or an exhausted memory.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace util {

// "256 MiB" for a whole number of mebibytes (the limits' messages).
std::string mebibytes(std::size_t bytes);

// The whole of the regular file at `path`, or an empty optional with `error` set to one of
// "cannot open the file", "is a folder, not a file", "is not a regular file (a device, a FIFO or
// a socket)", "larger than N MiB" (more than maxBytes bytes) or "cannot read the file". The size
// is checked before anything is read, and the file is opened without blocking, so a FIFO with no
// writer is refused at once.
std::optional<std::string> readBoundedFile(const std::string& path, std::size_t maxBytes,
                                           std::string& error);

}  // namespace util
