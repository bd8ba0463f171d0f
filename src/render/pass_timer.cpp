// The frame's passes timed (pass_timer.hpp says how, and why two ways).
#include "render/pass_timer.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

namespace render {

namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// a pass below this (ms per frame, CPU and GL together) is left out of the report
constexpr double kReportFloorMs = 0.005;

}  // namespace

const char* passName(Pass p) {
  switch (p) {
    case Pass::Step:
      return "stepping";
    case Pass::UiLayout:
      return "UI layout";
    case Pass::Background:
      return "background";
    case Pass::Upload:
      return "uploads";
    case Pass::Colliders:
      return "colliders";
    case Pass::Grid:
      return "ground grid";
    case Pass::Shadow:
      return "shadow";
    case Pass::Surface:
      return "surface";
    case Pass::Springs:
      return "springs";
    case Pass::Points:
      return "points";
    case Pass::Overlays:
      return "axes, trails";
    case Pass::Antialias:
      return "anti-aliasing";
    case Pass::UiDraw:
      return "UI drawing";
    case Pass::Present:
      return "presenting";
    case Pass::ReadBack:
      return "reading back";
    case Pass::Count:
      break;
  }
  return "?";
}

PassTimer::~PassTimer() = default;  // the queries go with the context (releaseGl while current)

void PassTimer::releaseGl() {
  if (!queries_.empty() && glDeleteQueries)
    glDeleteQueries(static_cast<GLsizei>(queries_.size()), queries_.data());
  queries_.clear();
  issued_.clear();
}

void PassTimer::beginFrame() {
  open_ = -1;
  issued_.clear();
  // never the first frame: it compiles the shaders and factorises (as --stats leaves it out)
  measuring_ =
      frameCount_ > 0 &&
      (mode_ == Mode::Queries || (mode_ == Mode::Finish && frameCount_ % kFinishSampleEvery == 0));
  ++frameCount_;
  if (measuring_) ++totals_.frames;
}

unsigned PassTimer::queryFor(size_t i) {
  while (queries_.size() <= i) {
    GLuint q = 0;
    glGenQueries(1, &q);
    queries_.push_back(q);
  }
  return queries_[i];
}

void PassTimer::begin(Pass p, bool glWork) {
  if (!measuring_ || open_ >= 0) return;  // not nested: an inner pass counts in the outer one
  open_ = static_cast<int>(p);
  openGl_ = glWork;
  if (glWork && mode_ == Mode::Finish) glFinish();  // the passes before are not this one's
  if (glWork && mode_ == Mode::Queries) {
    const unsigned q = queryFor(issued_.size());
    issued_.emplace_back(open_, q);
    glBeginQuery(GL_TIME_ELAPSED, q);
  }
  openStart_ = nowMs();
}

void PassTimer::end() {
  if (!measuring_ || open_ < 0) return;
  const double issued = nowMs();
  const auto i = static_cast<size_t>(open_);
  totals_.cpu[i] += issued - openStart_;
  if (openGl_ && mode_ == Mode::Finish) {
    glFinish();  // what the GL still had to do of this pass
    totals_.gl[i] += nowMs() - issued;
  }
  if (openGl_ && mode_ == Mode::Queries) glEndQuery(GL_TIME_ELAPSED);
  open_ = -1;
}

void PassTimer::endFrame() {
  if (!measuring_) return;
  for (const auto& [pass, q] : issued_) {
    GLuint64 ns = 0;
    glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);  // the frame has finished: no wait
    totals_.gl[static_cast<size_t>(pass)] += 1e-6 * static_cast<double>(ns);
  }
  issued_.clear();
  measuring_ = false;
}

std::string PassTimer::report() const {
  if (totals_.frames < 1) return {};
  const double n = static_cast<double>(totals_.frames);
  std::vector<int> order(kPassCount);
  std::iota(order.begin(), order.end(), 0);
  auto sum = [&](int i) { return totals_.cpu[size_t(i)] + totals_.gl[size_t(i)]; };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return sum(a) > sum(b); });
  char line[160];
  char method[80];
  if (mode_ == Mode::Queries)
    std::snprintf(method, sizeof method, "GL timer queries");
  else
    std::snprintf(method, sizeof method, "glFinish around each pass, 1 frame in %d",
                  kFinishSampleEvery);
  std::snprintf(line, sizeof line, "per pass, ms per frame (%lld frames measured, %s):\n",
                totals_.frames, method);
  std::string out = line;
  for (int i : order) {
    if (sum(i) / n < kReportFloorMs) continue;
    std::snprintf(line, sizeof line, "  %-14s %7.2f CPU + %7.2f GL = %7.2f\n",
                  passName(static_cast<Pass>(i)), totals_.cpu[size_t(i)] / n,
                  totals_.gl[size_t(i)] / n, sum(i) / n);
    out += line;
  }
  return out;
}

}  // namespace render
