#include "hopsim/signals/error_subject.h"

namespace hopsim {
namespace {

template <class E>
[[noreturn]] void throwAs(const std::string& message, const ErrorSubject* subject) {
  if (subject != nullptr) throw ErrorAbout<E>(message, *subject);
  throw E(message);
}

}  // namespace

const ErrorSubject* errorSubject(const Error& error) {
  const auto* about = dynamic_cast<const HasErrorSubject*>(&error);
  return about != nullptr ? &about->subject() : nullptr;
}

void rethrowAs(const Error& error, const std::string& message, const ErrorSubject* subject) {
  // Most derived classes first.
  if (dynamic_cast<const NotFoundError*>(&error)) throwAs<NotFoundError>(message, subject);
  if (dynamic_cast<const TypeMismatchError*>(&error)) throwAs<TypeMismatchError>(message, subject);
  if (dynamic_cast<const InputError*>(&error)) throwAs<InputError>(message, subject);
  if (dynamic_cast<const ModelError*>(&error)) throwAs<ModelError>(message, subject);
  if (dynamic_cast<const NumericalError*>(&error)) throwAs<NumericalError>(message, subject);
  throwAs<Error>(message, subject);
}

}  // namespace hopsim
