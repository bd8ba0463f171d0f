// render draws plain data; the panel is out of its reach.
#include "render/renderer.hpp"
#include "ui/panel.hpp"
