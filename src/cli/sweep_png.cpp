// sweep --png: the stability map as an image (docs/cli.md#sweep), drawn by lab/sweep_map.hpp (the
// window's "Save map PNG" draws the same picture) and written atomically.
#include "lab/sweep_map.hpp"
#include "util/png.hpp"

namespace cli {

util::Problem writeSweepPng(const std::string& path, const lab::SweepSpec& spec,
                            const std::vector<lab::CellResult>& cells, double omegaMax) {
  const lab::SweepMap map = lab::drawSweepMap(spec, cells, omegaMax);
  return util::writePng(path, map.image.width(), map.image.height(), map.image.rgba());
}

}  // namespace cli
