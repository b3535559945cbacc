#pragma once
/// @file
/// FuelTank: a body's mass, centre of mass and inertia interpolated between full and empty as
/// its fuel is drawn, and its burnout as a zero crossing.

#include <string>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// FuelTank's equations, conventions and choices: docs/models/FuelTank.md.
class FuelTank final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> startingFuel =
        param<double>("starting_fuel")
            .unit("kg")
            .above(0.0)
            .describe("fuel mass of the full tank (lambda = 1), the fuel at fuel_consumed = 0");
    ParamKey<double> emptyMass = param<double>("empty_mass")
                                     .unit("kg")
                                     .above(0.0)
                                     .describe("the body's mass with an empty tank");
    ParamKey<Eigen::VectorXd> emptyCm =
        param<Eigen::VectorXd>("empty_cm")
            .length(3)
            .unit("m")
            .defaultValue(0.0)
            .describe("centre of mass with an empty tank, in the body frame");
    ParamKey<Eigen::VectorXd> emptyInertia =
        param<Eigen::VectorXd>("empty_inertia")
            .length(3)
            .unit("kg*m^2")
            .describe("Ixx, Iyy, Izz about the empty centre of mass, body axes");
    ParamKey<Eigen::VectorXd> emptyProducts =
        param<Eigen::VectorXd>("empty_products")
            .length(3)
            .unit("kg*m^2")
            .defaultValue(0.0)
            .describe("tensor entries Ixy, Ixz, Iyz of the same inertia (docs/conventions.md)");
    ParamKey<Eigen::VectorXd> fullCm =
        param<Eigen::VectorXd>("full_cm").length(3).unit("m").defaultValue(0.0).describe(
            "centre of mass with a full tank, in the body frame");
    ParamKey<Eigen::VectorXd> fullInertia =
        param<Eigen::VectorXd>("full_inertia")
            .length(3)
            .unit("kg*m^2")
            .describe("Ixx, Iyy, Izz about the full centre of mass, body axes");
    ParamKey<Eigen::VectorXd> fullProducts =
        param<Eigen::VectorXd>("full_products")
            .length(3)
            .unit("kg*m^2")
            .defaultValue(0.0)
            .describe("tensor entries Ixy, Ixz, Iyz of the full inertia");
    ContinuousStateKey<double> fuelConsumed =
        continuousState<double>("fuel_consumed")
            .unit("kg")
            .defaultValue(0.0)
            .describe("fuel drawn since full, the integral of sum(fuel_flow)");
    DiscreteStateKey<bool> empty =
        discreteState<bool>("empty").defaultValue(false).describe("the fuel has run out");
    InKey<Eigen::VectorXd> fuelFlow = flowIn<Eigen::VectorXd>("fuel_flow")
                                          .length("n")
                                          .unit("kg/s")
                                          .describe("mass flows drawn from the tank (summed)");
    OutKey<double> fuelRemaining =
        flowOut<double>("fuel_remaining")
            .unit("kg")
            .noFeedThrough()
            .describe("fuel left, max(0, starting_fuel - fuel_consumed)");
    OutKey<std::int64_t> emptyOut = flowOut<std::int64_t>("empty").noFeedThrough().describe(
        "1 once the fuel has run out, else 0 (for the thrusters' fuel_empty)");
    OutKey<double> mass =
        flowOut<double>("mass").unit("kg").noFeedThrough().describe("the body's mass now");
    CrossingKey burnout = zeroCrossing("burnout", CrossingDirection::Falling)
                              .describe("the fuel runs out: empty is set, the draw stops");
  };
  static const Declaration& declaration();

  explicit FuelTank(std::string name) : ActuatorModel(std::move(name), declaration()) {}

  void processParams(double t) override;
  void startHop(double t0, double t1) override;
  void maskedCoordinates(double t) override;
  void updateFlowOuts(double t) override;
  void postDeriv(double t) override;
  double crossingResidual(CrossingKey c, double t) override;
  void onCrossing(CrossingKey c, double t) override;

 protected:
  /// Checks the params and finds the body. @throws ModelError for a node on the world body,
  /// InputError for an invalid full or empty inertia.
  void attach(MultibodySystem& system) override;

 private:
  /// Builds and checks the full and empty mass properties from the params.
  void configure();
  /// The fuel left (kg) from the state, clamped to [0, starting_fuel].
  double fuel() const;

  const Declaration& d_ = declaration();
  MultibodySystem::BodyIndex body_ = -1;
  // Derived from the params in configure().
  spatial::Vector3 emptyCm_ = spatial::Vector3::Zero(), fullCm_ = spatial::Vector3::Zero();
  spatial::Matrix3 emptyInertia_ = spatial::Matrix3::Zero(),
                   fullInertia_ = spatial::Matrix3::Zero();
};

}  // namespace hopsim::models
