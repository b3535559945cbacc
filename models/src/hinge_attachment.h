#pragma once
// Shared by the hinge models that fit only some hinges (the spring-dampers, SoftJointStop,
// DCMotorVin): the error that says what the attached hinge is and what would fit.

#include "hopsim/core/model.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::models::detail {

/// @throws ModelError "<model> needs <expected>, but the hinge (or subhinge k) of body 'b'
/// (TYPE) has nq = .. and nu = ..".
[[noreturn]] void refuseHinge(const Model& model, const multibody::MultibodyModel& tree,
                              multibody::BodyIndex body, int subhinge, const char* expected, int nq,
                              int nu);

}  // namespace hopsim::models::detail
