#pragma once
/// @file
/// The parameters of one rigid body, its hinge and its nodes: what BodyAssembly and
/// VehicleAssembly build bodies from (docs/assemblies.md, "Body parameters").
#include <memory>
#include <string>
#include <vector>

#include "hopsim/assemblies/param_set.h"
#include "hopsim/core/multibody/hinge.h"
#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/core/spatial/spatial_inertia.h"

namespace hopsim {

/// A check that a double[4] is a unit quaternion, scalar first, to 1e-6 (values are
/// normalized when used, so four printed decimals are not enough but six are).
ParamCheck unitQuaternionCheck();

/// A node: a frame fixed on a body.
struct NodeParams : ParamSchema {
  NodeParams();
  SchemaKey<std::vector<double>> position =
      field<std::vector<double>>("position")
          .unit("m")
          .length(3)
          .defaultValue({0.0, 0.0, 0.0})
          .describe("origin of the node frame N in the body frame B");
  SchemaKey<std::vector<double>> orientation = field<std::vector<double>>("orientation")
                                                   .length(4)
                                                   .defaultValue({1.0, 0.0, 0.0, 0.0})
                                                   .check(unitQuaternionCheck())
                                                   .describe("unit quaternion q_BN, scalar first");
};

/// A hinge: its type, axes, where it sits on the parent and on the body, and initial Q and U.
struct HingeParams : ParamSchema {
  HingeParams();
  SchemaKey<std::string> type =
      field<std::string>("type")
          .defaultValue("FULL6DOF")
          .describe(
              "LOCKED, PIN, SLIDER, CYLINDRICAL, UJOINT, GIMBAL, BALL, PLANAR, "
              "TRANSLATIONAL, FULL6DOF or FULL6DOF_INERTIAL (any case)");
  SchemaKey<std::vector<double>> axes = field<std::vector<double>>("axes").optional().describe(
      "the subhinge axes, 3 numbers each, in their inboard frames (PIN, SLIDER, "
      "CYLINDRICAL: one; UJOINT, PLANAR: two; GIMBAL, TRANSLATIONAL: three); "
      "default z for one axis, x y (z) for several");
  SchemaKey<std::vector<double>> inboardPosition =
      field<std::vector<double>>("inboard_position")
          .unit("m")
          .length(3)
          .defaultValue({0.0, 0.0, 0.0})
          .describe("origin of the inboard frame F in the parent body frame P");
  SchemaKey<std::vector<double>> inboardOrientation =
      field<std::vector<double>>("inboard_orientation")
          .length(4)
          .defaultValue({1.0, 0.0, 0.0, 0.0})
          .check(unitQuaternionCheck())
          .describe("unit quaternion q_PF, scalar first");
  SchemaKey<std::vector<double>> outboardPosition =
      field<std::vector<double>>("outboard_position")
          .unit("m")
          .length(3)
          .defaultValue({0.0, 0.0, 0.0})
          .describe("origin of the outboard frame M in the body frame B");
  SchemaKey<std::vector<double>> outboardOrientation =
      field<std::vector<double>>("outboard_orientation")
          .length(4)
          .defaultValue({1.0, 0.0, 0.0, 0.0})
          .check(unitQuaternionCheck())
          .describe("unit quaternion q_BM, scalar first");
  SchemaKey<std::vector<double>> q = field<std::vector<double>>("q").optional().describe(
      "initial hinge coordinates Q (nq entries, SI: rad, m; quaternions scalar "
      "first); neutral when absent");
  SchemaKey<std::vector<double>> u = field<std::vector<double>>("u").optional().describe(
      "initial hinge rates U (nu entries, rad/s, m/s); zero when absent");

  /// The type is known, the axes fit it, q and u have its sizes.
  void validate(const ParamSet& set) const override;
};

/// A rigid body: mass properties about its center of mass, its hinge and its nodes.
struct BodyParams : ParamSchema {
  BodyParams();
  SchemaKey<double> mass = field<double>("mass").unit("kg").above(0.0).describe("body mass");
  SchemaKey<std::vector<double>> cm = field<std::vector<double>>("cm")
                                          .unit("m")
                                          .length(3)
                                          .defaultValue({0.0, 0.0, 0.0})
                                          .describe("center of mass in the body frame B");
  SchemaKey<std::vector<double>> inertia =
      field<std::vector<double>>("inertia").unit("kg*m^2").length(3).describe(
          "principal-axis entries Ixx, Iyy, Izz of the inertia tensor about the center "
          "of mass, in B");
  SchemaKey<std::vector<double>> products =
      field<std::vector<double>>("products")
          .unit("kg*m^2")
          .length(3)
          .defaultValue({0.0, 0.0, 0.0})
          .describe(
              "off-diagonal entries Ixy, Ixz, Iyz of the same tensor (the tensor's own "
              "entries, -∫xy dm; docs/conventions.md)");
  SchemaKey<Record<HingeParams>> hinge = field<Record<HingeParams>>("hinge")
                                             .defaultValue(InputNode::mapping({}))
                                             .describe("the hinge to the parent body");
  SchemaKey<RecordMap<NodeParams>> nodes =
      field<RecordMap<NodeParams>>("nodes")
          .defaultValue(InputNode::mapping({}))
          .describe("nodes by name (node names are unique in the whole multibody system)");

  /// The inertia tensor is positive definite and satisfies the triangle inequalities.
  void validate(const ParamSet& set) const override;
};

/// The spatial inertia about the body origin a BodyParams set describes.
spatial::SpatialInertia bodyInertia(const ParamSet& body);
/// The hinge a HingeParams set describes.
multibody::Hinge bodyHinge(const ParamSet& hinge);
/// A pose from a position (3) and a scalar-first quaternion (4, normalized here).
spatial::RigidTransform poseFrom(const std::vector<double>& position,
                                 const std::vector<double>& quaternion);

}  // namespace hopsim
