// Preferences of interactive sessions ($XDG_CONFIG_HOME/springlab/prefs.ini): window size, UI
// scale, last scene, camera. Never read or written by scripted runs (--frames, --screenshot).
#pragma once

#include <string>

namespace app {

// $XDG_CONFIG_HOME/springlab, else ~/.config/springlab; empty without either variable.
std::string configDir();

// A window's or image's side, px: at least kMinWindowSide, at most kMaxWindowSide.
inline constexpr int kMinWindowSide = 16, kMaxWindowSide = 16384;
// "WxH" with kMinWindowSide <= W, H <= kMaxWindowSide (--size and the preferences' window size).
bool parseWindowSize(const std::string& s, int& w, int& h);

struct Prefs {
  int width = 0, height = 0;  // px; 0: not saved
  float ui_scale = 0.0f;      // 0: the monitor's content scale
  std::string scene;
  std::string record_folder;  // where the window's clips go; empty: the working directory
  // the timeline's memory budget, MB (docs/lab.md#the-timeline)
  double history_mb = kDefaultHistoryMb;
  static constexpr double kDefaultHistoryMb = 256.0;
  // At most 16 GiB: the budget bounds the ring of kept states (docs/lab.md#the-timeline), which
  // grows to it and stays there, so it must leave a 24 GiB machine room for the system, its
  // solver and the renderer; a larger value in the file is ignored.
  static constexpr double kMinHistoryMb = 1.0, kMaxHistoryMb = 16384.0;
  bool camera = false;                    // cam holds a saved camera
  float cam[6] = {0, 0, 0, 3, 0, 0.25f};  // target xyz (m), distance (m), yaw, pitch (rad)

  static std::string path();  // empty where there is no configuration folder
  // Reads the file if there is one; every value is checked, so a damaged file changes nothing.
  void load();
  // Writes the file atomically; best effort (a read-only home loses the preferences only).
  void save() const;
  // One "key=value" line of the file.
  void parseLine(const std::string& line);
  // The window's size at the end of a session, w x h, on a screen of screenW x screenH (0: not
  // known), all in screen coordinates: kept only when it fits the screen, so that the next
  // launch never opens larger than it (a `--size 16000x9000` on a black screen). A size that
  // does not fit leaves the one kept before, or none when that one does not fit either.
  void keepWindowSize(int w, int h, int screenW, int screenH);
};

}  // namespace app
