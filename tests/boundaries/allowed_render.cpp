// control: render with util compiles in the same set-up
#include "render/renderer.hpp"
#include "util/png.hpp"
