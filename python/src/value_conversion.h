#pragma once
/// @file
/// Values across the Python boundary: Python objects to hopsim::Value for set-by-path and
/// params, and back for get-by-path.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/signals/element_type.h"
#include "hopsim/signals/value.h"

namespace hopsim::python {

namespace py = pybind11;

/// Converts a Python value: bool, int, float, str, a numpy scalar, or a 1-D list, tuple or
/// numpy array of numbers (all-integer sequences stay integers, anything else numeric becomes
/// double). Whether the value fits its destination is checked by C++ afterwards.
/// @param what names the destination in error messages (a variable path, a model param).
/// @throws InputError naming `what` when the value has no hopsim equivalent.
Value toValue(py::handle object, std::string_view what);

/// bool, int, float or str for scalars; a new numpy array (int64 or float64) for vectors.
py::object toPython(const Value& value);

/// `text` as a Python str, decoded from UTF-8 with every byte that is not UTF-8 (quoted from an
/// input in another encoding) replaced by U+FFFD: a message or warning is never lost to a
/// UnicodeDecodeError. @throws py::error_already_set when out of memory.
py::str messageText(std::string_view text);
/// The same for each of `texts` (a list of warnings; a vector, so that signatures say List[str]).
std::vector<py::str> messageTexts(const std::vector<std::string>& texts);

/// A copy of `values` as a new float64 numpy array.
py::array_t<double> toArray(std::span<const double> values);

/// A signal's element type given as an ElementType, a name ("double") or a Python type (float).
/// @throws InputError naming the signal and suggesting the nearest name.
ElementType toElementType(py::handle type, const std::string& signal);

}  // namespace hopsim::python
