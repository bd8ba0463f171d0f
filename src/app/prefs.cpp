#include "app/prefs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/commands.hpp"
#include "util/atomic_file.hpp"

namespace app {

std::string configDir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  if (xdg && *xdg) return (std::filesystem::path(xdg) / "springlab").string();
  if (home && *home) return (std::filesystem::path(home) / ".config" / "springlab").string();
  return {};
}

bool parseWindowSize(const std::string& s, int& w, int& h) {
  const auto x = s.find('x');
  if (x == std::string::npos) return false;
  long long a, b;
  if (!cli::parseWhole(s.substr(0, x), a) || !cli::parseWhole(s.substr(x + 1), b)) return false;
  if (a < kMinWindowSide || b < kMinWindowSide || a > kMaxWindowSide || b > kMaxWindowSide)
    return false;
  w = static_cast<int>(a), h = static_cast<int>(b);
  return true;
}

void Prefs::keepWindowSize(int w, int h, int screenW, int screenH) {
  if (screenW <= 0 || screenH <= 0) return;  // no screen to measure against: keep what was kept
  const auto fits = [&](int a, int b) {
    return a >= kMinWindowSide && b >= kMinWindowSide && a <= screenW && b <= screenH;
  };
  if (fits(w, h))
    width = w, height = h;
  else if (!fits(width, height))
    width = height = 0;  // none: the next launch opens at its default size
}

std::string Prefs::path() {
  const std::string d = configDir();
  return d.empty() ? d : d + "/prefs.ini";
}

void Prefs::parseLine(const std::string& line) {
  const auto eq = line.find('=');
  if (eq == std::string::npos) return;
  const std::string k = line.substr(0, eq), val = line.substr(eq + 1);
  if (k == "window") {
    int w = 0, h = 0;
    if (parseWindowSize(val, w, h)) width = w, height = h;
  } else if (k == "ui_scale") {
    double u;
    if (cli::parseDouble(val, u) && u >= 0.5 && u <= 4.0) ui_scale = static_cast<float>(u);
  } else if (k == "scene") {
    scene = val;
  } else if (k == "record_folder") {
    record_folder = val;
  } else if (k == "history_mb") {
    double mb;
    if (cli::parseDouble(val, mb) && mb >= kMinHistoryMb && mb <= kMaxHistoryMb) history_mb = mb;
  } else if (k == "camera") {
    float c[6];
    if (std::sscanf(val.c_str(), "%f %f %f %f %f %f", &c[0], &c[1], &c[2], &c[3], &c[4], &c[5]) ==
            6 &&
        std::isfinite(c[0] + c[1] + c[2] + c[3] + c[4] + c[5]) && c[3] > 0) {
      std::copy(c, c + 6, cam);
      camera = true;
    }
  }
}

void Prefs::load() {
  const std::string p = path();
  std::FILE* f = p.empty() ? nullptr : std::fopen(p.c_str(), "r");
  if (!f) return;
  char buf[1024];
  while (std::fgets(buf, sizeof buf, f)) {
    std::string line(buf);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    parseLine(line);
  }
  std::fclose(f);
}

void Prefs::save() const {
  const std::string p = path();
  if (p.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(p).parent_path(), ec);
  char numbers[256];
  std::snprintf(numbers, sizeof numbers, "window=%dx%d\nui_scale=%g\ncamera=%g %g %g %g %g %g\n",
                width, height, ui_scale, cam[0], cam[1], cam[2], cam[3], cam[4], cam[5]);
  std::string text(numbers);
  text.append("scene=").append(scene).append("\n");
  if (!record_folder.empty()) text.append("record_folder=").append(record_folder).append("\n");
  char history[64];
  std::snprintf(history, sizeof history, "history_mb=%g\n", history_mb);
  text.append(history);
  util::writeFileAtomically(p, text);
}

}  // namespace app
