#include "app/frame_driver.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <ranges>

#include "sim/diagnostics.hpp"
#include "sim/parallel.hpp"
#include "sim/registry.hpp"
#include "ui/caption.hpp"

namespace app {

namespace {
// what the window draws cheaper on a software GL (FrameOptions::scale_down_software)
constexpr const char* kSoftwareNote =
    "software OpenGL: to keep the frame rate, the scene is drawn at half the window's width and "
    "height, and a fine cloth from its coarser surface level";
constexpr double kRadPerDeg = std::numbers::pi / 180.0;
// After a divergence the caption and the banner take the top of the view: the system is framed
// with room above it (+y) for as much of the height as they cover, at least kBannerRoom of its
// largest side (a 3-D view's +y is not quite the screen's up) and at most kMaxBannerRoom.
constexpr float kBannerRoom = 0.25f, kMaxBannerRoom = 3.0f;
// A runaway is framed on its last intact extent and whatever lies within this many times its
// half-size of its centre (app::runawayBox): a torn cloth spread over three times its size shows
// whole; a particle flung far away leaves the picture instead of shrinking the rest to a dot.
constexpr float kRunawayReach = 3.0f;
// The view of a new scene (scene::newScene: one anchor at the origin): 4 m across below and
// around it, where a hanging set-up goes.
const Box kNewSceneView{glm::vec3(-2.0f, -3.0f, 0.0f), glm::vec3(2.0f, 1.0f, 0.0f)};

// `b` with room above it for overlays `top_px` down a picture `height_px` high
Box withBannerRoom(Box b, float top_px, int height_px) {
  if (b.empty()) return b;
  const glm::vec3 size = b.hi - b.lo;
  const float below = std::max(1.0f, static_cast<float>(height_px) - top_px);
  const float room = std::clamp(top_px / below, kBannerRoom, kMaxBannerRoom);
  b.hi.y += room * std::max({size.x, size.y, size.z});
  return b;
}
}  // namespace

void applyCameraDef(const scene::CameraDef& def, render::Camera& camera, SceneFraming& framing) {
  if (def.yaw_deg) camera.yaw = static_cast<float>(*def.yaw_deg * kRadPerDeg);
  if (def.pitch_deg) camera.pitch = static_cast<float>(*def.pitch_deg * kRadPerDeg);
  if (def.fov_deg) camera.fov_y = static_cast<float>(*def.fov_deg * kRadPerDeg);
  if (def.target)
    camera.target = glm::vec3((*def.target).x(), (*def.target).y(), (*def.target).z());
  if (def.distance) camera.distance = static_cast<float>(*def.distance);
  // a chosen target or distance is kept; angles alone still let the framing fit the scene
  if (def.target || def.distance) framing.keepCamera();
}

FrameDriver::FrameDriver()
    : renderer_(std::make_unique<render::Renderer>()),
      fbo_(std::make_unique<render::Framebuffer>()) {}

FrameDriver::~FrameDriver() = default;

bool FrameDriver::initGl(std::string* error) {
  const char* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const std::string rs = r ? r : "";
  // software renderers: 4x multisampling doubles the frame time, a post pass is cheaper
  software_gl_ =
      rs.find("llvmpipe") != std::string::npos || rs.find("softpipe") != std::string::npos;
  if (software_gl_) samples_ = 1;
  fbo_->setPostAntialias(samples_ == 1);
  // the filter's rows on as many cores as the kernels of this thread (docs/architecture.md#threads)
  fbo_->setPostThreads(sim::kernelThreads());
  const util::Problem problem = renderer_->init();
  if (problem && error) *error = *problem;
  return !problem;
}

void FrameDriver::releaseGl() {
  pass_timer_.releaseGl();
  renderer_.reset();
  fbo_.reset();
  scene_fbo_.reset();
}

void FrameDriver::frameScene() {
  const scene::Built& b = session_.built();
  framing_.reset(reachBox(b.skeleton(b.state, false)));
  column_start_ = reachBox(b.skeleton(b.state, false));
  columns_.clear();
}

void FrameDriver::sceneDefaults() {
  const bool cloth = !session_.built().triangles.empty();
  draw_.show_lines = !cloth;
  draw_.show_points = !cloth;  // a cloth reads as a surface; its beads are clutter
  // a 3-D scene is seen from above and aside (render::Camera's default pitch is nearly edge-on
  // to a horizontal cloth, and a little yaw shows depth)
  if (!views_.build(session_, false).planar) camera_.yaw = kYaw3d, camera_.pitch = kPitch3d;
  const scene::RenderDef& rd = session_.def().render;
  if (rd.show_points) draw_.show_points = *rd.show_points;
  if (rd.show_springs) draw_.show_lines = *rd.show_springs;
  strain_fixed_ = rd.strain_scale.has_value();
  if (rd.strain_scale) draw_.strain_scale = static_cast<float>(*rd.strain_scale);
  setCamera(rd.camera);
}

void FrameDriver::setCamera(const scene::CameraDef& def) {
  applyCameraDef(def, camera_, framing_);
  camera_yaw0_ = camera_.yaw;
  // (deg pi) / 180 as before, not deg kRadPerDeg, which can round differently: the orbit of
  // earlier recordings, so that their provenance files replay them
  // (docs/cli.md#the-provenance-file)
  orbit_rad_per_s_ = def.orbit_deg_per_s * std::numbers::pi / 180.0;
}

void FrameDriver::showStatus(const std::string& text, bool error) {
  status_ = text;
  status_error_ = error;
  status_until_ = ImGui::GetCurrentContext() ? ImGui::GetTime() + kStatusSeconds : 0.0;
}

void FrameDriver::setRecording(bool on, std::string label) {
  recording_ = on;
  recording_label_ = std::move(label);
}

std::optional<ui::FrontEndCommand> FrameDriver::applyCommand(const ui::Command& c) {
  using Passed = std::optional<ui::FrontEndCommand>;  // to the front end
  const ui::Overloaded route{
      [this](const ui::SessionCommand& s) {
        std::string why;
        Session::Outcome o{};
        session_.apply(s, &why, &o);
        return followSession(o, why), Passed();
      },
      [this](const ui::EditCommand& e) {
        std::string why;
        Session::Outcome o{};
        session_.apply(e, &why, &o);
        return followSession(o, why), Passed();
      },
      [this](const ui::DisplayCommand& d) { return applyDisplay(d), Passed(); },
      [](const ui::FrontEndCommand& f) { return Passed(f); },
  };
  static_assert(ui::kAppliesExactly<decltype(route), ui::Command>);
  return std::visit(route, c);
}

void FrameDriver::followSession(Session::Outcome o, const std::string& why) {
  using O = Session::Outcome;
  switch (o) {
    case O::Rejected:
      return showStatus(why, true);
    case O::Applied:
      return;
    case O::Saved:
      return showStatus("saved " + session_.scene().lastSaved(), false);
    case O::Loaded:
      status_.clear();  // an old load error must not outlive a successful load
      views_.clearTrails();
      frameScene();
      sceneDefaults();
      return;
    case O::NewScene:
      views_.clearTrails();
      sceneDefaults();  // planar: the camera pans, and a new scene's springs and beads show
      framing_.reset(kNewSceneView);  // one anchor: a view with room to build around it
      return;
    case O::Restarted:
      // the initial state, or one before the runaway: seen afresh, not from where the explosion
      // took the camera and the trails
      views_.clearTrails();
      frameScene();
      return;
  }
}

void FrameDriver::applyDisplay(const ui::DisplayCommand& c) {
  const ui::Overloaded apply{
      [this](const ui::SetStrainScale& s) {
        strain_fixed_ = true;  // the user's scale holds until "auto" is ticked again
        draw_.strain_scale = static_cast<float>(
            std::clamp(s.scale, ui::Limits::kStrainScaleMin, ui::Limits::kStrainScaleMax));
      },
      [this](const ui::SetDisplayFlag& f) {
        const int i = static_cast<int>(f.flag);
        if (i >= 0 && i < ui::kDisplayFlagCount) flagSlot(f.flag).set(*this, f.on);
      },
      [this](const ui::SetClipSize& s) {
        if (!recording_) clip_size_ = s.index;
      },
  };
  static_assert(ui::kAppliesExactly<decltype(apply), ui::DisplayCommand>);
  std::visit(apply, c);
}

const FrameDriver::FlagSlot& FrameDriver::flagSlot(ui::DisplayFlag flag) {
  using F = ui::DisplayFlag;
  using D = FrameDriver;
  static constexpr FlagSlot kSlots[] = {
      {F::StrainAuto, [](const D& d) { return !d.strain_fixed_; },
       [](D& d, bool on) { d.strain_fixed_ = !on; }},
      {F::Wireframe, [](const D& d) { return d.draw_.wireframe; },
       [](D& d, bool on) { d.draw_.wireframe = on; }},
      {F::Trails, [](const D& d) { return d.draw_.show_trails; },
       [](D& d, bool on) { d.draw_.show_trails = on; }},
      {F::Springs, [](const D& d) { return d.draw_.show_lines; },
       [](D& d, bool on) { d.draw_.show_lines = on; }},
      {F::Equilibrium, [](const D& d) { return d.show_equilibrium_; },
       [](D& d, bool on) { d.show_equilibrium_ = on; }},
      {F::Ruler, [](const D& d) { return d.mouse_.ruler().shown; },
       [](D& d, bool on) { d.mouse_.showRuler(on); }},  // placed in view when first shown
      {F::Wind, [](const D& d) { return d.draw_.show_wind; },
       [](D& d, bool on) { d.draw_.show_wind = on; }},
      {F::Arrows, [](const D& d) { return d.draw_.show_arrows; },
       [](D& d, bool on) { d.draw_.show_arrows = on; }},
      {F::Forces, [](const D& d) { return d.draw_.show_forces; },
       [](D& d, bool on) { d.draw_.show_forces = on; }},
      {F::RestLengths, [](const D& d) { return d.show_rest_lengths_; },
       [](D& d, bool on) { d.show_rest_lengths_ = on; }},
      {F::Protractor, [](const D& d) { return d.mouse_.protractor().shown; },
       [](D& d, bool on) { d.mouse_.showProtractor(on); }},  // placed in view when first shown
      {F::Follow, [](const D& d) { return d.follow_; }, [](D& d, bool on) { d.follow_ = on; }},
      {F::SplitLanes, [](const D& d) { return d.options_.split_lanes; },
       [](D& d, bool on) { d.options_.split_lanes = on; }},
      {F::SmoothFrames, [](const D& d) { return d.options_.pacing == Pacing::SmoothFrames; },
       [](D& d, bool on) {
         d.options_.pacing = on ? Pacing::SmoothFrames : Pacing::RealTimeMotion;
       }},
  };
  static_assert(std::size(kSlots) == ui::kDisplayFlagCount, "a slot for every DisplayFlag");
  static_assert(std::ranges::all_of(std::views::iota(0, ui::kDisplayFlagCount),
                                    [](int i) { return kSlots[i].flag == F(i); }),
                "the slots in DisplayFlag's order");
  return kSlots[static_cast<size_t>(flag)];
}

ui::PanelModel FrameDriver::panelModel(const StepPolicy& policy) const {
  ui::PanelModel pm;
  session_.fillPanel(pm);
  if (!options_.hide_frame_times) {
    pm.frame.steps_per_second = policy.stepsPerSecond();
    pm.frame.realtime_percent = policy.realtimePercent();
    pm.frame.ms_sim = times_.sim;
    pm.frame.ms_render = times_.render;
    pm.frame.ms_present = times_.present;
  }
  pm.frame.clock_locked = policy.locked() && !options_.hide_frame_times;
  if (scaledDown()) pm.frame.software_note = kSoftwareNote;
  pm.frame.clip = options_.hide_frame_times;
  fillDisplay(pm.display);
  fillForceKeys(pm.measure);
  return pm;
}

void FrameDriver::fillDisplay(ui::DisplayView& v) const {
  for (const ui::DisplayFlagRow& row : ui::displayFlags())
    v.*row.shown = flagSlot(row.flag).get(*this);
  v.equilibrium_note = show_equilibrium_ ? equilibrium_note_ : std::string();
  if (const auto box = mouse_.selectionBox()) v.selection_box.assign(box->begin(), box->end());
  v.scene_viewport_x = static_cast<float>(draw_.viewport_x);
  v.surface = !session_.built().triangles.empty();
  v.planar = camera_.planar;
  const bool statusLive = ImGui::GetCurrentContext() && ImGui::GetTime() < status_until_;
  v.status = statusLive ? status_ : std::string();
  v.status_error = status_error_;
  v.strain_scale = draw_.strain_scale;
  v.grid_spacing = draw_.show_grid ? grid_spacing_ : 0.0f;
  v.recording = recording_;
  v.recording_label = recording_label_;
  v.clip_size = clip_size_;
}

std::string FrameDriver::captionText() const {
  // the state drawn: lane 0's, or the blow-up's replayed frame (its time, energy and ledger)
  const lab::Lane& lane = session_.shownLane(0);
  const lab::Lane::Ledger ledger = lane.ledger();
  ui::CaptionFacts f;
  f.scene = options_.caption_name.empty() ? session_.sceneName() : options_.caption_name;
  f.integrator = std::string(sim::info(lane.method()).name);
  f.dt = lane.dt(), f.t = lane.state().t;
  f.e0 = lane.e0(), f.energy = ledger.total;
  f.dissipated = ledger.dissipated, f.external = ledger.external, f.residual = ledger.residual;
  f.contacts = ledger.contacts;
  f.reference = sim::driftReference(lane.e0(), lane.scales());
  f.relative = sim::driftIsRelative(lane.e0(), lane.scales());
  return ui::captionText(f);
}

std::vector<ui::Command> FrameDriver::layOutUi(const StepPolicy& policy, int width, int height) {
  ImGui_ImplOpenGL3_NewFrame();
  if (options_.begin_ui_frame) {
    options_.begin_ui_frame();  // the window's backend: size, time and input from GLFW
  } else {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DeltaTime = static_cast<float>(options_.ui_frame_seconds);
  }
  ImGui::NewFrame();
  std::vector<ui::Command> cmds;
  const ui::PanelModel pm = panelModel(policy);
  if (options_.show_ui) {
    auto a = ui::drawPanel(pm, panel_state_);
    cmds.insert(cmds.end(), a.begin(), a.end());
  }
  drawOverlays(pm, cmds);
  // the scene's viewport: right of the panel unless it is collapsed or hidden
  sceneX_ = 0;
  if (options_.show_ui)
    if (const ImGuiWindow* w = ImGui::FindWindowByName("springlab"); w && !w->Collapsed)
      sceneX_ = static_cast<int>(w->Pos.x + w->Size.x);
  return cmds;
}

// The banner, legends, status, caption, recording indicator and help over the scene.
void FrameDriver::drawOverlays(const ui::PanelModel& pm, std::vector<ui::Command>& cmds) {
  ui::drawSelectionBox(pm);
  if (options_.show_ui) {
    ui::drawStrainLegend(pm);
    ui::drawStatus(pm);  // after the legend, so it can stand above it
  }
  // the caption, the divergence banner (a clip without the panel still shows why it stopped) and
  // the lanes' labels laid out together: they never overlap (ui/overlay_layout.hpp)
  const ui::SceneOverlays drawn =
      ui::drawSceneOverlays(pm, options_.caption ? captionText() : std::string());
  cmds.insert(cmds.end(), drawn.commands.begin(), drawn.commands.end());
  overlays_top_px_ = drawn.top_px;
  ui::drawMeasureLegend(pm);
  if (recording_) ui::drawRecordingIndicator(recording_label_);
  if (show_help_ || panel_state_.show_help) {
    bool open = true;
    ui::drawHelpOverlay(&open, pm);
    if (!open) show_help_ = panel_state_.show_help = false;
  }
}

void FrameDriver::updateCamera(const render::SceneView& view, int width, int height) {
  camera_.planar = view.planar;
  draw_.viewport_x = sceneX_ < width - kMinSceneWidth ? sceneX_ : 0;
  draw_.viewport_width = width - draw_.viewport_x;
  // a divergence: framed afresh on the state the runaway rule found, about the last intact
  // one, and held there through the slow motion (docs/lab.md#the-blow-up-in-slow-motion)
  if (session_.divergence().has_value() != divergence_framed_) {
    divergence_framed_ = !divergence_framed_;
    if (divergence_framed_) {
      std::vector<float> intact;
      Eigen::VectorXd scratch;
      const sim::State& anchor = session_.timeline().anchorState();
      if (anchor.x.size() == session_.state().x.size())
        session_.built().pointPositions(anchor, intact, scratch);
      framing_.hold(withBannerRoom(runawayBox(intact, view.positions, kRunawayReach),
                                   overlays_top_px_, height));
    }
  }
  framing_.update(camera_, view.positions, float(draw_.viewport_width) / float(height), follow_);
  if (orbit_rad_per_s_ != 0.0 && !view.planar)  // yaw a function of simulated time: replays agree
    camera_.yaw = static_cast<float>(camera_yaw0_ + orbit_rad_per_s_ * session_.state().t);
  mouse_.setViewport(draw_.viewport_x, draw_.viewport_width, height);
  if (!strain_fixed_) draw_.strain_scale = views_.autoStrainScale();
}

std::vector<ui::FrontEndCommand> FrameDriver::renderFrame(StepPolicy& policy, int width,
                                                          int height) {
  render::PassTimer* passes = startPassTimer();
  SteadyClock timer;  // frame timings (glfwGetTime needs glfwInit, absent headless)
  const double t0 = timer.now();
  {
    render::PassScope timed(passes, render::Pass::Step, false);
    policy.advance(session_);
    session_.sample();
  }
  const double t1 = timer.now();
  // the UI is laid out first: the panel's width decides this frame's scene viewport
  std::vector<ui::Command> commands;
  if (options_.imgui) {
    render::PassScope timed(passes, render::Pass::UiLayout, false);
    commands = layOutUi(policy, width, height);
  }
  views_.forces = draw_.show_forces;
  const render::SceneView& view = views_.build(session_, !session_.paused());
  updateCamera(view, width, height);
  draw_.show_axes = options_.axes;
  draw_.surface_cell_pixels = scaledDown() ? kSoftwareSurfaceCellPixels : 0.0f;
  render::DrawOptions options;
  render::Framebuffer& target = sceneTarget(width, height, options);
  target.bind();
  renderer_->clear(options, target.width(), target.height());  // the panel's area too
  drawLanes(view, camera_, options, target.width(), target.height());
  drawEquilibrium(camera_, options, target.width(), target.height());
  {
    render::PassScope timed(passes, render::Pass::Antialias);
    // anti-aliasing of the scene (and its stretch over the window), before the UI's sharp text
    if (&target != fbo_.get())
      target.endSceneInto(*fbo_);
    else
      target.endScene(options.viewport_x);
  }
  if (options_.imgui) {
    render::PassScope timed(passes, render::Pass::UiDraw);
    // with this frame's camera: drawn after the scene, over it, before the UI is rendered
    if (draw_.show_arrows) ui::drawJointAngles(jointLabels(view));
    if (mouse_.ruler().shown) {
      ui::RulerView ruler = rulerView();
      ruler.end_clearance = bodyRadiusPx(view, mouse_.ruler().a, mouse_.ruler().b);
      ui::drawRuler(ruler);
    }
    if (mouse_.protractor().shown) ui::drawProtractor(protractorView());
    if (show_rest_lengths_) ui::drawRestLengths(restMarks(view));
    ui::drawOffscreenPointer(culpritPointer(view, height));
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  std::vector<ui::FrontEndCommand> frontEnd;
  for (const auto& c : commands)
    if (auto f = applyCommand(c)) frontEnd.push_back(std::move(*f));
  glFinish();
  times_.sim = 1000.0 * (t1 - t0);
  times_.render = 1000.0 * (timer.now() - t1);
  return frontEnd;
}

render::Framebuffer& FrameDriver::sceneTarget(int width, int height, render::DrawOptions& options) {
  options = draw_;
  render::Framebuffer& full = *fbo_;
  const bool scaled = scaledDown() && samples_ == 1;
  if (full.width() != width || full.height() != height) full.resize(width, height, samples_);
  if (!scaled) return full;
  if (!scene_fbo_) {
    scene_fbo_ = std::make_unique<render::Framebuffer>();
    scene_fbo_->setPostAntialias(true);
    scene_fbo_->setPostThreads(sim::kernelThreads());
  }
  const int w = std::max(1, static_cast<int>(std::lround(width * kSoftwareSceneScale)));
  const int h = std::max(1, static_cast<int>(std::lround(height * kSoftwareSceneScale)));
  if (scene_fbo_->width() != w || scene_fbo_->height() != h) scene_fbo_->resize(w, h, 1);
  // the viewport's columns at the same fraction of the row (rounded: at most half a pixel off)
  options.viewport_x = static_cast<int>(std::lround(double(draw_.viewport_x) * w / width));
  options.viewport_width =
      draw_.viewport_width > 0
          ? std::min(w - options.viewport_x,
                     static_cast<int>(std::lround(double(draw_.viewport_width) * w / width)))
          : 0;
  return *scene_fbo_;
}

render::PassTimer* FrameDriver::startPassTimer() {
  if (!options_.time_passes) return nullptr;
  if (pass_timer_.mode() == render::PassTimer::Mode::Off) {
    // software GL: a timer query times the binning, not the rasterising (pass_timer.hpp)
    pass_timer_.setMode(software_gl_ ? render::PassTimer::Mode::Finish
                                     : render::PassTimer::Mode::Queries);
    renderer_->setTimer(&pass_timer_);
  }
  pass_timer_.endFrame();  // the last frame's, presented since
  pass_timer_.beginFrame();
  return &pass_timer_;
}

std::string FrameDriver::passReport() {
  pass_timer_.endFrame();
  return pass_timer_.report();
}

void FrameDriver::renderSceneOnly(render::Framebuffer& fbo, int width, int height) {
  if (fbo.width() != width || fbo.height() != height) fbo.resize(width, height, samples_);
  fbo.setPostAntialias(samples_ == 1);
  fbo.setPostThreads(sim::kernelThreads());
  fbo.bind();
  views_.forces = draw_.show_forces;
  const render::SceneView& view = views_.build(session_, false);
  render::DrawOptions clip = draw_;
  clip.viewport_x = 0, clip.viewport_width = width;
  clip.show_axes = false;  // a clip recorded from the window has no gizmo either
  render::Camera clipCamera = camera_;
  // the clip's own aspect: fit what the window's viewport frames into the clip's frame
  renderer_->clear(clip, width, height);
  drawLanes(view, clipCamera, clip, width, height);
  drawEquilibrium(clipCamera, clip, width, height);
  fbo.endScene();
}

ui::RulerView FrameDriver::rulerView() const {
  const MouseControl::Ruler& r = mouse_.ruler();
  const glm::dvec2 a = mouse_.project(r.a), b = mouse_.project(r.b);
  const glm::vec3 d = r.b - r.a;
  // from the downward vertical (-y), counter-clockwise as a pendulum's angle is measured
  const double deg = std::atan2(double(d.x), -double(d.y)) * 180.0 / std::numbers::pi;
  return {static_cast<float>(a.x), static_cast<float>(a.y), static_cast<float>(b.x),
          static_cast<float>(b.y), glm::length(d),          deg};
}

// Lane 0's joints with their angles (a pendulum's links at their upper joints: the pivot, then
// each bob but the last; none for a spring network), System::jointAngles.
std::vector<ui::JointLabel> FrameDriver::jointLabels(const render::SceneView& view) const {
  std::vector<ui::JointLabel> out;
  for (const sim::JointAngle& j : session_.built().jointAngles(session_.shownLane(0).state())) {
    const size_t p = static_cast<size_t>(j.point);
    if (3 * p + 2 >= view.positions.size()) break;
    const glm::dvec2 s = mouse_.project(
        glm::vec3(view.positions[3 * p], view.positions[3 * p + 1], view.positions[3 * p + 2]));
    // the angle as the scene file gives it, wrapped to (-180, 180]
    const double deg = std::remainder(j.angle, 2.0 * std::numbers::pi) * 180.0 / std::numbers::pi;
    out.push_back({static_cast<float>(s.x), static_cast<float>(s.y), deg});
  }
  return out;
}

ViewBuilder& FrameDriver::laneView(int lane) {
  while (static_cast<int>(lane_views_.size()) < lane) {
    lane_views_.push_back(std::make_unique<ViewBuilder>());
    lane_views_.back()->lane = static_cast<int>(lane_views_.size());
  }
  return *lane_views_[static_cast<size_t>(lane - 1)];
}

void FrameDriver::drawLanes(const render::SceneView& primary, const render::Camera& cam,
                            const render::DrawOptions& options, int width, int height) {
  const int lanes = session_.laneCount();
  if (lanes == 1) {
    renderer_->draw(primary, cam, options, width, height);
    grid_spacing_ = renderer_->gridSpacing();
    return;
  }
  const int x0 = options.viewport_width > 0 ? options.viewport_x : 0;
  const int w = options.viewport_width > 0 ? options.viewport_width : width;
  for (int i = 0; i < lanes; ++i) {
    if (i > 0) laneView(i).forces = options.show_forces;
    const render::SceneView& view = i == 0 ? primary : laneView(i).build(session_, false);
    render::DrawOptions o = options;
    render::Camera c = cam;
    if (options_.split_lanes) {  // one column each, every lane in its colours
      o.viewport_x = x0 + w * i / lanes;
      o.viewport_width = x0 + w * (i + 1) / lanes - o.viewport_x;
      o.clear_depth = true;
      o.show_trails = options.show_trails && i == 0;
      // each column framed on its own lane, unless the user placed the camera
      while (static_cast<int>(columns_.size()) <= i) columns_.emplace_back().reset(column_start_);
      if (!framing_.userMoved())
        columns_[static_cast<size_t>(i)].apply(c, view.positions,
                                               float(o.viewport_width) / float(height));
    } else if (i > 0) {  // ghosted over lane 0: tinted, translucent, no grid, axes or shadow
      const ui::LaneColour c = ui::laneColour(i);
      o.tint = glm::vec4(c.r, c.g, c.b, kGhostTint);
      o.opacity = kGhostOpacity;
      o.show_grid = o.show_axes = o.show_trails = o.show_shadow = false;
    }
    renderer_->draw(view, c, o, width, height);
    // lane 0's grid: another lane's view places the renderer's grid afresh
    if (i == 0) grid_spacing_ = renderer_->gridSpacing();
  }
}

ui::OffscreenPointer FrameDriver::culpritPointer(const render::SceneView& view, int height) const {
  const int p = views_.culpritPoint();
  if (p < 0 || 3 * size_t(p) + 2 >= view.positions.size()) return {};
  const glm::vec3 at(view.positions[3 * p], view.positions[3 * p + 1], view.positions[3 * p + 2]);
  const float w = float(draw_.viewport_width), h = float(height);
  const glm::vec4 c = camera_.projection(w / h) * camera_.view() * glm::vec4(at, 1.0f);
  const float wc = c.w != 0.0f ? std::abs(c.w) : 1.0f;
  const float sx = float(draw_.viewport_x) + (c.x / wc * 0.5f + 0.5f) * w;
  const float sy = (0.5f - c.y / wc * 0.5f) * h;
  const float scale = ImGui::GetFontSize() / 13.0f;
  // below the caption and the banner, which it would cover
  const float x0 = float(draw_.viewport_x), top = std::min(overlays_top_px_, 0.5f * h);
  ui::OffscreenPointer pointer =
      ui::offscreenPointer(sx, sy, c.w <= 0.0f, x0, top, x0 + w, h, ui::kPointerInset * scale);
  pointer.metres = glm::length(at - camera_.target);
  return pointer;
}

void FrameDriver::drawEquilibrium(const render::Camera& cam, const render::DrawOptions& options,
                                  int width, int height) {
  if (!show_equilibrium_) return;
  const lab::Equilibrium& e =
      session_.measurements().equilibrium();  // found when first asked after a change
  equilibrium_note_ = e.why;                  // the panel's, a frame later
  if (!e.state) return;
  equilibrium_view_.shown_state = &*e.state;
  const render::SceneView& view = equilibrium_view_.build(session_, false);
  render::DrawOptions o = options;
  o.tint = glm::vec4(kEquilibriumGrey, kEquilibriumGrey, kEquilibriumGrey, kGhostTint);
  o.opacity = kGhostOpacity;
  o.show_grid = o.show_axes = o.show_trails = o.show_shadow = o.show_wind = false;
  if (options_.split_lanes && session_.laneCount() > 1) {  // lane 0's column
    o.viewport_width = (o.viewport_width > 0 ? o.viewport_width : width) / session_.laneCount();
    o.clear_depth = false;
  }
  renderer_->draw(view, cam, o, width, height);
}

}  // namespace app
