// Headless subcommands (INTERFACE.md §4). Each returns the process exit status:
// 0 success, 2 bad input (one line on stderr naming the place), 3 divergence.
#pragma once

#include <string>
#include <vector>

namespace cli {

using Args = std::vector<std::string>;  // the arguments after the subcommand name

int runCommand(const Args& args);
int listCommand(const Args& args);
int benchCommand(const Args& args);
int dispatch(int argc, char** argv);

// Strict number parsing for options: the whole string must be a finite number.
bool parseDouble(const std::string& s, double& out);
bool parseWhole(const std::string& s, long long& out);  // decimal digits only

}  // namespace cli
