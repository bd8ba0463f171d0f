// The output kinds and their ffmpeg arguments, and openSink, which opens the sink of a kind. The
// sinks themselves are in sink_queue.cpp (what every kind shares), ffmpeg_sink.cpp and
// png_sinks.cpp (frame_sink_parts.hpp).
#include "app/frame_sink.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "app/frame_sink_parts.hpp"

namespace app {

namespace fs = std::filesystem;

const char* const kFfmpegNotFound =
    "ffmpeg not found on PATH: install it (Debian: apt-get install ffmpeg) or record PNG frames "
    "(--out frames/%05d.png)";

FrameSink::~FrameSink() = default;

namespace {

std::string formatFps(double fps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", fps);
  return buf;
}

// Encoder settings chosen for speed: the aim is 1280x720 at 60 fps faster than real time on one
// core of a 2-core machine while the other renders. Measured there (one core, 720p moving pattern):
// x264 veryfast 44-58 fps, superfast 65-66, ultrafast 95-118 fps; superfast is the fastest preset
// that keeps CABAC and deblocking (ultrafast drops both: files 2.5x veryfast's at the same CRF,
// superfast's 2x). VP9 realtime at its fastest cpu-used reaches only ~30 fps and a per-frame-
// palette GIF ~16 fps: those record slower than real time (push() waits; no frame is dropped).
// GIFs get a palette per frame so that nothing waits for the whole clip to be buffered.
std::vector<std::string> encoderArgs(OutputKind kind) {
  switch (kind) {
    case OutputKind::Mp4:
      return {"-c:v",     "libx264", "-preset",   "superfast",  "-crf", "20",
              "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f",   "mp4"};
    case OutputKind::Webm:
      return {"-c:v",     "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
              "-row-mt",  "1",          "-b:v",      "0",        "-crf",      "33",
              "-pix_fmt", "yuv420p",    "-f",        "webm"};
    case OutputKind::Gif:
      return {"-vf", "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1", "-f",
              "gif"};
    default:
      return {};
  }
}

}  // namespace

std::vector<std::string> sinks::ffmpegArgs(const SinkOptions& o, const std::string& tmp) {
  std::vector<std::string> args = {o.ffmpeg,
                                   "-hide_banner",
                                   "-loglevel",
                                   "error",
                                   "-nostats",
                                   "-nostdin",
                                   "-y",
                                   "-f",
                                   "rawvideo",
                                   "-pix_fmt",
                                   "rgba",
                                   "-s",
                                   std::to_string(o.width) + "x" + std::to_string(o.height),
                                   "-r",
                                   formatFps(o.fps),
                                   "-i",
                                   "pipe:0"};
  for (std::string& a : encoderArgs(o.kind)) args.push_back(std::move(a));
  args.push_back(tmp);
  return args;
}

namespace {

bool checkOptions(const SinkOptions& o, std::string* error) {
  if (o.width <= 0 || o.height <= 0) {
    *error = o.path + ": the frame size must be positive, not " + std::to_string(o.width) + "x" +
             std::to_string(o.height);
    return false;
  }
  if (needsEvenSize(o.kind) && (o.width % 2 != 0 || o.height % 2 != 0)) {
    *error = o.path + ": " + std::to_string(o.width) + "x" + std::to_string(o.height) +
             " has an odd side; this format (yuv420p) needs an even width and height";
    return false;
  }
  if (!(o.fps > 0.0)) {
    *error = o.path + ": the frame rate must be positive";
    return false;
  }
  return true;
}

bool isExecutableFile(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<OutputKind> outputKindOf(const std::string& path, std::string* error) {
  const auto fail = [&](const std::string& message) -> std::optional<OutputKind> {
    if (error) *error = message;
    return std::nullopt;
  };
  using sinks::endsWithNoCase, sinks::PatternScan;
  const PatternScan scan = sinks::scanPattern(path, nullptr);
  if (scan == PatternScan::OneField && endsWithNoCase(path, ".png")) {
    return OutputKind::PngSequence;
  }
  if (scan != PatternScan::NoField) {
    return fail("bad output pattern \"" + path +
                "\": an image sequence needs exactly one integer field such as %05d (%% for a "
                "literal %) and a name ending in .png");
  }
  if (endsWithNoCase(path, ".mp4")) return OutputKind::Mp4;
  if (endsWithNoCase(path, ".webm")) return OutputKind::Webm;
  if (endsWithNoCase(path, ".gif")) return OutputKind::Gif;
  if (endsWithNoCase(path, ".png")) return OutputKind::Png;
  return fail("unsupported output \"" + path +
              "\": use .mp4, .webm, .gif, .png or a pattern such as frames/%05d.png");
}

bool needsFfmpeg(OutputKind k) {
  return k == OutputKind::Mp4 || k == OutputKind::Webm || k == OutputKind::Gif;
}

bool needsEvenSize(OutputKind k) {
  return k == OutputKind::Mp4 || k == OutputKind::Webm;
}

std::string findFfmpeg() {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  const std::string dirs = path;
  size_t from = 0;
  for (;;) {
    const size_t colon = dirs.find(':', from);
    std::string dir = dirs.substr(from, colon == std::string::npos ? colon : colon - from);
    if (dir.empty()) dir.push_back('.');  // an empty PATH entry is the current folder
    const std::string candidate = (fs::path(dir) / "ffmpeg").string();
    if (isExecutableFile(candidate)) return candidate;
    if (colon == std::string::npos) return {};
    from = colon + 1;
  }
}

std::unique_ptr<FrameSink> openSink(const SinkOptions& o, std::string* error) {
  std::string why;
  std::unique_ptr<sinks::QueuedSink> sink;
  if (!checkOptions(o, &why)) {
    // nothing opened
  } else if (o.kind == OutputKind::PngSequence) {
    sink = sinks::openPngSequence(o, &why);
  } else if (needsFfmpeg(o.kind) && o.ffmpeg.empty()) {
    why = kFfmpegNotFound;
  } else if (needsFfmpeg(o.kind) && !isExecutableFile(o.ffmpeg)) {
    why = "ffmpeg \"" + o.ffmpeg +
          "\" is not an executable file: install it (Debian: apt-get install ffmpeg) or record "
          "PNG frames (--out frames/%05d.png)";
  } else if (!sinks::checkFolderWritable(sinks::folderOf(o.path), o.path, &why)) {
    // nothing opened
  } else if (o.kind == OutputKind::Png) {
    sink = sinks::openPng(o);
  } else {
    sink = sinks::openVideo(o, &why);
  }
  if (!sink) {
    if (error) *error = why;
    return nullptr;
  }
  sink->startWriter();
  return sink;
}

}  // namespace app
