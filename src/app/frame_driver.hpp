// The frame driver (docs/architecture.md#the-frame-driver): given a Session, a clock policy and a
// render target, one frame steps the simulation, builds the view and draws the scene and
// (optionally) the panel into a framebuffer object. The window, --screenshot and `springlab
// record` all render through it, so a clip shows exactly what the window shows.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/frame_loop.hpp"
#include "app/framing.hpp"
#include "app/mouse.hpp"
#include "app/session.hpp"
#include "app/view_builder.hpp"
#include "render/camera.hpp"
#include "render/renderer.hpp"
#include "scene/scene_def.hpp"
#include "ui/panel.hpp"

namespace app {

// How simulated time advances per rendered frame.
class StepPolicy {
 public:
  virtual ~StepPolicy() = default;
  // Steps the session for one frame.
  virtual FrameResult advance(Session& s) = 0;
  // What the panel reports: simulated time over wall time in %, and steps per wall second.
  virtual double realtimePercent() const = 0;
  virtual double stepsPerSecond() const = 0;
  virtual bool locked() const { return false; }
};

// The window's clock (frame_loop.hpp): real time, within a stepping budget.
class WallClockSteps : public StepPolicy {
 public:
  explicit WallClockSteps(Clock& clock) : loop_(clock) {}
  FrameResult advance(Session& s) override;
  double realtimePercent() const override { return loop_.realtimePercent(); }
  double stepsPerSecond() const override { return loop_.stepsPerSecond(); }
  FixedStepLoop& loop() { return loop_; }

 private:
  FixedStepLoop loop_;
};

// The number of steps after which frame k of a clip at `fps` shows the state: the step nearest to
// simulated time k / fps, round(k / (fps dt)) with halves away from zero (docs/cli.md#record).
long long lockedStepOfFrame(long long k, double fps, double dt);

// Simulated time locked to a video's clock: frame k shows the state after lockedStepOfFrame(k)
// steps counted from where the clip began, whatever the machine's speed. A change of dt during
// the clip (the window's slider) re-anchors the count at the current frame and step.
class LockedSteps : public StepPolicy {
 public:
  explicit LockedSteps(double fps) : fps_(fps) {}
  // The first call shows the state as it is (frame 0); each later call advances to frame k + 1.
  FrameResult advance(Session& s) override;
  // the window's real time while it records: the clip's time over the wall time, last second
  double realtimePercent() const override;
  double stepsPerSecond() const override { return steps_per_second_; }
  bool locked() const override { return true; }
  long long frame() const { return frame_; }  // the frame last shown (-1 before the first)
  double fps() const { return fps_; }

 private:
  double fps_;
  long long frame_ = -1;
  long long anchor_frame_ = 0, anchor_steps_ = 0;  // where the count restarted, and its dt
  double anchor_dt_ = 0.0;
  long long last_steps_ = 0;  // the session's count after the last frame
  SteadyClock wall_;
  std::deque<double> frame_walls_;  // wall times of the frames within the last second
  double steps_per_second_ = 0.0;
};

// The camera of a scene's "render" section or of --camera (docs/scenes.md#render): angles in
// degrees; orbit turns the yaw with simulated time.
void applyCameraDef(const scene::CameraDef& def, render::Camera& camera, SceneFraming& framing);

// Everything one front end needs to turn a Session into pictures: the window, --screenshot and
// record each own one.
class FrameDriver {
 public:
  Session session;
  ViewBuilder views;
  // lanes (docs/lab.md#lanes): side by side in split viewports, or lanes 1.. ghosted over lane 0
  bool split_lanes = false;
  // a ghost's colour mix toward its lane's colour, and its opacity
  static constexpr float kGhostTint = 0.75f, kGhostOpacity = 0.55f;
  render::Camera camera;
  render::DrawOptions draw;
  ui::PanelState panelState;
  SceneFraming framing;
  MouseControl mouse{camera, session, views};
  bool imgui = false;  // an ImGui context exists (panel, banner, caption)
  bool showUi = true, showHelp = false, quit = false;
  bool follow = false;        // the camera re-centres on the scene's motion every frame
  bool strain_fixed = false;  // the user fixed the strain scale; else it follows the scene
  Pacing pacing = Pacing::RealTimeMotion;
  int samples = 4;          // multisampling; 1 on software renderers (post pass instead)
  bool caption_on = false;  // burn a caption line into the frame (record --caption)
  std::string captionName;  // the scene's short name in it (a built-in's name, a file's stem)
  // The window's ImGui backend frame start (GLFW input and timing); headless frames set the
  // display size and a fixed uiFrameSeconds instead, so that replays lay out identically.
  std::function<void()> beginUiFrame;
  double uiFrameSeconds = 1.0 / 60.0;
  double lastSimMs = 0.0, lastRenderMs = 0.0, lastPresentMs = 0.0;  // the last frame's parts
  // record: the panel of a clip (ui::PanelModel::clip: no wall-clock figures, which would differ
  // between replays; the Scene and Physics sections closed)
  bool hideFrameTimes = false;
  double cameraYaw0 = 0.0, orbitRadPerS = 0.0;  // the yaw at t = 0 and the orbit (record)

  FrameDriver();
  ~FrameDriver();
  render::Renderer& renderer() { return *renderer_; }
  render::Framebuffer& target() { return *fbo_; }
  // Creates the renderer's GL objects; needs a current context. False with `error`.
  bool initGl(std::string* error);
  void releaseGl();  // while the context is still current

  // Frame the scene afresh at the next frame (a load, a reset, the F key).
  void frameScene();
  // Display defaults of a freshly loaded scene (cloth: surface, no springs or dots; 3-D seen
  // from above and aside), then the scene's "render" section.
  void sceneDefaults();

  // Applies a command: the session's, else the display's. False for those the front end
  // handles (screenshots, recording).
  bool applyCommand(const ui::Command& c);

  // One frame into target() at width x height: step under `policy`, lay out the UI (if any),
  // draw the scene, end the scene pass (anti-aliasing), draw the UI. The UI's commands are
  // applied; those for the front end (applyCommand false) are returned.
  std::vector<ui::Command> renderFrame(StepPolicy& policy, int width, int height);
  // Draws the current state again, scene only, into `fbo` at width x height with the full
  // width as viewport (a clip recorded beside the window).
  void renderSceneOnly(render::Framebuffer& fbo, int width, int height);

  void showStatus(const std::string& text, bool error);
  std::string status;  // last rejected command, error or saved file, shown for a while
  bool statusError = false;
  double statusUntil = 0.0;
  std::string recordingLabel;  // "REC 0:03.2" while the window records
  bool recording = false;
  int clipSize = 0;  // index in ui::clipSizes(): the window's clips

  static constexpr float kYaw3d = 0.5f, kPitch3d = 0.6f;  // rad: 3-D scenes' first view
  static constexpr double kStatusSeconds = 6.0;           // long enough to read a path or an error
  // a scene viewport narrower than this gives way: the scene is drawn under the panel instead
  static constexpr int kMinSceneWidth = 64;  // px

 private:
  ui::PanelModel panelModel(const StepPolicy& policy) const;
  std::vector<ui::Command> layOutUi(const StepPolicy& policy, int width, int height);
  void updateCamera(const render::SceneView& view, int width, int height);
  std::string captionText() const;
  // Draws the lanes into the scene viewport (lane 0's view already built): lanes 1.. ghosted over
  // it, or every lane in its own column of the viewport.
  void drawLanes(const render::SceneView& primary, const render::Camera& cam,
                 const render::DrawOptions& options, int width, int height);
  ViewBuilder& laneView(int lane);
  std::vector<std::unique_ptr<ViewBuilder>> lane_views_;  // lanes 1..
  std::unique_ptr<render::Renderer> renderer_;
  std::unique_ptr<render::Framebuffer> fbo_;
  int sceneX_ = 0;  // px: the scene's viewport starts right of the panel
};

}  // namespace app
