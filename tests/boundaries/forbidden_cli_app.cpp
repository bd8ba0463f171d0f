// the headless commands never reach the window's composition root.
#include "cli/commands.hpp"
#include "app/session.hpp"
