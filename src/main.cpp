// springlab: subcommand dispatch. The top-level catch keeps INTERFACE.md §4's promise that no
// input crashes the program.
#include <cstdio>
#include <exception>
#include <new>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  try {
    return cli::dispatch(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("springlab: out of memory\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "springlab: internal error: %s\n", e.what());
  } catch (...) {
    std::fputs("springlab: internal error\n", stderr);
  }
  return 1;
}
