#pragma once
/// @file
/// MultibodyData: the workspace and results of evaluations of one MultibodyModel.

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/core/spatial/articulated_inertia.h"
#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::multibody {

using spatial::ArticulatedInertia;
using spatial::SpatialForce;
using spatial::SpatialMotion;

/// What evaluations of a MultibodyModel compute, sized once from the model (Pinocchio's Data):
/// every array is indexed by body (index 0 = world) and laid out contiguously, so the
/// algorithms (forward_kinematics.h, rnea.h, crba.h, aba.h, hybrid_dynamics.h, energy.h) run
/// without allocating. Rebuild it after adding bodies to the model. Spatial quantities of body
/// B are about its origin Bo and expressed in its body frame B unless the name says otherwise.
struct MultibodyData {
  /// Sizes every array for `model`. Allocates.
  explicit MultibodyData(const MultibodyModel& model);

  int bodyCount;  ///< the model's bodyCount() when this was built
  int nq;         ///< the model's nq() when this was built
  int nu;         ///< the model's nu() when this was built

  // Kinematics (forwardKinematics).
  std::vector<RigidTransform> X_PB;  ///< pose of each body in its parent's body frame
  std::vector<RigidTransform> X_WB;  ///< pose of each body in the world W
  /// Motion subspace (the seed's H*) of each body's hinge in B: column k (k < hinge nu) is
  /// the spatial velocity of B relative to the parent per unit U_k, about Bo in B; the
  /// remaining columns are zero.
  std::vector<Matrix6> S_B;
  std::vector<SpatialMotion> V_WB_B;  ///< spatial velocity of B in W, about Bo, in B
  /// Velocity-product acceleration of B (the seed's 𝔞): c = c_J + V_WB × V_J, with V_J the
  /// hinge's relative velocity and c_J its own velocity-product term, about Bo in B.
  std::vector<SpatialMotion> c_B;
  std::vector<SpatialMotion> A_WB_B;  ///< spatial acceleration of B in W, about Bo, in B

  // Dynamics workspaces.
  //
  // ABA and CRBA work in one frame per tree, R: the body frame of the base of B's tree (the
  // ancestor whose parent is the world). In R a body's articulated or composite inertia adds
  // into its parent's with no change of frame (the body-frame recursion spent 40 % of its time
  // there). The world frame would do the same, but about Wo a spacecraft 7e6 m out carries
  // m |p|² ~ 1e16 in every inertia and the recursion's differences cancel those digits; and
  // with R = B for a base, a lone free body is computed in its own frame, exactly as the
  // body-frame recursion does (its bias force stays free of rotation round-off).
  std::vector<RigidTransform> X_RB;  ///< ABA, CRBA: pose of B in its tree's frame R
  //
  // The articulated-body factorization. After aba, hybridDynamics or articulatedBodyDynamics,
  // with S_f the columns of S_R for the free U entries (every entry for aba; the entries the
  // model does not mark prescribed for the hybrid calls), and the prescribed entries treated
  // as locked at their given U̇, these hold, for every body B and in hinge U order (not
  // compacted), everything about Ro, expressed in R:
  // - S_R: the hinge's motion subspace (zero beyond nu; CRBA fills it too);
  // - c_R: the velocity-product acceleration c_B;
  // - P_R: the articulated inertia of B's subtree (prescribed hinges inside it are rigid);
  // - pA_R: the bias force pᴬ of B's subtree;
  // - PS_R: column k is P_R S_R.col(k) for a free entry k, and zero for a prescribed entry
  //   and for k >= the hinge's nu;
  // - Dinv: (S_fᵀ P S_f)⁻¹ on the rows and columns of the free entries, the identity on the
  //   others (so zero between free and prescribed entries); the same in every frame;
  // - eps: τ_k - S_R.col(k)ᵀ pᴬ for a free entry k, zero otherwise (frame-free too);
  // - A_R: the spatial acceleration of B, offset by -g as A_WB_B.
  // These are what an M_ff⁻¹ f solve on the free entries reuses (aba_solve.h).
  std::vector<SpatialForce> F_B;        ///< RNEA: the spatial force across B's hinge
  std::vector<Matrix6> S_R;             ///< ABA, CRBA: motion subspaces about Ro in R
  std::vector<SpatialMotion> c_R;       ///< ABA: velocity-product accelerations about Ro
  std::vector<ArticulatedInertia> P_R;  ///< ABA: articulated inertias about Ro
  std::vector<SpatialForce> pA_R;       ///< ABA: articulated bias forces about Ro
  std::vector<Matrix6> PS_R;            ///< ABA: P_R S_f (the seed's G D), zero on other columns
  std::vector<Matrix6> Dinv;            ///< ABA: (S_fᵀ P S_f)⁻¹, identity off the free block
  std::vector<Vector6> eps;  ///< ABA: τ_f - S_fᵀ pᴬ (the seed's ε), zero off the free entries
  std::vector<SpatialMotion> A_R;  ///< ABA: spatial accelerations about Ro (offset by -g)
  std::vector<Matrix6> Ic_R;       ///< CRBA: composite inertia of each subtree about Ro

  // Results.
  /// rnea, aba, hybridDynamics: generalized forces (N·m, N per U entry); the hybrid calls put
  /// the prescribed entries' required forces here.
  Eigen::VectorXd tau;
  Eigen::VectorXd udot;  ///< aba, hybridDynamics: generalized accelerations U̇
  /// crba: mass matrix M(Q) (nu x nu, symmetric, both halves). Empty until the first crba
  /// call sizes it: nu² doubles are 75 GiB at 100 000 PIN bodies, and only CRBA needs them.
  Eigen::MatrixXd M;
  Eigen::VectorXd qdot;  ///< computeQdot: Q̇

  // energy.h results.
  double kineticEnergy{0.0};           ///< J
  double potentialEnergy{0.0};         ///< J, zero at the world origin: -Σ m g·p_WoBcm_W
  double totalMass{0.0};               ///< kg, all bodies
  Vector3 p_WoScm_W{Vector3::Zero()};  ///< system CM in W (m)
  Vector3 L_W{Vector3::Zero()};        ///< linear momentum in W (kg·m/s)
  Vector3 H_WWo_W{Vector3::Zero()};    ///< angular momentum about Wo in W (kg·m²/s)

  /// The model's structureRevision() when this was built: every algorithm refuses the data
  /// once the tree has been edited, even if the sizes still match.
  std::uint64_t modelRevision{0};
};

}  // namespace hopsim::multibody
