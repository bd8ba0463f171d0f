// control: sim with util compiles in the same set-up
#include "sim/system.hpp"
#include "util/team.hpp"
