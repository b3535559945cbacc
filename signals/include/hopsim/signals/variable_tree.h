#pragma once
/// @file
/// The named variable tree: every signal, model field and (later) body and hinge quantity
/// reachable by a dotted path, for get/set from C++, Python, YAML, the command line, logging,
/// checkpoints and Monte-Carlo overrides.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/signals/element_type.h"
#include "hopsim/signals/signal.h"
#include "hopsim/signals/value.h"

namespace hopsim {

/// A leaf of the variable tree: something with a type and a length that can be read and,
/// unless read-only, written with type and length checks.
class Variable {
 public:
  virtual ~Variable() = default;
  virtual ElementType type() const = 0;
  virtual std::size_t length() const = 0;
  virtual Value get() const = 0;
  /// Writes a value after checking it. @param path names the leaf in error messages.
  /// @throws InputError if the value does not fit, or if read-only (saying what to set
  /// instead).
  virtual void set(const Value& value, std::string_view path) = 0;
  virtual bool writable() const { return true; }
  /// Element i of a numeric variable as a double (a bool as 0 or 1), for zero-crossing
  /// residuals and logging; the variables of signals, model fields and coordinates answer
  /// without allocating. @throws InputError for a string variable or i >= length().
  virtual double element(std::size_t i) const;
  /// SI unit string, "" when dimensionless or unknown, or when the elements' units differ.
  virtual std::string unit() const { return {}; }
  /// SI unit of element i: unit(), unless the elements differ in unit (a FULL6DOF hinge's Q:
  /// a quaternion, then meters). For the recorder's columns and what carries them (units
  /// sidecars, HDF5 attributes, DataFrames, plots).
  virtual std::string elementUnit(std::size_t /*i*/) const { return unit(); }
  virtual std::string description() const { return {}; }
};

/// A signal as a variable: writes count as signal writes (freshness).
class SignalVariable final : public Variable {
 public:
  explicit SignalVariable(Signal& signal) : signal_(&signal) {}
  ElementType type() const override { return signal_->type(); }
  std::size_t length() const override { return signal_->length(); }
  Value get() const override { return signal_->get(); }
  double element(std::size_t i) const override;
  void set(const Value& value, std::string_view path) override;
  std::string unit() const override { return signal_->unit(); }
  std::string description() const override { return signal_->description(); }

 private:
  Signal* signal_;
};

/// The tree. Paths are dot-separated segments of letters, digits and '_' ("signals.lander.thrust").
/// A path is either a leaf (a Variable) or a branch (a prefix of leaves), never both.
class VariableTree {
 public:
  /// Adds a leaf. @throws InputError if the path is malformed, exists, or clashes with a branch
  /// or leaf on its way.
  void add(const std::string& path, std::unique_ptr<Variable> variable);
  /// Removes a leaf, or every leaf under a branch. Removing nothing is not an error.
  void remove(std::string_view path);

  bool contains(std::string_view path) const;
  bool isBranch(std::string_view path) const;

  /// The leaf at `path`. @throws InputError naming the path and the nearest existing names.
  Variable& at(std::string_view path);
  const Variable& at(std::string_view path) const;

  Value get(std::string_view path) const { return at(path).get(); }
  void set(std::string_view path, const Value& value);

  /// Every leaf path under `prefix` (a branch, a leaf, or "" for all), sorted.
  /// @throws InputError if `prefix` is neither a branch nor a leaf.
  std::vector<std::string> list(std::string_view prefix = {}) const;

  /// Number of leaves.
  std::size_t size() const { return leaves_.size(); }
  /// Changes whenever a leaf is added or removed: holders of Variable pointers re-resolve
  /// their paths when it moves.
  std::uint64_t revision() const { return revision_; }

  /// @throws InputError unless every segment of `path` is non-empty and made of [A-Za-z0-9_].
  static void checkPath(std::string_view path, std::string_view what);

 private:
  [[noreturn]] void throwUnknown(std::string_view path) const;

  std::map<std::string, std::unique_ptr<Variable>, std::less<>> leaves_;
  std::uint64_t revision_ = 0;
};

}  // namespace hopsim
