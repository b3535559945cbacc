// Dormand-Prince RK5(4)7M with Shampine's dense output and a PI step-size controller.
//
// Coefficients: J. R. Dormand and P. J. Prince, "A family of embedded Runge-Kutta formulae",
// J. Comp. Appl. Math. 6 (1980) 19-26, table 2 (the tableau printed in Hairer, Nørsett & Wanner,
// Solving ODEs I, table II.5.2); dense output: L. F. Shampine, "Some practical Runge-Kutta
// formulas", Math. Comp. 46 (1986), in the form of Hairer's DOPRI5 (CONTD5). The unit tests check
// the order conditions, the dense output's exactness on polynomials of degree <= 4 and its
// 4th-order convergence.

#include "hopsim/integrators/rkf45.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "dense_history.h"
#include "hopsim/signals/error.h"
#include "integrator_support.h"

namespace hopsim {

namespace {

// Nodes.
constexpr double kC2 = 1.0 / 5.0, kC3 = 3.0 / 10.0, kC4 = 4.0 / 5.0, kC5 = 8.0 / 9.0;
// Stage coefficients a_ij.
constexpr double kA21 = 1.0 / 5.0;
constexpr double kA31 = 3.0 / 40.0, kA32 = 9.0 / 40.0;
constexpr double kA41 = 44.0 / 45.0, kA42 = -56.0 / 15.0, kA43 = 32.0 / 9.0;
constexpr double kA51 = 19372.0 / 6561.0, kA52 = -25360.0 / 2187.0, kA53 = 64448.0 / 6561.0,
                 kA54 = -212.0 / 729.0;
constexpr double kA61 = 9017.0 / 3168.0, kA62 = -355.0 / 33.0, kA63 = 46732.0 / 5247.0,
                 kA64 = 49.0 / 176.0, kA65 = -5103.0 / 18656.0;
// 5th-order weights b_i (b2 = b7 = 0); they are also row 7 of the tableau, hence FSAL.
constexpr double kB1 = 35.0 / 384.0, kB3 = 500.0 / 1113.0, kB4 = 125.0 / 192.0,
                 kB5 = -2187.0 / 6784.0, kB6 = 11.0 / 84.0;
// b_i - bhat_i, bhat the embedded 4th-order weights: the local error estimate (e2 = 0).
constexpr double kE1 = 71.0 / 57600.0, kE3 = -71.0 / 16695.0, kE4 = 71.0 / 1920.0,
                 kE5 = -17253.0 / 339200.0, kE6 = 22.0 / 525.0, kE7 = -1.0 / 40.0;
// Shampine's dense output, 4th-order term (d2 = 0).
constexpr double kD1 = -12715105075.0 / 11282082432.0, kD3 = 87487479700.0 / 32700410799.0,
                 kD4 = -10690763975.0 / 1880347072.0, kD5 = 701980252875.0 / 199316789632.0,
                 kD6 = -1453857185.0 / 822651844.0, kD7 = 69997945.0 / 29380423.0;

// Step-size control (the values of DOPRI5): the PI controller's exponents (beta = 0.04,
// alpha = 1/5 - 0.75 beta), a safety factor so that the next step is likely accepted, and limits
// that keep one bad error estimate from changing h by more than 5x down or 10x up.
constexpr double kSafety = 0.9;
constexpr double kBeta = 0.04;
constexpr double kAlpha = 0.2 - 0.75 * kBeta;
constexpr double kMinFactor = 0.2;
constexpr double kMaxFactor = 10.0;
// A remainder of the interval up to this many proposed steps is covered in two equal steps
// rather than a full step plus a sliver.
constexpr double kSliverRatio = 1.01;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace

Rkf45Integrator::Rkf45Integrator(IntegratorOptions options)
    : Integrator(std::move(options)), history_(std::make_unique<detail::DenseHistory>(5)) {}

Rkf45Integrator::~Rkf45Integrator() = default;

void Rkf45Integrator::resize(Eigen::Index n) {
  detail::checkToleranceLength(name(), options_, n);
  for (Eigen::VectorXd* v :
       {&x_, &y1_, &stage_, &error_, &scale_, &k1_, &k2_, &k3_, &k4_, &k5_, &k6_, &k7_}) {
    v->setZero(n);
  }
  history_->resize(n);
  haveK1_ = false;
  stepsSinceRestart_ = 0;
}

double Rkf45Integrator::atol(Eigen::Index i) const {
  return detail::absoluteTolerance(options_, i);
}

void Rkf45Integrator::restart(double t0, const Eigen::Ref<const Eigen::VectorXd>& x0) {
  detail::checkRestart(name(), size(), t0, x0);
  t_ = t0;
  t0_ = t0;
  x_ = x0;
  h_ = 0.0;
  errorPrevious_ = 1e-4;
  haveK1_ = false;
  history_->clear();
  stepsSinceRestart_ = 0;
  nonFiniteIndex_ = -1;
  ++statistics_.restarts;
}

void Rkf45Integrator::proposeFirstStep(double h) {
  if (!(h > 0.0) || !std::isfinite(h)) {
    throw InputError("rkf45: proposeFirstStep(" + formatNumber(h) +
                     "): the first step must be positive and finite (s)");
  }
  if (options_.initialStep == 0.0) h_ = h;
}

double Rkf45Integrator::initialStepEstimate(const DerivativeFunction& f, double t1, double hMax) {
  // HNW I, section II.4: a step for which the explicit Euler error would be about 1% of the
  // state, then corrected with a finite-difference estimate of the second derivative.
  const Eigen::Index n = size();
  const double rtol = options_.relativeTolerance;
  for (Eigen::Index i = 0; i < n; ++i) scale_[i] = atol(i) + rtol * std::abs(x_[i]);
  const double invN = 1.0 / static_cast<double>(n);
  const double d0 = std::sqrt((x_.array() / scale_.array()).square().sum() * invN);
  const double d1 = std::sqrt((k1_.array() / scale_.array()).square().sum() * invN);
  double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  h0 = std::min(h0, hMax);
  stage_ = x_ + h0 * k1_;
  f(std::min(t_ + h0, t1), stage_, k2_);  // the trial point stays inside the interval
  ++statistics_.rhsEvaluations;
  const double d2 = std::sqrt(((k2_ - k1_).array() / scale_.array()).square().sum() * invN) / h0;
  if (!std::isfinite(d2)) return h0;  // no usable curvature: let error control find the step
  const double dMax = std::max(d1, d2);
  const double h1 = dMax <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / dMax, 0.2);
  return std::min({100.0 * h0, h1, hMax});
}

double Rkf45Integrator::attemptStep(const DerivativeFunction& f, double h, double tEnd) {
  // Stage times never pass tEnd, even when h is a few ulps of t.
  const auto at = [&](double c) { return std::min(t_ + c * h, tEnd); };
  stage_ = x_ + (h * kA21) * k1_;
  f(at(kC2), stage_, k2_);
  stage_ = x_ + h * (kA31 * k1_ + kA32 * k2_);
  f(at(kC3), stage_, k3_);
  stage_ = x_ + h * (kA41 * k1_ + kA42 * k2_ + kA43 * k3_);
  f(at(kC4), stage_, k4_);
  stage_ = x_ + h * (kA51 * k1_ + kA52 * k2_ + kA53 * k3_ + kA54 * k4_);
  f(at(kC5), stage_, k5_);
  stage_ = x_ + h * (kA61 * k1_ + kA62 * k2_ + kA63 * k3_ + kA64 * k4_ + kA65 * k5_);
  f(tEnd, stage_, k6_);
  y1_ = x_ + h * (kB1 * k1_ + kB3 * k3_ + kB4 * k4_ + kB5 * k5_ + kB6 * k6_);
  f(tEnd, y1_, k7_);
  statistics_.rhsEvaluations += 6;

  error_ = h * (kE1 * k1_ + kE3 * k3_ + kE4 * k4_ + kE5 * k5_ + kE6 * k6_ + kE7 * k7_);
  const double rtol = options_.relativeTolerance;
  for (Eigen::Index i = 0; i < size(); ++i) {
    scale_[i] = atol(i) + rtol * std::max(std::abs(x_[i]), std::abs(y1_[i]));
  }
  const double err =
      std::sqrt((error_.array() / scale_.array()).square().sum() / static_cast<double>(size()));
  if (!std::isfinite(err)) {
    // Remember which stage went bad, for the message if the step size then underflows.
    const std::pair<double, const Eigen::VectorXd*> stages[] = {{at(kC2), &k2_}, {at(kC3), &k3_},
                                                                {at(kC4), &k4_}, {at(kC5), &k5_},
                                                                {tEnd, &k6_},    {tEnd, &k7_}};
    for (const auto& [t, k] : stages) {
      if (const Eigen::Index i = detail::firstNonFinite(*k); i >= 0) {
        nonFiniteTime_ = t;
        nonFiniteIndex_ = i;
        nonFiniteValue_ = (*k)[i];
        break;
      }
    }
  }
  return err;
}

void Rkf45Integrator::recordStep(double h) {
  auto r = history_->next(t_, h);
  // x(t_ + theta h) = r1 + theta (r2 + (1 - theta) (r3 + theta (r4 + (1 - theta) r5))).
  r.col(0) = x_;
  r.col(1) = y1_ - x_;
  r.col(2) = h * k1_ - r.col(1);
  r.col(3) = r.col(1) - h * k7_ - r.col(2);
  r.col(4) = h * (kD1 * k1_ + kD3 * k3_ + kD4 * k4_ + kD5 * k5_ + kD6 * k6_ + kD7 * k7_);
  history_->commit();
}

void Rkf45Integrator::advance(const DerivativeFunction& f, double t1,
                              Eigen::Ref<Eigen::VectorXd> x) {
  if (!detail::checkAdvance(name(), size(), t_, t1, x.size()) || size() == 0) {
    t_ = t1;
    x = x_;
    return;
  }
  if (!haveK1_) {
    f(t_, x_, k1_);
    ++statistics_.rhsEvaluations;
    // No step size helps when the derivative at the start is already bad.
    if (!k1_.allFinite()) detail::throwNonFiniteDerivative(name(), t_, k1_);
    haveK1_ = true;
  }
  const double hMax = options_.maxStep > 0.0 ? options_.maxStep : kInfinity;
  if (h_ == 0.0) {
    h_ = options_.initialStep > 0.0 ? options_.initialStep
                                    : initialStepEstimate(f, t1, std::min(hMax, t1 - t_));
  }

  bool previousRejected = false;
  std::int64_t accepted = 0;
  while (t_ < t1) {
    const double proposed = std::min(h_, hMax);
    const double remaining = t1 - t_;
    double h = proposed;
    bool shortened = true;
    if (h >= remaining) {
      h = remaining;
    } else if (h * kSliverRatio >= remaining) {
      h = 0.5 * remaining;
    } else {
      shortened = false;
    }
    const bool last = h == remaining;
    const double tEnd = last ? t1 : t_ + h;
    const double err = attemptStep(f, h, tEnd);

    if (err <= 1.0) {  // false for NaN
      if (keepDenseHistory_) {
        recordStep(h);
      } else {
        history_->markIncomplete();
      }
      // PI controller; err may be 0 (pow gives +inf, clamped to the growth limit).
      double factor = kSafety * std::pow(err, -kAlpha) * std::pow(errorPrevious_, kBeta);
      factor = std::clamp(factor, kMinFactor, previousRejected ? 1.0 : kMaxFactor);
      errorPrevious_ = std::max(err, 1e-4);
      // A step cut short to fit the interval says little about the step the solution allows:
      // keep at least the step it replaced for the next interval part.
      h_ = shortened ? std::max(h * factor, proposed) : h * factor;
      x_.swap(y1_);   // O(1): the vectors exchange their buffers
      k1_.swap(k7_);  // first same as last
      t_ = tEnd;
      // The projection moves x by about the local error; the FSAL derivative is kept (its
      // change is of the same order), and the dense output of this step ends unprojected.
      if (projection_) projection_(t_, x_);
      ++statistics_.steps;
      ++stepsSinceRestart_;
      ++accepted;
      previousRejected = false;
      if (t_ < t1 && accepted >= options_.maxStepsPerAdvance) {
        throw NumericalError(
            "rkf45: took maxStepsPerAdvance = " + std::to_string(options_.maxStepsPerAdvance) +
            " steps and reached only t = " + formatNumber(t_) + " of t1 = " + formatNumber(t1) +
            " (step size " + formatNumber(h_) +
            "); raise maxStepsPerAdvance, or use cvode (BDF) if the problem "
            "is stiff");
      }
    } else {
      ++statistics_.errorTestFailures;
      previousRejected = true;
      h_ = h *
           (std::isfinite(err) ? std::max(kMinFactor, kSafety * std::pow(err, -0.2)) : kMinFactor);
      const double hMin =
          16.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t_), std::abs(t1));
      if (h_ < hMin) {
        std::string why = std::isfinite(err) ? "the local error test keeps failing (error norm " +
                                                   formatNumber(err) + ")"
                                             : "a stage derivative or the step overflowed";
        if (nonFiniteIndex_ >= 0) {
          why = "non-finite derivative at t = " + formatNumber(nonFiniteTime_) + ": xdot[" +
                std::to_string(nonFiniteIndex_) + "] = " + formatNumber(nonFiniteValue_);
        }
        throw NumericalError("rkf45: step size underflow at t = " + formatNumber(t_) +
                             " (h = " + formatNumber(h_) +
                             ", advancing to t1 = " + formatNumber(t1) + "): " + why);
      }
    }
  }
  x = x_;
}

void Rkf45Integrator::interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) const {
  const auto piece = history_->find(name(), t0_, t_, size(), t, x.size());
  if (!piece) {
    x = x_;
    return;
  }
  const double theta = piece->theta;
  const double theta1 = 1.0 - theta;
  const auto& r = piece->columns;
  // theta = 0 at a step start gives r1, the accepted state, exactly.
  x = r.col(0) + theta * (r.col(1) + theta1 * (r.col(2) + theta * (r.col(3) + theta1 * r.col(4))));
}

}  // namespace hopsim
