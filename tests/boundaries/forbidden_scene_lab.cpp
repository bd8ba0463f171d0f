// scene builds on sim; the lab builds on scene, never the other way.
#include "scene/build.hpp"
#include "lab/lane.hpp"
