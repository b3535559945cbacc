// Simulation: the multibody system's part in lock() and in the integration sub-steps
// (docs/multibody.md, "In a simulation").

#include "hopsim/core/darts_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error_subject.h"

namespace hopsim {

void Simulation::prepareMultibody() {
  multibody_->prepare(variables_);
  for (ModelSlot& s : slots_) {
    if (auto* darts = dynamic_cast<DartsModel*>(s.model.get())) {
      about({ErrorSubject::Kind::Model, darts->name()}, [&] { darts->attach(*multibody_); });
    }
  }
  multibodyActive_ = multibody_->hasBodies();
}

void Simulation::endIntegrationSubStep() {
  if (multibodyActive_) multibody_->endIntegrationStep();
}

}  // namespace hopsim
