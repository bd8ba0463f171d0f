// Command clamping, the key bindings and the strain colour map: the parts of the UI that need no
// ImGui context.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ranges>

#include "ui/panel.hpp"

namespace ui {

namespace {

double clampTo(double v, double lo, double hi) {
  return std::min(std::max(v, lo), hi);
}

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

// Length of the decimal number (digits, optional fraction, optional exponent) at text[i], 0 if
// none; *decimal is set when it has a fraction or an exponent (an integer is an index or a count).
size_t numberLength(std::string_view text, size_t i, bool* decimal) {
  size_t j = i;
  while (j < text.size() && isDigit(text[j])) ++j;
  *decimal = false;
  if (j < text.size() && text[j] == '.' && j + 1 < text.size() && isDigit(text[j + 1])) {
    *decimal = true;
    for (++j; j < text.size() && isDigit(text[j]);) ++j;
  }
  if (j == i) return 0;
  if (j < text.size() && (text[j] == 'e' || text[j] == 'E')) {
    size_t k = j + 1;
    if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
    if (k < text.size() && isDigit(text[k])) {
      while (k < text.size() && isDigit(text[k])) ++k;
      *decimal = true;
      j = k;
    }
  }
  return j - i;
}

// Significant digits of a number's mantissa: leading and trailing zeros do not count.
int significantDigits(std::string_view number) {
  const std::string_view mantissa = number.substr(0, number.find_first_of("eE"));
  std::string digits;
  for (char c : mantissa)
    if (isDigit(c)) digits += c;
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 1;
  const size_t last = digits.find_last_not_of('0');
  return static_cast<int>(last - first + 1);
}

}  // namespace

namespace {
// Whether strtod reads `number` without overflowing to infinity (which raises FE_OVERFLOW): its
// magnitude, at most 10^(digits before the exponent + the exponent), stays inside double's range.
// Underflow is harmless (it is not trapped, and such a number is left as it is anyway).
constexpr long kMaxDecimalMagnitude = 300;
bool parsesFinite(std::string_view number) {
  const size_t e = number.find_first_of("eE");
  long magnitude = static_cast<long>(std::min(e, number.size()));
  if (e != std::string_view::npos) {
    std::string_view exponent = number.substr(e + 1);
    const bool negative = !exponent.empty() && exponent[0] == '-';
    if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+')) exponent.remove_prefix(1);
    if (exponent.empty() || exponent.size() > 4) return negative;
    const long value = std::strtol(std::string(exponent).c_str(), nullptr, 10);
    magnitude += negative ? -value : value;
  }
  return magnitude <= kMaxDecimalMagnitude;
}
}  // namespace

std::string compactNumbers(std::string_view text, int digits) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const char prev = i > 0 ? text[i - 1] : ' ';
    const bool starts = isDigit(text[i]) && !std::isalnum(static_cast<unsigned char>(prev)) &&
                        prev != '_' && prev != '.';
    bool decimal = false;
    const size_t n = starts ? numberLength(text, i, &decimal) : 0;
    if (n == 0) {
      out += text[i++];
      continue;
    }
    const std::string_view number = text.substr(i, n);
    const char next = i + n < text.size() ? text[i + n] : ' ';
    // part of a version string ("1.2.3") or a name ("v_2"): left as it is; a unit may follow
    // without a space ("3.1166000000021525s")
    const bool word =
        next == '_' || (next == '.' && i + n + 1 < text.size() && isDigit(text[i + n + 1]));
    if (decimal && !word && significantDigits(number) > digits && parsesFinite(number)) {
      const double v = std::strtod(std::string(number).c_str(), nullptr);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*g", std::clamp(digits, 1, 17), v);
      out += buf;
    } else {
      out += number;
    }
    i += n;
  }
  return out;
}

namespace {
// A number clamped to [lo, hi], or nothing when it is not finite.
std::optional<double> within(double v, double lo, double hi) {
  if (!std::isfinite(v)) return std::nullopt;
  return clampTo(v, lo, hi);
}

// Each command's clamp: its numbers into their ranges, or nothing when one cannot be (not finite,
// an empty name). Commands without numbers pass as they are: a clamp, not an applier, so the one
// command visitor with a catch-all (a command missing here is emitted as it is, never dropped).
struct Clamp {
  using L = Limits;
  template <class C>
  std::optional<Command> operator()(C c) const {
    return c;
  }
  std::optional<Command> operator()(SetDisplayFlag c) const {
    const int f = static_cast<int>(c.flag);
    return f >= 0 && f < kDisplayFlagCount ? std::optional<Command>(c) : std::nullopt;
  }
  std::optional<Command> operator()(SetDt c) const {
    auto v = within(c.dt, L::kDtMin, L::kDtMax);
    return v ? std::optional<Command>(SetDt{*v, c.lane}) : std::nullopt;
  }
  std::optional<Command> operator()(SetTimeScale c) const {
    auto v = within(c.scale, L::kTimeScaleMin, L::kTimeScaleMax);
    return v ? std::optional<Command>(SetTimeScale{*v}) : std::nullopt;
  }
  std::optional<Command> operator()(SetGrabStiffness c) const {
    auto v = within(c.stiffness, L::kGrabStiffnessMin, L::kGrabStiffnessMax);
    return v ? std::optional<Command>(SetGrabStiffness{*v}) : std::nullopt;
  }
  std::optional<Command> operator()(SetStrainScale c) const {
    auto v = within(c.scale, L::kStrainScaleMin, L::kStrainScaleMax);
    return v ? std::optional<Command>(SetStrainScale{*v}) : std::nullopt;
  }
  // a parameter's range is its control's (clampToControl, where it is made): finite only here
  std::optional<Command> operator()(SetParameter c) const {
    return std::isfinite(c.value) ? std::optional<Command>(c) : std::nullopt;
  }
  std::optional<Command> operator()(SetVectorParameter c) const {
    for (double v : c.value)
      if (!std::isfinite(v)) return std::nullopt;
    return c;
  }
  std::optional<Command> operator()(Step c) const {
    return Step{std::clamp(c.count, 1, L::kStepCountMax)};
  }
  std::optional<Command> operator()(SetPhaseCoordinate c) const {
    return SetPhaseCoordinate{std::max(c.coordinate, 0)};
  }
  std::optional<Command> operator()(SetClipSize c) const {
    return SetClipSize{std::clamp(c.index, 0, static_cast<int>(clipSizes().size()) - 1)};
  }
  std::optional<Command> operator()(RemoveLane c) const { return RemoveLane{std::max(c.lane, 0)}; }
  std::optional<Command> operator()(SeekHistory c) const {
    return SeekHistory{std::max(c.entry, 0)};
  }
  std::optional<Command> operator()(AddLane c) const {
    auto v = within(c.dt, L::kDtMin, L::kDtMax);
    if (!v || c.integrator.empty()) return std::nullopt;
    return AddLane{c.integrator, *v, c.setup};
  }
  std::optional<Command> operator()(BranchLane c) const {
    auto v = within(c.dt, L::kDtMin, L::kDtMax);
    if (!v || c.integrator.empty()) return std::nullopt;
    return BranchLane{c.lane, c.integrator, *v, c.setup};
  }
  std::optional<Command> operator()(SetIntegrator c) const {
    return c.name.empty() ? std::nullopt : std::optional<Command>(c);
  }
  std::optional<Command> operator()(LoadBuiltin c) const {
    return c.name.empty() ? std::nullopt : std::optional<Command>(c);
  }
  std::optional<Command> operator()(LoadFile c) const {
    return c.path.empty() ? std::nullopt : std::optional<Command>(c);
  }
};
}  // namespace

std::optional<Command> clampCommand(Command c) {
  return std::visit([](auto&& owner) { return std::visit(Clamp{}, std::move(owner)); },
                    std::move(c));
}

std::span<const DisplayFlagRow> displayFlags() {
  using F = DisplayFlag;
  using M = DisplayView;
  static constexpr DisplayFlagRow kRows[] = {
      {F::StrainAuto, "strain_auto", "Auto strain scale",
       "The scale follows the strains the scene actually reaches, so that the colours show where "
       "it stretches most; off: the scale stays where it is.",
       &M::strain_auto},
      {F::Wireframe, "wireframe", "Wireframe",
       "Draw the cloth as lines instead of shaded triangles.", &M::wireframe},
      {F::Trails, "trails", "Trails", "Draw the recent path of the bobs / marked particles.",
       &M::show_trails},
      {F::Springs, "springs", "Springs",
       "Draw the springs as lines coloured by strain. Off by default on cloth, whose surface shows "
       "the shape (lines cost most under software GL).",
       &M::show_springs},
      {F::Equilibrium, "equilibrium", "Equilibrium",
       "Draw where the system would come to rest with the parameters as they are (a grey ghost): "
       "a swing is seen about its centre.",
       &M::show_equilibrium},
      {F::Ruler, "ruler", "Ruler",
       "A ruler in the scene: drag either end (a ring) to measure a length in m and an angle from "
       "the downward vertical, or to keep a reference line.",
       &M::show_ruler},
      {F::Wind, "wind", "Wind streaks", "Draw the air's motion as streaks carried with the wind.",
       &M::show_wind},
      {F::Arrows, "arrows", "Arrows",
       "Draw the traced body's (the phase plot's) velocity, green, and acceleration, orange, in "
       "every lane (ghosted lanes in their colour). The acceleration is the lane's own last move, "
       "so a wrong integrator's shows.",
       &M::show_arrows},
      {F::Forces, "forces", "Forces",
       "Draw each force on the traced body as an arrow in its source's colour (the key names "
       "them), at the acceleration's scale over its mass: together they make its acceleration.",
       &M::show_forces},
      {F::RestLengths, "rest_lengths", "Rest lengths",
       "Mark each spring's rest length along it (every spring of a small system, else the "
       "traced body's): a spring longer than its mark is stretched.",
       &M::show_rest_lengths},
      {F::Protractor, "protractor", "Protractor",
       "Two rays from a vertex: drag the vertex or a ray's end (a ring) to read their angle.",
       &M::show_protractor},
      {F::Follow, "follow", "Follow",
       "The camera follows the system as it moves (F frames it once); off: the camera stays where "
       "it is.",
       &M::follow},
      {F::SplitLanes, "split_lanes", "Side by side",
       "Each lane in its own viewport with the camera shared, instead of overlaid.",
       &M::split_lanes},
      {F::SmoothFrames, "smooth_frames", "Smooth frames",
       "Keep 60 frames/s: stepping gets what drawing leaves of each 16 ms frame; when that is not "
       "enough, the simulated clock slows down (real time below 100 %).",
       &M::smooth_frames},
  };
  static_assert(std::size(kRows) == kDisplayFlagCount, "a row for every DisplayFlag");
  static_assert(std::ranges::all_of(std::views::iota(0, kDisplayFlagCount),
                                    [](int i) { return kRows[i].flag == DisplayFlag(i); }),
                "the rows in DisplayFlag's order");
  return kRows;
}

const DisplayFlagRow& displayFlag(DisplayFlag flag) {
  return displayFlags()[static_cast<size_t>(flag)];
}

std::optional<double> clampToControl(const ParameterControl& c, double value) {
  auto v = within(value, c.lo, c.hi);
  if (v && c.whole) *v = std::round(*v);
  return v;
}

LaneColour laneColour(int lane) {
  // Lane 0 is drawn in the scene's own colours and marked near-white in plots and the legend;
  // the others are hues the scene does not use (its orange bodies, yellow grab, magenta culprit,
  // blue and tan cloth, blue-grey-red strain and its trails' pastels: render/palette.hpp), each at
  // least 20 CIE76 units (Delta-E) from every scene colour and 30 from each other, light enough
  // for the dark background (tests/test_record.cpp holds these margins)
  constexpr std::array<LaneColour, 8> kLaneColours = {{{0.95f, 0.95f, 0.95f},
                                                       {0.00f, 0.62f, 0.45f},    // teal
                                                       {0.60f, 0.35f, 0.95f},    // violet
                                                       {1.00f, 0.10f, 0.45f},    // rose
                                                       {0.00f, 0.85f, 0.85f},    // cyan
                                                       {0.55f, 0.85f, 0.00f},    // lime
                                                       {0.55f, 0.60f, 0.00f},    // olive
                                                       {1.00f, 1.00f, 0.70f}}};  // cream
  return kLaneColours[static_cast<size_t>(std::max(lane, 0)) % kLaneColours.size()];
}

std::span<const ClipSize> clipSizes() {
  static constexpr std::array<ClipSize, 4> kSizes = {{
      {"window", 0, 0},
      {"1280x720", 1280, 720},
      {"1920x1080", 1920, 1080},
      {"3840x2160", 3840, 2160},
  }};
  return kSizes;
}

std::span<const Binding> bindings() {
  static constexpr std::array<Binding, 24> kBindings = {{
      {"Left-drag", "orbit (3-D scenes); pan (2-D scenes)"},
      {"Right-drag or Shift+left-drag", "pan"},
      {"Wheel", "zoom toward the cursor"},
      {"Double-click", "set the orbit centre"},
      {"F", "frame the scene"},
      {"T", "trail on the particle or bob under the cursor (again: off)"},
      {"Ctrl+left-drag", "grab the nearest particle or bob"},
      {"Paused: left-drag on a body", "place it, at rest: the new start"},
      {"E", "edit mode: click adds a particle, drag body to body a spring"},
      {"P", "edit mode: pin / unpin the selected particles"},
      {"Delete", "edit mode: delete the selected particles"},
      {"Ctrl+Z / Ctrl+Shift+Z", "undo / redo an edit"},
      {"Ctrl+N", "a new scene to build on (edit mode)"},
      {"Space", "pause / run"},
      {"Right arrow", "step (Shift: 10 steps)"},
      {"R or Backspace", "reset"},
      {"Ctrl+L", "reload the scene file"},
      {"Ctrl+S", "save the scene as it starts now (the panel's Save as)"},
      {"+ / -", "time scale x2 / /2"},
      {"Ctrl+P", "screenshot"},
      {"Ctrl+R", "record a clip (again: stop)"},
      {"Tab", "hide / show the UI"},
      {"F1", "this help"},
      {"Ctrl+Q", "quit"},
  }};
  return kBindings;
}

Rgb strainColour(double x) {
  // the renderer's map (render::strainColor) step for step, in float, restated because ui may not
  // include render; tests/test_app_view.cpp holds the two equal
  constexpr Rgb kBlue{0.12f, 0.36f, 0.98f}, kGrey{0.74f, 0.75f, 0.77f}, kRed{0.93f, 0.13f, 0.10f};
  if (std::isnan(x)) return kGrey;  // +-inf are caught by the clamp below
  const float t = static_cast<float>(clampTo(x, -1.0, 1.0));
  const float s = std::abs(t) * (2.0f - std::abs(t));  // ease-out
  const Rgb& end = t >= 0.0f ? kRed : kBlue;
  // glm::mix(rest, end, s) = rest * (1 - s) + end * s
  return {kGrey.r * (1.0f - s) + end.r * s, kGrey.g * (1.0f - s) + end.g * s,
          kGrey.b * (1.0f - s) + end.b * s};
}

}  // namespace ui
