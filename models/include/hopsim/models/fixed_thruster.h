#pragma once
/// @file
/// FixedThruster: an on/off thruster of constant thrust.

#include "hopsim/models/thruster_base.h"

namespace hopsim::models {

/// FixedThruster's equations, conventions and choices: docs/models/FixedThruster.md.
class FixedThruster final : public ThrusterBase {
 public:
  struct Declaration : Fields {
    Declaration();
    ParamKey<double> level = param<double>("level").unit("N").min(0.0).describe("thrust when on");
    InKey<bool> onOff = flowIn<bool>("on_off").describe("fire (true) or not");
  };
  static const Declaration& declaration();

  explicit FixedThruster(std::string name) : ThrusterBase(std::move(name), declaration()) {}

 protected:
  double commandedThrust(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
