#include "hopsim/core/flow_model.h"

#include "hopsim/signals/error.h"

namespace hopsim {

FlowModel::FlowModel(std::string name, const ModelSpec& spec)
    : Model(std::move(name), spec, ModelKind::Flow) {
  if (!spec.fields(FieldRole::ContinuousState).empty()) {
    throw ModelError(describe() +
                     ": a FlowModel has no continuous states; derive from "
                     "ContinuousModel to integrate them");
  }
}

}  // namespace hopsim
