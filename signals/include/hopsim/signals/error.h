#pragma once
/// @file
/// The one exception hierarchy of hopsim. Every message says where (path, model, port, file),
/// what was found and what was expected.

#include <stdexcept>
#include <string>

namespace hopsim {

/// Base of every exception hopsim throws on purpose.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input from a user: a value, a path, a name, a parameter, a file.
class InputError : public Error {
 public:
  using Error::Error;
};

/// An InputError for a name or path that does not exist: a variable path, a signal, a model, a
/// model class, a field, an event. Python raises it as hopsim.NotFoundError, also a KeyError.
class NotFoundError : public InputError {
 public:
  using InputError::InputError;
};

/// An InputError for a value of the wrong type (a string where a number is expected). Python
/// raises it as hopsim.TypeMismatchError, also a TypeError.
class TypeMismatchError : public InputError {
 public:
  using InputError::InputError;
};

/// A model or simulation structure that cannot run as built, or an API used out of order
/// (untied port, algebraic loop, structural change while locked).
class ModelError : public Error {
 public:
  using Error::Error;
};

/// A numerical failure at run time (integrator, root finder, constraint solver).
class NumericalError : public Error {
 public:
  using Error::Error;
};

}  // namespace hopsim
