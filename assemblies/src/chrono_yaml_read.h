#pragma once
/// @file
/// Private helpers of the Chrono MBS YAML readers: typed getters that fail with file:line:col
/// and key path, enum matching, unknown-key warnings, Chrono's rotations and axis frames, and
/// the readers of the model's sections (chrono_yaml_model.cpp, chrono_yaml_forces.cpp).

#include <string>
#include <string_view>
#include <vector>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/assemblies/mechanism.h"

namespace hopsim::chrono::detail {

using mechanism::Matrix3;
using mechanism::RigidTransform;
using mechanism::Vector3;

/// A node as messages show it: numbers written as text appear bare ([0, 0, 0]), other text
/// quoted ("heavy"), mappings as {...}.
std::string show(const InputNode& node);

/// "path.key" (or "key" when path is empty).
std::string at(const std::string& path, std::string_view key);
/// "path[i]".
std::string item(const std::string& path, std::size_t i);

/// Reads values of one document, recording warnings.
class Reader {
 public:
  Reader(std::string file, std::vector<std::string>& warnings)
      : file_(std::move(file)), warnings_(warnings) {}

  const std::string& file() const { return file_; }
  /// The node's location (the reader's file when the node has none).
  SourceLocation where(const InputNode& node) const;
  /// Adds "file:line:col: message".
  void warn(const InputNode& node, const std::string& message);
  /// Throws InputError "file:line:col: path: message".
  [[noreturn]] void fail(const InputNode& node, const std::string& path,
                         const std::string& message) const;

  /// The node must be a mapping.
  void expectMapping(const InputNode& node, const std::string& path) const;
  /// The value of `key` (present and not null), else an error at the mapping.
  const InputNode& required(const InputNode& map, const std::string& path,
                            std::string_view key) const;
  /// The value of `key`, or nullptr when absent or null.
  static const InputNode* optional(const InputNode& map, std::string_view key);
  /// Warns about every key of `map` not in `known` (with a did-you-mean).
  void checkKeys(const InputNode& map, const std::string& path,
                 const std::vector<std::string>& known);
  /// The items of a sequence (none for null).
  const std::vector<InputNode>& sequence(const InputNode& node, const std::string& path) const;

  double number(const InputNode& node, const std::string& path) const;
  double positive(const InputNode& node, const std::string& path) const;
  int integer(const InputNode& node, const std::string& path) const;
  bool boolean(const InputNode& node, const std::string& path) const;
  std::string text(const InputNode& node, const std::string& path) const;
  std::vector<double> numbers(const InputNode& node, const std::string& path,
                              std::size_t minCount) const;
  Vector3 vec3(const InputNode& node, const std::string& path) const;
  /// A nonzero 3-vector, normalized.
  Vector3 direction(const InputNode& node, const std::string& path) const;
  /// An RGB colour, each component in [0, 1].
  Vector3 color(const InputNode& node, const std::string& path) const;
  /// Three Cardan angles (Z-Y'-X'', converted from degrees when `degrees`) or a quaternion
  /// (w, x, y, z; normalized, with a warning when it was not unit; never converted).
  Matrix3 orientation(const InputNode& node, const std::string& path, bool degrees);
  /// The index of the node's value among `values` (upper-case canonical spellings), matched
  /// case-insensitively; `-` for `_` (or the reverse) is accepted with a warning. An unknown
  /// value is an error, or when `visualOnly` a warning and -1.
  int choice(const InputNode& node, const std::string& path, const std::vector<std::string>& values,
             bool visualOnly = false);

 private:
  std::string file_;
  std::vector<std::string>& warnings_;
};

/// The names already used in a section; a repeat is an error.
class NameSet {
 public:
  explicit NameSet(std::string section) : section_(std::move(section)) {}
  void add(Reader& reader, const InputNode& node, const std::string& path, const std::string& name);
  bool contains(const std::string& name) const;
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::string section_;
  std::vector<std::string> names_;
  std::vector<SourceLocation> where_;
};

/// R = Rz(a0) Ry(a1) Rx(a2) (radians).
Matrix3 cardan(const Vector3& angles);
/// Chrono's Z-frame of a unit axis: Z = a, Y = normalize(Z x s), X = Y x Z, s from (1, 0, 0)
/// bumped on x, then y, then z while the cross product vanishes.
Matrix3 zFrame(const Vector3& axis);
/// Chrono's X-then-Ry frame of a unit axis: X = -Z0, Y = Y0, Z = a (see the semantics A5).
Matrix3 xThenRyFrame(const Vector3& axis);

/// Context shared by the section readers of one model.
struct ModelContext {
  Reader& reader;
  bool degrees{true};
  /// The file is in the older model spec (isOlderSpecModel): its forms read without warnings.
  bool olderSpec{false};
  NameSet bodies{"body"};
  /// The body named by `node` (a string naming a body of the model), else an error with a
  /// did-you-mean.
  std::string body(const InputNode& entry, const std::string& path, std::string_view key) const;
};

/// A function object (`type` and its keys, `repeat`).
mechanism::Function readFunction(ModelContext& context, const InputNode& node,
                                 const std::string& path);
/// One entry of `tsdas`, `rsdas` or `motors` at `path` (its name's uniqueness is the caller's).
mechanism::Tsda readTsda(ModelContext& context, const InputNode& entry, const std::string& path);
mechanism::Rsda readRsda(ModelContext& context, const InputNode& entry, const std::string& path);
mechanism::Motor readMotor(ModelContext& context, const InputNode& entry, const std::string& path);
/// One entry of body_loads (controlled = false) or load_controllers (controlled = true).
mechanism::BodyLoad readLoad(ModelContext& context, const InputNode& entry, const std::string& path,
                             bool controlled);

/// Checks `chrono-version` (required) numerically against 10.0, warning on a mismatch.
void checkVersion(Reader& reader, const InputNode& document);

}  // namespace hopsim::chrono::detail
