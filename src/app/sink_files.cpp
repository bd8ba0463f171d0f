// Output names, files and folders of the frame sinks (frame_sink_parts.hpp).
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "app/frame_sink_parts.hpp"

namespace app::sinks {

namespace fs = std::filesystem;

namespace {
// A field wider than this is a typo, not a wish for 10-digit frame numbers.
constexpr int kMaxFieldWidth = 9;
}  // namespace

PatternScan scanPattern(const std::string& path, SequencePattern* out) {
  SequencePattern p;
  bool haveField = false;
  for (size_t i = 0; i < path.size(); ++i) {
    std::string& text = haveField ? p.suffix : p.prefix;
    if (path[i] != '%') {
      text += path[i];
      continue;
    }
    if (i + 1 < path.size() && path[i + 1] == '%') {
      text += '%';
      ++i;
      continue;
    }
    if (haveField) return PatternScan::Malformed;  // a second field
    size_t j = i + 1;
    if (j < path.size() && path[j] == '0') p.zeroPad = true, ++j;
    const size_t digitsFrom = j;
    while (j < path.size() && std::isdigit(static_cast<unsigned char>(path[j]))) ++j;
    if (j - digitsFrom > 1) return PatternScan::Malformed;
    if (j > digitsFrom) p.width = path[digitsFrom] - '0';
    if (j >= path.size() || path[j] != 'd' || p.width > kMaxFieldWidth) {
      return PatternScan::Malformed;
    }
    haveField = true;
    i = j;
  }
  // the number must be in the file's name: a numbered folder per frame is not a sequence
  if (haveField && p.suffix.find('/') != std::string::npos) return PatternScan::Malformed;
  if (out) *out = p;
  return haveField ? PatternScan::OneField : PatternScan::NoField;
}

bool endsWithNoCase(const std::string& s, const std::string& lowerSuffix) {
  if (s.size() < lowerSuffix.size()) return false;
  const size_t from = s.size() - lowerSuffix.size();
  for (size_t i = 0; i < lowerSuffix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[from + i])) != lowerSuffix[i]) return false;
  }
  return true;
}

std::string sequenceFileName(const SequencePattern& p, long long index) {
  char number[32];
  std::snprintf(number, sizeof number, p.zeroPad ? "%0*lld" : "%*lld", p.width, index);
  return p.prefix + number + p.suffix;
}

// ---- files and folders ----

std::string folderOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// Writability is tried, not guessed from mode bits: root, read-only mounts and ACLs all answer.
bool checkFolderWritable(const std::string& folder, const std::string& output, std::string* error) {
  std::string probe = folder + "/.springlab-probe-XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) {
    *error = "cannot write \"" + output + "\": folder \"" + folder + "\": " + std::strerror(errno);
    return false;
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

// A full disk is named in words, whichever writer (ffmpeg, writePng) met it.
std::string withDiskFullNamed(std::string message) {
  if (message.find(std::strerror(ENOSPC)) != std::string::npos ||
      message.find("No space left") != std::string::npos) {
    message += " (disk full)";
  }
  return message;
}

}  // namespace app::sinks
