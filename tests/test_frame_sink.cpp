// FrameSink (src/app/frame_sink.hpp): every output kind read back by ffprobe or stb_image, the
// exact errors, and nothing left behind by failures, abort() or a SIGKILL of the recording process.
// No display or GL context: frames are synthetic. Needs ffmpeg and ffprobe (README's test command
// installs them).
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/frame_sink.hpp"

#include "stb_image_reader.hpp"

namespace {

namespace fs = std::filesystem;
using app::OutputKind;

// Small frames keep every encode well under a second.
constexpr int kWidth = 64, kHeight = 48;
constexpr int kFrames = 5;
// How long the SIGKILL test waits for the orphaned ffmpeg to finish and rename the file.
constexpr auto kOrphanWait = std::chrono::seconds(30);

// A folder of the test's own under /tmp, removed with everything in it at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string name = "/tmp/springlab_sink_XXXXXX";
    path = ::mkdtemp(name.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
  // Every entry, recursively, as paths relative to the folder.
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(path)) {
      out.push_back(fs::relative(e.path(), path).string());
    }
    return out;
  }
};

// A frame whose pixels depend on its index, so that frames differ as in a real clip.
void paint(app::Frame& f, int index) {
  for (int y = 0; y < f.height; ++y) {
    for (int x = 0; x < f.width; ++x) {
      unsigned char* p = &f.rgba[(size_t(y) * size_t(f.width) + size_t(x)) * 4];
      p[0] = static_cast<unsigned char>(x * 4 + index * 16);
      p[1] = static_cast<unsigned char>(y * 5);
      p[2] = static_cast<unsigned char>(index * 40);
      p[3] = 255;
    }
  }
}

app::SinkOptions optionsFor(const std::string& path, OutputKind kind) {
  app::SinkOptions o;
  o.path = path;
  o.kind = kind;
  o.width = kWidth, o.height = kHeight;
  o.fps = 30.0;
  o.ffmpeg = app::findFfmpeg();
  return o;
}

// Pushes COUNT painted frames; false at the first refused push.
bool pushFrames(app::FrameSink& sink, int count) {
  for (int i = 0; i < count; ++i) {
    app::Frame f = sink.takeBuffer();
    paint(f, i);
    if (!sink.push(std::move(f))) return false;
  }
  return true;
}

bool record(const std::string& path, OutputKind kind, int count, std::string* error) {
  auto sink = app::openSink(optionsFor(path, kind), error);
  if (!sink) return false;
  const bool ok = pushFrames(*sink, count) && sink->finish();
  if (!ok) *error = sink->error();
  return ok;
}

// ffprobe's "codec,width,height,pix_fmt,frames" for the first video stream, or empty.
std::string probe(const std::string& file) {
  const std::string command =
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=codec_name,width,height,nb_read_frames,pix_fmt -of csv=p=0 '" +
      file + "' 2>/dev/null";
  std::FILE* p = ::popen(command.c_str(), "r");
  if (!p) return {};
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  ::pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

int probedFrameCount(const std::string& file) {
  const std::string line = probe(file);
  const size_t comma = line.rfind(',');
  return comma == std::string::npos ? 0 : std::atoi(line.c_str() + comma + 1);
}

std::vector<unsigned char> decodePng(const std::string& file, int* w, int* h) {
  int channels = 0;
  unsigned char* data = stbi_load(file.c_str(), w, h, &channels, 4);
  if (!data) return {};
  std::vector<unsigned char> rgba(data, data + size_t(*w) * size_t(*h) * 4);
  stbi_image_free(data);
  return rgba;
}

// Restores an environment variable when the test ends, however it ends.
struct EnvRestore {
  std::string name, saved;
  bool had;
  explicit EnvRestore(const char* n) : name(n) {
    const char* v = std::getenv(n);
    had = v != nullptr;
    if (had) saved = v;
  }
  ~EnvRestore() {
    if (had)
      ::setenv(name.c_str(), saved.c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("outputKindOf: extensions, case, patterns and the exact errors") {
  std::string error;
  CHECK(app::outputKindOf("a/b.mp4", &error) == OutputKind::Mp4);
  CHECK(app::outputKindOf("CLIP.MP4", &error) == OutputKind::Mp4);
  CHECK(app::outputKindOf("x.webm", &error) == OutputKind::Webm);
  CHECK(app::outputKindOf("x.Gif", &error) == OutputKind::Gif);
  CHECK(app::outputKindOf("x.png", &error) == OutputKind::Png);
  CHECK(app::outputKindOf("frames/%05d.png", &error) == OutputKind::PngSequence);
  CHECK(app::outputKindOf("f_%d.PNG", &error) == OutputKind::PngSequence);
  CHECK(app::outputKindOf("100%%/f%5d.png", &error) == OutputKind::PngSequence);
  CHECK(app::outputKindOf("100%%.mp4", &error) == OutputKind::Mp4);

  CHECK_FALSE(app::outputKindOf("x.avi", &error));
  CHECK(error ==
        "unsupported output \"x.avi\": use .mp4, .webm, .gif, .png or a pattern such as "
        "frames/%05d.png");
  const std::string badPattern =
      "\": an image sequence needs exactly one integer field such as %05d (%% for a literal %) "
      "and a name ending in .png";
  for (const std::string bad :
       {"f%d_%d.png", "f%s.png", "f%05d.mp4", "f%.png", "f%", "run%d/f.png", "f%123d.png"}) {
    CAPTURE(bad);
    error.clear();
    CHECK_FALSE(app::outputKindOf(bad, &error));
    CHECK(error == "bad output pattern \"" + bad + badPattern);
  }
  CHECK(app::needsFfmpeg(OutputKind::Gif));
  CHECK_FALSE(app::needsFfmpeg(OutputKind::PngSequence));
  CHECK(app::needsEvenSize(OutputKind::Webm));
  CHECK_FALSE(app::needsEvenSize(OutputKind::Gif));
}

TEST_CASE("video sinks: frame count, size and codec read back by ffprobe") {
  TempDir dir;
  struct Case {
    const char* name;
    OutputKind kind;
    const char* probed;
  };
  const Case cases[] = {{"clip.mp4", OutputKind::Mp4, "h264,64,48,yuv420p,5"},
                        {"clip.webm", OutputKind::Webm, "vp9,64,48,yuv420p,5"},
                        {"clip.gif", OutputKind::Gif, "gif,64,48,bgra,5"}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::string error;
    REQUIRE_MESSAGE(record(dir / c.name, c.kind, kFrames, &error), error);
    CHECK(probe(dir / c.name) == c.probed);
  }
  // only the three files: no temporaries left beside them
  CHECK(dir.entries().size() == 3);
}

TEST_CASE("png sinks: the last frame's pixels, and a sequence numbered from 0") {
  TempDir dir;
  std::string error;
  REQUIRE_MESSAGE(record(dir / "last.png", OutputKind::Png, kFrames, &error), error);
  int w = 0, h = 0;
  const std::vector<unsigned char> last = decodePng(dir / "last.png", &w, &h);
  app::Frame expected{kWidth, kHeight, std::vector<unsigned char>(size_t(kWidth) * kHeight * 4)};
  paint(expected, kFrames - 1);
  CHECK(w == kWidth);
  CHECK(h == kHeight);
  CHECK(last == expected.rgba);

  // the folder (two levels) is created
  const std::string pattern = dir / "seq/a/f_%03d.png";
  auto sink = app::openSink(optionsFor(pattern, OutputKind::PngSequence), &error);
  REQUIRE_MESSAGE(sink, error);
  CHECK(sink->outputDescription() == dir / "seq/a");
  REQUIRE(pushFrames(*sink, kFrames));
  REQUIRE_MESSAGE(sink->finish(), sink->error());
  CHECK(sink->framesWritten() == kFrames);
  CHECK_FALSE(pushFrames(*sink, 1));  // refused after finish(), not queued forever
  for (int i = 0; i < kFrames; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "seq/a/f_%03d.png", i);
    paint(expected, i);
    CHECK(decodePng(dir / name, &w, &h) == expected.rgba);
  }
  CHECK_FALSE(fs::exists(dir / "seq/a/f_005.png"));
  CHECK(fs::directory_iterator(dir / "seq/a") != fs::directory_iterator());
}

TEST_CASE("takeBuffer recycles written frames: no allocation in the steady state") {
  TempDir dir;
  std::string error;
  auto sink = app::openSink(optionsFor(dir / "f%d.png", OutputKind::PngSequence), &error);
  REQUIRE(sink);
  std::vector<const unsigned char*> seen;
  for (int i = 0; i < 4 * app::FrameSink::kQueueDepth; ++i) {
    app::Frame f = sink->takeBuffer();
    REQUIRE(f.rgba.size() == size_t(kWidth) * kHeight * 4);
    seen.push_back(f.rgba.data());
    paint(f, i);
    REQUIRE(sink->push(std::move(f)));
  }
  REQUIRE(sink->finish());
  std::sort(seen.begin(), seen.end());
  const auto distinct = std::unique(seen.begin(), seen.end()) - seen.begin();
  CHECK(distinct <= app::FrameSink::kQueueDepth + 2);
}

TEST_CASE("no ffmpeg: the one-line error, and nothing is written") {
  TempDir dir;
  {
    EnvRestore path("PATH");
    ::setenv("PATH", dir.path.c_str(), 1);
    CHECK(app::findFfmpeg().empty());
  }
  CHECK_FALSE(app::findFfmpeg().empty());

  std::string error;
  app::SinkOptions o = optionsFor(dir / "clip.mp4", OutputKind::Mp4);
  o.ffmpeg.clear();
  CHECK_FALSE(app::openSink(o, &error));
  CHECK(error == app::kFfmpegNotFound);
  CHECK(error ==
        "ffmpeg not found on PATH: install it (Debian: apt-get install ffmpeg) or record PNG "
        "frames (--out frames/%05d.png)");
  o.ffmpeg = dir / "no/such/ffmpeg";
  CHECK_FALSE(app::openSink(o, &error));
  CHECK(error.find("is not an executable file") != std::string::npos);
  CHECK(dir.entries().empty());
}

TEST_CASE("an unwritable folder, an odd size or a wrong frame is a one-line error") {
  TempDir dir;
  std::ofstream(dir / "file") << "x";  // a file where a folder should be: fails even for root
  std::string error;
  CHECK_FALSE(app::openSink(optionsFor(dir / "file/clip.mp4", OutputKind::Mp4), &error));
  CHECK(error == "cannot write \"" + dir / "file/clip.mp4" + "\": folder \"" + dir / "file" +
                     "\": Not a directory");
  CHECK_FALSE(app::openSink(optionsFor(dir / "file/f%d.png", OutputKind::PngSequence), &error));
  CHECK(error.find("cannot create folder \"" + dir / "file" + "\"") == 0);

  app::SinkOptions odd = optionsFor(dir / "clip.webm", OutputKind::Webm);
  odd.width = 63;
  CHECK_FALSE(app::openSink(odd, &error));
  CHECK(error == dir / "clip.webm" +
                     ": 63x48 has an odd side; this format (yuv420p) needs an even width and "
                     "height");
  odd.kind = OutputKind::Gif;
  odd.path = dir / "odd.gif";
  auto gif = app::openSink(odd, &error);
  CHECK(gif);  // GIFs take any size
  if (gif) gif->abort();

  auto sink = app::openSink(optionsFor(dir / "clip.mp4", OutputKind::Mp4), &error);
  REQUIRE(sink);
  CHECK_FALSE(sink->push(app::Frame{32, 32, std::vector<unsigned char>(32 * 32 * 4)}));
  CHECK(sink->error().find("a frame of 32x32") != std::string::npos);
  CHECK_FALSE(sink->finish());
  CHECK(dir.entries() == std::vector<std::string>{"file"});
}

TEST_CASE("abort() and a destroyed unfinished sink leave nothing") {
  TempDir dir;
  std::string error;
  for (auto [name, kind] : {std::pair{"a.mp4", OutputKind::Mp4},
                            {"a.gif", OutputKind::Gif},
                            {"a.png", OutputKind::Png},
                            {"s/f%d.png", OutputKind::PngSequence}}) {
    CAPTURE(name);
    auto sink = app::openSink(optionsFor(dir / name, kind), &error);
    REQUIRE_MESSAGE(sink, error);
    REQUIRE(pushFrames(*sink, kFrames));
    sink->abort();
    CHECK(dir.entries().empty());
    sink = app::openSink(optionsFor(dir / name, kind), &error);
    REQUIRE(pushFrames(*sink, kFrames));
    sink.reset();
    CHECK(dir.entries().empty());
  }
  auto empty = app::openSink(optionsFor(dir / "none.mp4", OutputKind::Mp4), &error);
  REQUIRE(empty);
  CHECK_FALSE(empty->finish());
  CHECK(empty->error() == dir / "none.mp4" + ": no frames were recorded");
  CHECK(dir.entries().empty());
}

// Pushes until the sink refuses a frame, for at most LIMIT; true if it did refuse.
bool pushUntilRefused(app::FrameSink& sink, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!pushFrames(sink, 1)) return true;
  }
  return false;
}

TEST_CASE("ffmpeg failing: push or finish reports it, and nothing is left") {
  TempDir dir;
  std::string error;
  app::SinkOptions o = optionsFor(dir / "clip.mp4", OutputKind::Mp4);
  o.ffmpeg = "/bin/false";
  auto sink = app::openSink(o, &error);
  REQUIRE_MESSAGE(sink, error);
  // /bin/false reads nothing: once its pipe breaks push() refuses frames, promptly
  CHECK(pushUntilRefused(*sink, std::chrono::seconds(10)));
  CHECK(sink->error() == dir / "clip.mp4" + ": ffmpeg stopped reading frames");
  CHECK_FALSE(sink->finish());
  CHECK(dir.entries().empty());

  // an encoder that dies of a full disk: its last line is in the error, and the disk is named
  const std::string fake = dir / "fake-ffmpeg";
  std::ofstream(fake) << "#!/bin/sh\necho 'some progress' >&2\n"
                      << "echo 'Error writing trailer: No space left on device' >&2\n\nexit 1\n";
  fs::permissions(fake, fs::perms::owner_all);
  o.ffmpeg = fake;
  o.path = dir / "full.mp4";
  sink = app::openSink(o, &error);
  REQUIRE_MESSAGE(sink, error);
  const bool refused = pushUntilRefused(*sink, std::chrono::seconds(10));
  CHECK(refused);
  CHECK_FALSE(sink->finish());
  CHECK(sink->error() == o.path +
                             ": ffmpeg stopped reading frames: Error writing trailer: No space "
                             "left on device (disk full)");
  CHECK(dir.entries() == std::vector<std::string>{"fake-ffmpeg"});

  // the same when ffmpeg fails only after reading everything
  std::ofstream(fake) << "#!/bin/sh\ncat >/dev/null\necho 'Conversion failed!' >&2\nexit 1\n";
  sink = app::openSink(o, &error);
  REQUIRE_MESSAGE(sink, error);
  REQUIRE(pushFrames(*sink, kFrames));
  CHECK_FALSE(sink->finish());
  CHECK(sink->error() == o.path + ": ffmpeg failed: Conversion failed!");
  CHECK(dir.entries() == std::vector<std::string>{"fake-ffmpeg"});
}

// Forks a recorder that pushes 10 frames to OUT and then dies by SIGNAL sent to its whole process
// group, as a terminal's Ctrl+C is; returns how it ended.
int recordAndDie(const std::string& out, int signal) {
  const pid_t child = ::fork();
  if (child == 0) {
    ::setpgid(0, 0);  // a group of its own, so that the signal spares the test runner
    std::string error;
    auto sink = app::openSink(optionsFor(out, OutputKind::Mp4), &error);
    if (sink) pushFrames(*sink, 10);
    // let the writer thread hand the frames over, then die without finish()
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ::kill(0, signal);
    ::_exit(1);
  }
  int status = 0;
  if (child > 0) ::waitpid(child, &status, 0);
  return status;
}

// Waits for the orphaned ffmpeg to finish and its shell to rename the file into place.
bool appears(const std::string& file) {
  const auto deadline = std::chrono::steady_clock::now() + kOrphanWait;
  while (!fs::exists(file) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return fs::exists(file);
}

TEST_CASE("a recorder killed by SIGKILL or its group's Ctrl+C still leaves a decodable video") {
  for (int signal : {SIGKILL, SIGINT}) {
    CAPTURE(signal);
    TempDir dir;
    const std::string out = dir / "killed.mp4";
    const int status = recordAndDie(out, signal);
    CHECK(WIFSIGNALED(status));
    REQUIRE(appears(out));
    CHECK(probedFrameCount(out) >= 1);
    CHECK(dir.entries().size() == 1);  // the temporary was renamed, not copied
  }
}
