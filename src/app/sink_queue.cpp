// The queue and writer thread every frame sink has (frame_sink_parts.hpp).
#include <pthread.h>
#include <signal.h>

#include <utility>

#include "app/frame_sink_parts.hpp"

namespace app::sinks {

void QueuedSink::startWriter() {
  writer_ = std::thread([this] { writerLoop(); });
}

void QueuedSink::failWrongSize(const Frame& f) {
  std::lock_guard lock(m_);
  if (!failed_) {
    failed_ = true;
    error_ = path_ + ": a frame of " + std::to_string(f.width) + "x" + std::to_string(f.height) +
             " (" + std::to_string(f.rgba.size()) + " bytes) was given to a " +
             std::to_string(width_) + "x" + std::to_string(height_) + " RGBA output";
  }
}

bool QueuedSink::push(Frame&& f) {
  if (f.width != width_ || f.height != height_ || f.rgba.size() != frameBytes()) {
    failWrongSize(f);
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

Frame QueuedSink::takeBuffer() {
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

bool QueuedSink::finish() {
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

void QueuedSink::abort() {
  if (done_) return;
  done_ = true;
  interruptOutput();
  stopWriter();
  discardOutput();
}

void QueuedSink::writerLoop() {
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

void QueuedSink::stopWriter() {
  {
    std::lock_guard lock(m_);
    closing_ = true;
    frameQueued_.notify_all();
  }
  if (writer_.joinable()) writer_.join();
}

}  // namespace app::sinks
