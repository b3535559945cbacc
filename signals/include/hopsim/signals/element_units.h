#pragma once
/// @file
/// Units element by element, for the variables whose elements differ in unit (a FULL6DOF
/// hinge's Q: a quaternion, then meters). Every other variable's elements have its unit().

#include <cstddef>
#include <string>

#include "hopsim/signals/variable_tree.h"

namespace hopsim {

/// Implemented, beside Variable, by a variable whose elements may differ in unit.
class ElementUnits {
 public:
  virtual ~ElementUnits() = default;
  /// The SI unit of element i ("" when unknown or i is out of range).
  virtual std::string elementUnit(std::size_t i) const = 0;
};

/// The SI unit of element i of `variable`: its own when it implements ElementUnits, else its
/// unit(). For the recorder's columns and everything that carries them (units sidecars, HDF5
/// attributes, DataFrames, plots).
inline std::string elementUnit(const Variable& variable, std::size_t i) {
  if (const auto* units = dynamic_cast<const ElementUnits*>(&variable)) {
    return units->elementUnit(i);
  }
  return variable.unit();
}

}  // namespace hopsim
