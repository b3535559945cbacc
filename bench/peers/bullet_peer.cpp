#include "bullet_peer.h"

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <LinearMath/btScalar.h>

#include <stdexcept>

#include "hopsim/core/spatial/rotation.h"

static_assert(
    sizeof(btScalar) == sizeof(double),
    "the peer comparison needs Bullet's double-precision build (BT_USE_DOUBLE_PRECISION)");

namespace hopsim::bench::peers {
namespace {

btVector3 btVec(const Vector3& v) { return btVector3(v.x(), v.y(), v.z()); }
Vector3 eigen(const btScalar* v) { return Vector3(v[0], v[1], v[2]); }
// hopsim's q = [e0, e1, e2, e3] (scalar first) as a btQuaternion (x, y, z, w).
btQuaternion btQuat(const Quaternion& q) { return btQuaternion(q[1], q[2], q[3], q[0]); }

}  // namespace

struct BulletPeer::Scratch {
  btAlignedObjectArray<btScalar> r;
  btAlignedObjectArray<btVector3> v;
  btAlignedObjectArray<btMatrix3x3> m;
};

// Members in construction order, destroyed in reverse: the world before what it uses.
struct BulletPeer::World {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btMultiBodyConstraintSolver solver;
  btMultiBodyDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
};

BulletPeer::BulletPeer(const Problem& p)
    : scratch_(std::make_unique<Scratch>()),
      gravity_(p.model.gravity()),
      floatingBase_(p.floatingBase) {
  const std::vector<BodyDescription> bodies = describeBodies(p.model);
  // Bullet's base is body 1 when it floats, else the world; its links are the other bodies.
  const int firstLink = floatingBase_ ? 2 : 1;
  links_ = static_cast<int>(bodies.size()) - (firstLink - 1);
  const auto linkOf = [&](int body) { return body - firstLink; };  // -1 for the base

  if (floatingBase_) {
    const BodyDescription& base = bodies[0];
    body_ = std::make_unique<btMultiBody>(links_, base.mass, btVec(base.inertiaDiagonal),
                                          /*fixedBase=*/false, /*canSleep=*/false);
    com_B_ = base.com;
  } else {
    // A fixed base's mass properties are never used.
    body_ = std::make_unique<btMultiBody>(links_, 1.0, btVector3(1, 1, 1), /*fixedBase=*/true,
                                          /*canSleep=*/false);
    com_B_.setZero();
  }
  for (int b = firstLink; b <= static_cast<int>(bodies.size()); ++b) {
    const BodyDescription& d = bodies[static_cast<std::size_t>(b - 1)];
    const Vector3 parentCom =
        d.parent == 0 ? Vector3::Zero() : bodies[static_cast<std::size_t>(d.parent - 1)].com;
    const Quaternion q_PF = d.X_PF.quaternion();
    body_->setupRevolute(linkOf(b), d.mass, btVec(d.inertiaDiagonal), linkOf(d.parent),
                         btQuat(spatial::quaternionConjugate(q_PF)), btVec(d.axis),
                         btVec(d.X_PF.translation() - parentCom), btVec(d.com),
                         /*disableParentCollision=*/true);
  }
  body_->finalizeMultiDof();
  body_->setLinearDamping(0.0);
  body_->setAngularDamping(0.0);

  // Gravity acts at each CM, where Bullet applies link forces (world axes). Applied forces
  // stay until clearForcesAndTorques, which is never called: they hold for every call.
  for (int b = firstLink; b <= static_cast<int>(bodies.size()); ++b)
    body_->addLinkForce(linkOf(b), btVec(bodies[static_cast<std::size_t>(b - 1)].mass * gravity_));

  const int nu = p.model.nu();
  const int baseDofs = floatingBase_ ? 6 : 0;
  jointPositions_ = p.q.tail(links_);
  jointVelocities_ = p.u.tail(links_);
  jointTorques_ = p.tau.tail(links_);
  if (body_->getNumDofs() != nu - baseDofs)
    throw std::runtime_error("Bullet: the multibody has another number of joint dofs");

  R_WB_.setIdentity();
  w_B_.setZero();
  v_B_.setZero();
  q_BW_ = spatial::quaternionIdentity();
  basePosition_.setZero();
  baseOmega_W_.setZero();
  baseVelocity_W_.setZero();
  if (floatingBase_) {
    const Quaternion q_WB = p.q.head<4>();
    R_WB_ = spatial::rotationFromQuaternion(q_WB);
    q_BW_ = spatial::quaternionConjugate(q_WB);
    w_B_ = p.u.segment<3>(0);
    v_B_ = p.u.segment<3>(3);
    basePosition_ = p.q.segment<3>(4) + R_WB_ * com_B_;
    baseOmega_W_ = R_WB_ * w_B_;
    baseVelocity_W_ = R_WB_ * (v_B_ + w_B_.cross(com_B_));  // the CM's velocity
    // hopsim's base entries of τ are a wrench [n_Bo; f] about Bo in B; Bullet takes a force
    // and a torque about the CM, in world axes.
    const Vector3 n_Bo = p.tau.segment<3>(0);
    const Vector3 f = p.tau.segment<3>(3);
    body_->addBaseForce(btVec(R_WB_ * f + bodies[0].mass * gravity_));
    body_->addBaseTorque(btVec(R_WB_ * (n_Bo - com_B_.cross(f))));
  }
}

BulletPeer::~BulletPeer() {
  if (world_) world_->world.removeMultiBody(body_.get());
}

void BulletPeer::forwardDynamics() {
  btMultiBody& mb = *body_;
  if (floatingBase_) {
    mb.setBasePos(btVec(basePosition_));
    mb.setWorldToBaseRot(btQuat(q_BW_));
    mb.setBaseOmega(btVec(baseOmega_W_));
    mb.setBaseVel(btVec(baseVelocity_W_));
  }
  for (int i = 0; i < links_; ++i) {
    mb.setJointPos(i, jointPositions_[i]);
    mb.setJointVel(i, jointVelocities_[i]);
    mb.getJointTorqueMultiDof(i)[0] = jointTorques_[i];
  }
  mb.computeAccelerationsArticulatedBodyAlgorithmMultiDof(0.0, scratch_->r, scratch_->v,
                                                          scratch_->m, false, false, false);
}

Eigen::VectorXd BulletPeer::accelerationsInHopsim() const {
  // Bullet leaves [ω̇_W; a_cm_W; q̈] in its scratch array after the numDofs "Y" entries.
  const btScalar* out = &scratch_->r[body_->getNumDofs()];
  const int baseDofs = floatingBase_ ? 6 : 0;
  Eigen::VectorXd udot(baseDofs + links_);
  for (int i = 0; i < links_; ++i) udot[baseDofs + i] = out[6 + i];
  if (floatingBase_) {
    // ω_W = R_WB ω_B gives ω̇_W = R_WB ω̇_B; v_cm_W = R_WB (v_B + ω_B × c) gives
    // a_cm_W = R_WB (v̇_B + ω̇_B × c + ω_B × (v_B + ω_B × c)).
    const Vector3 wdot_B = R_WB_.transpose() * eigen(out);
    const Vector3 a_cm_B = R_WB_.transpose() * eigen(out + 3);
    udot.segment<3>(0) = wdot_B;
    udot.segment<3>(3) = a_cm_B - wdot_B.cross(com_B_) - w_B_.cross(v_B_ + w_B_.cross(com_B_));
  }
  return udot;
}

void BulletPeer::startSimulation(const Eigen::VectorXd& q, const Eigen::VectorXd& u, double dt) {
  if (floatingBase_) throw std::invalid_argument("BulletPeer: simulations of fixed bases only");
  if (!world_) {
    world_ = std::make_unique<World>();
    world_->world.setGravity(btVec(gravity_));
    world_->world.addMultiBody(body_.get());
  }
  dt_ = dt;
  body_->clearForcesAndTorques();  // gravity comes from the world now
  for (int i = 0; i < links_; ++i) {
    body_->setJointPos(i, q[i]);
    body_->setJointVel(i, u[i]);
  }
}

// maxSubSteps = 0: one step of exactly dt (Bullet's variable-step mode), no interpolation.
void BulletPeer::step() { world_->world.stepSimulation(dt_, 0, dt_); }

Eigen::VectorXd BulletPeer::positions() const {
  Eigen::VectorXd q(links_);
  for (int i = 0; i < links_; ++i) q[i] = body_->getJointPos(i);
  return q;
}

std::string BulletPeer::version() {
  return "Bullet " + std::to_string(btGetVersion() / 100) + "." +
         std::to_string(btGetVersion() % 100) + " (double precision)";
}

}  // namespace hopsim::bench::peers
