// The PNG sinks: one PNG of the last frame, or every frame numbered (frame_sink.hpp).
#include <unistd.h>

#include <filesystem>
#include <utility>

#include "app/frame_sink_parts.hpp"
#include "render/renderer.hpp"

namespace app::sinks {

namespace fs = std::filesystem;

namespace {

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
    const util::Problem why = render::writePng(path_, width_, height_, last_.rgba);
    if (!why) return true;
    error_ = withDiskFullNamed(*why);
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
    if (const util::Problem problem = render::writePng(name, width_, height_, f.rgba)) {
      *why = withDiskFullNamed(*problem);
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

}  // namespace

std::unique_ptr<QueuedSink> openPng(const SinkOptions& o) {
  return std::make_unique<PngSink>(o);
}

std::unique_ptr<QueuedSink> openPngSequence(const SinkOptions& o, std::string* error) {
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

}  // namespace app::sinks
