// the panel reads a plain model; the physics is out of its reach.
#include "ui/panel.hpp"
#include "sim/registry.hpp"
