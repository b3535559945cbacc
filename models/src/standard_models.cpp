#include "hopsim/models/standard_models.h"

#include "hopsim/models/body_load.h"
#include "hopsim/models/body_state_sensor.h"
#include "hopsim/models/bushing.h"
#include "hopsim/models/chrono_force_motor.h"
#include "hopsim/models/chrono_motor.h"
#include "hopsim/models/continuous_integrator.h"
#include "hopsim/models/gain.h"
#include "hopsim/models/generalized_force_motor.h"
#include "hopsim/models/hinge_encoder.h"
#include "hopsim/models/mass_spring_damper.h"
#include "hopsim/models/multibody_energy.h"
#include "hopsim/models/pd_controller.h"
#include "hopsim/models/relative_angle.h"
#include "hopsim/models/rsda.h"
#include "hopsim/models/sine_wave.h"
#include "hopsim/models/smooth_contact.h"
#include "hopsim/models/tsda.h"
#include "hopsim/models/user_clock.h"
#include "hopsim/models/zero_order_hold.h"

namespace hopsim::models {

void registerStandardModels(ModelRegistry& registry) {
  registry.add<BodyLoad>();
  registry.add<BodyStateSensor>();
  registry.add<Bushing>();
  registry.add<ChronoForceMotor>();
  registry.add<ChronoMotor>();
  registry.add<ContinuousIntegrator>();
  registry.add<Gain>();
  registry.add<GeneralizedForceMotor>();
  registry.add<HingeEncoder>();
  registry.add<MassSpringDamper>();
  registry.add<MultibodyEnergy>();
  registry.add<PdController>();
  registry.add<RelativeAngle>();
  registry.add<Rsda>();
  registry.add<SineWave>();
  registry.add<SmoothContact>();
  registry.add<Tsda>();
  registry.add<UserClock>();
  registry.add<ZeroOrderHold>();
}

namespace {

ModelRegistry makeStandardRegistry() {
  ModelRegistry registry;
  registerStandardModels(registry);
  return registry;
}

}  // namespace

const ModelRegistry& standardRegistry() {
  static const ModelRegistry registry = makeStandardRegistry();
  return registry;
}

ModelRegistry& modelRegistry() {
  static ModelRegistry registry = makeStandardRegistry();
  return registry;
}

}  // namespace hopsim::models
