#include "hinge_attachment.h"

#include <string>

#include "hopsim/core/multibody/hinge.h"
#include "hopsim/signals/error.h"

namespace hopsim::models::detail {

void refuseHinge(const Model& model, const multibody::MultibodyModel& tree,
                 multibody::BodyIndex body, int subhinge, const char* expected, int nq, int nu) {
  const std::string where = subhinge < 0 ? "hinge" : "subhinge " + std::to_string(subhinge);
  throw ModelError(model.describe() + " needs " + expected + ", but the " + where + " of body '" +
                   tree.bodyName(body) + "' (" +
                   std::string(multibody::toString(tree.hinge(body).type())) +
                   ") has nq = " + std::to_string(nq) + " and nu = " + std::to_string(nu));
}

}  // namespace hopsim::models::detail
