#include "chrono_yaml_read.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "hopsim/assemblies/chrono_yaml.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim::chrono::detail {
namespace {

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string trim(const std::string& text) {
  const auto b = text.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = text.find_last_not_of(" \t");
  return text.substr(b, e - b + 1);
}

/// Parses the whole of `text` as a finite double.
bool parseDouble(const std::string& raw, double& value) {
  const std::string text = trim(raw);
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(value);
}

/// A unit vector perpendicular to `a` by the cross product with a suggestion bumped as Chrono
/// does (x, then y, then z incremented by 1 while the product vanishes).
Vector3 crossWithFallback(const Vector3& a, Vector3 s) {
  for (int bump = 0; bump < 4; ++bump) {
    if (bump > 0) s[bump - 1] += 1.0;
    const Vector3 c = a.cross(s);
    if (c.norm() > 1e-12) return c.normalized();
  }
  return Vector3::UnitZ();  // unreachable for a unit a
}

}  // namespace

std::string show(const InputNode& node) {
  if (node.isSequence()) {
    std::string text = "[";
    for (std::size_t i = 0; i < node.items().size(); ++i) {
      if (i == 8) {
        text += ", ...";
        break;
      }
      text += (i ? ", " : "") + show(node.items()[i]);
    }
    return text + "]";
  }
  if (node.isScalar()) {
    double value = 0.0;
    if (const auto* t = std::get_if<std::string>(&node.scalar()); t && parseDouble(*t, value))
      return trim(*t);
  }
  return node.describe();
}

std::string at(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string item(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

SourceLocation Reader::where(const InputNode& node) const {
  SourceLocation w = node.location();
  if (w.file.empty()) w.file = file_;
  return w;
}

void Reader::warn(const InputNode& node, const std::string& message) {
  warnings_.push_back(locateMessage(where(node), "", message));
}

void Reader::fail(const InputNode& node, const std::string& path,
                  const std::string& message) const {
  throw InputError(locateMessage(where(node), path, message));
}

void Reader::expectMapping(const InputNode& node, const std::string& path) const {
  if (!node.isMapping()) {
    fail(node, path,
         std::string("expected a mapping, found a ") + node.kindName() +
             (node.isScalar() ? " " + show(node) : std::string()));
  }
}

const InputNode& Reader::required(const InputNode& map, const std::string& path,
                                  std::string_view key) const {
  const InputNode* value = map.isMapping() ? map.find(key) : nullptr;
  if (value == nullptr) fail(map, at(path, key), "missing required key '" + std::string(key) + "'");
  if (value->isNull()) fail(*value, at(path, key), "required key has no value");
  return *value;
}

const InputNode* Reader::optional(const InputNode& map, std::string_view key) {
  const InputNode* value = map.isMapping() ? map.find(key) : nullptr;
  return value == nullptr || value->isNull() ? nullptr : value;
}

void Reader::checkKeys(const InputNode& map, const std::string& path,
                       const std::vector<std::string>& known) {
  if (!map.isMapping()) return;
  for (const auto& [key, value] : map.entries()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    warn(value, "unknown key '" + at(path, key) + "' ignored" + didYouMean(key, known));
  }
}

const std::vector<InputNode>& Reader::sequence(const InputNode& node,
                                               const std::string& path) const {
  static const std::vector<InputNode> none;
  if (node.isNull()) return none;
  if (!node.isSequence()) {
    fail(node, path,
         std::string("expected a sequence, found a ") + node.kindName() +
             (node.isScalar() ? " " + show(node) : std::string()));
  }
  return node.items();
}

double Reader::number(const InputNode& node, const std::string& path) const {
  if (node.isScalar()) {
    const auto& s = node.scalar();
    if (const auto* d = std::get_if<double>(&s); d && std::isfinite(*d)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&s)) return static_cast<double>(*i);
    double value = 0.0;
    if (const auto* t = std::get_if<std::string>(&s); t && !node.quoted() && parseDouble(*t, value))
      return value;
  }
  fail(node, path,
       "expected a finite number, found " +
           (node.isScalar() ? show(node) : std::string("a ") + node.kindName()));
}

double Reader::positive(const InputNode& node, const std::string& path) const {
  const double value = number(node, path);
  if (!(value > 0.0)) fail(node, path, "expected a positive number, found " + show(node));
  return value;
}

int Reader::integer(const InputNode& node, const std::string& path) const {
  const double value = number(node, path);
  if (value != std::floor(value) || std::abs(value) > 1e9)
    fail(node, path, "expected an integer, found " + show(node));
  return static_cast<int>(value);
}

bool Reader::boolean(const InputNode& node, const std::string& path) const {
  if (node.isScalar()) {
    const auto& s = node.scalar();
    if (const auto* b = std::get_if<bool>(&s)) return *b;
    if (const auto* t = std::get_if<std::string>(&s); t && !node.quoted()) {
      const std::string u = upper(*t);
      if (u == "TRUE" || u == "YES" || u == "ON") return true;
      if (u == "FALSE" || u == "NO" || u == "OFF") return false;
    }
  }
  fail(node, path,
       "expected true or false, found " +
           (node.isScalar() ? show(node) : std::string("a ") + node.kindName()));
}

std::string Reader::text(const InputNode& node, const std::string& path) const {
  if (node.isScalar()) {
    if (const auto* t = std::get_if<std::string>(&node.scalar())) {
      if (t->empty()) fail(node, path, "expected a non-empty string");
      return *t;
    }
    return show(node);
  }
  fail(node, path, std::string("expected a string, found a ") + node.kindName());
}

std::vector<double> Reader::numbers(const InputNode& node, const std::string& path,
                                    std::size_t minCount) const {
  if (!node.isSequence()) {
    fail(node, path,
         "expected a list of numbers, found " +
             (node.isScalar() ? show(node) : std::string("a ") + node.kindName()));
  }
  std::vector<double> out;
  for (std::size_t i = 0; i < node.items().size(); ++i)
    out.push_back(number(node.items()[i], item(path, i)));
  if (out.size() < minCount) {
    fail(node, path,
         "expected at least " + std::to_string(minCount) + " numbers, found " +
             std::to_string(out.size()));
  }
  return out;
}

Vector3 Reader::vec3(const InputNode& node, const std::string& path) const {
  if (!node.isSequence() || node.items().size() != 3) {
    fail(node, path,
         "expected 3 numbers [x, y, z], found " +
             (node.isScalar()     ? show(node)
              : node.isSequence() ? std::to_string(node.items().size()) + " items " + show(node)
                                  : std::string("a ") + node.kindName()));
  }
  const auto v = numbers(node, path, 3);
  return {v[0], v[1], v[2]};
}

Vector3 Reader::direction(const InputNode& node, const std::string& path) const {
  const Vector3 v = vec3(node, path);
  if (!(v.norm() > 1e-12)) {
    fail(node, path, "zero-length axis " + show(node) + "; expected a nonzero direction");
  }
  return v.normalized();
}

Vector3 Reader::color(const InputNode& node, const std::string& path) const {
  const Vector3 c = vec3(node, path);
  if (!(c.minCoeff() >= 0.0 && c.maxCoeff() <= 1.0)) {
    fail(node, path, "color " + show(node) + "; expected [red, green, blue], each in [0, 1]");
  }
  return c;
}

Matrix3 Reader::orientation(const InputNode& node, const std::string& path, bool degrees) {
  if (!node.isSequence() || (node.items().size() != 3 && node.items().size() != 4)) {
    fail(node, path,
         "expected 3 Cardan angles [yaw, pitch, roll] or a quaternion [e0, e1, e2, e3], found " +
             (node.isScalar() ? show(node)
                              : std::string("a ") + node.kindName() + " " +
                                    (node.isSequence() ? show(node) : "")));
  }
  const auto v = numbers(node, path, 3);
  if (v.size() == 3) {
    const double k = degrees ? std::numbers::pi / 180.0 : 1.0;
    return cardan(Vector3(v[0] * k, v[1] * k, v[2] * k));
  }
  spatial::Quaternion q(v[0], v[1], v[2], v[3]);
  const double n = q.norm();
  if (!(n > 1e-12))
    fail(node, path,
         "zero quaternion " + show(node) + "; expected a unit quaternion [e0, e1, e2, e3]");
  if (std::abs(n - 1.0) > 1e-6) {
    warn(node, path + ": quaternion " + show(node) + " has norm " + std::to_string(n) +
                   "; normalized (Chrono uses it unnormalized)");
  }
  return spatial::rotationFromQuaternion(q / n);
}

int Reader::choice(const InputNode& node, const std::string& path,
                   const std::vector<std::string>& values, bool visualOnly) {
  const std::string given = text(node, path);
  const std::string u = upper(given);
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] == u) return static_cast<int>(i);
  std::string swapped = u;
  for (char& c : swapped) c = c == '-' ? '_' : c == '_' ? '-' : c;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] == swapped) {
      warn(node, path + ": '" + given + "' read as '" + values[i] + "' (Chrono spells it so)");
      return static_cast<int>(i);
    }
  }
  std::string list;
  for (std::size_t i = 0; i < values.size(); ++i) list += (i ? ", " : "") + values[i];
  const std::string message =
      "unknown value '" + given + "'; expected one of " + list + didYouMean(u, values);
  if (visualOnly) {
    warn(node, path + ": " + message + " (ignored: visualization only)");
    return -1;
  }
  fail(node, path, message);
}

void NameSet::add(Reader& reader, const InputNode& node, const std::string& path,
                  const std::string& name) {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) {
      reader.fail(node, path,
                  "duplicate " + section_ + " name '" + name + "' (first defined at " +
                      where_[i].toString() + ")");
    }
  }
  names_.push_back(name);
  where_.push_back(reader.where(node));
}

bool NameSet::contains(const std::string& name) const {
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

Matrix3 cardan(const Vector3& a) {
  return spatial::rotationZ(a[0]) * spatial::rotationY(a[1]) * spatial::rotationX(a[2]);
}

Matrix3 zFrame(const Vector3& axis) {
  const Vector3 z = axis.normalized();
  const Vector3 y = crossWithFallback(z, Vector3(1.0, 0.0, 0.0));
  const Vector3 x = y.cross(z);
  Matrix3 R;
  R.col(0) = x;
  R.col(1) = y;
  R.col(2) = z;
  return R;
}

Matrix3 xThenRyFrame(const Vector3& axis) {
  const Vector3 x0 = axis.normalized();
  const Vector3 z0 = crossWithFallback(x0, Vector3(0.0, 1.0, 0.0));
  const Vector3 y0 = z0.cross(x0);
  Matrix3 R;
  R.col(0) = -z0;
  R.col(1) = y0;
  R.col(2) = x0;
  return R;
}

std::string ModelContext::body(const InputNode& entry, const std::string& path,
                               std::string_view key) const {
  const InputNode& node = reader.required(entry, path, key);
  const std::string name = reader.text(node, at(path, key));
  if (!bodies.contains(name)) {
    reader.fail(node, at(path, key),
                "unknown body '" + name + "'; expected the name of a body in model.bodies" +
                    didYouMean(name, bodies.names()));
  }
  return name;
}

void checkVersion(Reader& reader, const InputNode& document) {
  const InputNode& node = reader.required(document, "", "chrono-version");
  const std::string text = node.isScalar() ? trim(reader.text(node, "chrono-version")) : "";
  if (!node.isScalar()) reader.fail(node, "chrono-version", "expected a version such as 10.0");
  // Major and minor, compared numerically ("10", "10.00" and "10.0.1" are 10.0).
  int major = -1, minor = 0;
  bool ok = false;
  {
    const auto dot = text.find('.');
    const std::string a = text.substr(0, dot);
    std::string b = dot == std::string::npos ? "0" : text.substr(dot + 1);
    b = b.substr(0, b.find('.'));
    auto digits = [](const std::string& s) {
      return !s.empty() && s.size() < 9 && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      });
    };
    if (digits(a) && digits(b)) {
      major = std::stoi(a);
      minor = std::stoi(b);
      ok = true;
    }
  }
  if (!ok) {
    reader.warn(node, "chrono-version '" + text + "' is not a version number M.m; read as " +
                          std::to_string(kChronoVersionMajor) + "." +
                          std::to_string(kChronoVersionMinor));
  } else if (major != kChronoVersionMajor || minor != kChronoVersionMinor) {
    reader.warn(node, "chrono-version " + text + " differs from the supported " +
                          std::to_string(kChronoVersionMajor) + "." +
                          std::to_string(kChronoVersionMinor) + "; read with its rules");
  }
}

}  // namespace hopsim::chrono::detail
