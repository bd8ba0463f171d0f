// Where recorded frames go: a video encoded by an ffmpeg child process (mp4, webm, gif), one PNG
// of the last frame, or a numbered PNG sequence. Frames are written on a thread of the sink's own,
// so encoding overlaps the rendering of the next frame.
//
// Nothing is ever left truncated under the output name: videos are encoded into a temporary file
// beside the output and renamed into place by a shell that runs ffmpeg in its own process group, so
// that a Ctrl+C to springlab's group does not reach it, and even a SIGKILL of springlab ends with
// ffmpeg seeing EOF, finishing the file and the shell renaming it into place.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace app {

enum class OutputKind { Mp4, Webm, Gif, Png, PngSequence };

// The kind FILE names: a printf integer field (%d, %05d, %5d; exactly one, %% allowed elsewhere)
// -> PngSequence (the name must end in .png); else by extension, case-insensitive. nullopt with
// `error` set ("unsupported output \"x.avi\": use .mp4, .webm, .gif, .png or a pattern such as
// frames/%05d.png").
std::optional<OutputKind> outputKindOf(const std::string& path, std::string* error);
bool needsFfmpeg(OutputKind k);
bool needsEvenSize(OutputKind k);  // mp4, webm (yuv420p halves the chroma planes)
// The path of an executable `ffmpeg` found on $PATH, or empty.
std::string findFfmpeg();

// The one-line errors openSink gives when there is no ffmpeg to run.
extern const char* const kFfmpegNotFound;

struct SinkOptions {
  std::string path;  // as given (pattern for PngSequence)
  OutputKind kind;
  int width = 0, height = 0;
  double fps = 60.0;
  std::string ffmpeg;  // executable path for the video kinds (findFfmpeg())
};

// RGBA8, top row first.
struct Frame {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};

class FrameSink {
 public:
  virtual ~FrameSink();  // if finish() was not called: abort()
  // Queues a frame for the writer thread (encoding/writing overlaps the caller's next frame).
  // Blocks while kQueueDepth frames wait. Returns false once the sink has failed (see error()).
  virtual bool push(Frame&& f) = 0;
  // A buffer to render the next frame into, recycled from written frames when possible (no
  // per-frame allocation in the steady state).
  virtual Frame takeBuffer() = 0;
  // Drains the queue, closes the encoder's input, waits for it, puts the file in place.
  // false with error() if anything failed; then nothing is left at the output path.
  virtual bool finish() = 0;
  // Stops without keeping anything: removes temporary and partial output.
  virtual void abort() = 0;
  virtual const std::string& error() const = 0;
  virtual long long framesWritten() const = 0;
  // Where the output is (for messages): the file, or the folder of an image sequence.
  virtual std::string outputDescription() const = 0;
  static constexpr int kQueueDepth = 3;
};

// Opens the sink: checks the folder is writable (creating it for a sequence), starts ffmpeg for
// video kinds. nullptr with a one-line `error` on failure (no ffmpeg: kFfmpegNotFound; unwritable
// folder: names it and the reason). Nothing is left behind on failure.
std::unique_ptr<FrameSink> openSink(const SinkOptions& o, std::string* error);

}  // namespace app
