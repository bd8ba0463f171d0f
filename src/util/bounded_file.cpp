#include "util/bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace util {

std::string mebibytes(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

namespace {

// Closes the descriptor however the read ends.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Reads what the descriptor gives, in chunks, until its end: at most maxBytes + 1 bytes, so that
// one more than the limit says the input is too large (/dev/zero never ends). False on an error.
bool readStream(int fd, std::size_t maxBytes, std::string& text) {
  constexpr std::size_t kChunk = std::size_t(1) << 16;
  while (text.size() <= maxBytes) {
    const std::size_t at = text.size();
    text.resize(at + std::min(kChunk, maxBytes + 1 - at));
    const ssize_t n = ::read(fd, text.data() + at, text.size() - at);
    if (n < 0 && errno == EINTR) {
      text.resize(at);
      continue;
    }
    if (n < 0) return false;
    text.resize(at + static_cast<std::size_t>(n));
    if (n == 0) break;
  }
  return true;
}

}  // namespace

Expected<std::string> readBoundedFile(const std::string& path, std::size_t maxBytes) {
  // O_NONBLOCK: opening a FIFO that no one writes to would otherwise wait for a writer for ever;
  // opened so, it reads as empty at once
  const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  struct stat st {};
  if (f.fd < 0 || ::fstat(f.fd, &st) != 0) return fail("cannot open the file");
  if (S_ISDIR(st.st_mode)) return fail("is a folder, not a file");
  // a regular file's size is checked before anything is read or allocated; a pipe or a device
  // (`<(generate_scene)`, /dev/stdin) has none and is read up to the limit, then refused
  const bool regular = S_ISREG(st.st_mode);
  if (regular && (st.st_size < 0 || static_cast<unsigned long long>(st.st_size) > maxBytes))
    return fail("larger than " + mebibytes(maxBytes));
  // a pipe's writer may still be writing: wait for its data (a FIFO without one has ended)
  if (!regular) ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  if (regular) text.reserve(static_cast<std::size_t>(st.st_size) + 1);
  if (!readStream(f.fd, maxBytes, text)) return fail("cannot read the file");
  // a regular file that grew past the limit while it was read is refused too
  if (text.size() > maxBytes) return fail("larger than " + mebibytes(maxBytes));
  return text;
}

}  // namespace util
