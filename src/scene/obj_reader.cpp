// The OBJ subset of docs/scenes.md#mesh, read in one pass over text held whole, numbers by
// std::from_chars (no stream per token): a 100 000-vertex mesh loads in milliseconds
// (docs/scenes.md#mesh gives the figure).
#include "scene/obj_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numbers>

#include <Eigen/Geometry>

#include "util/bounded_file.hpp"

namespace scene {
namespace {

// a vertex line's numbers: x y z, then nothing, a w (ignored) or an r g b colour (ignored)
constexpr int kCoordinates = 3;
constexpr int kWithWeight = 4;
constexpr int kWithColour = 6;
constexpr int kMinFaceVertices = 3;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// The next blank-separated token of `s`, removed from it; empty at the end of the line.
std::string_view nextToken(std::string_view& s) {
  size_t i = 0;
  while (i < s.size() && isBlank(s[i])) ++i;
  size_t j = i;
  while (j < s.size() && !isBlank(s[j])) ++j;
  const std::string_view token = s.substr(i, j - i);
  s.remove_prefix(j);
  return token;
}

// Calls f(line, number) for every line of `text` (numbered from 1), without its end and its
// comment (from a '#').
template <class F>
void forEachLine(std::string_view text, F&& f) {
  int number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    f(line, number);
  }
}

// The line's keyword ("v", "f", "vt", ...), with `rest` after it.
std::string_view keyword(std::string_view line, std::string_view& rest) {
  rest = line;
  return nextToken(rest);
}

// The count of `v` lines: a face's positive index is checked against the whole file's vertices
// (a face may come before the vertices it names), a negative one against those read before it.
int countVertices(std::string_view text) {
  int n = 0;
  forEachLine(text, [&](std::string_view line, int) {
    std::string_view rest;
    n += keyword(line, rest) == "v";
  });
  return n;
}

std::string quoted(std::string_view s) {
  std::string q(1, '"');  // appended, not "\"" + string: GCC 12 warns falsely on that (-Wrestrict)
  q.append(s).push_back('"');
  return q;
}

class ObjParser {
 public:
  ObjParser(std::string_view text, const std::string& shown) : text_(text), shown_(shown) {}

  ObjMesh run() {
    total_ = countVertices(text_);
    if (total_ > kMaxObjVertices)
      throw Error(shown_ + ": " + std::to_string(total_) + " vertices (v lines), more than the " +
                  std::to_string(kMaxObjVertices) + " a mesh may have");
    mesh_.vertices.reserve(size_t(total_));
    mesh_.vertex_lines.reserve(size_t(total_));
    forEachLine(text_, [&](std::string_view line, int number) {
      line_ = number;
      std::string_view rest;
      const std::string_view key = keyword(line, rest);
      if (key == "v") vertex(rest);
      if (key == "f") face(rest);
    });
    if (mesh_.triangles.empty()) throw Error(shown_ + ": no faces (f lines): nothing to build");
    return std::move(mesh_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(shown_ + ":" + std::to_string(line_) + ": " + what);
  }

  // A finite number, the whole token. A leading '+' is allowed (from_chars takes none); one
  // beyond a double's range either way (1e999, 1e-999) is an error.
  double number(std::string_view token) const {
    std::string_view digits = token;
    if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc::invalid_argument || ptr != digits.data() + digits.size())
      fail("bad number " + quoted(token));
    if (ec == std::errc::result_out_of_range) fail("number " + quoted(token) + " is out of range");
    if (!std::isfinite(value)) fail("coordinate " + quoted(token) + " is not finite");
    return value;
  }

  void vertex(std::string_view rest) {
    double xyz[kCoordinates] = {};
    int count = 0;
    for (std::string_view token = nextToken(rest); !token.empty(); token = nextToken(rest)) {
      const double value = number(token);
      if (count < kCoordinates) xyz[count] = value;
      ++count;
    }
    if (count < kCoordinates)
      fail("vertex has " + std::to_string(count) + " coordinate" + (count == 1 ? "" : "s") +
           " (needs x y z)");
    if (count != kCoordinates && count != kWithWeight && count != kWithColour)
      fail("vertex has " + std::to_string(count) +
           " numbers (x y z, then nothing, a w or an r g b colour)");
    mesh_.vertices.emplace_back(xyz[0], xyz[1], xyz[2]);
    mesh_.vertex_lines.push_back(line_);
  }

  // Whether `s` is a whole integer (a texture or normal index, which the mesh does not use).
  static bool isInteger(std::string_view s) {
    long long v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
  }

  // The 0-based vertex of one face token: i, i/t, i//n or i/t/n.
  int faceVertex(std::string_view token) const {
    const size_t slash = token.find('/');
    const std::string_view index = token.substr(0, slash);
    if (slash != std::string_view::npos) {
      const std::string_view tn = token.substr(slash + 1);
      const size_t slash2 = tn.find('/');
      const std::string_view t = tn.substr(0, slash2);
      const bool ok = slash2 == std::string_view::npos
                          ? isInteger(t)
                          : (t.empty() || isInteger(t)) && isInteger(tn.substr(slash2 + 1));
      if (!ok) fail("bad face vertex " + quoted(token) + " (i, i/t, i//n or i/t/n)");
    }
    long long i = 0;
    const auto [ptr, ec] = std::from_chars(index.data(), index.data() + index.size(), i);
    if (index.empty() || ptr != index.data() + index.size() || ec == std::errc::invalid_argument)
      fail("bad face vertex " + quoted(token) + " (i, i/t, i//n or i/t/n)");
    const int seen = int(mesh_.vertices.size());
    if (ec == std::errc() && i == 0)
      fail("face index 0: indices count from 1 (negative ones back from the last vertex)");
    if (ec != std::errc() || i > total_)
      fail("face index " + std::string(index) + " out of range (" + std::to_string(total_) +
           " vertices)");
    if (i < 0 && seen + i < 0)
      fail("face index " + std::string(index) + " out of range (" + std::to_string(seen) +
           " vertices before this line)");
    return int(i > 0 ? i - 1 : seen + i);
  }

  void face(std::string_view rest) {
    corners_.clear();
    for (std::string_view token = nextToken(rest); !token.empty(); token = nextToken(rest))
      corners_.push_back(faceVertex(token));
    const size_t n = corners_.size();
    if (n < size_t(kMinFaceVertices))
      fail("face has " + std::to_string(n) + " vertices (needs at least " +
           std::to_string(kMinFaceVertices) + ")");
    sorted_.assign(corners_.begin(), corners_.end());
    std::sort(sorted_.begin(), sorted_.end());
    if (const auto twice = std::adjacent_find(sorted_.begin(), sorted_.end());
        twice != sorted_.end())
      fail("face lists vertex " + std::to_string(*twice + 1) + " twice");
    if (mesh_.triangles.size() + (n - 2) > size_t(kMaxObjTriangles))
      fail("more than " + std::to_string(kMaxObjTriangles) +
           " triangles, the most a mesh may have");
    // a fan from the first corner: a convex polygon's triangles, in its winding
    for (size_t k = 1; k + 1 < n; ++k) {
      mesh_.triangles.push_back({corners_[0], corners_[k], corners_[k + 1]});
      mesh_.triangle_lines.push_back(line_);
    }
  }

  std::string_view text_;
  const std::string& shown_;
  ObjMesh mesh_;
  int total_ = 0;  // `v` lines in the whole file
  int line_ = 0;   // the line being read
  std::vector<int> corners_, sorted_;
};

// A control byte that no text file holds (a NUL, an ESC...; blanks and line ends are text): a
// binary mesh (STL, PLY's binary body, glTF's .glb) has them within its first bytes, where read
// as text it would be only "no faces".
bool isBinaryByte(char c) {
  const auto u = static_cast<unsigned char>(c);
  constexpr unsigned char kFirstPrintable = 0x20, kDelete = 0x7f;
  return (u < kFirstPrintable && c != '\n' && !isBlank(c)) || u == kDelete;
}

void checkText(std::string_view text, const std::string& shown) {
  const auto at = std::find_if(text.begin(), text.end(), isBinaryByte);
  if (at == text.end()) return;
  char what[96];
  std::snprintf(what, sizeof what, ": not a text OBJ file (byte 0x%02x at offset %zu): ",
                static_cast<unsigned>(static_cast<unsigned char>(*at)),
                static_cast<size_t>(at - text.begin()));
  throw Error(shown + what + "springlab reads Wavefront OBJ text (v and f lines)");
}

}  // namespace

ObjMesh parseObj(std::string_view text, const std::string& shownName) {
  if (text.size() > kMaxObjBytes)
    throw Error(shownName + ": larger than " + util::mebibytes(kMaxObjBytes));
  checkText(text, shownName);
  // a UTF-8 byte-order mark would hide the first line's keyword
  if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());
  return ObjParser(text, shownName).run();
}

util::Expected<std::string> readObjText(const std::string& path) {
  return util::readBoundedFile(path, kMaxObjBytes);
}

ObjMesh readObj(const std::string& path, const std::string& shownName) {
  const auto text = readObjText(path);
  if (!text) throw Error(shownName + ": " + text.problem());
  return parseObj(*text, shownName);
}

Vec3 applyTransform(const MeshTransform& t, const Vec3& p) {
  constexpr double kRadPerDeg = std::numbers::pi / 180.0;
  const Eigen::Matrix3d r = (Eigen::AngleAxisd(t.rotate_deg.z() * kRadPerDeg, Vec3::UnitZ()) *
                             Eigen::AngleAxisd(t.rotate_deg.y() * kRadPerDeg, Vec3::UnitY()) *
                             Eigen::AngleAxisd(t.rotate_deg.x() * kRadPerDeg, Vec3::UnitX()))
                                .toRotationMatrix();
  return r * (t.scale * p) + t.translate;
}

}  // namespace scene
