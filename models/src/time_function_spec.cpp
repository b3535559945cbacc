#include "hopsim/models/time_function_spec.h"

#include "hopsim/signals/error.h"

namespace hopsim::models {

TimeFunction functionFromParams(std::string_view type,
                                const Eigen::Ref<const Eigen::VectorXd>& coefficients,
                                const Eigen::Ref<const Eigen::VectorXd>& repeat,
                                const std::string& model) {
  try {
    return functionFromParams(type,
                              {coefficients.data(), static_cast<std::size_t>(coefficients.size())},
                              {repeat.data(), static_cast<std::size_t>(repeat.size())});
  } catch (const InputError& e) {
    throw InputError(model + ": " + e.what());
  }
}

}  // namespace hopsim::models
