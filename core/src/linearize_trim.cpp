// Simulation::trim: damped Newton on the linearization's Jacobians (docs/linearization.md,
// "Trim").

#include <Eigen/QR>
#include <cmath>

#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "linearization_session.h"

namespace hopsim {

namespace {

/// Sets element `e` of variable `path` through the variable tree, as a user would.
void setElement(Simulation& sim, const std::string& path, std::size_t e, double value) {
  Value v = sim.get(path);
  if (auto* d = std::get_if<double>(&v)) {
    *d = value;
  } else {
    std::get<std::vector<double>>(v)[e] = value;
  }
  sim.set(path, v);
}

/// "path[e]" -> (path, e); "path" -> (path, 0).
std::pair<std::string, std::size_t> splitElement(const std::string& name) {
  const std::size_t bracket = name.find('[');
  if (bracket == std::string::npos) return {name, 0};
  return {name.substr(0, bracket), std::stoul(name.substr(bracket + 1))};
}

}  // namespace

TrimResult Simulation::trim(const TrimRequest& request) {
  if (!(request.tolerance > 0.0) || request.maxIterations < 1) {
    throw InputError("trim: tolerance must be positive and maxIterations at least 1");
  }
  TrimResult result;
  Eigen::VectorXd x0, x, u;
  std::vector<VariableElement> inputs;
  {
    LinearizationSession session(*this);
    const std::vector<Eigen::Index> free =
        session.selectStates(request.freeStates, "free state", false);
    const std::vector<Eigen::Index> zero =
        session.selectStates(request.zeroRates, "zero rate", true);
    session.setInputs(request.freeInputs);
    std::vector<std::string> outputs;
    for (const OutputTarget& target : request.targets) outputs.push_back(target.output);
    session.setOutputs(outputs);
    if (session.outputs().size() != request.targets.size()) {
      throw InputError("trim: each target must name one output element, as signals.x[2]");
    }
    const StateChart& chart = session.chart();
    const auto nz = static_cast<Eigen::Index>(zero.size());
    const auto nt = static_cast<Eigen::Index>(request.targets.size());
    const auto nf = static_cast<Eigen::Index>(free.size());
    const Eigen::Index nu = session.u0().size();
    if (nf + nu == 0) throw InputError("trim: free at least one state or input");
    for (Eigen::Index i = 0; i < nz; ++i)
      result.residualNames.push_back(chart.names()[zero[i]] + "'");
    for (const OutputTarget& target : request.targets) {
      result.residualNames.push_back(target.output + " - " + formatNumber(target.value));
    }
    Eigen::VectorXd targets(nt);
    for (Eigen::Index k = 0; k < nt; ++k) targets[k] = request.targets[k].value;

    Eigen::VectorXd rates, y, r(nz + nt);
    const auto residualAt = [&](const Eigen::VectorXd& xs, const Eigen::VectorXd& us) {
      session.evaluate(xs, xs, us, rates, y);
      for (Eigen::Index i = 0; i < nz; ++i) r[i] = rates[zero[i]];
      r.tail(nt) = y - targets;
      return r.cwiseAbs().maxCoeff();
    };
    x0 = x = session.x0();
    u = session.u0();
    double norm = residualAt(x, u);
    Eigen::MatrixXd J(nz + nt, nf + nu);
    Eigen::VectorXd delta = Eigen::VectorXd::Zero(chart.size()), xTrial, uTrial;
    while (!(norm <= request.tolerance)) {
      if (result.iterations == request.maxIterations) {
        Eigen::Index worst = 0;
        r.cwiseAbs().maxCoeff(&worst);
        throw NumericalError("trim: no convergence in " + std::to_string(request.maxIterations) +
                             " iterations; the residual is " + formatNumber(norm) + " (" +
                             result.residualNames[static_cast<std::size_t>(worst)] +
                             "), the tolerance " + formatNumber(request.tolerance) +
                             "; free other states or inputs, or start nearer a solution");
      }
      ++result.iterations;
      const LinearizationSession::Jacobians jac = session.jacobians(x, u, free, request.options);
      for (Eigen::Index i = 0; i < nz; ++i) {
        J.row(i) << jac.states.row(zero[i]), jac.inputs.row(zero[i]);
      }
      J.bottomRows(nt) << jac.states.bottomRows(nt), jac.inputs.bottomRows(nt);
      residualAt(x, u);
      // The least-squares step of least norm: the freed unknowns may outnumber the equations.
      const Eigen::VectorXd step = J.completeOrthogonalDecomposition().solve(-r);
      // Halve the step until the residual decreases.
      double alpha = 1.0, trial = norm;
      for (int halving = 0; halving < 30; ++halving, alpha *= 0.5) {
        for (Eigen::Index c = 0; c < nf; ++c) delta[free[c]] = alpha * step[c];
        chart.retract(x, delta, xTrial);
        uTrial = u + alpha * step.tail(nu);
        trial = residualAt(xTrial, uTrial);
        if (trial < norm) break;
      }
      if (!(trial < norm)) {
        throw NumericalError("trim: the residual " + formatNumber(norm) +
                             " does not decrease along the Newton direction (a singular or "
                             "inconsistent problem); free other states or inputs");
      }
      x = xTrial;
      u = uTrial;
      norm = trial;
    }
    residualAt(x, u);
    result.residual = r;
    Eigen::VectorXd offsets;
    chart.local(session.x0(), x, offsets);
    result.states.resize(nf);
    for (Eigen::Index c = 0; c < nf; ++c) {
      const Eigen::Index j = free[c];
      result.stateNames.push_back(chart.names()[j]);
      result.states[c] = chart.isRotation(j) ? offsets[j] : chart.value(x, j);
    }
    inputs = session.inputs();
    for (const VariableElement& in : inputs) result.inputNames.push_back(in.name);
    result.inputs = u;
  }  // the session puts everything back; the solution is then set as a user sets values
  const std::vector<std::string> names = stateNames();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (x[static_cast<Eigen::Index>(i)] == x0[static_cast<Eigen::Index>(i)]) continue;
    const auto [path, e] = splitElement(names[i]);
    setElement(*this, path, e, x[static_cast<Eigen::Index>(i)]);
  }
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    setElement(*this, inputs[k].path, inputs[k].element, u[static_cast<Eigen::Index>(k)]);
  }
  return result;
}

}  // namespace hopsim
