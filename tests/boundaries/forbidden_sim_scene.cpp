// sim may use util only: the scene's definitions are out of its reach.
#include "sim/system.hpp"
#include "scene/scene_def.hpp"
