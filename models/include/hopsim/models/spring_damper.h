#pragma once
/// @file
/// SpringDamper: a linear, double-sided spring-damper between the origins of two nodes on
/// different bodies (GeneralSGModels::SpringDamper).

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// SpringDamper's equations, conventions and choices: docs/models/SpringDamper.md.
class SpringDamper final : public DartsModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> stiffness =
        param<double>("K").unit("N/m").defaultValue(0.0).min(0.0).describe("spring stiffness K");
    ParamKey<double> damping = param<double>("C").unit("N*s/m").defaultValue(0.0).min(0.0).describe(
        "damping coefficient C");
    ParamKey<double> unsprungLength = param<double>("unsprung_length")
                                          .unit("m")
                                          .defaultValue(0.0)
                                          .min(0.0)
                                          .describe("unsprung (free) length L0");
    ParamKey<std::string> fromNode =
        param<std::string>("from_node").describe("node 1, whose origin is p1; receives F1");
    ParamKey<std::string> toNode =
        param<std::string>("to_node").describe("node 2, whose origin is p2; receives F2 = -F1");
  };
  static const Declaration& declaration();

  explicit SpringDamper(std::string name) : DartsModel(std::move(name), declaration()) {}
  void preDeriv(double t) override;

 protected:
  /// @throws ModelError for an unknown node or two nodes on one body.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  MultibodySystem::NodeIndex from_ = -1, to_ = -1;
};

}  // namespace hopsim::models
