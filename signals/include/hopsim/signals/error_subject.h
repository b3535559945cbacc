#pragma once
/// @file
/// Errors that say which part of a simulation they are about. The executive finds some problems
/// only when it locks (an untied port, a model attached to nothing, an algebraic loop), long
/// after a front end created the model from a file; an error about a model or a signal says so
/// here, and the front end that remembers where the model was written (a scenario file) puts
/// that file:line:col in front of the message.

#include <cstdint>
#include <memory>
#include <string>

#include "hopsim/signals/error.h"

namespace hopsim {

/// The part of a simulation an error is about.
struct ErrorSubject {
  enum class Kind : std::uint8_t { Model, Signal };
  Kind kind;
  std::string name;  ///< the model's or the signal's name in the simulation
};

/// What an ErrorAbout adds to its error class: the subject.
class HasErrorSubject {
 public:
  explicit HasErrorSubject(ErrorSubject subject)
      : subject_(std::make_shared<const ErrorSubject>(std::move(subject))) {}
  virtual ~HasErrorSubject() = default;
  const ErrorSubject& subject() const { return *subject_; }

 private:
  std::shared_ptr<const ErrorSubject> subject_;  // shared: copying an exception must not throw
};

/// An error of class E (ModelError, InputError, ...) about `subject`; caught as an E like any
/// other, and errorSubject() finds its subject.
template <class E>
class ErrorAbout : public E, public HasErrorSubject {
 public:
  ErrorAbout(const std::string& message, ErrorSubject subject)
      : E(message), HasErrorSubject(std::move(subject)) {}
};

/// The subject of `error`, or nullptr when it was not thrown as an ErrorAbout.
const ErrorSubject* errorSubject(const Error& error);

/// Runs `step`; an Error it throws that has no subject yet is thrown again, as the same class
/// with the same message, about `subject`.
template <class F>
decltype(auto) about(const ErrorSubject& subject, F&& step);

/// Throws an error of the class `error` has (NotFoundError, TypeMismatchError, InputError,
/// ModelError, NumericalError or Error) with `message`; about `subject` when it is given.
[[noreturn]] void rethrowAs(const Error& error, const std::string& message,
                            const ErrorSubject* subject = nullptr);

template <class F>
decltype(auto) about(const ErrorSubject& subject, F&& step) {
  try {
    return step();
  } catch (const Error& e) {
    if (errorSubject(e) != nullptr) throw;
    rethrowAs(e, e.what(), &subject);
  }
}

}  // namespace hopsim
