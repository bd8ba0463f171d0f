// Shared helpers for the record tests (tests/test_record*.cpp): a fresh folder per test, and
// what ffprobe reads from a video. Not a test file itself (the glob only picks up test_*.cpp).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "util.hpp"

namespace recordtest {

namespace fs = std::filesystem;

// `cmd`'s standard output (trailing newline removed).
inline std::string shell(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// "codec,width,height,pix_fmt,frames" of a video's first stream, decoded frame by frame.
inline std::string probe(const fs::path& video) {
  return shell(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=codec_name,width,height,pix_fmt,nb_read_frames -of csv=p=0 '" +
      video.string() + "' 2>/dev/null");
}

inline long long decodedFrames(const fs::path& video) {
  const std::string n = shell(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=nb_read_frames -of csv=p=0 '" +
      video.string() + "' 2>/dev/null");
  return n.empty() ? -1 : std::atoll(n.c_str());
}

inline fs::path freshDir(const std::string& name) {
  const fs::path d = testutil::tempDir() / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace recordtest
