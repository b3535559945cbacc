#include "hopsim/core/multibody/constraints.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "hinge_kernels.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "hopsim/core/multibody/qdot.h"
#include "pivoted_ldlt.h"

namespace hopsim::multibody {
namespace {

// Relative size below which a dot product is round-off from cancelling terms (64 ulp).
constexpr double kCancellation = 64.0 * std::numeric_limits<double>::epsilon();

using Row = ConstraintRow;

void checkConstraintData(const MultibodyModel& model, const ConstraintSet& set,
                         const ConstraintData& cdata, std::string_view where) {
  if (set.bodyCount() != model.bodyCount() || cdata.bodyCount != model.bodyCount() ||
      cdata.nq != model.nq() || cdata.nu != model.nu() || cdata.rows != set.rowCount()) {
    throw InputError(std::string(where) + ": the ConstraintData was built for " +
                     std::to_string(cdata.bodyCount) + " bodies (nu " + std::to_string(cdata.nu) +
                     ", " + std::to_string(cdata.rows) + " constraint rows) and the set for " +
                     std::to_string(set.bodyCount()) + " bodies, but the model has " +
                     std::to_string(model.bodyCount()) + " (nu " + std::to_string(model.nu()) +
                     ") and the set " + std::to_string(set.rowCount()) +
                     " rows; rebuild the ConstraintData");
  }
}

// The motion of a point fixed on a body, in W: the body's angular velocity and acceleration
// and the point's position, velocity and (classical) acceleration. Accelerations are those
// with U̇ = 0 and no gravity, the part of φ̈ that γ cancels.
struct PointMotion {
  Vector3 w{Vector3::Zero()}, alpha{Vector3::Zero()};
  Vector3 p{Vector3::Zero()}, v{Vector3::Zero()}, a{Vector3::Zero()};
};

PointMotion pointMotion(const MultibodyData& data, const ConstraintData& cdata, BodyIndex b,
                        const Vector3& p_BoP_B, bool withVelocity) {
  const auto i = static_cast<std::size_t>(b);
  const RigidTransform& X_WB = data.X_WB[i];
  PointMotion m;
  m.p = X_WB * p_BoP_B;
  if (!withVelocity) return m;
  const SpatialMotion& V = data.V_WB_B[i];
  const Vector6& A = cdata.A_bias[i];
  const Matrix3& R = X_WB.rotation();
  const Vector3 w_B = V.rotational();
  const Vector3 alpha_B = A.head<3>();
  m.w = R * w_B;
  m.alpha = R * alpha_B;
  m.v = R * (Vector3(V.translational()) + w_B.cross(p_BoP_B));
  // A spatial acceleration's linear part is the acceleration of the body point passing
  // through the reference point minus ω × its velocity.
  m.a = R * (A.tail<3>() + alpha_B.cross(p_BoP_B)) + m.w.cross(m.v);
  return m;
}

// A unit direction fixed on a body, in W, with its rate and (U̇ = 0) second derivative.
struct DirectionMotion {
  Vector3 e, de, dde;
};

DirectionMotion directionMotion(const RigidTransform& X_WB, const PointMotion& body,
                                const Vector3& e_B) {
  DirectionMotion d;
  d.e = X_WB.rotation() * e_B;
  d.de = body.w.cross(d.e);
  d.dde = body.alpha.cross(d.e) + body.w.cross(d.de);
  return d;
}

// φ, G and (withVelocity) γ of every row; see ConstraintRow for the three forms.
void evaluate(const MultibodyModel& model, const ConstraintSet& set, const MultibodyData& data,
              ConstraintData& cdata, bool withVelocity, std::string_view where) {
  detail::checkData(model, data, where);
  checkConstraintData(model, set, cdata, where);
  if (withVelocity) {
    cdata.A_bias[0].setZero();
    for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
      const auto i = static_cast<std::size_t>(b);
      const auto p = static_cast<std::size_t>(model.parent(b));
      cdata.A_bias[i] =
          SpatialTransform(data.X_PB[i]).inverseApply(SpatialMotion(cdata.A_bias[p])).vector() +
          data.c_B[i].vector();
    }
  }
  for (int ci = 0; ci < set.size(); ++ci) {
    const Constraint& c = set.constraint(ci);
    const auto ia = static_cast<std::size_t>(c.bodyA);
    const auto ib = static_cast<std::size_t>(c.bodyB);
    const RigidTransform& X_WA = data.X_WB[ia];
    const RigidTransform& X_WB = data.X_WB[ib];
    const PointMotion P = pointMotion(data, cdata, c.bodyA, c.p_AoP_A, withVelocity);
    const PointMotion Q = pointMotion(data, cdata, c.bodyB, c.p_BoQ_B, withVelocity);
    const Vector3 d = Q.p - P.p;
    const Vector3 dd = Q.v - P.v;
    const Vector3 ddd = Q.a - P.a;
    cdata.p_WoQ_W[static_cast<std::size_t>(ci)] = Q.p;
    // Both Jacobians at Q, so every row is a spatial force about Q paired with J_rel.
    frameJacobian(model, data, c.bodyA, X_WA.inverseApplyToPoint(Q.p), cdata.J_A);
    frameJacobian(model, data, c.bodyB, c.p_BoQ_B, cdata.J_rel);
    cdata.J_rel -= cdata.J_A;

    for (int k = 0; k < c.rowCount; ++k) {
      const Row& row = c.rows[static_cast<std::size_t>(k)];
      const int r = c.rowStart + k;
      Vector6 w = Vector6::Zero();
      double phi = 0.0, ddphi = 0.0;
      switch (row.kind) {
        case Row::Kind::DirectionDirection: {
          const DirectionMotion a = directionMotion(X_WA, P, row.a);
          const DirectionMotion b = directionMotion(X_WB, Q, row.b);
          phi = a.e.dot(b.e) - row.offset;
          w.head<3>() = b.e.cross(a.e);
          ddphi = a.dde.dot(b.e) + 2.0 * a.de.dot(b.de) + a.e.dot(b.dde);
          break;
        }
        case Row::Kind::DirectionSeparation: {
          const DirectionMotion a =
              row.directionOnB ? directionMotion(X_WB, Q, row.a) : directionMotion(X_WA, P, row.a);
          phi = a.e.dot(d) - row.offset;
          // A unit force along a at Q on B (a on A), or at P (a on B: moment a × d about Q).
          if (row.directionOnB) w.head<3>() = a.e.cross(d);
          w.tail<3>() = a.e;
          ddphi = a.dde.dot(d) + 2.0 * a.de.dot(dd) + a.e.dot(ddd);
          break;
        }
        case Row::Kind::Distance: {
          const double length = d.norm();
          const Vector3 n = d / length;
          phi = length - row.offset;
          w.tail<3>() = n;
          const double along = n.dot(dd);
          ddphi = n.dot(ddd) + (dd.squaredNorm() - along * along) / length;
          break;
        }
      }
      cdata.phi[r] = phi;
      cdata.W.col(r) = w;
      // An entry that cancels to round-off is zero: a row the tree already enforces (a cut
      // joint that repeats a tree hinge) must read as redundant, not as a tiny, arbitrary row
      // that the factorization would take as independent.
      const double wNorm = w.norm();
      for (int j = 0; j < model.nu(); ++j) {
        const double g = w.dot(cdata.J_rel.col(j));
        cdata.G(r, j) = std::abs(g) > kCancellation * wNorm * cdata.J_rel.col(j).norm() ? g : 0.0;
      }
      if (withVelocity) cdata.gamma[r] = -ddphi;
    }
  }
}

// The constraint whose rows have the largest |value| (value = φ or G U), for messages.
std::string worstConstraint(const ConstraintSet& set, const Eigen::VectorXd& value, double& worst) {
  int which = 0;
  worst = 0.0;
  for (int ci = 0; ci < set.size(); ++ci) {
    const Constraint& c = set.constraint(ci);
    for (int k = 0; k < c.rowCount; ++k) {
      const double v = std::abs(value[c.rowStart + k]);
      if (!(v <= worst)) {
        worst = v;
        which = ci;
      }
    }
  }
  return set.size() == 0 ? std::string() : set.constraint(which).name;
}

double largestMagnitude(const Eigen::VectorXd& v) {
  return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff();
}

// K = G X factorized, for an X whose product with G is symmetric (Gᵀ or M⁻¹Gᵀ): only the upper
// triangle is computed and mirrored.
template <class Columns>
void factorizeSymmetricProduct(ConstraintData& cdata, const Columns& X) {
  const int m = cdata.rows;
  for (int i = 0; i < m; ++i) {
    for (int j = i; j < m; ++j) {
      const double k = cdata.G.row(i).dot(X.col(j));
      cdata.K(i, j) = k;
      cdata.K(j, i) = k;
    }
  }
  cdata.rank = detail::factorizePivotedLdlt(cdata.K, cdata.perm, cdata.rankTolerance);
}

// M⁻¹Gᵀ column by column with the factorization in data, then K = G M⁻¹ Gᵀ factorized.
void factorizeMassWeighted(const MultibodyModel& model, const MultibodyData& data,
                           ConstraintData& cdata) {
  for (int i = 0; i < cdata.rows; ++i) {
    cdata.column = cdata.G.row(i).transpose();
    abaSolve(model, data, cdata.solve, cdata.column, {}, cdata.MinvGt.col(i));
  }
  factorizeSymmetricProduct(cdata, cdata.MinvGt);
}

}  // namespace

ConstraintData::ConstraintData(const MultibodyModel& model, const ConstraintSet& set)
    : bodyCount(model.bodyCount()),
      nq(model.nq()),
      nu(model.nu()),
      rows(set.rowCount()),
      solve(model) {
  if (set.bodyCount() != model.bodyCount()) {
    throw InputError("ConstraintData: the ConstraintSet was made for a model of " +
                     std::to_string(set.bodyCount()) + " bodies but this model has " +
                     std::to_string(model.bodyCount()) + " (expected the set's model)");
  }
  const auto n = static_cast<std::size_t>(set.size());
  phi = Eigen::VectorXd::Zero(rows);
  G = Eigen::MatrixXd::Zero(rows, nu);
  gamma = Eigen::VectorXd::Zero(rows);
  lambda = Eigen::VectorXd::Zero(rows);
  impulse = Eigen::VectorXd::Zero(rows);
  tauConstraint = Eigen::VectorXd::Zero(nu);
  p_WoQ_W.assign(n, Vector3::Zero());
  F_B_Q_W.assign(n, SpatialForce());
  F_A_Q_W.assign(n, SpatialForce());
  W = Matrix6X::Zero(6, rows);
  J_A = Matrix6X::Zero(6, nu);
  J_rel = Matrix6X::Zero(6, nu);
  A_bias.assign(static_cast<std::size_t>(bodyCount), Vector6::Zero());
  MinvGt = Eigen::MatrixXd::Zero(nu, rows);
  K = Eigen::MatrixXd::Zero(rows, rows);
  perm = Eigen::VectorXi::Zero(rows);
  rhs = Eigen::VectorXd::Zero(rows);
  scratch = Eigen::VectorXd::Zero(rows);
  column = Eigen::VectorXd::Zero(nu);
  du = Eigen::VectorXd::Zero(nu);
  dq = Eigen::VectorXd::Zero(nq);
  zeroTau = Eigen::VectorXd::Zero(nu);
}

void evaluateConstraintPositions(const MultibodyModel& model, const ConstraintSet& set,
                                 const MultibodyData& data, ConstraintData& cdata) {
  evaluate(model, set, data, cdata, false, "evaluateConstraintPositions");
}

void evaluateConstraints(const MultibodyModel& model, const ConstraintSet& set,
                         const MultibodyData& data, ConstraintData& cdata) {
  evaluate(model, set, data, cdata, true, "evaluateConstraints");
}

const Eigen::VectorXd& applyConstraints(const MultibodyModel& model, const ConstraintSet& set,
                                        MultibodyData& data, ConstraintData& cdata) {
  evaluate(model, set, data, cdata, true, "applyConstraints");
  const int m = cdata.rows;
  if (m == 0) return data.udot;
  factorizeMassWeighted(model, data, cdata);
  for (int i = 0; i < m; ++i) cdata.rhs[i] = cdata.gamma[i] - cdata.G.row(i).dot(data.udot);
  detail::solvePivotedLdlt(cdata.K, cdata.perm, cdata.rank, cdata.rhs, cdata.scratch, cdata.lambda);
  cdata.tauConstraint.noalias() = cdata.G.transpose() * cdata.lambda;
  // The response to Gᵀλ, one more O(N) solve: ΔU̇ = M⁻¹Gᵀλ and the body accelerations it adds,
  // so that data.A_WB_B stays the accelerations of data.udot (hinge forces and sensors read
  // them).
  abaSolve(model, data, cdata.solve, cdata.tauConstraint, {}, cdata.du);
  data.udot += cdata.du;
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const SpatialMotion dA_R(cdata.solve.accel[i]);
    data.A_R[i] += dA_R;
    data.A_WB_B[i] += SpatialTransform(data.X_RB[i]).inverseApply(dA_R);
  }
  if (model.prescribedCount() > 0) {
    // A prescribed entry's actuator now also balances the constraint forces: its required
    // force grows by (M ΔU̇)_p - (Gᵀλ)_p, the hinge force of the solve with τ = Gᵀλ minus the
    // part Gᵀλ applies itself.
    for (int k = 0; k < model.nu(); ++k) {
      if (model.isPrescribed(k)) {
        data.tau[k] += cdata.solve.hingeForce[k] - cdata.tauConstraint[k];
      }
    }
  }
  for (int ci = 0; ci < set.size(); ++ci) {
    const Constraint& c = set.constraint(ci);
    Vector6 F = Vector6::Zero();
    for (int k = 0; k < c.rowCount; ++k) {
      F += cdata.lambda[c.rowStart + k] * cdata.W.col(c.rowStart + k);
    }
    cdata.F_B_Q_W[static_cast<std::size_t>(ci)] = SpatialForce(F);
    cdata.F_A_Q_W[static_cast<std::size_t>(ci)] = SpatialForce(Vector6(-F));
  }
  return data.udot;
}

void addConstraintLoads(const MultibodyModel& model, const ConstraintSet& set,
                        const MultibodyData& data, const ConstraintData& cdata,
                        std::span<SpatialForce> F_B) {
  constexpr const char* kWhere = "addConstraintLoads";
  detail::checkData(model, data, kWhere);
  if (cdata.rows != set.rowCount() || cdata.bodyCount != model.bodyCount()) {
    throw InputError(std::string(kWhere) +
                     ": the ConstraintData was built for another model or "
                     "constraint set; rebuild it");
  }
  if (static_cast<int>(F_B.size()) != model.bodyCount()) {
    throw InputError(std::string(kWhere) + ": loads given for " + std::to_string(F_B.size()) +
                     " bodies (expected " + std::to_string(model.bodyCount()) +
                     ", one per body including the world)");
  }
  // A force about Q in W, moved to Bo and expressed in B.
  const auto add = [&](BodyIndex b, const SpatialForce& F_Q_W, const Vector3& p_WoQ_W) {
    if (b == kWorldBody) return;
    const RigidTransform& X_WB = data.X_WB[static_cast<std::size_t>(b)];
    const Vector3 torqueAboutBo =
        F_Q_W.rotational() + (p_WoQ_W - X_WB.translation()).cross(F_Q_W.translational());
    const Matrix3 R_BW = X_WB.rotation().transpose();
    F_B[static_cast<std::size_t>(b)] +=
        SpatialForce(Vector3(R_BW * torqueAboutBo), Vector3(R_BW * F_Q_W.translational()));
  };
  for (int c = 0; c < set.size(); ++c) {
    const Constraint& constraint = set.constraint(c);
    const auto i = static_cast<std::size_t>(c);
    add(constraint.bodyA, cdata.F_A_Q_W[i], cdata.p_WoQ_W[i]);
    add(constraint.bodyB, cdata.F_B_Q_W[i], cdata.p_WoQ_W[i]);
  }
}

ProjectionResult projectPositions(const MultibodyModel& model, const ConstraintSet& set,
                                  MultibodyData& data, ConstraintData& cdata,
                                  Eigen::Ref<Eigen::VectorXd> q, double tolerance,
                                  int maxIterations) {
  constexpr const char* kWhere = "projectPositions";
  detail::checkSize(q.size(), model.nq(), kWhere, "q");
  for (int iteration = 0;; ++iteration) {
    forwardKinematics(model, data, q);
    evaluate(model, set, data, cdata, false, kWhere);
    const double residual = largestMagnitude(cdata.phi);
    if (residual <= tolerance) return ProjectionResult{iteration, residual};
    if (iteration >= maxIterations) {
      double worst = 0.0;
      const std::string name = worstConstraint(set, cdata.phi, worst);
      std::ostringstream message;
      message << kWhere << ": constraint \"" << name << "\" is still violated by " << worst
              << " after " << maxIterations << " Gauss-Newton iterations (expected at most "
              << tolerance << ")";
      throw NumericalError(message.str());
    }
    for (int j = 0; j < model.nu(); ++j) {
      if (model.isPrescribed(j)) cdata.G.col(j).setZero();
    }
    factorizeSymmetricProduct(cdata, cdata.G.transpose());
    detail::solvePivotedLdlt(cdata.K, cdata.perm, cdata.rank, cdata.phi, cdata.scratch, cdata.rhs);
    cdata.du.noalias() = -cdata.G.transpose() * cdata.rhs;
    computeQdot(model, q, cdata.du, cdata.dq);
    q += cdata.dq;
    normalizeQuaternions(model, q);
  }
}

ProjectionResult projectVelocities(const MultibodyModel& model, const ConstraintSet& set,
                                   MultibodyData& data, ConstraintData& cdata,
                                   const Eigen::Ref<const Eigen::VectorXd>& q,
                                   Eigen::Ref<Eigen::VectorXd> u, double tolerance) {
  constexpr const char* kWhere = "projectVelocities";
  detail::checkSize(q.size(), model.nq(), kWhere, "q");
  detail::checkSize(u.size(), model.nu(), kWhere, "u");
  checkConstraintData(model, set, cdata, kWhere);
  const int m = cdata.rows;
  if (m == 0) return ProjectionResult{1, 0.0};
  // The factorization at Q (prescribed entries held, as in the dynamics).
  hybridDynamics(model, data, q, u, cdata.zeroTau, cdata.zeroTau);
  evaluate(model, set, data, cdata, false, kWhere);
  factorizeMassWeighted(model, data, cdata);
  cdata.rhs.noalias() = cdata.G * u;
  detail::solvePivotedLdlt(cdata.K, cdata.perm, cdata.rank, cdata.rhs, cdata.scratch,
                           cdata.impulse);
  // Impulses in the mass metric, not force multipliers: λ of the last evaluation stays.
  u.noalias() -= cdata.MinvGt * cdata.impulse;
  cdata.rhs.noalias() = cdata.G * u;
  const double residual = largestMagnitude(cdata.rhs);
  if (!(residual <= tolerance)) {
    double worst = 0.0;
    const std::string name = worstConstraint(set, cdata.rhs, worst);
    std::ostringstream message;
    message << kWhere << ": constraint \"" << name
            << "\" still has a velocity residual |G U| = " << worst
            << " after the projection (expected at most " << tolerance
            << "; redundant constraints with inconsistent velocities?)";
    throw NumericalError(message.str());
  }
  return ProjectionResult{1, residual};
}

}  // namespace hopsim::multibody
