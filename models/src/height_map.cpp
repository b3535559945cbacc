#include "hopsim/models/height_map.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <string_view>
#include <utility>

#include "hopsim/signals/error.h"
#include "hopsim/signals/input_file.h"
#include "hopsim/signals/value.h"

namespace hopsim::models {

namespace {

/// The lines of a height-map file that hold something, split into words, with their numbers.
class HeightMapLines {
 public:
  HeightMapLines(std::string path, const std::string& text) : path_(std::move(path)) {
    std::istringstream stream(text);
    std::string line;
    for (int number = 1; std::getline(stream, line); ++number) {
      line = line.substr(0, line.find('#'));
      std::istringstream words(line);
      std::vector<std::string> split;
      for (std::string word; words >> word;) split.push_back(word);
      if (!split.empty()) lines_.push_back({number, std::move(split)});
    }
  }

  /// The next line's words; `expected` says what should have come when the file ends.
  const std::vector<std::string>& next(std::string_view expected) {
    if (current_ >= lines_.size()) {
      throw InputError(path_ + ":" + std::to_string(lastLine()) + ": the file ends; expected " +
                       std::string(expected));
    }
    return lines_[current_++].words;
  }
  /// The words of a line starting with `keyword` and followed by `count` numbers.
  std::vector<double> keyed(std::string_view keyword, std::size_t count, std::string_view meaning) {
    const std::string expected = "'" + std::string(keyword) + "' and " + std::string(meaning);
    const auto& words = next(expected);
    if (words[0] != keyword || words.size() != count + 1) fail("expected " + expected);
    return numbers(words, 1);
  }
  /// The numbers words[first], words[first + 1], ...
  std::vector<double> numbers(const std::vector<std::string>& words, std::size_t first) const {
    std::vector<double> values;
    for (std::size_t k = first; k < words.size(); ++k) {
      double value = 0.0;
      const std::string& word = words[k];
      const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
      if (error != std::errc() || end != word.data() + word.size() || !std::isfinite(value)) {
        fail("'" + word + "' is not a finite number");
      }
      values.push_back(value);
    }
    return values;
  }
  bool atEnd() const { return current_ >= lines_.size(); }
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(path_ + ":" + std::to_string(lastLine()) + ": " + message);
  }

 private:
  struct Line {
    int number;
    std::vector<std::string> words;
  };
  int lastLine() const {
    if (lines_.empty()) return 1;
    return lines_[std::min(current_ == 0 ? 0 : current_ - 1, lines_.size() - 1)].number;
  }

  std::string path_;
  std::vector<Line> lines_;
  std::size_t current_ = 0;
};

int gridCount(double value, HeightMapLines& lines, const char* axis) {
  if (value != std::floor(value) || value < 2.0 || value > 1.0e6) {
    lines.fail(std::string("size ") + axis + " must be a whole number from 2 to 1000000, not " +
               formatNumber(value));
  }
  return static_cast<int>(value);
}

}  // namespace

HeightMapTerrain::HeightMapTerrain(Eigen::Vector2d origin, Eigen::Vector2d spacing, int nx, int ny,
                                   std::vector<double> heights)
    : origin_(origin), spacing_(spacing), nx_(nx), ny_(ny), heights_(std::move(heights)) {
  if (nx < 2 || ny < 2) {
    throw InputError("a height map needs at least 2 x 2 points, not " + std::to_string(nx) + " x " +
                     std::to_string(ny));
  }
  if (!(spacing.minCoeff() > 0.0) || !spacing.allFinite() || !origin.allFinite()) {
    throw InputError("a height map's spacing must be finite and positive and its origin finite");
  }
  if (heights_.size() != static_cast<std::size_t>(nx) * ny) {
    throw InputError("a " + std::to_string(nx) + " x " + std::to_string(ny) + " height map needs " +
                     std::to_string(nx * ny) + " heights, not " + std::to_string(heights_.size()));
  }
  if (!std::all_of(heights_.begin(), heights_.end(), [](double h) { return std::isfinite(h); })) {
    throw InputError("a height map's heights must be finite");
  }
}

HeightMapTerrain HeightMapTerrain::read(const std::string& path) {
  HeightMapLines lines(path, readInputFile(path));
  const auto& magic = lines.next("'hopsim_height_map 1'");
  if (magic.size() != 2 || magic[0] != "hopsim_height_map" || magic[1] != "1") {
    lines.fail("expected 'hopsim_height_map 1' (the format and its version) first");
  }
  const auto origin = lines.keyed("origin", 2, "x0 y0 (m)");
  const auto spacing = lines.keyed("spacing", 2, "dx dy (m, > 0)");
  if (!(spacing[0] > 0.0 && spacing[1] > 0.0)) lines.fail("the spacing must be positive");
  const auto size = lines.keyed("size", 2, "nx ny (points, >= 2)");
  const int nx = gridCount(size[0], lines, "nx");
  const int ny = gridCount(size[1], lines, "ny");
  const auto& keyword = lines.next("'heights'");
  if (keyword.size() != 1 || keyword[0] != "heights") lines.fail("expected 'heights'");
  std::vector<double> heights;
  heights.reserve(static_cast<std::size_t>(nx) * ny);
  for (int j = 0; j < ny; ++j) {
    const std::string row = "row " + std::to_string(j) + " of " + std::to_string(nx) + " heights";
    const auto& words = lines.next(row + " (" + std::to_string(ny) + " rows)");
    if (words.size() != static_cast<std::size_t>(nx)) {
      lines.fail(row + " has " + std::to_string(words.size()) + " values, expected " +
                 std::to_string(nx));
    }
    const auto values = lines.numbers(words, 0);
    heights.insert(heights.end(), values.begin(), values.end());
  }
  if (!lines.atEnd()) {
    lines.next("");
    lines.fail("unexpected text after the " + std::to_string(ny) + " rows of heights");
  }
  return HeightMapTerrain({origin[0], origin[1]}, {spacing[0], spacing[1]}, nx, ny,
                          std::move(heights));
}

HeightMapTerrain::Cell HeightMapTerrain::locate(double x, double y) const {
  // Grid coordinates, clamped into [0, n - 1]; the last cell holds the far border.
  const double u = (x - origin_.x()) / spacing_.x();
  const double v = (y - origin_.y()) / spacing_.y();
  const double uc = std::clamp(u, 0.0, nx_ - 1.0);
  const double vc = std::clamp(v, 0.0, ny_ - 1.0);
  const int i = std::min(static_cast<int>(uc), nx_ - 2);
  const int j = std::min(static_cast<int>(vc), ny_ - 2);
  return {i, j, uc - i, vc - j, u == uc, v == vc};
}

double HeightMapTerrain::height(double x, double y) const {
  const Cell c = locate(x, y);
  return (1.0 - c.t) * ((1.0 - c.s) * at(c.i, c.j) + c.s * at(c.i + 1, c.j)) +
         c.t * ((1.0 - c.s) * at(c.i, c.j + 1) + c.s * at(c.i + 1, c.j + 1));
}

Eigen::Vector2d HeightMapTerrain::gradient(double x, double y) const {
  const Cell c = locate(x, y);
  // The derivatives of the bilinear interpolant; zero across a border, where the map extends
  // flat.
  const double dhds = (1.0 - c.t) * (at(c.i + 1, c.j) - at(c.i, c.j)) +
                      c.t * (at(c.i + 1, c.j + 1) - at(c.i, c.j + 1));
  const double dhdt = (1.0 - c.s) * (at(c.i, c.j + 1) - at(c.i, c.j)) +
                      c.s * (at(c.i + 1, c.j + 1) - at(c.i + 1, c.j));
  return {c.insideX ? dhds / spacing_.x() : 0.0, c.insideY ? dhdt / spacing_.y() : 0.0};
}

}  // namespace hopsim::models
