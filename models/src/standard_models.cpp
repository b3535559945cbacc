#include "hopsim/models/standard_models.h"

#include "hopsim/models/accelerometer.h"
#include "hopsim/models/arc_traj.h"
#include "hopsim/models/ball_encoder.h"
#include "hopsim/models/ball_joint_spring_damper.h"
#include "hopsim/models/bearing_angle.h"
#include "hopsim/models/bekker_wheel_soil_contact.h"
#include "hopsim/models/body_load.h"
#include "hopsim/models/body_state_sensor.h"
#include "hopsim/models/bushing.h"
#include "hopsim/models/chrono_force_motor.h"
#include "hopsim/models/chrono_motor.h"
#include "hopsim/models/cm_frame_state_sensor.h"
#include "hopsim/models/compliant_contact.h"
#include "hopsim/models/compute_plane_penetration.h"
#include "hopsim/models/continuous_integrator.h"
#include "hopsim/models/dc_motor_vin.h"
#include "hopsim/models/external_force_torque.h"
#include "hopsim/models/external_single_dof_disturbance.h"
#include "hopsim/models/fiala_tire.h"
#include "hopsim/models/first_order_filter.h"
#include "hopsim/models/fixed_thruster.h"
#include "hopsim/models/fuel_manifold.h"
#include "hopsim/models/fuel_tank.h"
#include "hopsim/models/gain.h"
#include "hopsim/models/generalized_accel_motor.h"
#include "hopsim/models/generalized_force_motor.h"
#include "hopsim/models/generalized_spring_damper_motor.h"
#include "hopsim/models/gimbal_encoder.h"
#include "hopsim/models/hinge_encoder.h"
#include "hopsim/models/joint_force_torque_sensor.h"
#include "hopsim/models/locomotion.h"
#include "hopsim/models/magic_formula_tire.h"
#include "hopsim/models/mass_spring_damper.h"
#include "hopsim/models/multibody_energy.h"
#include "hopsim/models/node_pos_vel_accel_sensor.h"
#include "hopsim/models/noisy_attitude.h"
#include "hopsim/models/noisy_node_pos_vel_accel_sensor.h"
#include "hopsim/models/pd_controller.h"
#include "hopsim/models/pid.h"
#include "hopsim/models/pin_rate.h"
#include "hopsim/models/point_mass_gravity.h"
#include "hopsim/models/prescribed_motion_motor.h"
#include "hopsim/models/pulsed_thruster.h"
#include "hopsim/models/pulsed_thruster_blowdown.h"
#include "hopsim/models/rate_gyro.h"
#include "hopsim/models/reaction_wheel.h"
#include "hopsim/models/relative_angle.h"
#include "hopsim/models/rsda.h"
#include "hopsim/models/second_order_response.h"
#include "hopsim/models/signal_mux.h"
#include "hopsim/models/sine_wave.h"
#include "hopsim/models/single_trapezoidal_profile.h"
#include "hopsim/models/smooth_contact.h"
#include "hopsim/models/soft_joint_stop.h"
#include "hopsim/models/spherical_harmonic_gravity.h"
#include "hopsim/models/spring_damper.h"
#include "hopsim/models/spring_damper_motor.h"
#include "hopsim/models/steering4w_flow.h"
#include "hopsim/models/steering_status.h"
#include "hopsim/models/terrain_penetration.h"
#include "hopsim/models/throttled_thruster.h"
#include "hopsim/models/tilt_vector.h"
#include "hopsim/models/tsda.h"
#include "hopsim/models/ujoint_spring_damper.h"
#include "hopsim/models/uniform_gravity.h"
#include "hopsim/models/user_clock.h"
#include "hopsim/models/zero_order_hold.h"

namespace hopsim::models {

void registerStandardModels(ModelRegistry& registry) {
  registry.add<Accelerometer>();
  registry.add<ArcTraj>();
  registry.add<BallEncoder>();
  registry.add<BallJointSpringDamper>();
  registry.add<BearingAngle>();
  registry.add<BekkerWheelSoilContact>();
  registry.add<BodyLoad>();
  registry.add<BodyStateSensor>();
  registry.add<Bushing>();
  registry.add<ChronoForceMotor>();
  registry.add<ChronoMotor>();
  registry.add<CmFrameStateSensor>();
  registry.add<CompliantContact>();
  registry.add<ComputePlanePenetration>();
  registry.add<ContinuousIntegrator>();
  registry.add<DCMotorVin>();
  registry.add<ExternalForceTorque>();
  registry.add<ExternalSingleDofDisturbance>();
  registry.add<FialaTire>();
  registry.add<FirstOrderFilter>();
  registry.add<FixedThruster>();
  registry.add<FuelManifold>();
  registry.add<FuelTank>();
  registry.add<Gain>();
  registry.add<GeneralizedAccelMotor>();
  registry.add<GeneralizedForceMotor>();
  registry.add<GeneralizedSpringDamperMotor>();
  registry.add<GimbalEncoder>();
  registry.add<HingeEncoder>();
  registry.add<JointForceTorqueSensor>();
  registry.add<Locomotion>();
  registry.add<MagicFormulaTire>();
  registry.add<MassSpringDamper>();
  registry.add<MultibodyEnergy>();
  registry.add<NodePosVelAccelSensor>();
  registry.add<NoisyAttitude>();
  registry.add<NoisyNodePosVelAccelSensor>();
  registry.add<PdController>();
  registry.add<Pid>();
  registry.add<PinRate>();
  registry.add<PointMassGravity>();
  registry.add<PrescribedMotionMotor>();
  registry.add<PulsedThruster>();
  registry.add<PulsedThrusterBlowdown>();
  registry.add<RateGyro>();
  registry.add<ReactionWheel>();
  registry.add<RelativeAngle>();
  registry.add<Rsda>();
  registry.add<SecondOrderResponse>();
  registry.add<SignalMux>();
  registry.add<SineWave>();
  registry.add<SingleTrapezoidalProfile>();
  registry.add<SmoothContact>();
  registry.add<SoftJointStop>();
  registry.add<SphericalHarmonicGravity>();
  registry.add<SpringDamper>();
  registry.add<SpringDamperMotor>();
  registry.add<Steering4WFlow>();
  registry.add<SteeringStatus>();
  registry.add<TerrainPenetration>();
  registry.add<ThrottledThruster>();
  registry.add<TiltVector>();
  registry.add<Tsda>();
  registry.add<UjointSpringDamper>();
  registry.add<UniformGravity>();
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
