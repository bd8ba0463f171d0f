// A render file that reaches the panel by climbing out of its folder: placed in src/render/ it
// would compile (the path is relative to the file, not to an include directory), so the rooms'
// include paths cannot refuse it; scripts/check_includes.cmake does (its test runs it here).
#include "../ui/panel.hpp"
