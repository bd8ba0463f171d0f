// TEMPORARY shim: replaced by the sink branch (same API)
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>
namespace app {
enum class OutputKind { Mp4, Webm, Gif, Png, PngSequence };
std::optional<OutputKind> outputKindOf(const std::string& path, std::string* error);
bool needsFfmpeg(OutputKind k);
bool needsEvenSize(OutputKind k);
std::string findFfmpeg();
struct SinkOptions {
  std::string path;
  OutputKind kind;
  int width = 0, height = 0;
  double fps = 60.0;
  std::string ffmpeg;
};
struct Frame {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};
class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual bool push(Frame&& f) = 0;
  virtual Frame takeBuffer() = 0;
  virtual bool finish() = 0;
  virtual void abort() = 0;
  virtual const std::string& error() const = 0;
  virtual long long framesWritten() const = 0;
  virtual std::string outputDescription() const = 0;
  static constexpr int kQueueDepth = 3;
};
std::unique_ptr<FrameSink> openSink(const SinkOptions& o, std::string* error);
}  // namespace app
