#include "app/frame_sink.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>

#include "render/renderer.hpp"

extern char** environ;

namespace app {

namespace fs = std::filesystem;

const char* const kFfmpegNotFound =
    "ffmpeg not found on PATH: install it (Debian: apt-get install ffmpeg) or record PNG frames "
    "(--out frames/%05d.png)";

FrameSink::~FrameSink() = default;

namespace {

// ---- output names ----

// An image sequence's name split at its one integer field, with every %% already turned into %.
struct SequencePattern {
  std::string prefix, suffix;
  bool zeroPad = false;
  int width = 0;
};

enum class PatternScan { NoField, OneField, Malformed };

// A field wider than this is a typo, not a wish for 10-digit frame numbers.
constexpr int kMaxFieldWidth = 9;

// Reads PATH as a printf pattern that may hold one %d, %0Nd or %Nd field and %% anywhere.
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

// The last non-empty line of what was written to FD (ffmpeg's stderr log).
std::string lastLineOf(int fd) {
  constexpr off_t kTailBytes = 4096;  // ffmpeg's last words are one line
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) return {};
  const off_t from = std::max<off_t>(0, st.st_size - kTailBytes);
  std::string tail(static_cast<size_t>(st.st_size - from), '\0');
  const ssize_t n = ::pread(fd, tail.data(), tail.size(), from);
  tail.resize(n > 0 ? static_cast<size_t>(n) : 0);
  while (!tail.empty() && std::isspace(static_cast<unsigned char>(tail.back()))) tail.pop_back();
  const size_t start = tail.find_last_of("\r\n");
  return start == std::string::npos ? tail : tail.substr(start + 1);
}

// ---- the queue shared by every kind ----

// Frames wait in a short queue for a writer thread of the sink's own; the kinds differ only in
// what writing a frame, finishing and discarding mean.
class QueuedSink : public FrameSink {
 public:
  QueuedSink(const SinkOptions& o) : path_(o.path), width_(o.width), height_(o.height) {}

  void startWriter() {
    writer_ = std::thread([this] { writerLoop(); });
  }

  bool push(Frame&& f) override {
    if (f.width != width_ || f.height != height_ || f.rgba.size() != frameBytes()) {
      std::lock_guard lock(m_);
      if (!failed_) {
        failed_ = true;
        error_ = path_ + ": a frame of " + std::to_string(f.width) + "x" +
                 std::to_string(f.height) + " (" + std::to_string(f.rgba.size()) +
                 " bytes) was given to a " + std::to_string(width_) + "x" +
                 std::to_string(height_) + " RGBA output";
      }
      return false;
    }
    std::unique_lock lock(m_);
    // after finish() or abort() no writer is left to take it: refuse rather than block
    if (closing_) return false;
    spaceFreed_.wait(lock, [&] { return failed_ || queue_.size() < size_t(kQueueDepth); });
    if (failed_) return false;
    queue_.push_back(std::move(f));
    frameQueued_.notify_one();
    return true;
  }

  Frame takeBuffer() override {
    Frame f;
    {
      std::lock_guard lock(m_);
      if (!free_.empty()) {
        f = std::move(free_.back());
        free_.pop_back();
      }
    }
    f.width = width_, f.height = height_;
    f.rgba.resize(frameBytes());
    return f;
  }

  bool finish() override {
    if (done_) return error_.empty();
    done_ = true;
    stopWriter();
    bool ok = !failed_;
    if (ok && written_ == 0) {
      error_ = path_ + ": no frames were recorded";
      ok = false;
    }
    if (ok) ok = finishOutput();
    if (!ok) discardOutput();
    return ok;
  }

  void abort() override {
    if (done_) return;
    done_ = true;
    interruptOutput();
    stopWriter();
    discardOutput();
  }

  const std::string& error() const override { return error_; }
  long long framesWritten() const override { return written_; }
  std::string outputDescription() const override { return path_; }

 protected:
  // On the writer thread: false with *why set. May swap F with a buffer it keeps (the last
  // frame); whatever F holds afterwards is recycled.
  virtual bool writeFrame(Frame& f, std::string* why) = 0;
  // After the writer has stopped: puts the output in place, or false with error_ set.
  virtual bool finishOutput() = 0;
  // Removes whatever this sink wrote; safe after a failed or missing finishOutput().
  virtual void discardOutput() = 0;
  // Unblocks a writer stuck on its output before stopWriter() joins it.
  virtual void interruptOutput() {}

  size_t frameBytes() const { return size_t(width_) * size_t(height_) * 4; }

  std::string path_, error_;
  int width_, height_;
  std::atomic<long long> written_{0};

 private:
  void writerLoop() {
    // A write to a pipe whose reader died raises SIGPIPE in this thread, which would kill
    // springlab: blocked here, write() returns EPIPE instead and the pending signal dies with
    // the thread (or is taken below), leaving the rest of the process's signals alone.
    sigset_t pipeOnly;
    sigemptyset(&pipeOnly);
    sigaddset(&pipeOnly, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeOnly, nullptr);
    for (;;) {
      Frame f;
      {
        std::unique_lock lock(m_);
        frameQueued_.wait(lock, [&] { return closing_ || !queue_.empty(); });
        if (queue_.empty()) return;
        f = std::move(queue_.front());
        queue_.pop_front();
      }
      std::string why;
      const bool ok = writeFrame(f, &why);
      if (ok) ++written_;
      std::lock_guard lock(m_);
      if (!ok) {
        const timespec now{};
        sigtimedwait(&pipeOnly, nullptr, &now);
        if (!failed_) error_ = why;
        failed_ = true;
        queue_.clear();
        spaceFreed_.notify_all();
        return;
      }
      // no more buffers are kept than can be in use at once: queued, written and being rendered
      if (!f.rgba.empty() && free_.size() < size_t(kQueueDepth) + 1) {
        free_.push_back(std::move(f));
      }
      spaceFreed_.notify_all();
    }
  }

  void stopWriter() {
    {
      std::lock_guard lock(m_);
      closing_ = true;
      frameQueued_.notify_all();
    }
    if (writer_.joinable()) writer_.join();
  }

  std::mutex m_;
  std::condition_variable frameQueued_, spaceFreed_;
  std::deque<Frame> queue_;
  std::vector<Frame> free_;
  bool failed_ = false, closing_ = false, done_ = false;
  std::thread writer_;
};

// ---- video: an ffmpeg child fed raw RGBA on a pipe ----

// Runs ffmpeg ("$@") with its input on fd 3, and renames the temporary into place only when it
// succeeds. The shell does not keep fd 3 open while ffmpeg runs, so a dead ffmpeg means EPIPE for
// springlab rather than a write blocked forever on a pipe with no one reading. Paths arrive as
// positional arguments, never spliced into the script.
constexpr const char* kRenameScript =
    "tmp=$1 out=$2; shift 2\n"
    "\"$@\" 0<&3 3<&- &\n"
    "exec 3<&-\n"
    "if wait $!; then exec mv -f -- \"$tmp\" \"$out\"; fi\n"
    "rm -f -- \"$tmp\"\n"
    "exit 1\n";

// The child's descriptors 0..3 are set by dup2 in turn: sources at or above this never collide
// with a target already set.
constexpr int kFirstSpareFd = 10;

// FD moved to a close-on-exec descriptor at or above kFirstSpareFd (FD itself on failure).
int moveAboveChildFds(int fd) {
  if (fd < 0 || fd >= kFirstSpareFd) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, kFirstSpareFd);
  if (moved < 0) return fd;
  ::close(fd);
  return moved;
}

// A larger pipe (1 MiB, the default /proc/sys/fs/pipe-max-size) means fewer wake-ups per 720p
// frame (best effort: the kernel may refuse).
constexpr int kPipeBytes = 1 << 20;

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

std::vector<std::string> ffmpegArgs(const SinkOptions& o, const std::string& tmp) {
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

class FfmpegSink final : public QueuedSink {
 public:
  explicit FfmpegSink(const SinkOptions& o)
      : QueuedSink(o), tmp_(o.path + ".tmp" + std::to_string(::getpid())) {}
  ~FfmpegSink() override {
    abort();
    closeFd(log_);
  }

  bool start(const SinkOptions& o, std::string* error);

 protected:
  bool writeFrame(Frame& f, std::string* why) override {
    const unsigned char* data = f.rgba.data();
    size_t left = f.rgba.size();
    while (left > 0) {
      const ssize_t n = ::write(pipe_, data, left);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int err = errno;
        *why = err == EPIPE ? ffmpegFailure("ffmpeg stopped reading frames")
                            : path_ + ": cannot send frames to ffmpeg: " + std::strerror(err);
        return false;
      }
      data += n, left -= size_t(n);
    }
    return true;
  }

  bool finishOutput() override {
    closeFd(pipe_);  // ffmpeg's EOF: it must see it before we wait for it
    const int status = reap();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
    error_ = WIFSIGNALED(status)
                 ? path_ + ": ffmpeg was killed by signal " + std::to_string(WTERMSIG(status))
                 : ffmpegFailure("ffmpeg failed");
    return false;
  }

  void discardOutput() override {
    interruptOutput();
    closeFd(pipe_);
    reap();
    ::unlink(tmp_.c_str());
  }

  // SIGKILL to the whole group (shell and ffmpeg) before it is reaped: the pid cannot have been
  // reused while it is still our unreaped child.
  void interruptOutput() override {
    if (pid_ > 0 && !reaped_) ::kill(-pid_, SIGKILL);
  }

 private:
  static void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }

  int reap() {
    if (pid_ <= 0 || reaped_) return status_;
    while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    return status_;
  }

  std::string ffmpegFailure(const std::string& what) const {
    const std::string line = lastLineOf(log_);
    return withDiskFullNamed(path_ + ": " + what + (line.empty() ? "" : ": " + line));
  }

  bool spawn(const std::vector<std::string>& args, int readEnd, std::string* error);

  std::string tmp_;
  int pipe_ = -1, log_ = -1;
  pid_t pid_ = -1;
  int status_ = 0;
  bool reaped_ = false;
};

// ffmpeg's stderr goes to an already unlinked temporary file: it is read on failure and vanishes
// by itself, even if springlab is killed.
int openAnonymousLog() {
  const char* dir = std::getenv("TMPDIR");
  std::string name = std::string(dir && *dir ? dir : "/tmp") + "/springlab-ffmpeg-XXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd >= 0) ::unlink(name.c_str());
  return moveAboveChildFds(fd);
}

bool FfmpegSink::spawn(const std::vector<std::string>& args, int readEnd, std::string* error) {
  std::vector<std::string> shArgs = {"/bin/sh", "-c", kRenameScript, "sh", tmp_, path_};
  shArgs.insert(shArgs.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : shArgs) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_adddup2(&files, readEnd, 3);
  posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&files, log_, 2);

  // Its own process group, so a terminal's Ctrl+C to springlab's group lets it finish the file;
  // default dispositions and no blocked signals, whatever springlab set for itself.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  const int rc = ::posix_spawn(&pid_, "/bin/sh", &files, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&files);
  if (rc != 0) {
    pid_ = -1;
    *error = path_ + ": cannot start ffmpeg: " + std::strerror(rc);
    return false;
  }
  return true;
}

bool FfmpegSink::start(const SinkOptions& o, std::string* error) {
  log_ = openAnonymousLog();
  if (log_ < 0) {
    *error = path_ + ": cannot create a log file for ffmpeg: " + std::strerror(errno);
    return false;
  }
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    *error = path_ + ": cannot create a pipe to ffmpeg: " + std::strerror(errno);
    return false;
  }
  ends[0] = moveAboveChildFds(ends[0]);
  ::fcntl(ends[1], F_SETPIPE_SZ, kPipeBytes);
  pipe_ = ends[1];
  const bool ok = spawn(ffmpegArgs(o, tmp_), ends[0], error);
  ::close(ends[0]);  // only ffmpeg reads: its death must mean EPIPE here
  if (!ok) closeFd(pipe_);
  return ok;
}

// ---- PNG: the last frame, or every frame numbered ----

class PngSink final : public QueuedSink {
 public:
  using QueuedSink::QueuedSink;
  ~PngSink() override { abort(); }

 protected:
  bool writeFrame(Frame& f, std::string*) override {
    std::swap(last_, f);  // the previous last frame's buffer is recycled
    return true;
  }
  bool finishOutput() override {
    std::string why;
    if (render::writePng(path_, width_, height_, last_.rgba, &why)) return true;
    error_ = withDiskFullNamed(why);
    return false;
  }
  void discardOutput() override {}  // writePng is atomic: nothing partial to remove

 private:
  Frame last_;
};

class PngSequenceSink final : public QueuedSink {
 public:
  PngSequenceSink(const SinkOptions& o, SequencePattern p, fs::path folder, fs::path created)
      : QueuedSink(o),
        pattern_(std::move(p)),
        folder_(std::move(folder)),
        createdFolder_(std::move(created)) {}
  ~PngSequenceSink() override { abort(); }

  std::string outputDescription() const override { return folderOf(path_); }

 protected:
  bool writeFrame(Frame& f, std::string* why) override {
    const std::string name = sequenceFileName(pattern_, written_);
    if (!render::writePng(name, width_, height_, f.rgba, why)) {
      *why = withDiskFullNamed(*why);
      return false;
    }
    return true;
  }
  bool finishOutput() override { return true; }
  void discardOutput() override {
    for (long long i = 0; i < written_; ++i) ::unlink(sequenceFileName(pattern_, i).c_str());
    removeCreatedFolders(folder_, createdFolder_);
  }

 public:
  // Removes FOLDER and its parents up to TOP (the folders openSink created), while empty.
  static void removeCreatedFolders(const fs::path& folder, const fs::path& top) {
    if (top.empty()) return;
    std::error_code ec;
    for (fs::path p = folder; !p.empty(); p = p.parent_path()) {
      if (!fs::remove(p, ec) || p == top) break;  // not empty (or gone): keep what remains
    }
  }

 private:
  SequencePattern pattern_;
  fs::path folder_, createdFolder_;
};

// The outermost folder that does not exist yet on the way to FOLDER, or empty.
fs::path firstMissingFolder(const fs::path& folder) {
  std::error_code ec;
  fs::path missing;
  for (fs::path p = folder; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing = p;
    if (p == p.parent_path()) break;
  }
  return missing;
}

std::unique_ptr<FrameSink> openSequence(const SinkOptions& o, std::string* error) {
  SequencePattern pattern;
  scanPattern(o.path, &pattern);
  const std::string folder = folderOf(pattern.prefix + "0" + pattern.suffix);
  const fs::path created = firstMissingFolder(folder);
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) {
    *error = "cannot create folder \"" + folder + "\" for \"" + o.path + "\": " + ec.message();
    PngSequenceSink::removeCreatedFolders(folder, created);
    return nullptr;
  }
  if (!checkFolderWritable(folder, o.path, error)) {
    PngSequenceSink::removeCreatedFolders(folder, created);
    return nullptr;
  }
  return std::make_unique<PngSequenceSink>(o, pattern, folder, created);
}

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
  const PatternScan scan = scanPattern(path, nullptr);
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
  std::unique_ptr<FrameSink> sink;
  if (!checkOptions(o, &why)) {
    // nothing opened
  } else if (o.kind == OutputKind::PngSequence) {
    sink = openSequence(o, &why);
  } else if (needsFfmpeg(o.kind) && o.ffmpeg.empty()) {
    why = kFfmpegNotFound;
  } else if (needsFfmpeg(o.kind) && !isExecutableFile(o.ffmpeg)) {
    why = "ffmpeg \"" + o.ffmpeg +
          "\" is not an executable file: install it (Debian: apt-get install ffmpeg) or record "
          "PNG frames (--out frames/%05d.png)";
  } else if (!checkFolderWritable(folderOf(o.path), o.path, &why)) {
    // nothing opened
  } else if (o.kind == OutputKind::Png) {
    sink = std::make_unique<PngSink>(o);
  } else {
    auto video = std::make_unique<FfmpegSink>(o);
    if (video->start(o, &why)) sink = std::move(video);
  }
  if (!sink) {
    if (error) *error = why;
    return nullptr;
  }
  static_cast<QueuedSink*>(sink.get())->startWriter();
  return sink;
}

}  // namespace app
