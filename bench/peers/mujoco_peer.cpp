#include "mujoco_peer.h"

#include <mujoco/mujoco.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "hopsim/core/spatial/rotation.h"

namespace hopsim::bench::peers {
namespace {

// Enough digits that the text round-trips every double exactly.
std::ostream& full(std::ostream& os) {
  os.precision(17);
  return os;
}

void writeVector(std::ostream& os, const Vector3& v) {
  os << v.x() << ' ' << v.y() << ' ' << v.z();
}

// tinyxml2, MuJoCo's parser, refuses elements nested deeper than 100 levels, and a serial chain
// nests one body per level: a subtree deeper than this goes to a file of its own, pulled in by
// MJCF's <include>, which MuJoCo parses separately and splices into the tree.
constexpr int kMaxLevelsPerFile = 40;

// The MJCF files of one model: the first is the model, the others its included parts.
struct MjcfFiles {
  std::vector<std::string> names;
  std::vector<std::string> texts;
};

class MjcfWriter {
 public:
  MjcfWriter(const std::vector<BodyDescription>& bodies, MjcfFiles& files)
      : bodies_(bodies), children_(bodies.size() + 1), files_(files) {
    for (std::size_t i = 0; i < bodies.size(); ++i)
      children_[static_cast<std::size_t>(bodies[i].parent)].push_back(static_cast<int>(i) + 1);
  }

  const std::vector<int>& roots() const { return children_[0]; }

  // Body b (1-based) with its subtree, at nesting level `level` of the file `os` writes. A
  // body's frame is hopsim's body frame B: at the zero angle B coincides with the hinge's
  // inboard frame F, so the body sits at X_PF in its parent, and the hinge turns it about the
  // axis through its origin, which has the same components in F and in B.
  void writeBody(std::ostream& os, int b, int level) {
    const BodyDescription& d = bodies_[static_cast<std::size_t>(b - 1)];
    const std::string indent(static_cast<std::size_t>(2 * level), ' ');
    const Quaternion q = d.X_PF.quaternion();
    os << indent << "<body name=\"b" << b << "\" pos=\"";
    writeVector(os, d.X_PF.translation());
    os << "\" quat=\"" << q[0] << ' ' << q[1] << ' ' << q[2] << ' ' << q[3] << "\">\n";
    if (d.free) {
      os << indent << "  <freejoint/>\n";
    } else {
      os << indent << "  <joint type=\"hinge\" pos=\"0 0 0\" axis=\"";
      writeVector(os, d.axis);
      os << "\"/>\n";
    }
    os << indent << "  <inertial pos=\"";
    writeVector(os, d.com);
    os << "\" mass=\"" << d.mass << "\" diaginertia=\"";
    writeVector(os, d.inertiaDiagonal);
    os << "\"/>\n";
    for (int child : children_[static_cast<std::size_t>(b)]) {
      if (level + 1 < kMaxLevelsPerFile) {
        writeBody(os, child, level + 1);
        continue;
      }
      const std::size_t index = files_.names.size();  // taken before the part's own parts
      files_.names.push_back("peer_part" + std::to_string(index) + ".xml");
      files_.texts.emplace_back();
      os << indent << "  <include file=\"" << files_.names[index] << "\"/>\n";
      std::ostringstream part;
      full(part);
      part << "<mujoco>\n";
      writeBody(part, child, 1);
      part << "</mujoco>\n";
      files_.texts[index] = part.str();
    }
    os << indent << "</body>\n";
  }

 private:
  const std::vector<BodyDescription>& bodies_;
  std::vector<std::vector<int>> children_;
  MjcfFiles& files_;
};

MjcfFiles makeXml(const Problem& p) {
  const std::vector<BodyDescription> bodies = describeBodies(p.model);
  MjcfFiles files;
  files.names.push_back("peer_model.xml");
  files.texts.emplace_back();
  MjcfWriter writer(bodies, files);
  std::ostringstream os;
  full(os);
  const Vector3& g = p.model.gravity();
  os << "<mujoco model=\"" << p.name << "\">\n"
     << "  <option gravity=\"" << g.x() << ' ' << g.y() << ' ' << g.z() << "\">\n"
     << "    <flag contact=\"disable\"/>\n"
     << "  </option>\n"
     << "  <worldbody>\n";
  for (int root : writer.roots()) writer.writeBody(os, root, 2);
  os << "  </worldbody>\n</mujoco>\n";
  files.texts[0] = os.str();
  return files;
}

mjModel* compile(const MjcfFiles& files) {
  // mj_loadXML reads files only; virtual files keep the model out of the file system.
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  for (std::size_t i = 0; i < files.names.size(); ++i) {
    const std::string& text = files.texts[i];
    const char* name = files.names[i].c_str();
    if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(text.size())) != 0)
      throw std::runtime_error("MuJoCo: cannot make the virtual file " + files.names[i]);
    std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name)], text.data(), text.size());
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(files.names[0].c_str(), vfs.get(), error, sizeof(error));
  mj_deleteVFS(vfs.get());
  if (!m) throw std::runtime_error(std::string("MuJoCo: mj_loadXML failed: ") + error);
  return m;
}

}  // namespace

MujocoPeer::MujocoPeer(const Problem& p) : floatingBase_(p.floatingBase) {
  m_ = compile(makeXml(p));
  d_ = mj_makeData(m_);
  const int nv = m_->nv;
  if (m_->nq != p.model.nq() || nv != p.model.nu())
    throw std::runtime_error("MuJoCo: the compiled model has other coordinate counts");

  qpos_ = p.q;
  T_ = Eigen::MatrixXd::Identity(nv, nv);
  if (floatingBase_) {
    const Quaternion q_WB = p.q.head<4>();
    R_WB_ = spatial::rotationFromQuaternion(q_WB);
    w_B_ = p.u.segment<3>(0);
    v_B_ = p.u.segment<3>(3);
    qpos_.segment<3>(0) = p.q.segment<3>(4);
    qpos_.segment<4>(3) = q_WB;
    T_.topLeftCorner<6, 6>().setZero();
    T_.block<3, 3>(0, 3) = R_WB_;                // v_Bo_W = R_WB v_Bo_B
    T_.block<3, 3>(3, 0) = Matrix3::Identity();  // ω_B as is
  }
  qvel_ = T_ * p.u;
  qfrcApplied_ = T_ * p.tau;
  qacc_ = T_ * p.udot;
  // d/dt (R_WB v_B) = R_WB (v̇_B + ω_B × v_B): MuJoCo's linear acceleration has the term the
  // body-axes rate does not.
  if (floatingBase_) qacc_.head<3>() += R_WB_ * w_B_.cross(v_B_);
  denseM_.resize(nv, nv);
}

MujocoPeer::~MujocoPeer() {
  mj_deleteData(d_);
  mj_deleteModel(m_);
}

void MujocoPeer::forwardDynamics() {
  mju_copy(d_->qpos, qpos_.data(), m_->nq);
  mju_copy(d_->qvel, qvel_.data(), m_->nv);
  mju_copy(d_->qfrc_applied, qfrcApplied_.data(), m_->nv);
  mj_forward(m_, d_);
}

void MujocoPeer::inverseDynamics() {
  mju_copy(d_->qpos, qpos_.data(), m_->nq);
  mju_copy(d_->qvel, qvel_.data(), m_->nv);
  mju_copy(d_->qacc, qacc_.data(), m_->nv);
  mj_inverse(m_, d_);
}

void MujocoPeer::massMatrix() {
  mju_copy(d_->qpos, qpos_.data(), m_->nq);
  mj_kinematics(m_, d_);
  mj_comPos(m_, d_);
  mj_crb(m_, d_);
  mj_fullM(m_, denseM_.data(), d_->qM);
}

Eigen::VectorXd MujocoPeer::accelerationsInHopsim() const {
  Eigen::VectorXd qacc = Eigen::Map<const Eigen::VectorXd>(d_->qacc, m_->nv);
  if (floatingBase_) qacc.head<3>() -= R_WB_ * w_B_.cross(v_B_);
  return T_.transpose() * qacc;
}

Eigen::VectorXd MujocoPeer::forcesInHopsim() const {
  return T_.transpose() * Eigen::Map<const Eigen::VectorXd>(d_->qfrc_inverse, m_->nv);
}

Eigen::MatrixXd MujocoPeer::massMatrixInHopsim() const {
  return T_.transpose() * Eigen::MatrixXd(denseM_) * T_;
}

void MujocoPeer::startSimulation(const Eigen::VectorXd& q, const Eigen::VectorXd& u, int integrator,
                                 double dt) {
  if (floatingBase_) throw std::invalid_argument("MujocoPeer: simulations of fixed bases only");
  mj_resetData(m_, d_);  // time 0, no applied force, no warm start
  m_->opt.integrator = integrator;
  m_->opt.timestep = dt;
  mju_copy(d_->qpos, q.data(), m_->nq);
  mju_copy(d_->qvel, u.data(), m_->nv);
}

void MujocoPeer::step() { mj_step(m_, d_); }

Eigen::VectorXd MujocoPeer::positions() const {
  return Eigen::Map<const Eigen::VectorXd>(d_->qpos, m_->nq);
}

std::string MujocoPeer::version() { return std::string("MuJoCo ") + mj_versionString(); }

}  // namespace hopsim::bench::peers
