// hopsim.Error and its subclasses: the C++ exception hierarchy as Python exception classes. A C++
// exception arrives as the matching class with its message unchanged. The input errors are also
// the built-in exceptions Python code expects: InputError is a ValueError, NotFoundError (an
// unknown path or name) a KeyError, TypeMismatchError (a value of the wrong type) a TypeError.
//
// A message quotes its input, which need not be UTF-8 (a file in Latin-1, a path of arbitrary
// bytes). pybind11's own translators hand messages to PyErr_SetString, which fails on such a
// byte and leaves an exception without a message; the translator here decodes every message
// with replacement characters instead, for hopsim's errors, pybind11's and the standard ones.

#include <new>
#include <stdexcept>

#include "bindings.h"
#include "hopsim/signals/error.h"
#include "value_conversion.h"

namespace hopsim::python {
namespace {

/// The Python classes of hopsim's errors. pybind11's registry owns them for the life of the
/// process; the translator only needs to find them.
struct ErrorClasses {
  PyObject* error = nullptr;
  PyObject* input = nullptr;
  PyObject* notFound = nullptr;
  PyObject* typeMismatch = nullptr;
  PyObject* model = nullptr;
  PyObject* numerical = nullptr;
};
ErrorClasses classes;

/// Raises `type` with `message`. Should decoding fail for want of memory, its MemoryError is
/// the one raised.
void raise(PyObject* type, const char* message) {
  try {
    PyErr_SetObject(type, messageText(message).ptr());
  } catch (py::error_already_set& e) {
    e.restore();
  }
}

/// pybind11's own exceptions (py::type_error, py::attribute_error, ...) name their Python class
/// only by raising it: raised, then raised again with the message decoded.
void raiseBuiltin(const py::builtin_exception& e) {
  e.set_error();
  PyObject* type = nullptr;
  PyObject* value = nullptr;
  PyObject* traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  raise(type, e.what());
  Py_XDECREF(type);
}

/// Every C++ exception that reaches Python, most derived classes first; the standard ones map
/// to the Python classes pybind11 maps them to.
void translate(std::exception_ptr thrown) {
  try {
    std::rethrow_exception(thrown);
  } catch (const py::error_already_set&) {
    throw;  // already a Python exception: pybind11 restores it
  } catch (const py::builtin_exception& e) {
    raiseBuiltin(e);
  } catch (const NotFoundError& e) {
    raise(classes.notFound, e.what());
  } catch (const TypeMismatchError& e) {
    raise(classes.typeMismatch, e.what());
  } catch (const InputError& e) {
    raise(classes.input, e.what());
  } catch (const ModelError& e) {
    raise(classes.model, e.what());
  } catch (const NumericalError& e) {
    raise(classes.numerical, e.what());
  } catch (const Error& e) {
    raise(classes.error, e.what());
  } catch (const std::bad_alloc& e) {
    raise(PyExc_MemoryError, e.what());
  } catch (const std::out_of_range& e) {
    raise(PyExc_IndexError, e.what());
  } catch (const std::domain_error& e) {
    raise(PyExc_ValueError, e.what());
  } catch (const std::invalid_argument& e) {
    raise(PyExc_ValueError, e.what());
  } catch (const std::length_error& e) {
    raise(PyExc_ValueError, e.what());
  } catch (const std::range_error& e) {
    raise(PyExc_ValueError, e.what());
  } catch (const std::overflow_error& e) {
    raise(PyExc_OverflowError, e.what());
  } catch (const std::exception& e) {
    raise(PyExc_RuntimeError, e.what());
  }
}

}  // namespace

void bindErrors(py::module_& m) {
  // pybind11's translators for these classes are replaced by `translate`, registered after
  // them and so tried first.
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
  classes = {error.ptr(),        input.ptr(), notFound.ptr(),
             typeMismatch.ptr(), model.ptr(), numerical.ptr()};
  py::register_exception_translator(translate);
}

}  // namespace hopsim::python
