#pragma once
/// @file
/// TimeFunctionSpec: the params of a model driven by a TimeFunction, declared once.

#include <string>
#include <string_view>

#include "hopsim/core/model_spec.h"
#include "hopsim/models/time_function.h"

namespace hopsim::models {

/// The declaration base of every model driven by a TimeFunction (ChronoMotor, ChronoForceMotor,
/// BodyLoad): the params `function`, `coefficients` and `repeat`, which functionFromParams
/// turns into the function. A model's Declaration derives from it instead of ModelSpec.
struct TimeFunctionSpec : ModelSpec {
  using ModelSpec::ModelSpec;
  ParamKey<std::string> function =
      param<std::string>("function")
          .defaultValue(std::string("CONSTANT"))
          .describe("the function's type: CONSTANT, POLYNOMIAL, SINE, RAMP, DATA or CONTROLLER");
  ParamKey<Eigen::VectorXd> coefficients =
      param<Eigen::VectorXd>("coefficients")
          .length("ncoefficients")
          .describe(
              "its coefficients (TimeFunction); any value, [0] by convention, for "
              "CONTROLLER");
  ParamKey<Eigen::VectorXd> repeat =
      param<Eigen::VectorXd>("repeat").length(3).defaultValue(0.0).describe(
          "[start, width, shift] with width > 0, or [0, 0, 0] for no repeat");
};

/// functionFromParams on a model's params (the values of a TimeFunctionSpec's keys).
/// @throws InputError prefixed by `model` (the model's describe()).
TimeFunction functionFromParams(std::string_view type,
                                const Eigen::Ref<const Eigen::VectorXd>& coefficients,
                                const Eigen::Ref<const Eigen::VectorXd>& repeat,
                                const std::string& model);

}  // namespace hopsim::models
