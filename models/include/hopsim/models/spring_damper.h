#pragma once
/// @file
/// SpringDamper: a linear, double-sided spring-damper between the origins of two nodes on
/// different bodies (GeneralSGModels::SpringDamper).

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// A spring-damper between the origin p1 of from_node and the origin p2 of to_node (seed
/// 29.24). With r = p2 - p1, L = |r|, u = r / L and L' = u.(v2 - v1), the tension
/// T = K (L - L0) + C L' pulls the nodes together: F1 = T u acts on from_node at p1 and
/// F2 = -F1 on to_node at p2. It is double-sided (T < 0 pushes the nodes apart). At L = 0 the
/// direction is undefined and no force is applied (the guard of the seed's L -> 0). The nodes
/// must be on different bodies (either may be on the world body). The seed's model has no
/// flows; neither has this one.
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
