#!/usr/bin/env bash
# Installs the Debian 12 packages springlab needs to build and test
# (docs/architecture.md#dependencies-and-platform-notes). Only what is missing is installed, so a
# second run is quick. Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libeigen3-dev nlohmann-json3-dev doctest-dev
  # METIS's nested-dissection ordering of time_fe's factor (two threads solve its halves)
  libmetis-dev
  # viewer: GLFW, Dear ImGui 1.86 (with its GLFW + OpenGL3 backends), GLM, stb (PNG), EGL + Mesa
  # (headless rendering, software llvmpipe), Xvfb + xauth + xdotool (the window tests: xdotool
  # types Ctrl+R into the window), ffmpeg (video:
  # `springlab record` encodes mp4/webm/gif through it; ffprobe, in the same package, reads the
  # recordings back in the sink's tests)
  libglfw3-dev libimgui-dev libglm-dev libstb-dev
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri libglx-mesa0
  xvfb xauth xdotool
  ffmpeg
  # tesseract (OCR): the blow-up clip's tests read its banner and caption in the frames
  # (tests/test_record_blowup.cpp)
  tesseract-ocr
  # DejaVu Sans, compiled into the binary: the text of the stability map's PNG (util/text.hpp)
  fonts-dejavu-core
  # Debian's Python: the test that no file or function outgrows its limit (scripts/check_structure.py)
  python3
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
