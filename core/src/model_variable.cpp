#include "model_variable.h"

#include "hopsim/signals/error.h"

namespace hopsim {

std::size_t ModelFieldVariable::length() const {
  if (!isPort()) return model_->fieldBuffer(role_, index_).length();
  const SignalSlice& slice = model_->binding(role_, index_);
  return slice.valid() ? slice.length() : field().length;
}

double ModelFieldVariable::element(std::size_t i) const {
  if (isPort() || type() == ElementType::String || i >= length()) return Variable::element(i);
  return model_->fieldBuffer(role_, index_).element(i);
}

void ModelFieldVariable::set(const Value& value, std::string_view path) {
  if (isPort()) {
    throw InputError("variable '" + std::string(path) +
                     "' is a port and read-only; set the signal it is tied to");
  }
  model_->set(role_, field().name, value);
}

}  // namespace hopsim
