// hopsim.Error and its subclasses: the C++ exception hierarchy as Python exception classes. A C++
// exception arrives as the matching class with its message unchanged. The input errors are also
// the built-in exceptions Python code expects: InputError is a ValueError, NotFoundError (an
// unknown path or name) a KeyError, TypeMismatchError (a value of the wrong type) a TypeError.

#include "bindings.h"
#include "hopsim/signals/error.h"

namespace hopsim::python {

void bindErrors(py::module_& m) {
  // Translators run most recent first, so the base is registered before its subclasses.
  auto& error = py::register_exception<Error>(m, "Error", PyExc_RuntimeError);
  error.attr("__doc__") =
      "Base of every exception hopsim raises on purpose. The message says where (path, model, "
      "port, file), what was found and what was expected.";
  auto& input = py::register_exception<InputError>(
      m, "InputError", py::make_tuple(error, py::handle(PyExc_ValueError)));
  input.attr("__doc__") =
      "Bad input from a user: a value, a path, a name, a parameter, a file. Also a ValueError.";
  auto& notFound = py::register_exception<NotFoundError>(
      m, "NotFoundError", py::make_tuple(input, py::handle(PyExc_KeyError)));
  notFound.attr("__doc__") =
      "An unknown variable path, signal, model, model class, field or event name; the message "
      "suggests the nearest names. Also a KeyError (printed without KeyError's quotes).";
  // KeyError's str() quotes its message; hopsim's messages read the same in C++ and Python.
  notFound.attr("__str__") = py::module_::import("builtins").attr("BaseException").attr("__str__");
  auto& typeMismatch = py::register_exception<TypeMismatchError>(
      m, "TypeMismatchError", py::make_tuple(input, py::handle(PyExc_TypeError)));
  typeMismatch.attr("__doc__") =
      "A value of the wrong type for its destination (a string for a number). Also a TypeError.";
  auto& model = py::register_exception<ModelError>(m, "ModelError", error.ptr());
  model.attr("__doc__") =
      "A model or simulation structure that cannot run as built, or an API used out of order "
      "(untied port, algebraic loop, structural change while locked).";
  auto& numerical = py::register_exception<NumericalError>(m, "NumericalError", error.ptr());
  numerical.attr("__doc__") =
      "A numerical failure at run time (integrator, root finder, constraint solver).";
}

}  // namespace hopsim::python
