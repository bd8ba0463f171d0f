// render never sees the physics.
#include "render/renderer.hpp"
#include "sim/system.hpp"
