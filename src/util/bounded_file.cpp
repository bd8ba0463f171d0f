#include "util/bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace util {
namespace {

// Closes the descriptor however the read ends.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string mebibytes(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

std::optional<std::string> readBoundedFile(const std::string& path, std::size_t maxBytes,
                                           std::string& error) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever
  const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  struct stat st {};
  if (f.fd < 0 || ::fstat(f.fd, &st) != 0) {
    error = "cannot open the file";
    return std::nullopt;
  }
  if (S_ISDIR(st.st_mode)) {
    error = "is a folder, not a file";
    return std::nullopt;
  }
  // a device or a pipe has no size to check: /dev/zero would never end
  if (!S_ISREG(st.st_mode)) {
    error = "is not a regular file (a device, a FIFO or a socket)";
    return std::nullopt;
  }
  if (st.st_size < 0 || static_cast<unsigned long long>(st.st_size) > maxBytes) {
    error = "larger than " + mebibytes(maxBytes);
    return std::nullopt;
  }
  // one byte more than the size: a file that grows past the limit while it is read is refused
  std::string text(static_cast<std::size_t>(st.st_size) + 1, '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(f.fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = "cannot read the file";
      return std::nullopt;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > maxBytes) {
    error = "larger than " + mebibytes(maxBytes);
    return std::nullopt;
  }
  text.resize(got);
  return text;
}

}  // namespace util
