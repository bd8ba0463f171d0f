// The video sink: an ffmpeg child fed raw RGBA on a pipe, its stderr kept for the error message,
// its output renamed into place by a shell only when it succeeds (frame_sink.hpp says why).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "app/frame_sink_parts.hpp"

extern char** environ;

namespace app::sinks {

namespace {

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

}  // namespace

std::unique_ptr<QueuedSink> openVideo(const SinkOptions& o, std::string* error) {
  auto video = std::make_unique<FfmpegSink>(o);
  if (!video->start(o, error)) return nullptr;
  return video;
}

}  // namespace app::sinks
