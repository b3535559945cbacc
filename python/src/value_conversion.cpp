#include "value_conversion.h"

#include <pybind11/numpy.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim::python {
namespace {

/// "a list [1, 'x']": the Python type and a short repr, for messages.
std::string describeObject(py::handle object) {
  std::string text = py::repr(object).cast<std::string>();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return std::string("a ") + Py_TYPE(object.ptr())->tp_name + " " + text;
}

[[noreturn]] void throwUnsupported(py::handle object, std::string_view what,
                                   std::string_view why = {}) {
  std::string message = std::string(what) + ": cannot use " + describeObject(object);
  if (!why.empty()) message += " (" + std::string(why) + ")";
  throw InputError(message +
                   "; expected a bool, int, float, str or a 1-D sequence or array of numbers");
}

template <class T>
std::vector<T> copyVector(const py::array& array) {
  const auto typed = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(array);
  if (!typed) throw py::error_already_set();
  return std::vector<T>(typed.data(), typed.data() + typed.size());
}

template <class T>
py::array_t<T> newArray(std::span<const T> values) {
  py::array_t<T> array(static_cast<py::ssize_t>(values.size()));
  if (!values.empty()) std::memcpy(array.mutable_data(), values.data(), values.size() * sizeof(T));
  return array;
}

}  // namespace

Value toValue(py::handle object, std::string_view what) {
  PyObject* o = object.ptr();
  // bool before int: True is an int in Python.
  if (PyBool_Check(o)) return o == Py_True;
  if (PyLong_Check(o)) {
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0) throwUnsupported(object, what, "does not fit in a 64-bit integer");
    if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
    return static_cast<std::int64_t>(value);
  }
  if (PyFloat_Check(o)) return PyFloat_AS_DOUBLE(o);
  if (PyUnicode_Check(o)) return object.cast<std::string>();

  // numpy scalars, arrays, lists and tuples: numpy decides the element type.
  py::array array;
  try {
    array = py::module_::import("numpy").attr("asarray")(object);
  } catch (const py::error_already_set&) {
    throwUnsupported(object, what, "not convertible to an array");
  }
  const char kind = array.dtype().kind();
  const bool integer = kind == 'i' || kind == 'u';
  if (array.ndim() == 0) {
    if (kind == 'b') return array.attr("item")().cast<bool>();
    if (integer) return toValue(array.attr("item")(), what);
    if (kind == 'f') return array.attr("item")().cast<double>();
    throwUnsupported(object, what);
  }
  if (array.ndim() != 1) throwUnsupported(object, what, "an array of dimension > 1");
  if (integer) {
    if (kind == 'u' && array.dtype().itemsize() == 8 && array.size() > 0 &&
        array.attr("max")().cast<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      throwUnsupported(object, what, "an element does not fit in a 64-bit integer");
    }
    return copyVector<std::int64_t>(array);
  }
  if (kind == 'f') return copyVector<double>(array);
  if (kind == 'b') throwUnsupported(object, what, "hopsim has no vectors of bool");
  throwUnsupported(object, what);
}

py::object toPython(const Value& value) {
  return std::visit(
      [](const auto& v) -> py::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return py::bool_(v);
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return py::int_(v);
        } else if constexpr (std::is_same_v<T, double>) {
          return py::float_(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return py::str(v);
        } else {
          return newArray(std::span<const typename T::value_type>(v));
        }
      },
      value);
}

ElementType toElementType(py::handle type, const std::string& signal) {
  if (py::isinstance<ElementType>(type)) return type.cast<ElementType>();
  const std::vector<std::pair<py::handle, ElementType>> builtins{
      {reinterpret_cast<PyObject*>(&PyBool_Type), ElementType::Bool},
      {reinterpret_cast<PyObject*>(&PyLong_Type), ElementType::Int},
      {reinterpret_cast<PyObject*>(&PyFloat_Type), ElementType::Double},
      {reinterpret_cast<PyObject*>(&PyUnicode_Type), ElementType::String}};
  for (const auto& [builtin, element] : builtins) {
    if (type.is(builtin)) return element;
  }
  const std::vector<std::string> names{"bool", "int", "double", "string"};
  if (py::isinstance<py::str>(type)) {
    const auto name = type.cast<std::string>();
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (name == names[i]) return static_cast<ElementType>(i);
    }
    throw InputError("signal '" + signal + "': unknown element type '" + name + "'" +
                     didYouMean(name, names) + "; expected bool, int, double or string");
  }
  throw InputError("signal '" + signal +
                   "': the element type must be an ElementType, one of "
                   "'bool', 'int', 'double', 'string', or one of bool, int, float, str; got " +
                   py::repr(type).cast<std::string>());
}

py::str messageText(std::string_view text) {
  PyObject* decoded =
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (decoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

std::vector<py::str> messageTexts(const std::vector<std::string>& texts) {
  std::vector<py::str> decoded;
  decoded.reserve(texts.size());
  for (const std::string& text : texts) decoded.push_back(messageText(text));
  return decoded;
}

py::array_t<double> toArray(std::span<const double> values) { return newArray(values); }

}  // namespace hopsim::python
