// The parts the frame sinks (frame_sink.hpp) share between their files, by job: output names,
// files and folders (sink_files.cpp), the queue and writer thread every kind has (sink_queue.cpp),
// ffmpeg's arguments by output kind (frame_sink.cpp), the ffmpeg child and its pipe
// (ffmpeg_sink.cpp), the PNG writers (png_sinks.cpp). Only the sinks' files include it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/frame_sink.hpp"

namespace app::sinks {

// ---- output names, files and folders (sink_files.cpp) ----

// An image sequence's name split at its one integer field, with every %% already turned into %.
struct SequencePattern {
  std::string prefix, suffix;
  bool zeroPad = false;
  int width = 0;
};

enum class PatternScan { NoField, OneField, Malformed };

// Reads PATH as a printf pattern that may hold one %d, %0Nd or %Nd field and %% anywhere.
PatternScan scanPattern(const std::string& path, SequencePattern* out);
bool endsWithNoCase(const std::string& s, const std::string& lowerSuffix);
// The name of frame INDEX of a sequence.
std::string sequenceFileName(const SequencePattern& p, long long index);

// The folder PATH is in ("." for a bare name).
std::string folderOf(const std::string& path);
// Whether a file can be made in FOLDER; false with *error naming OUTPUT, the folder and the reason.
bool checkFolderWritable(const std::string& folder, const std::string& output, std::string* error);
// MESSAGE with " (disk full)" added when it reports a full disk.
std::string withDiskFullNamed(std::string message);

// ---- the queue shared by every kind (sink_queue.cpp) ----

// Frames wait in a short queue for a writer thread of the sink's own; the kinds differ only in
// what writing a frame, finishing and discarding mean.
class QueuedSink : public FrameSink {
 public:
  explicit QueuedSink(const SinkOptions& o) : path_(o.path), width_(o.width), height_(o.height) {}

  // Starts the writer thread (openSink, once the kind's output is open).
  void startWriter();

  bool push(Frame&& f) override;
  Frame takeBuffer() override;
  bool finish() override;
  void abort() override;

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
  // A frame of another size than the sink's: fails the sink, naming both sizes.
  void failWrongSize(const Frame& f);
  void writerLoop();
  void stopWriter();

  std::mutex m_;
  std::condition_variable frameQueued_, spaceFreed_;
  std::deque<Frame> queue_;
  std::vector<Frame> free_;
  bool failed_ = false, closing_ = false, done_ = false;
  std::thread writer_;
};

// ---- the kinds: each opens its output, the writer not yet started ----

// ffmpeg's command line for O, encoding into TMP (frame_sink.cpp, beside the output kinds).
std::vector<std::string> ffmpegArgs(const SinkOptions& o, const std::string& tmp);

// A video encoded by an ffmpeg child fed on a pipe (ffmpeg_sink.cpp); nullptr with *error set.
std::unique_ptr<QueuedSink> openVideo(const SinkOptions& o, std::string* error);
// One PNG of the last frame (png_sinks.cpp).
std::unique_ptr<QueuedSink> openPng(const SinkOptions& o);
// Numbered PNGs, their folders created (png_sinks.cpp); nullptr with *error set, and the folders
// it created removed again.
std::unique_ptr<QueuedSink> openPngSequence(const SinkOptions& o, std::string* error);

}  // namespace app::sinks
