#include "app/frame_driver.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/diagnostics.hpp"
#include "sim/parallel.hpp"
#include "sim/registry.hpp"
#include "ui/caption.hpp"

namespace app {

FrameResult WallClockSteps::advance(Session& s) {
  return loop_.frame(s.dt(), s.timeScale(), s.paused(), [&] { return s.stepOnce(); });
}

long long lockedStepOfFrame(long long k, double fps, double dt) {
  return std::llround(static_cast<double>(k) / (fps * dt));
}

FrameResult LockedSteps::advance(Session& s) {
  FrameResult r;
  if (s.paused() || s.divergence()) return r;                   // no frame of the clip passes
  const bool resumed = frame_ < 0 || s.steps() != last_steps_;  // a reset, a step, a pause
  if (!resumed) ++frame_;
  if (resumed || s.dt() != anchor_dt_) {
    // the count restarts here: this frame shows the state as it is (a new clip's frame 0, or
    // the next frame after something else moved the state or changed dt)
    frame_ = std::max<long long>(frame_, 0);
    anchor_frame_ = frame_, anchor_steps_ = s.steps(), anchor_dt_ = s.dt();
  }
  const long long due = anchor_steps_ + lockedStepOfFrame(frame_ - anchor_frame_, fps_, anchor_dt_);
  while (s.steps() < due) {
    const double t0 = s.state().t;
    if (!s.stepOnce()) {
      r.diverged = true;
      break;
    }
    ++r.steps;
    r.sim_seconds += s.state().t - t0;
  }
  last_steps_ = s.steps();
  steps_per_second_ = fps_ * r.steps;
  const double now = wall_.now();
  frame_walls_.push_back(now);
  while (frame_walls_.size() > 2 && now - frame_walls_.front() > FixedStepLoop::kRealtimeWindow)
    frame_walls_.pop_front();
  return r;
}

double LockedSteps::realtimePercent() const {
  if (frame_walls_.size() < 2) return 100.0;
  const double wall = frame_walls_.back() - frame_walls_.front();
  const double clip = static_cast<double>(frame_walls_.size() - 1) / fps_;
  return wall > 0.0 ? 100.0 * clip / wall : 100.0;
}

void applyCameraDef(const scene::CameraDef& def, render::Camera& camera, SceneFraming& framing) {
  constexpr double kRadPerDeg = 3.14159265358979323846 / 180.0;
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
  if (rs.find("llvmpipe") != std::string::npos || rs.find("softpipe") != std::string::npos)
    samples = 1;
  fbo_->setPostAntialias(samples == 1);
  // the filter's rows on as many cores as the kernels of this thread (docs/architecture.md#threads)
  fbo_->setPostThreads(sim::kernelThreads());
  return renderer_->init(error);
}

void FrameDriver::releaseGl() {
  renderer_.reset();
  fbo_.reset();
}

void FrameDriver::frameScene() {
  const scene::Built& b = session.built();
  framing.reset(reachBox(b.skeleton(b.state, false)));
}

void FrameDriver::sceneDefaults() {
  const bool cloth = !session.built().triangles.empty();
  draw.show_lines = !cloth;
  draw.show_points = !cloth;  // a cloth reads as a surface; its beads are clutter
  // a 3-D scene is seen from above and aside (render::Camera's default pitch is nearly edge-on
  // to a horizontal cloth, and a little yaw shows depth)
  if (!views.build(session, false).planar) camera.yaw = kYaw3d, camera.pitch = kPitch3d;
  const scene::RenderDef& rd = session.def().render;
  if (rd.show_points) draw.show_points = *rd.show_points;
  if (rd.show_springs) draw.show_lines = *rd.show_springs;
  strain_fixed = rd.strain_scale.has_value();
  if (rd.strain_scale) draw.strain_scale = static_cast<float>(*rd.strain_scale);
  applyCameraDef(rd.camera, camera, framing);
  cameraYaw0 = camera.yaw;
  orbitRadPerS = rd.camera.orbit_deg_per_s * 3.14159265358979323846 / 180.0;
}

void FrameDriver::showStatus(const std::string& text, bool error) {
  status = text;
  statusError = error;
  statusUntil = ImGui::GetCurrentContext() ? ImGui::GetTime() + kStatusSeconds : 0.0;
}

bool FrameDriver::applyCommand(const ui::Command& c) {
  std::string msg;
  bool handled = true;
  using K = ui::Command::Kind;
  const bool loads = c.kind == K::LoadBuiltin || c.kind == K::LoadFile || c.kind == K::Reload;
  if (!session.apply(c, &msg, &handled)) {
    showStatus(msg, true);
    return true;
  }
  if (loads) {
    status.clear();  // an old load error must not outlive a successful load
    views.clearTrails();
    frameScene();
    sceneDefaults();
  }
  if (c.kind == K::Reset || c.kind == K::Rewind) {
    // the initial state, or one before the runaway: seen afresh, not from where the explosion
    // took the camera and the trails
    views.clearTrails();
    frameScene();
  }
  if (handled) return true;
  switch (c.kind) {
    case K::SetStrainScale:
      if (std::isfinite(c.value)) {
        strain_fixed = true;  // the user's scale holds until "auto" is ticked again
        draw.strain_scale = static_cast<float>(
            std::clamp(c.value, ui::Limits::kStrainScaleMin, ui::Limits::kStrainScaleMax));
      }
      break;
    case K::SetStrainAuto:
      strain_fixed = c.value == 0.0;
      break;
    case K::SetWireframe:
      draw.wireframe = c.value != 0.0;
      break;
    case K::SetShowTrails:
      draw.show_trails = c.value != 0.0;
      break;
    case K::SetShowSprings:
      draw.show_lines = c.value != 0.0;
      break;
    case K::SetShowWind:
      draw.show_wind = c.value != 0.0;
      break;
    case K::SetPacing:
      pacing = c.value == 1.0 ? Pacing::SmoothFrames : Pacing::RealTimeMotion;
      break;
    case K::SetFollow:
      follow = c.value != 0.0;
      break;
    case K::SetClipSize:
      if (!recording) clipSize = c.count;
      break;
    case K::SetSplitLanes:
      split_lanes = c.value != 0.0;
      break;
    case K::Quit:
      quit = true;
      break;
    default:
      return false;  // screenshots, recording: the front end's
  }
  return true;
}

ui::PanelModel FrameDriver::panelModel(const StepPolicy& policy) const {
  ui::PanelModel pm;
  session.fillPanel(pm);
  if (!hideFrameTimes) {
    pm.steps_per_second = policy.stepsPerSecond();
    pm.realtime_percent = policy.realtimePercent();
    pm.frame_ms_sim = lastSimMs;
    pm.frame_ms_render = lastRenderMs;
    pm.frame_ms_present = lastPresentMs;
  }
  pm.pacing = static_cast<int>(pacing);
  pm.follow = follow;
  pm.scene_viewport_x = static_cast<float>(draw.viewport_x);
  pm.split_lanes = split_lanes;
  pm.surface = !session.built().triangles.empty();
  pm.planar = camera.planar;
  const bool statusLive = ImGui::GetCurrentContext() && ImGui::GetTime() < statusUntil;
  pm.status = statusLive ? status : std::string();
  pm.status_error = statusError;
  pm.strain_scale = draw.strain_scale;
  pm.strain_auto = !strain_fixed;
  pm.wireframe = draw.wireframe;
  pm.show_trails = draw.show_trails;
  pm.show_springs = draw.show_lines;
  pm.show_wind = draw.show_wind;
  pm.recording = recording;
  pm.recording_label = recordingLabel;
  pm.clip_size = clipSize;
  pm.clock_locked = policy.locked() && !hideFrameTimes;
  pm.clip = hideFrameTimes;
  return pm;
}

std::string FrameDriver::captionText() const {
  const sim::Energy e = session.energy();
  const double drift = sim::energyDrift(session.initialEnergy(), e.total(), session.scales());
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s  |  %s  |  dt %.3g s  |  t %.3f s  |  energy drift %+.2e",
                (captionName.empty() ? session.sceneName() : captionName).c_str(),
                std::string(sim::info(session.method()).name).c_str(), session.dt(),
                session.state().t, drift);
  return buf;
}

}  // namespace app

namespace app {

std::vector<ui::Command> FrameDriver::layOutUi(const StepPolicy& policy, int width, int height) {
  ImGui_ImplOpenGL3_NewFrame();
  if (beginUiFrame) {
    beginUiFrame();  // the window's backend: size, time and input from GLFW
  } else {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DeltaTime = static_cast<float>(uiFrameSeconds);
  }
  ImGui::NewFrame();
  std::vector<ui::Command> cmds;
  const ui::PanelModel pm = panelModel(policy);
  if (showUi) {
    auto a = ui::drawPanel(pm, panelState);
    cmds.insert(cmds.end(), a.begin(), a.end());
  }
  if (showUi || session.divergence()) {
    // a clip without the panel still shows why it stopped
    auto b = ui::drawDivergenceBanner(pm);
    cmds.insert(cmds.end(), b.begin(), b.end());
  }
  if (showUi) {
    ui::drawStrainLegend(pm);
    ui::drawStatus(pm);  // after the legend, so it can stand above it
  }
  ui::drawLaneLegend(pm);
  if (caption_on) ui::drawCaption(captionText(), pm.scene_viewport_x);
  if (recording) ui::drawRecordingIndicator(recordingLabel);
  if (showHelp || panelState.show_help) {
    bool open = true;
    ui::drawHelpOverlay(&open, pm);
    if (!open) showHelp = panelState.show_help = false;
  }
  // the scene's viewport: right of the panel unless it is collapsed or hidden
  sceneX_ = 0;
  if (showUi)
    if (const ImGuiWindow* w = ImGui::FindWindowByName("springlab"); w && !w->Collapsed)
      sceneX_ = static_cast<int>(w->Pos.x + w->Size.x);
  return cmds;
}

void FrameDriver::updateCamera(const render::SceneView& view, int width, int height) {
  camera.planar = view.planar;
  draw.viewport_x = sceneX_ < width - kMinSceneWidth ? sceneX_ : 0;
  draw.viewport_width = width - draw.viewport_x;
  framing.update(camera, view.positions, float(draw.viewport_width) / float(height), follow);
  if (orbitRadPerS != 0.0 && !view.planar)  // yaw a function of simulated time: replays agree
    camera.yaw = static_cast<float>(cameraYaw0 + orbitRadPerS * session.state().t);
  mouse.setViewport(draw.viewport_x, draw.viewport_width, height);
  if (!strain_fixed) draw.strain_scale = views.autoStrainScale();
}

std::vector<ui::Command> FrameDriver::renderFrame(StepPolicy& policy, int width, int height) {
  SteadyClock timer;  // frame timings (glfwGetTime needs glfwInit, absent headless)
  const double t0 = timer.now();
  policy.advance(session);
  session.sample();
  const double t1 = timer.now();
  // the UI is laid out first: the panel's width decides this frame's scene viewport
  std::vector<ui::Command> commands;
  if (imgui) commands = layOutUi(policy, width, height);
  render::Framebuffer& fbo = *fbo_;
  std::string err;
  if (fbo.width() != width || fbo.height() != height) fbo.resize(width, height, samples, &err);
  fbo.bind();
  const render::SceneView& view = views.build(session, !session.paused());
  updateCamera(view, width, height);
  renderer_->clear(draw, width, height);  // the panel's area too
  drawLanes(view, camera, draw, width, height);
  fbo.endScene(draw.viewport_x);  // anti-aliasing of the scene, before the UI's sharp text
  if (imgui) {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  std::vector<ui::Command> unhandled;
  for (const auto& c : commands)
    if (!applyCommand(c)) unhandled.push_back(c);
  glFinish();
  lastSimMs = 1000.0 * (t1 - t0);
  lastRenderMs = 1000.0 * (timer.now() - t1);
  return unhandled;
}

void FrameDriver::renderSceneOnly(render::Framebuffer& fbo, int width, int height) {
  std::string err;
  if (fbo.width() != width || fbo.height() != height) fbo.resize(width, height, samples, &err);
  fbo.setPostAntialias(samples == 1);
  fbo.setPostThreads(sim::kernelThreads());
  fbo.bind();
  const render::SceneView& view = views.build(session, false);
  render::DrawOptions clip = draw;
  clip.viewport_x = 0, clip.viewport_width = width;
  render::Camera clipCamera = camera;
  // the clip's own aspect: fit what the window's viewport frames into the clip's frame
  renderer_->clear(clip, width, height);
  drawLanes(view, clipCamera, clip, width, height);
  fbo.endScene();
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
  const int lanes = session.laneCount();
  if (lanes == 1) {
    renderer_->draw(primary, cam, options, width, height);
    return;
  }
  const int x0 = options.viewport_width > 0 ? options.viewport_x : 0;
  const int w = options.viewport_width > 0 ? options.viewport_width : width;
  for (int i = 0; i < lanes; ++i) {
    const render::SceneView& view = i == 0 ? primary : laneView(i).build(session, false);
    render::DrawOptions o = options;
    if (split_lanes) {  // one column each, the camera shared, every lane in its own colours
      o.viewport_x = x0 + w * i / lanes;
      o.viewport_width = x0 + w * (i + 1) / lanes - o.viewport_x;
      o.clear_depth = true;
      o.show_trails = options.show_trails && i == 0;
    } else if (i > 0) {  // ghosted over lane 0: tinted, translucent, no grid, axes or shadow
      const ui::LaneColour c = ui::laneColour(i);
      o.tint = glm::vec4(c.r, c.g, c.b, kGhostTint);
      o.opacity = kGhostOpacity;
      o.show_grid = o.show_axes = o.show_trails = o.show_shadow = false;
      // a diverged ghost stays where it blew up, often all over the screen: only its culprit
      if (session.lane(i).diverged())
        o.show_surface = o.show_lines = o.show_points = o.wireframe = false;
    }
    renderer_->draw(view, cam, o, width, height);
  }
}

}  // namespace app
