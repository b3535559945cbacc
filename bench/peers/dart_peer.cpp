#include "dart_peer.h"

#include <dart/config.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/Inertia.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/simulation/World.hpp>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace hopsim::bench::peers {
namespace {

using dart::dynamics::BodyNode;
using dart::dynamics::FreeJoint;
using dart::dynamics::RevoluteJoint;
using dart::dynamics::Skeleton;

Eigen::Isometry3d isometry(const RigidTransform& X) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = X.rotation();
  T.translation() = X.translation();
  return T;
}

std::shared_ptr<Skeleton> makeSkeleton(const Problem& p) {
  const std::vector<BodyDescription> bodies = describeBodies(p.model);
  auto skeleton = Skeleton::create(p.name);
  skeleton->setGravity(p.model.gravity());
  std::vector<BodyNode*> node(bodies.size() + 1, nullptr);  // index 0: the world (nullptr)
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const BodyDescription& d = bodies[i];
    BodyNode* parent = node[static_cast<std::size_t>(d.parent)];
    BodyNode* body = nullptr;
    if (d.free) {
      FreeJoint::Properties joint;
      joint.mName = "j" + std::to_string(i + 1);
      joint.mT_ParentBodyToJoint = isometry(d.X_PF);
      body = skeleton->createJointAndBodyNodePair<FreeJoint>(parent, joint).second;
    } else {
      RevoluteJoint::Properties joint;
      joint.mName = "j" + std::to_string(i + 1);
      joint.mAxis = d.axis;
      joint.mT_ParentBodyToJoint = isometry(d.X_PF);
      body = skeleton->createJointAndBodyNodePair<RevoluteJoint>(parent, joint).second;
    }
    body->setName("b" + std::to_string(i + 1));
    body->setInertia(
        dart::dynamics::Inertia(d.mass, d.com, Matrix3(d.inertiaDiagonal.asDiagonal())));
    node[i + 1] = body;
  }
  return skeleton;
}

}  // namespace

DartPeer::DartPeer(const Problem& p) : skeleton_(makeSkeleton(p)), floatingBase_(p.floatingBase) {
  const int n = p.model.nu();
  if (static_cast<int>(skeleton_->getNumDofs()) != n)
    throw std::runtime_error("DART: the skeleton has another number of degrees of freedom");
  J_ = Eigen::MatrixXd::Identity(n, n);
  Jdot_dq_ = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd& positions = positions_[0];
  positions = Eigen::VectorXd(n);
  if (p.floatingBase) {
    const Quaternion& q_WB = p.q.head<4>();
    const RigidTransform X_WB = RigidTransform::fromQuaternion(q_WB, p.q.segment<3>(4));
    positions.head<6>() = FreeJoint::convertToPositions(isometry(X_WB));
    positions.tail(n - 6) = p.q.tail(n - 6);
  } else {
    positions = p.q;
  }
  positions_[1] = positions;
  positions_[1][n - 1] += 2.0 * std::numbers::pi;  // a revolute angle in every model
  skeleton_->setPositions(positions);
  if (p.floatingBase) {
    const auto* base = skeleton_->getJoint(0);
    J_.topLeftCorner<6, 6>() = base->getRelativeJacobian();
  }
  velocities_ = J_.partialPivLu().solve(p.u);
  skeleton_->setVelocities(velocities_);
  if (p.floatingBase)
    Jdot_dq_.head<6>() =
        skeleton_->getJoint(0)->getRelativeJacobianTimeDeriv() * velocities_.head<6>();
  accelerations_ = J_.partialPivLu().solve(p.udot - Jdot_dq_);
  forces_ = J_.transpose() * p.tau;
}

DartPeer::~DartPeer() = default;

void DartPeer::forwardDynamics() {
  turn_ ^= 1;
  skeleton_->setPositions(positions_[turn_]);
  skeleton_->setVelocities(velocities_);
  skeleton_->setForces(forces_);
  skeleton_->computeForwardDynamics();
}

void DartPeer::inverseDynamics() {
  turn_ ^= 1;
  skeleton_->setPositions(positions_[turn_]);
  skeleton_->setVelocities(velocities_);
  skeleton_->setAccelerations(accelerations_);
  skeleton_->computeInverseDynamics();
}

const Eigen::MatrixXd& DartPeer::massMatrix() {
  turn_ ^= 1;
  skeleton_->setPositions(positions_[turn_]);
  return skeleton_->getMassMatrix();
}

Eigen::VectorXd DartPeer::accelerationsInHopsim() const {
  return J_ * skeleton_->getAccelerations() + Jdot_dq_;
}

Eigen::VectorXd DartPeer::forcesInHopsim() const {
  return J_.transpose().partialPivLu().solve(skeleton_->getForces());
}

Eigen::MatrixXd DartPeer::massMatrixInHopsim() const {
  const Eigen::MatrixXd Jinv = J_.partialPivLu().inverse();
  return Jinv.transpose() * skeleton_->getMassMatrix() * Jinv;
}

void DartPeer::startSimulation(const Eigen::VectorXd& q, const Eigen::VectorXd& u, double dt) {
  if (floatingBase_) throw std::invalid_argument("DartPeer: simulations of fixed bases only");
  if (!world_) {
    world_ = dart::simulation::World::create();
    world_->addSkeleton(skeleton_);
    world_->setGravity(skeleton_->getGravity());
  }
  world_->setTimeStep(dt);
  world_->reset();
  skeleton_->setPositions(q);
  skeleton_->setVelocities(u);
  skeleton_->resetGeneralizedForces();  // forwardDynamics leaves the problem's τ there
  skeleton_->resetCommands();
}

void DartPeer::step() { world_->step(); }

Eigen::VectorXd DartPeer::positions() const { return skeleton_->getPositions(); }

std::string DartPeer::version() { return std::string("DART ") + DART_VERSION; }

}  // namespace hopsim::bench::peers
