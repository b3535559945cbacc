#include "linearize_manifold.h"

#include <Eigen/QR>
#include <map>

#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim {

ConstraintManifold::ConstraintManifold(const MultibodySystem& system,
                                       const std::vector<std::string>& xNames,
                                       const Eigen::VectorXd& x0)
    : model_(system.model()),
      set_(system.constraints()),
      data_(model_),
      cdata_(model_, set_),
      q_(model_.nq()),
      u_(model_.nu()) {
  if (model_.nq() != model_.nu()) {
    throw InputError(
        "linearize: a constrained system with quaternions (BALL, FULL6DOF) cannot be "
        "linearized on its constraint manifold here; its hinges must have Q̇ = U (PIN, SLIDER, "
        "...)");
  }
  std::map<std::string, Eigen::Index> indexOf;
  for (std::size_t i = 0; i < xNames.size(); ++i) indexOf[xNames[i]] = static_cast<Eigen::Index>(i);
  for (multibody::BodyIndex b = 1; b < model_.bodyCount(); ++b) {
    const std::string base = "multibody.bodies." + model_.bodyName(b);
    for (int k = 0; k < model_.hinge(b).nq(); ++k) {
      const auto q = indexOf.find(base + ".Q[" + std::to_string(k) + "]");
      const auto u = indexOf.find(base + ".U[" + std::to_string(k) + "]");
      if (q == indexOf.end() || u == indexOf.end()) {
        throw InputError("linearize: " + base +
                         " has masked coordinates; a constrained system is linearized on its "
                         "manifold only when every coordinate is integrated");
      }
      qX_.push_back(q->second);
      uX_.push_back(u->second);
    }
  }
  // The dependent coordinates: the columns a pivoted QR of G takes first, as many as its rank
  // (redundant rows, as a planar loop's out-of-plane ones, do not count).
  for (std::size_t k = 0; k < qX_.size(); ++k) q_[static_cast<Eigen::Index>(k)] = x0[qX_[k]];
  evaluate(q_);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(cdata_.G);
  qr.setThreshold(1e-10);
  const Eigen::Index rank = qr.rank();
  std::vector<bool> isDependent(qX_.size(), false);
  for (Eigen::Index k = 0; k < rank; ++k) {
    isDependent[static_cast<std::size_t>(qr.colsPermutation().indices()[k])] = true;
  }
  for (std::size_t k = 0; k < qX_.size(); ++k) {
    (isDependent[k] ? dependent_ : independent_).push_back(static_cast<Eigen::Index>(k));
    if (isDependent[k]) {
      dependentX_.push_back(qX_[k]);
      dependentX_.push_back(uX_[k]);
    }
  }
}

void ConstraintManifold::evaluate(const Eigen::VectorXd& q) const {
  multibody::forwardKinematics(model_, data_, q);
  multibody::evaluateConstraintPositions(model_, set_, data_, cdata_);
}

void ConstraintManifold::complete(Eigen::VectorXd& x) const {
  for (std::size_t k = 0; k < qX_.size(); ++k) {
    q_[static_cast<Eigen::Index>(k)] = x[qX_[k]];
    u_[static_cast<Eigen::Index>(k)] = x[uX_[k]];
  }
  const auto columns = [&](const std::vector<Eigen::Index>& which) {
    Eigen::MatrixXd m(cdata_.G.rows(), static_cast<Eigen::Index>(which.size()));
    for (std::size_t c = 0; c < which.size(); ++c) {
      m.col(static_cast<Eigen::Index>(c)) = cdata_.G.col(which[c]);
    }
    return m;
  };
  int iteration = 0;
  for (evaluate(q_); cdata_.phi.cwiseAbs().maxCoeff() > 1e-13; evaluate(q_)) {
    if (++iteration > 50) {
      throw NumericalError("linearize: the dependent coordinates do not close the loop (|φ| = " +
                           formatNumber(cdata_.phi.cwiseAbs().maxCoeff()) +
                           " after 50 Newton steps); use a smaller step");
    }
    const Eigen::VectorXd step =
        columns(dependent_).completeOrthogonalDecomposition().solve(-cdata_.phi);
    for (std::size_t c = 0; c < dependent_.size(); ++c)
      q_[dependent_[c]] += step[static_cast<Eigen::Index>(c)];
  }
  // G_d U_d = -G_i U_i at the closed Q.
  Eigen::VectorXd ui(static_cast<Eigen::Index>(independent_.size()));
  for (std::size_t c = 0; c < independent_.size(); ++c)
    ui[static_cast<Eigen::Index>(c)] = u_[independent_[c]];
  const Eigen::VectorXd ud =
      columns(dependent_).completeOrthogonalDecomposition().solve(-(columns(independent_) * ui));
  for (std::size_t c = 0; c < dependent_.size(); ++c) {
    x[qX_[static_cast<std::size_t>(dependent_[c])]] = q_[dependent_[c]];
    x[uX_[static_cast<std::size_t>(dependent_[c])]] = ud[static_cast<Eigen::Index>(c)];
  }
}

}  // namespace hopsim
