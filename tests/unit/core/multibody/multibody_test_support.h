#pragma once
// Shared helpers of the multibody tests: seeded random trees with every hinge type, random
// states, and a small integration driver over hopsim's integrators.

#include <Eigen/Core>
#include <cmath>
#include <random>
#include <vector>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/integrators/integrator.h"

namespace hopsim::multibody::test {

inline constexpr HingeType kAllHingeTypes[] = {HingeType::Locked,
                                               HingeType::Pin,
                                               HingeType::Slider,
                                               HingeType::Cylindrical,
                                               HingeType::Ujoint,
                                               HingeType::Gimbal,
                                               HingeType::Ball,
                                               HingeType::Planar,
                                               HingeType::Translational,
                                               HingeType::Full6Dof,
                                               HingeType::Full6DofInertial};

class Random {
 public:
  explicit Random(unsigned seed) : rng_(seed) {}
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  Vector3 vector(double scale = 1.0) {
    return Vector3(uniform(-scale, scale), uniform(-scale, scale), uniform(-scale, scale));
  }
  spatial::Quaternion quaternion() {
    spatial::Quaternion q(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    return q / q.norm();
  }
  Matrix3 rotation() { return spatial::rotationFromQuaternion(quaternion()); }
  // ±x, ±y or ±z.
  Vector3 coordinateAxis() {
    const double sign = integer(0, 1) == 0 ? 1.0 : -1.0;  // drawn first, in a fixed order
    return sign * Vector3::Unit(integer(0, 2));
  }
  RigidTransform pose(double scale = 0.5) { return RigidTransform(rotation(), vector(scale)); }
  // A physically valid inertia: I = tr(J) 1 - J for a positive second-moment matrix J.
  SpatialInertia inertia() {
    const Matrix3 R = rotation();
    const Vector3 j(uniform(0.05, 1.0), uniform(0.05, 1.0), uniform(0.05, 1.0));
    const Matrix3 J = R * j.asDiagonal() * R.transpose();
    const Matrix3 I = J.trace() * Matrix3::Identity() - J;
    return SpatialInertia::fromCmInertia(uniform(0.5, 3.0), vector(0.5), I);
  }
  Hinge hinge(HingeType type) {
    const Vector3 a = vector(), b = vector(), c = vector();
    switch (type) {
      case HingeType::Locked:
        return Hinge::locked();
      case HingeType::Pin:  // half of them about ±x, ±y or ±z (the kernels' faster pose)
        return Hinge::pin(integer(0, 1) == 0 ? a : coordinateAxis());
      case HingeType::Slider:
        return Hinge::slider(a);
      case HingeType::Cylindrical:
        return Hinge::cylindrical(a);
      case HingeType::Ujoint:
        return Hinge::ujoint(a, b);
      case HingeType::Gimbal:
        return Hinge::gimbal(a, b, c);
      case HingeType::Ball:
        return Hinge::ball();
      case HingeType::Planar:
        return Hinge::planar(a, b);
      case HingeType::Translational:
        return Hinge::translational(a, b, c);
      case HingeType::Full6Dof:
        return Hinge::full6Dof();
      case HingeType::Full6DofInertial:
        return Hinge::full6DofInertial();
    }
    return Hinge::locked();
  }
  // A random tree of n bodies: random parents, hinge types cycling through every type
  // (starting at `first`), random inboard/outboard frames and mass properties. The hinges of
  // the bases (bodies attached to the world) are moved by baseOffset; the draws are the same.
  MultibodyModel tree(int n, int first = 0, const Vector3& baseOffset = Vector3::Zero()) {
    MultibodyModel model;
    model.setGravity(Vector3(0.3, -0.2, -9.81));
    for (int b = 1; b <= n; ++b) {
      const HingeType type = kAllHingeTypes[(b - 1 + first) % 11];
      const int parent = integer(0, b - 1);
      const RigidTransform X_BM = integer(0, 2) == 0 ? RigidTransform() : pose();
      RigidTransform X_PF = pose();
      if (parent == kWorldBody) {
        X_PF = RigidTransform(X_PF.rotation(), Vector3(X_PF.translation() + baseOffset));
      }
      model.addBody("b" + std::to_string(b), parent, inertia(), hinge(type), X_PF, X_BM);
    }
    return model;
  }
  // Random Q: angles and offsets in [-1.5, 1.5], random unit quaternions.
  Eigen::VectorXd configuration(const MultibodyModel& model) {
    Eigen::VectorXd q = model.neutralConfiguration();
    for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
      const Hinge& h = model.hinge(b);
      for (int k = 0; k < h.subhingeCount(); ++k) {
        const Subhinge& s = h.subhinge(k);
        const int iq = model.qStart(b) + s.qOffset;
        if (s.type == SubhingeType::Pin || s.type == SubhingeType::Slider) {
          q[iq] = uniform(-1.5, 1.5);
        } else {
          q.segment<4>(iq) = quaternion();
          if (s.type != SubhingeType::Ball) q.segment<3>(iq + 4) = vector();
        }
      }
    }
    return q;
  }
  Eigen::VectorXd vectorX(int n, double scale = 1.0) {
    Eigen::VectorXd v(n);
    for (int i = 0; i < n; ++i) v[i] = uniform(-scale, scale);
    return v;
  }
  std::vector<SpatialForce> forces(const MultibodyModel& model) {
    std::vector<SpatialForce> F(static_cast<std::size_t>(model.bodyCount()));
    for (auto& f : F) f = SpatialForce(vector(), vector());
    return F;
  }

 private:
  std::mt19937_64 rng_;
};

// One random state of model with random τ: data after aba at (q, u), and plus and minus at the
// states h after and before along the trajectory (q ± h q̇, u ± h u̇), whose central differences
// are second-order accurate (the h² q̈ terms cancel).
inline void randomStateAndNeighbours(Random& rnd, const MultibodyModel& model, MultibodyData& data,
                                     MultibodyData& plus, MultibodyData& minus, double h) {
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  const Eigen::VectorXd tau = rnd.vectorX(model.nu());
  Eigen::VectorXd qdot(model.nq());
  computeQdot(model, q, u, qdot);
  const Eigen::VectorXd udot = aba(model, data, q, u, tau);
  forwardKinematics(model, plus, Eigen::VectorXd(q + h * qdot), Eigen::VectorXd(u + h * udot));
  forwardKinematics(model, minus, Eigen::VectorXd(q - h * qdot), Eigen::VectorXd(u - h * udot));
}

// x = [Q; U]; ẋ = [Q̇(Q, U); ABA(Q, U, τ)], with τ = 0 and no external forces.
class Propagator {
 public:
  Propagator(const MultibodyModel& model, double rtol, double atol) : model_(model), data_(model) {
    IntegratorOptions options;
    options.relativeTolerance = rtol;
    options.absoluteTolerance = atol;
    integrator_ = makeIntegrator("rkf45", options);
    integrator_->resize(model.nq() + model.nu());
    tau_ = Eigen::VectorXd::Zero(model.nu());
  }
  // Advances x from t0 to t1.
  void propagate(Eigen::VectorXd& x, double t0, double t1) {
    integrator_->restart(t0, x);
    const int nq = model_.nq(), nu = model_.nu();
    const DerivativeFunction f = [&](double, const Eigen::Ref<const Eigen::VectorXd>& xs,
                                     Eigen::Ref<Eigen::VectorXd> xdot) {
      computeQdot(model_, xs.head(nq), xs.tail(nu), xdot.head(nq));
      xdot.tail(nu) = aba(model_, data_, xs.head(nq), xs.tail(nu), tau_);
    };
    integrator_->advance(f, t1, x);
  }

 private:
  const MultibodyModel& model_;
  MultibodyData data_;
  std::unique_ptr<Integrator> integrator_;
  Eigen::VectorXd tau_;
};

}  // namespace hopsim::multibody::test
