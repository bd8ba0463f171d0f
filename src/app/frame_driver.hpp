// The frame driver (docs/architecture.md#the-frame-driver): given a Session, a clock policy and a
// render target, one frame steps the simulation, builds the view and draws the scene and
// (optionally) the panel into a framebuffer object. The window, --screenshot and `springlab
// record` all render through it, so a clip shows exactly what the window shows.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/frame_loop.hpp"
#include "app/framing.hpp"
#include "app/mouse.hpp"
#include "app/session.hpp"
#include "app/step_policy.hpp"
#include "app/view_builder.hpp"
#include "render/camera.hpp"
#include "render/renderer.hpp"
#include "scene/scene_def.hpp"
#include "ui/panel.hpp"

namespace app {

// The camera of a scene's "render" section or of --camera (docs/scenes.md#render): angles in
// degrees; orbit turns the yaw with simulated time.
void applyCameraDef(const scene::CameraDef& def, render::Camera& camera, SceneFraming& framing);

// How a front end sets its frame driver up (the window, --screenshot, record), once before its
// first frame.
struct FrameOptions {
  bool imgui = false;        // an ImGui context exists (panel, banner, caption)
  bool show_ui = true;       // the panel, legends and status (Tab toggles it in the window)
  bool split_lanes = false;  // lanes side by side in split viewports, else 1.. ghosted over 0
  bool caption = false;      // burn a caption line into the frame (record --caption)
  bool axes = true;          // the world-axes gizmo: the window's, never a clip's
  std::string caption_name;  // the scene's short name in it (a built-in's name, a file's stem)
  // record: the panel of a clip (ui::PanelModel::clip: no wall-clock figures, which would differ
  // between replays; the Scene and Physics sections closed)
  bool hide_frame_times = false;
  Pacing pacing = Pacing::RealTimeMotion;
  // The window: on a software GL, the passes that cost most there are drawn cheaper (a cloth
  // from its coarser surface level, kSoftwareSurfaceCellPixels; the scene at
  // kSoftwareSceneScale of the window's pixels), and the panel says so. A clip
  // or a screenshot keeps the full drawing.
  bool scale_down_software = false;
  // --stats: each pass of a frame timed (render/pass_timer.hpp), for passReport()
  bool time_passes = false;
  // The window's ImGui backend frame start (GLFW input and timing); headless frames set the
  // display size and a fixed ui_frame_seconds instead, so that replays lay out identically.
  std::function<void()> begin_ui_frame;
  double ui_frame_seconds = 1.0 / 60.0;
};

// Where the last frame's time went (ms): stepping, drawing, presenting (the window's).
struct FrameTimes {
  double sim = 0.0, render = 0.0, present = 0.0;
};

// Everything one front end needs to turn a Session into pictures: the window, --screenshot and
// record each own one. It owns the Session, the view builders, the camera and its framing, the
// draw options, the renderer and an offscreen target.
class FrameDriver {
 public:
  FrameDriver();
  ~FrameDriver();

  Session& session() { return session_; }
  const Session& session() const { return session_; }
  ViewBuilder& views() { return views_; }
  render::Camera& camera() { return camera_; }
  SceneFraming& framing() { return framing_; }
  MouseControl& mouse() { return mouse_; }
  const ui::PanelState& panelState() const { return panel_state_; }  // Ctrl+S reads its path
  render::Renderer& renderer() { return *renderer_; }
  render::Framebuffer& target() { return *fbo_; }

  void configure(FrameOptions options) { options_ = std::move(options); }
  const FrameOptions& options() const { return options_; }
  // Creates the renderer's GL objects; needs a current context. False with `error`.
  bool initGl(std::string* error);
  void releaseGl();  // while the context is still current

  // Frame the scene afresh at the next frame (a load, a reset, the F key).
  void frameScene();
  // Display defaults of a freshly loaded scene (cloth: surface, no springs or dots; 3-D seen
  // from above and aside), then the scene's "render" section.
  void sceneDefaults();
  // A camera of a scene's "render" section or of --camera (docs/scenes.md#render), its orbit
  // turning the yaw with simulated time (record).
  void setCamera(const scene::CameraDef& def);

  // Applies a command by its owner: the Session's and edit mode's (a rejection shown as the
  // status), the display's. The front end's (screenshot, recording, quit) are returned to the
  // caller.
  std::optional<ui::FrontEndCommand> applyCommand(const ui::Command& c);

  // One frame into target() at width x height: step under `policy`, lay out the UI (if any),
  // draw the scene, end the scene pass (anti-aliasing), draw the UI. The UI's commands are
  // applied; the front end's are returned.
  std::vector<ui::FrontEndCommand> renderFrame(StepPolicy& policy, int width, int height);
  // Draws the current state again, scene only, into `fbo` at width x height with the full
  // width as viewport (a clip recorded beside the window).
  void renderSceneOnly(render::Framebuffer& fbo, int width, int height);

  // The window's keys: Tab (the UI), F1 (help).
  void toggleUi() { options_.show_ui = !options_.show_ui; }
  void toggleHelp() { show_help_ = !show_help_; }
  // A recording from the window: on with its "REC 0:03.2" label, or off.
  void setRecording(bool on, std::string label = {});
  bool recording() const { return recording_; }
  int clipSize() const { return clip_size_; }  // index in ui::clipSizes()
  const FrameTimes& times() const { return times_; }
  void setPresentMs(double ms) { times_.present = ms; }
  // The passes of the frames rendered so far timed (FrameOptions::time_passes); the front end's
  // own (presenting, reading back) go through passTimer() with a render::PassScope.
  render::PassTimer* passTimer() { return options_.time_passes ? &pass_timer_ : nullptr; }
  std::string passReport();
  // A software OpenGL (Mesa's llvmpipe or softpipe), where some passes are scaled down
  bool softwareGl() const { return software_gl_; }
  // A line under the scene for a while: a rejected command, an error, a saved file.
  void showStatus(const std::string& text, bool error);
  const std::string& status() const { return status_; }  // the last one, shown or not
  bool statusError() const { return status_error_; }

  // a ghost's colour mix toward its lane's colour, and its opacity
  static constexpr float kGhostTint = 0.75f, kGhostOpacity = 0.55f;
  // The equilibrium's ghost: a neutral grey, none of the lanes' hues (ui::laneColour)
  static constexpr float kEquilibriumGrey = 0.6f;
  static constexpr float kYaw3d = 0.5f, kPitch3d = 0.6f;  // rad: 3-D scenes' first view
  static constexpr double kStatusSeconds = 6.0;           // long enough to read a path or an error
  // a scene viewport narrower than this gives way: the scene is drawn under the panel instead
  static constexpr int kMinSceneWidth = 64;  // px
  // multisampling where the GL renders it in hardware; 1 on software renderers (a post pass)
  static constexpr int kHardwareSamples = 4;
  // px: a software GL's window draws a cloth's coarser surface level up to cells this wide (the
  // 128² cloth's 64² level at the default view of a 1280x720 window with the panel, whose
  // cells are about 7 px there; docs/benchmarks.md#where-a-frame-goes)
  static constexpr float kSoftwareSurfaceCellPixels = 8.0f;
  // A software GL's window draws the scene at this fraction of its width and height and
  // stretches it over the window (bilinear) before the UI, drawn at full size, goes over it:
  // the scene's passes (surface, shadow, grid, background, anti-aliasing) cost in proportion to
  // their pixels (docs/benchmarks.md#where-a-frame-goes). 0.5 took a quarter of their pixels
  // and left grid lines and the cloth's edges soft but clean (FXAA before the stretch); 0.6 saved
  // a quarter less CPU time a frame than 0.5 on cloth_64.
  static constexpr float kSoftwareSceneScale = 0.5f;

 private:
  // after a command of the Session's: the status, the trails and the framing its outcome calls for
  void followSession(Session::Outcome o, const std::string& why);
  void applyDisplay(const ui::DisplayCommand& c);
  // Where the driver keeps each display flag (ui::DisplayFlag), to read and to set.
  struct FlagSlot {
    ui::DisplayFlag flag;
    bool (*get)(const FrameDriver&);
    void (*set)(FrameDriver&, bool);
  };
  static const FlagSlot& flagSlot(ui::DisplayFlag flag);
  ui::PanelModel panelModel(const StepPolicy& policy) const;
  void fillDisplay(ui::DisplayView& v) const;
  std::vector<ui::Command> layOutUi(const StepPolicy& policy, int width, int height);
  void drawOverlays(const ui::PanelModel& pm, std::vector<ui::Command>& cmds);
  void updateCamera(const render::SceneView& view, int width, int height);
  render::PassTimer* startPassTimer();  // this frame's, or null without time_passes
  bool scaledDown() const { return software_gl_ && options_.scale_down_software; }
  std::string captionText() const;
  // Draws the lanes into the scene viewport (lane 0's view already built): lanes 1.. ghosted over
  // it, or every lane in its own column of the viewport.
  void drawLanes(const render::SceneView& primary, const render::Camera& cam,
                 const render::DrawOptions& options, int width, int height);
  ViewBuilder& laneView(int lane);

 public:
  // What the ruler reads and where it is on screen (docs/exploring.md#ruler).
  ui::RulerView rulerView() const;
  // The protractor's (docs/exploring.md#protractor) and the springs' rest lengths on screen
  // (docs/exploring.md#rest-lengths; app/measure_views.cpp).
  ui::ProtractorView protractorView() const;
  std::vector<ui::RestMark> restMarks(const render::SceneView& view) const;
  // The largest body's radius as drawn at points a and b, px (the larger), and a margin: what
  // the ruler's label keeps from its ends.
  float bodyRadiusPx(const render::SceneView& view, const glm::vec3& a, const glm::vec3& b) const;
  // Every spring's rest length is marked in a system of at most this many; in a larger one, the
  // traced body's springs' only (a cloth's thousands would hide it).
  static constexpr int kRestMarksAll = 64;

 private:
  // The static equilibrium as a grey ghost over lane 0 (Measurements::equilibrium), when shown.
  void drawEquilibrium(const render::Camera& cam, const render::DrawOptions& options, int width,
                       int height);

  Session session_;
  ViewBuilder views_;
  render::Camera camera_;
  render::DrawOptions draw_;
  ui::PanelState panel_state_;
  SceneFraming framing_;
  MouseControl mouse_{camera_, session_, views_};
  FrameOptions options_;
  bool show_help_ = false;
  bool follow_ = false;             // the camera re-centres on the scene's motion every frame
  bool divergence_framed_ = false;  // the camera was framed on the state shown after a divergence
  float overlays_top_px_ = 0.0f;    // how far down the caption and the banner reached, last frame
  bool strain_fixed_ = false;       // the user fixed the strain scale; else it follows the scene
  int samples_ = kHardwareSamples;
  bool software_gl_ = false;
  FrameTimes times_;
  render::PassTimer pass_timer_;
  double camera_yaw0_ = 0.0, orbit_rad_per_s_ = 0.0;  // the yaw at t = 0 and the orbit (record)
  std::string status_;  // last rejected command, error or saved file, shown for a while
  bool status_error_ = false;
  double status_until_ = 0.0;
  std::string recording_label_;  // "REC 0:03.2" while the window records
  bool recording_ = false;
  int clip_size_ = 0;
  std::vector<std::unique_ptr<ViewBuilder>> lane_views_;  // lanes 1..
  ViewBuilder equilibrium_view_;                          // its ghost
  bool show_equilibrium_ = false;
  bool show_rest_lengths_ = false;
  // lane 0's traced body's force sources in their arrows' colours, and the scale (the forces' key)
  void fillForceKeys(ui::MeasureView& v) const;
  std::string equilibrium_note_;        // why there is none, as of the last frame drawn
  std::vector<ColumnFraming> columns_;  // side by side: each lane's column framed on its lane
  Box column_start_;                    // what a new column frames first (the scene's reach)
  std::unique_ptr<render::Renderer> renderer_;
  std::vector<ui::JointLabel> jointLabels(const render::SceneView& view) const;
  // lane 0's divergence culprit, when the framing leaves it out of the picture (a particle flung
  // far: kRunawayReach), pointed at from the viewport's edge
  ui::OffscreenPointer culpritPointer(const render::SceneView& view, int height) const;
  float grid_spacing_ = 0.0f;  // m, lane 0's ground grid as last drawn (the measure legend's)
  std::unique_ptr<render::Framebuffer> fbo_;
  // the scene's own, smaller target when scaled down (kSoftwareSceneScale); else unused
  std::unique_ptr<render::Framebuffer> scene_fbo_;
  // The target the scene is drawn into this frame, sized, and the draw options for it (draw_,
  // its viewport scaled when the scene is drawn smaller).
  render::Framebuffer& sceneTarget(int width, int height, render::DrawOptions& options);
  int sceneX_ = 0;  // px: the scene's viewport starts right of the panel
};

}  // namespace app
