// The MBSE planar-mechanism YAML front end (mbse_yaml.h, docs/mbse-yaml.md).
#include "hopsim/assemblies/mbse_yaml.h"

#include <Eigen/Dense>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"
#include "mbse_expression.h"

namespace hopsim::mbse {
namespace {

using detail::ExpressionError;
using detail::Variables;
using mechanism::Vector3;

constexpr double kGravity = 9.81;           // libmbse's |g|, along -Y
constexpr double kNewtonTolerance = 1e-16;  // refinePosition's maxPhiNorm
constexpr std::size_t kNewtonIterations = 10;
constexpr double kRebuildJacobianAbove = 1e-6;  // libmbse re-factors only above this |Phi|
constexpr double kProjectionWarning = 1e-9;     // |Phi| left after projection that we report

const std::set<std::string> kReservedNames{"index", "auto", "length", "mass", "i0"};

struct Point {
  double x{0.0};
  double y{0.0};
  bool fixed{false};
  const InputNode* node{nullptr};
};

struct PlanarBody {
  std::vector<int> points;
  double length{0.0};  // declared (2 points) or |p1 - p0| (3 or more)
  double mass{0.0};
  double I0{0.0};
  double a{0.0};
  double b{0.0};
  const InputNode* node{nullptr};
};

struct RelativeAngle {
  int from{0};
  int to{0};
  double theta{0.0};
  double length{0.0};
  const InputNode* node{nullptr};
};

/// Where an expression is evaluated, for the hints of "unknown variable" errors.
struct Stage {
  enum Kind { Parameter, PointCoordinate, BodyPoints, BodyLength, BodyMass, BodyI0, BodyCog };
  Kind kind{Parameter};
  std::string parameter;      // the parameter being evaluated
  int point{0};               // the point being evaluated
  std::size_t bodyPoints{0};  // number of points of the body being evaluated
};

bool parseInt(std::string_view text, long long& value) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

/// "x3" -> ('x', 3); nullopt when `name` is not x<digits> or y<digits> (any case).
std::optional<std::pair<char, long long>> coordinateName(std::string_view name) {
  if (name.size() < 2) return std::nullopt;
  const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(name.front())));
  if (c != 'x' && c != 'y') return std::nullopt;
  const std::string_view digits = name.substr(1);
  if (!std::all_of(digits.begin(), digits.end(), [](char d) { return d >= '0' && d <= '9'; }))
    return std::nullopt;
  long long index = 0;
  if (!parseInt(digits, index)) return std::nullopt;
  return std::make_pair(c, index);
}

/// True for length<digits> (any case): a variable that bodies of 3 or more points define.
bool isPairLengthName(std::string_view name) {
  const std::string l = detail::lower(name);
  if (l.size() < 8 || l.compare(0, 6, "length") != 0) return false;
  return std::all_of(l.begin() + 6, l.end(), [](char d) { return d >= '0' && d <= '9'; });
}

std::string formatNumber(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  mechanism::Mechanism read(const InputNode& document);

 private:
  [[noreturn]] void fail(const SourceLocation& where, const std::string& path,
                         const std::string& message) const {
    throw InputError(locateMessage(where, path, message));
  }
  [[noreturn]] void fail(const InputNode& node, const std::string& path,
                         const std::string& message) const {
    fail(node.location(), path, message);
  }
  void warn(const SourceLocation& where, const std::string& path, const std::string& message) {
    mechanism_.warnings.push_back(locateMessage(where, path, message));
  }

  /// The value at `key` of the mapping `parent` (at `path`), failing when it is absent or null.
  const InputNode& require(const InputNode& parent, const std::string& key,
                           const std::string& path) const {
    const InputNode* value = parent.find(key);
    const std::string child = path.empty() ? key : path + "." + key;
    if (value == nullptr) fail(parent, path, "missing required key '" + key + "'");
    if (value->isNull()) fail(*value, child, "'" + key + "' has no value");
    return *value;
  }

  /// The text of a scalar (numbers and booleans given from C++ as their text).
  std::string scalarText(const InputNode& node, const std::string& path) const {
    if (!node.isScalar())
      fail(node, path,
           std::string("expected a value or an expression, found a ") + node.kindName());
    const auto& s = node.scalar();
    if (const auto* text = std::get_if<std::string>(&s)) return *text;
    if (const auto* b = std::get_if<bool>(&s)) return *b ? "1" : "0";
    if (const auto* i = std::get_if<std::int64_t>(&s)) return std::to_string(*i);
    return formatNumber(std::get<double>(s));
  }

  double evaluate(const InputNode& node, const std::string& path, const Stage& stage,
                  std::vector<std::string>* used = nullptr);
  std::string hintFor(const std::string& name, const Stage& stage) const;
  void checkUnknownKeys(const InputNode& node, const std::string& path,
                        std::initializer_list<std::string_view> known, bool keepVisual = false);

  void readParameters(const InputNode& parameters);
  void readPoints(const InputNode& points);
  void readBodies(const InputNode& bodies);
  void readRelativeCoordinates(const InputNode& coordinates);
  void project();
  void build();

  std::string file_;
  mechanism::Mechanism mechanism_;
  Variables variables_;
  std::vector<std::string> parameters_;  // sorted names
  std::size_t pointCount_{0};
  std::map<std::string, std::size_t> pairLengthBody_;  // length<ij> -> body that set it
  std::vector<Point> points_;
  std::vector<PlanarBody> bodies_;
  std::vector<RelativeAngle> angles_;
};

std::string Reader::hintFor(const std::string& name, const Stage& stage) const {
  const std::string l = detail::lower(name);
  if (stage.kind == Stage::Parameter) {
    for (const std::string& p : parameters_)
      if (detail::lower(p) == l)
        return "parameters are evaluated in name (byte) order, so '" + p +
               "' is not yet defined when '" + stage.parameter + "' is";
    if (coordinateName(l)) return "points are evaluated after the parameters";
  }
  if (const auto coordinate = coordinateName(l)) {
    const long long i = coordinate->second;
    if (i >= static_cast<long long>(pointCount_)) return "there is no point " + std::to_string(i);
    if (stage.kind == Stage::PointCoordinate && i >= stage.point)
      return std::string(1, coordinate->first) + std::to_string(i) + " is defined by points[" +
             std::to_string(i) + "], which is evaluated later (points are evaluated in order)";
  }
  if (l == "length") {
    if (stage.kind == Stage::Parameter || stage.kind == Stage::PointCoordinate)
      return "'length' is only defined inside planar_bodies";
    if (stage.bodyPoints >= 3)
      return "'length' is not defined for a body of 3 or more points (use length12, length13, "
             "...)";
    if (stage.kind == Stage::BodyLength)
      return "this expression defines 'length'; 'auto' is |p1 - p0|";
    return "'length' is evaluated after the body's points";
  }
  if (l == "auto") return "'auto' is only defined inside the 'length' of a two-point body";
  if (l == "mass" || l == "i0" || l == "index") {
    if (stage.kind == Stage::Parameter || stage.kind == Stage::PointCoordinate)
      return "'" + name + "' is only defined inside planar_bodies";
    return "a body's values are evaluated in the order points, length, mass, I0, cog";
  }
  if (isPairLengthName(l))
    return "length<i><j> is defined only by bodies of 3 or more points (i, j from 1), from "
           "that body on";
  return {};
}

double Reader::evaluate(const InputNode& node, const std::string& path, const Stage& stage,
                        std::vector<std::string>* used) {
  const std::string text = scalarText(node, path);
  try {
    return detail::evaluate(text, variables_, used);
  } catch (const ExpressionError& e) {
    std::string message = "cannot evaluate `" + text + "`: " + e.what() + " (at character " +
                          std::to_string(e.position() + 1) + ")";
    if (!e.unknownName().empty()) {
      const std::string hint = hintFor(e.unknownName(), stage);
      if (!hint.empty()) message += "; " + hint;
    }
    fail(node, path, message);
  }
}

void Reader::checkUnknownKeys(const InputNode& node, const std::string& path,
                              std::initializer_list<std::string_view> known, bool keepVisual) {
  for (const auto& [key, value] : node.entries()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    if (keepVisual && key == "visual") continue;
    const SourceLocation& where = value.location().known() ? value.location() : node.location();
    std::string message = "unknown key '" + key + "' ignored (libmbse ignores it)";
    for (std::string_view k : known)
      if (detail::lower(k) == detail::lower(key))
        message += "; did you mean '" + std::string(k) + "'?";
    warn(where, path.empty() ? key : path + "." + key, message);
  }
}

void Reader::readParameters(const InputNode& parameters) {
  if (!parameters.isMapping())
    fail(parameters, "parameters",
         std::string("expected a mapping of name: expression, found a ") + parameters.kindName());
  std::vector<const InputNode::Entry*> sorted;
  for (const auto& entry : parameters.entries()) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* entry : sorted) parameters_.push_back(entry->first);

  std::map<std::string, std::string> firstOfCase;  // lower-case name -> first in byte order
  for (const auto* entry : sorted) {
    const std::string& name = entry->first;
    const InputNode& value = entry->second;
    const std::string path = "parameters." + name;
    const std::string l = detail::lower(name);
    if (kReservedNames.count(l) != 0)
      fail(value, path,
           "'" + name +
               "' is a reserved name (index, auto, length, mass and I0, in any case, "
               "cannot be parameters)");
    if (!detail::isIdentifier(name))
      fail(value, path,
           "'" + name + "' is not a valid name (a letter, then letters, digits or '_')");
    if (detail::isReservedWord(name))
      fail(value, path, "'" + name + "' is a function or operator name and cannot be a parameter");
    if (detail::isConstant(name))
      warn(value.location(), path, "parameter '" + name + "' hides the constant " + l);
    if (const auto it = firstOfCase.find(l); it != firstOfCase.end()) {
      warn(value.location(), path,
           "'" + name + "' differs from parameter '" + it->second +
               "' only in case; identifiers are case-insensitive, so every use of either "
               "name means '" +
               it->second + "' and this value is never used");
    } else {
      firstOfCase.emplace(l, name);
    }
    if (const auto coordinate = coordinateName(name);
        coordinate && coordinate->second < static_cast<long long>(pointCount_)) {
      const std::string own =
          std::string(1, coordinate->first) + std::to_string(coordinate->second);
      const std::string point = "points[" + std::to_string(coordinate->second) + "]";
      if (name == own)
        warn(value.location(), path,
             "parameter '" + name + "' collides with " + own + " of " + point +
                 ", which replaces it from that point on");
      else
        warn(value.location(), path,
             "parameter '" + name + "' hides " + own + " of " + point +
                 ": identifiers are case-insensitive and '" + name +
                 "' sorts first, so every use of " + own + " means the parameter");
    }
    if (isPairLengthName(name))
      warn(value.location(), path,
           "'" + name + "' is also a variable that bodies of 3 or more points define (" + l + ")");
    Stage stage;
    stage.kind = Stage::Parameter;
    stage.parameter = name;
    const double v = evaluate(value, path, stage);
    variables_.set(name, v);
  }
}

void Reader::readPoints(const InputNode& points) {
  for (std::size_t i = 0; i < points.items().size(); ++i) {
    const InputNode& entry = points.items()[i];
    const std::string path = "points[" + std::to_string(i) + "]";
    if (!entry.isMapping())
      fail(entry, path,
           std::string("expected a mapping {x, y, fixed}, found a ") + entry.kindName());
    checkUnknownKeys(entry, path, {"x", "y", "fixed"});
    Point point;
    point.node = &entry;
    if (const InputNode* fixed = entry.find("fixed"); fixed != nullptr && !fixed->isNull()) {
      bool ok = false;
      if (const auto* b = std::get_if<bool>(&fixed->scalar()); fixed->isScalar() && b) {
        point.fixed = *b;
        ok = true;
      } else if (fixed->isScalar()) {
        const std::string t = detail::lower(scalarText(*fixed, path + ".fixed"));
        if (t == "true" || t == "1") point.fixed = ok = true;
        if (t == "false" || t == "0") ok = true;
      }
      if (!ok) fail(*fixed, path + ".fixed", "expected true or false, found " + fixed->describe());
    }
    Stage stage;
    stage.kind = Stage::PointCoordinate;
    stage.point = static_cast<int>(i);
    point.x = evaluate(require(entry, "x", path), path + ".x", stage);
    point.y = evaluate(require(entry, "y", path), path + ".y", stage);
    variables_.set("x" + std::to_string(i), point.x);
    variables_.set("y" + std::to_string(i), point.y);
    points_.push_back(point);
  }
}

void Reader::readBodies(const InputNode& bodies) {
  for (std::size_t k = 0; k < bodies.items().size(); ++k) {
    const InputNode& entry = bodies.items()[k];
    const std::string path = "planar_bodies[" + std::to_string(k) + "]";
    if (!entry.isMapping())
      fail(entry, path,
           std::string("expected a mapping {points, length, mass, I0, cog}, found a ") +
               entry.kindName());
    PlanarBody body;
    body.node = &entry;
    variables_.set("index", static_cast<double>(k + 1));  // libmbse: 1-based

    std::vector<std::string> used;
    auto checkStale = [&](const InputNode& node, const std::string& where) {
      for (const std::string& name : used) {
        const auto it = pairLengthBody_.find(name);
        if (it != pairLengthBody_.end() && it->second != k)
          warn(node.location(), where,
               "'" + name + "' is the stale value set by planar_bodies[" +
                   std::to_string(it->second) +
                   "], not a length of this body (length<i><j> "
                   "persist into later bodies)");
      }
      used.clear();
    };

    const InputNode& pointList = require(entry, "points", path);
    if (!pointList.isSequence())
      fail(pointList, path + ".points",
           std::string("expected a sequence of point indices, found a ") + pointList.kindName());
    const std::size_t n = pointList.items().size();
    if (n < 2)
      fail(pointList, path + ".points",
           "a body needs at least 2 points, found " + std::to_string(n));
    checkUnknownKeys(
        entry, path,
        n == 2 ? std::initializer_list<std::string_view>{"points", "length", "mass", "I0", "cog"}
               : std::initializer_list<std::string_view>{"points", "mass", "I0", "cog", "length"},
        true);
    if (const InputNode* length = entry.find("length"); n >= 3 && length != nullptr)
      warn(length->location(), path + ".length",
           "'length' is ignored for a body of 3 or more points (libmbse uses |p1 - p0|)");

    Stage stage;
    stage.bodyPoints = n;
    stage.kind = Stage::BodyPoints;
    for (std::size_t j = 0; j < n; ++j) {
      const InputNode& item = pointList.items()[j];
      const std::string itemPath = path + ".points[" + std::to_string(j) + "]";
      const double value = evaluate(item, itemPath, stage, &used);
      checkStale(item, itemPath);
      const double rounded = std::nearbyint(value);  // mrpt::round: lrint
      if (rounded < 0.0 || rounded >= static_cast<double>(points_.size()))
        fail(item, itemPath,
             "point index " + formatNumber(rounded) + " is out of range (there are " +
                 std::to_string(points_.size()) + " points, from 0)");
      const int index = static_cast<int>(rounded);
      if (std::find(body.points.begin(), body.points.end(), index) != body.points.end())
        fail(item, itemPath, "point " + std::to_string(index) + " is listed twice");
      body.points.push_back(index);
    }
    const Point& p0 = points_[static_cast<std::size_t>(body.points[0])];
    const Point& p1 = points_[static_cast<std::size_t>(body.points[1])];
    const double distance01 = std::hypot(p1.x - p0.x, p1.y - p0.y);

    if (n == 2) {
      stage.kind = Stage::BodyLength;
      variables_.set("auto", distance01);
      const InputNode& length = require(entry, "length", path);
      body.length = evaluate(length, path + ".length", stage, &used);
      checkStale(length, path + ".length");
      variables_.erase("auto");
      variables_.set("length", body.length);
      if (!(body.length > 0.0))
        fail(length, path + ".length",
             "the length must be > 0, found " + formatNumber(body.length));
    } else {
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
          const Point& a = points_[static_cast<std::size_t>(body.points[i])];
          const Point& b = points_[static_cast<std::size_t>(body.points[j])];
          const double d = std::hypot(b.x - a.x, b.y - a.y);
          for (const std::string& name :
               {"length" + std::to_string(i + 1) + std::to_string(j + 1),
                "length" + std::to_string(j + 1) + std::to_string(i + 1)}) {
            variables_.set(name, d);
            pairLengthBody_[name] = k;
          }
        }
      body.length = distance01;
      if (!(body.length > 0.0))
        fail(pointList, path + ".points",
             "points " + std::to_string(body.points[0]) + " and " + std::to_string(body.points[1]) +
                 " coincide (the length must be > 0)");
    }
    if (!(distance01 > 0.0))
      fail(pointList, path + ".points",
           "points " + std::to_string(body.points[0]) + " and " + std::to_string(body.points[1]) +
               " coincide: the body's frame (x from the first point toward the second) is "
               "undefined");

    stage.kind = Stage::BodyMass;
    const InputNode& mass = require(entry, "mass", path);
    body.mass = evaluate(mass, path + ".mass", stage, &used);
    checkStale(mass, path + ".mass");
    variables_.set("mass", body.mass);
    if (body.mass < 0.0)
      fail(mass, path + ".mass", "the mass must be >= 0, found " + formatNumber(body.mass));
    if (body.mass == 0.0) warn(mass.location(), path + ".mass", "the body has no mass");

    stage.kind = Stage::BodyI0;
    const InputNode& inertia = require(entry, "I0", path);
    body.I0 = evaluate(inertia, path + ".I0", stage, &used);
    checkStale(inertia, path + ".I0");
    variables_.set("I0", body.I0);

    stage.kind = Stage::BodyCog;
    const InputNode& cog = require(entry, "cog", path);
    if (!cog.isSequence() || cog.items().size() != 2)
      fail(cog, path + ".cog",
           "expected [x, y] (the centre of mass in the body frame), found " +
               (cog.isSequence() ? std::to_string(cog.items().size()) + " values"
                                 : std::string("a ") + cog.kindName()));
    body.a = evaluate(cog.items()[0], path + ".cog[0]", stage, &used);
    checkStale(cog.items()[0], path + ".cog[0]");
    body.b = evaluate(cog.items()[1], path + ".cog[1]", stage, &used);
    checkStale(cog.items()[1], path + ".cog[1]");

    variables_.erase("mass");
    variables_.erase("length");
    variables_.erase("I0");

    const double steiner = body.mass * (body.a * body.a + body.b * body.b);
    const double iG = body.I0 - steiner;
    const double tolerance = 1e-12 * (std::fabs(body.I0) + steiner);
    if (iG < -tolerance)
      fail(inertia, path + ".I0",
           "the inertia about the centre of mass, I0 - mass (a^2 + b^2) = " +
               formatNumber(body.I0) + " - " + formatNumber(steiner) + " = " + formatNumber(iG) +
               ", is negative (I0 is the polar inertia about the body's first point)");
    if (iG <= tolerance)
      warn(inertia.location(), path + ".I0",
           "the body has no rotational inertia about its centre of mass (a point mass)");
    bodies_.push_back(body);
  }
}

void Reader::readRelativeCoordinates(const InputNode& coordinates) {
  if (!coordinates.isSequence())
    fail(coordinates, "relative_coordinates",
         std::string("expected a sequence, found a ") + coordinates.kindName());
  for (std::size_t r = 0; r < coordinates.items().size(); ++r) {
    const InputNode& entry = coordinates.items()[r];
    const std::string path = "relative_coordinates[" + std::to_string(r) + "]";
    if (!entry.isMapping())
      fail(entry, path,
           std::string("expected a mapping {type, points}, found a ") + entry.kindName());
    checkUnknownKeys(entry, path, {"type", "points"});
    const InputNode& type = require(entry, "type", path);
    const std::string typeName = scalarText(type, path + ".type");
    if (typeName != "RelativeAngleAbsoluteDOF") {
      std::string message = "unknown relative coordinate type '" + typeName +
                            "' (the only type is RelativeAngleAbsoluteDOF)";
      if (detail::lower(typeName) == "relativeangleabsolutedof")
        message += "; the type is case-sensitive";
      fail(type, path + ".type", message);
    }
    const InputNode& list = require(entry, "points", path);
    if (!list.isSequence() || list.items().size() != 2)
      fail(list, path + ".points", "expected [i0, i1], two point indices");
    RelativeAngle angle;
    angle.node = &entry;
    int indices[2] = {0, 0};
    for (std::size_t j = 0; j < 2; ++j) {
      const InputNode& item = list.items()[j];
      const std::string itemPath = path + ".points[" + std::to_string(j) + "]";
      long long value = -1;
      bool ok = false;
      if (item.isScalar()) {
        if (const auto* i = std::get_if<std::int64_t>(&item.scalar())) {
          value = *i;
          ok = true;
        } else if (const auto* t = std::get_if<std::string>(&item.scalar())) {
          ok = parseInt(*t, value);
        }
      }
      if (!ok)
        fail(item, itemPath,
             "expected a point index (a plain integer), found " +
                 (item.isScalar() ? item.describe() : item.kindName()));
      if (value < 0 || value >= static_cast<long long>(points_.size()))
        fail(item, itemPath,
             "point index " + std::to_string(value) + " is out of range (there are " +
                 std::to_string(points_.size()) + " points, from 0)");
      indices[j] = static_cast<int>(value);
    }
    angle.from = indices[0];
    angle.to = indices[1];
    if (angle.from == angle.to) fail(list, path + ".points", "the two points are the same");
    const Point& a = points_[static_cast<std::size_t>(angle.from)];
    const Point& b = points_[static_cast<std::size_t>(angle.to)];
    if (a.fixed && b.fixed)
      fail(list, path + ".points", "both points are fixed: the angle cannot change");
    angle.length = std::hypot(b.x - a.x, b.y - a.y);
    if (!(angle.length > 0.0))
      fail(list, path + ".points", "the two points coincide: the angle is undefined");
    angle.theta = std::atan2(b.y - a.y, b.x - a.x);
    angles_.push_back(angle);
  }
}

void Reader::project() {
  // Unknowns: x, y of every free point (in point order).
  std::vector<int> column(points_.size(), -1);
  int unknowns = 0;
  for (std::size_t i = 0; i < points_.size(); ++i)
    if (!points_[i].fixed) {
      column[i] = unknowns;
      unknowns += 2;
    }
  // The relative angles are outputs only: they take no part in the projection (libmbse adds
  // them as unknowns, with constraints on the initial distance that a projected length makes
  // inconsistent); each starts at the atan2 of its projected points.
  auto setAngles = [this] {
    for (RelativeAngle& angle : angles_) {
      const Point& a = points_[static_cast<std::size_t>(angle.from)];
      const Point& b = points_[static_cast<std::size_t>(angle.to)];
      angle.theta = std::atan2(b.y - a.y, b.x - a.x);
    }
  };
  if (unknowns == 0) return setAngles();

  struct Distance {
    int i, j;
    double length;
  };
  std::vector<Distance> distances;  // libmbse's constraint order
  for (const PlanarBody& body : bodies_) {
    if (body.points.size() == 2) {
      distances.push_back({body.points[0], body.points[1], body.length});
      continue;
    }
    auto add = [&](std::size_t a, std::size_t b) {
      const Point& p = points_[static_cast<std::size_t>(body.points[a])];
      const Point& q = points_[static_cast<std::size_t>(body.points[b])];
      distances.push_back({body.points[a], body.points[b], std::hypot(q.x - p.x, q.y - p.y)});
    };
    add(0, 1);
    for (std::size_t j = 2; j < body.points.size(); ++j) {
      add(0, j);
      add(1, j);
    }
  }
  const int rows = static_cast<int>(distances.size());
  if (rows == 0) return setAngles();

  Eigen::VectorXd q(unknowns);
  for (std::size_t i = 0; i < points_.size(); ++i)
    if (column[i] >= 0) {
      q[column[i]] = points_[i].x;
      q[column[i] + 1] = points_[i].y;
    }

  auto x = [&](int i) { return column[i] >= 0 ? q[column[i]] : points_[i].x; };
  auto y = [&](int i) { return column[i] >= 0 ? q[column[i] + 1] : points_[i].y; };
  Eigen::VectorXd phi(rows);
  Eigen::MatrixXd jacobian(rows, unknowns);
  auto update = [&] {
    jacobian.setZero();
    int row = 0;
    for (const Distance& d : distances) {
      const double dx = x(d.j) - x(d.i);
      const double dy = y(d.j) - y(d.i);
      phi[row] = dx * dx + dy * dy - d.length * d.length;
      if (column[d.i] >= 0) {
        jacobian(row, column[d.i]) = -2.0 * dx;
        jacobian(row, column[d.i] + 1) = -2.0 * dy;
      }
      if (column[d.j] >= 0) {
        jacobian(row, column[d.j]) = 2.0 * dx;
        jacobian(row, column[d.j] + 1) = 2.0 * dy;
      }
      ++row;
    }
  };

  // libmbse's refinePosition: Newton with FullPivLU, re-factored while |Phi| > 1e-6.
  update();
  double norm = phi.norm();
  Eigen::FullPivLU<Eigen::MatrixXd> lu;
  bool rebuild = true;
  for (std::size_t iteration = 0; iteration < kNewtonIterations && norm > kNewtonTolerance;
       ++iteration) {
    if (rebuild) {
      lu.compute(jacobian);
      rebuild = false;
    }
    const Eigen::VectorXd step = lu.solve(phi);
    if (!step.allFinite()) break;
    q -= step;
    update();
    const double next = phi.norm();
    if (next > kRebuildJacobianAbove) rebuild = true;
    norm = next;
  }
  if (!(norm <= kProjectionWarning))
    warn(SourceLocation{file_, 0, 0}, "",
         "the points do not satisfy the body lengths after " + std::to_string(kNewtonIterations) +
             " Newton iterations (|Phi| = " + formatNumber(norm) +
             "); continuing from there as libmbse does");
  for (std::size_t i = 0; i < points_.size(); ++i)
    if (column[i] >= 0) {
      points_[i].x = q[column[i]];
      points_[i].y = q[column[i] + 1];
    }
  setAngles();
}

/// How viewers draw a planar body: a bar from its first point to its second (along the
/// reference frame's x), a twentieth of its length thick.
mechanism::VisualShape barShape(double length, const SourceLocation& where) {
  mechanism::VisualShape bar;
  bar.type = mechanism::ShapeGeometry::Type::Box;
  bar.X_RS = mechanism::RigidTransform::fromTranslation(Vector3(0.5 * length, 0.0, 0.0));
  bar.dimensions = Vector3(length, 0.05 * length, 0.05 * length);
  bar.color = Vector3(0.45, 0.55, 0.75);
  bar.where = where;
  return bar;
}

void Reader::build() {
  auto bodyName = [](std::size_t k) { return "body" + std::to_string(k); };
  std::vector<std::vector<std::size_t>> users(points_.size());
  for (std::size_t k = 0; k < bodies_.size(); ++k)
    for (int p : bodies_[k].points) users[static_cast<std::size_t>(p)].push_back(k);
  for (std::size_t i = 0; i < points_.size(); ++i)
    if (!points_[i].fixed && users[i].empty())
      fail(*points_[i].node, "points[" + std::to_string(i) + "]",
           "point " + std::to_string(i) +
               " is not fixed and no body uses it (libmbse's system would be singular)");

  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const PlanarBody& body = bodies_[k];
    const Point& p0 = points_[static_cast<std::size_t>(body.points[0])];
    const Point& p1 = points_[static_cast<std::size_t>(body.points[1])];
    const double theta = std::atan2(p1.y - p0.y, p1.x - p0.x);
    mechanism::Matrix3 R = mechanism::Matrix3::Identity();
    R(0, 0) = std::cos(theta);
    R(0, 1) = -std::sin(theta);
    R(1, 0) = std::sin(theta);
    R(1, 1) = std::cos(theta);
    mechanism::Body out;
    out.name = bodyName(k);
    out.mass = body.mass;
    out.X_WR = mechanism::RigidTransform(R, Vector3(p0.x, p0.y, 0.0));
    out.X_RC = mechanism::RigidTransform::fromTranslation(Vector3(body.a, body.b, 0.0));
    const double iG = std::max(0.0, body.I0 - body.mass * (body.a * body.a + body.b * body.b));
    // A thin plate in the XY plane: Izz = Ixx + Iyy, Ixx = Iyy.
    out.inertia = mechanism::Matrix3::Zero();
    out.inertia(0, 0) = 0.5 * iG;
    out.inertia(1, 1) = 0.5 * iG;
    out.inertia(2, 2) = iG;
    if (const InputNode* visual = body.node->find("visual")) out.visualization = *visual;
    out.where = body.node->location();
    out.visualShapes.push_back(barShape(std::hypot(p1.x - p0.x, p1.y - p0.y), out.where));
    mechanism_.bodies.push_back(std::move(out));
  }
  mechanism::Body ground;
  ground.name = "ground";
  ground.fixed = true;
  ground.where = SourceLocation{file_, 0, 0};
  mechanism_.bodies.push_back(std::move(ground));

  for (std::size_t i = 0; i < points_.size(); ++i) {
    const Point& point = points_[i];
    const Vector3 at(point.x, point.y, 0.0);
    auto add = [&](const std::string& body1, const std::string& body2) {
      mechanism::Joint joint;
      joint.name = "point" + std::to_string(i) + "_" + body1 + "_" + body2;
      joint.type = mechanism::JointType::Revolute;
      joint.body1 = body1;
      joint.body2 = body2;
      joint.X_WF = mechanism::RigidTransform::fromTranslation(at);
      joint.where = point.node->location();
      mechanism_.joints.push_back(std::move(joint));
    };
    if (point.fixed) {
      for (std::size_t k : users[i]) add("ground", bodyName(k));
    } else {
      for (std::size_t u = 1; u < users[i].size(); ++u)
        add(bodyName(users[i][0]), bodyName(users[i][u]));
    }
    mechanism::OutputPoint output;
    output.label = std::to_string(i);
    output.body = point.fixed || users[i].empty() ? "ground" : bodyName(users[i][0]);
    output.point = at;
    mechanism_.outputPoints.push_back(std::move(output));
  }

  for (std::size_t r = 0; r < angles_.size(); ++r) {
    mechanism::OutputAngle angle;
    angle.label = std::to_string(r);
    angle.from = std::to_string(angles_[r].from);
    angle.to = std::to_string(angles_[r].to);
    angle.initial = angles_[r].theta;
    angle.where = angles_[r].node->location();
    mechanism_.outputAngles.push_back(std::move(angle));
  }
}

mechanism::Mechanism Reader::read(const InputNode& document) {
  mechanism_.file = file_;
  const std::string stem = std::filesystem::path(file_).stem().string();
  if (!stem.empty()) mechanism_.name = stem;
  mechanism_.defaultGravity = Vector3(0.0, -kGravity, 0.0);
  const SourceLocation top =
      document.location().known() ? document.location() : SourceLocation{file_, 0, 0};
  if (!document.isMapping())
    fail(top, "",
         std::string("an MBSE mechanism file is a mapping, found a ") + document.kindName());
  checkUnknownKeys(document, "", {"parameters", "points", "planar_bodies", "relative_coordinates"});
  const InputNode* points = document.find("points");
  const InputNode* bodies = document.find("planar_bodies");
  if (points == nullptr || points->isNull())
    fail(top, "points", "missing required section 'points'");
  if (bodies == nullptr || bodies->isNull())
    fail(top, "planar_bodies", "missing required section 'planar_bodies'");
  if (!points->isSequence())
    fail(*points, "points",
         std::string("expected a sequence of points, found a ") + points->kindName());
  if (points->items().empty()) fail(*points, "points", "at least one point is required");
  if (!bodies->isSequence())
    fail(*bodies, "planar_bodies",
         std::string("expected a sequence of bodies, found a ") + bodies->kindName());
  if (bodies->items().empty()) fail(*bodies, "planar_bodies", "at least one body is required");
  pointCount_ = points->items().size();

  if (const InputNode* parameters = document.find("parameters");
      parameters != nullptr && !parameters->isNull())
    readParameters(*parameters);
  readPoints(*points);
  readBodies(*bodies);
  if (const InputNode* coordinates = document.find("relative_coordinates");
      coordinates != nullptr && !coordinates->isNull())
    readRelativeCoordinates(*coordinates);
  project();
  build();
  return std::move(mechanism_);
}

}  // namespace

mechanism::Mechanism readMechanism(const InputNode& document, const std::string& file) {
  return Reader(file).read(document);
}

mechanism::Mechanism readMechanismFile(const std::string& path) {
  return mbse::readMechanism(loadYamlFile(path), path);
}

bool looksLikeMbse(const InputNode& document) {
  return document.isMapping() && document.find("points") != nullptr &&
         document.find("planar_bodies") != nullptr;
}

}  // namespace hopsim::mbse
