#include "hopsim/models/inertial_sensor.h"

#include <cmath>

#include "ascii_case.h"
#include "hopsim/models/random_stream.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

using spatial::Vector3;

namespace {

/// floor(integral / lsb) as a two's-complement register of `bits` bits.
std::int64_t countsOf(double integral, double lsb, std::int64_t bits) {
  const double range = std::ldexp(1.0, static_cast<int>(bits));
  const double half = 0.5 * range;
  double c = std::floor(integral / lsb);
  c -= range * std::floor((c + half) / range);  // into [-half, half)
  if (c >= half) c -= range;                    // rounding at the upper edge
  return static_cast<std::int64_t>(c);
}

/// a - b as a `bits`-bit register: the modular difference, sign-extended.
std::int64_t wrappedDifference(std::int64_t a, std::int64_t b, std::int64_t bits) {
  const int shift = 64 - static_cast<int>(bits);
  const std::uint64_t d = static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b);
  return static_cast<std::int64_t>(d << shift) >> shift;
}

Vector3 drawNormals(RandomStream& stream) {
  const double x = stream.normal();
  const double y = stream.normal();
  return {x, y, stream.normal()};
}

}  // namespace

InertialSensorDeclaration::InertialSensorDeclaration(const InertialSensorTerms& t)
    : ModelSpec(t.className, ModelKind::Sensor, t.doc), terms(t) {
  // The outputs are latched discrete states, changed only at a sample (an I/O step start).
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

void InertialSensor::processParams(double /*t*/) {
  const std::string& type = param(d_.stateType);
  if (equalsIgnoringCase(type, "CONTINUOUS")) {
    discrete_ = false;
  } else if (equalsIgnoringCase(type, "DISCRETE")) {
    discrete_ = true;
  } else {
    throw InputError(describe() + ": state_type = '" + type +
                     "' is not a state type (expected CONTINUOUS or DISCRETE)");
  }
  const auto m = param(d_.misalignment);
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) senseAxes_(row, col) = m[3 * row + col];
  }
}

void InertialSensor::startIoStep(double tStart, double tEnd) {
  const bool first = state(d_.samples) == 0;
  if (first) state(d_.stream) = RandomStream::initialState(param(d_.seed));
  RandomStream stream(state(d_.stream));
  // The same three draws per sample in both modes, so the stream's position depends only on
  // the number of samples.
  const Vector3 white = drawNormals(stream);
  const Vector3 walk = drawNormals(stream);
  const Vector3 markov = drawNormals(stream);
  if (discrete_) {
    if (!first) advanceDiscreteErrors(tStart - state(d_.sampleTime), white, walk, markov);
  } else {
    // Held over [tStart, tEnd] of length h, a forcing y / sqrt(h) has the integral y sqrt(h):
    // the white noise's integral gains N^2 h and b_rw gains K^2 h per period exactly, and b_gm
    // is driven with the intensity 2 sigma^2 / tau of its stationary variance sigma^2.
    const double rootPeriod = std::sqrt(tEnd - tStart);
    auto f = state(d_.forcing);
    const double sigma = param(d_.biasInstability), tau = param(d_.correlationTime);
    f.segment<3>(0) = (param(d_.noiseDensity) / rootPeriod) * white;
    f.segment<3>(3) = (param(d_.biasRandomWalk) / rootPeriod) * walk;
    f.segment<3>(6) = (sigma * std::sqrt(2.0 / tau) / rootPeriod) * markov;
  }
  latchSample(tStart);
}

void InertialSensor::advanceDiscreteErrors(double h, const Vector3& white, const Vector3& walk,
                                           const Vector3& markov) {
  const double tau = param(d_.correlationTime), sigma = param(d_.biasInstability);
  const double decay = std::exp(-h / tau);
  const double rootH = std::sqrt(h);
  state(d_.integralState) += (param(d_.noiseDensity) * rootH) * white;
  state(d_.randomWalkBias) += (param(d_.biasRandomWalk) * rootH) * walk;
  auto gm = state(d_.markovBias);
  gm = decay * gm + (sigma * std::sqrt(-std::expm1(-2.0 * h / tau))) * markov;
  state(d_.driftBias) += h * param(d_.driftRate);
}

void InertialSensor::latchSample(double t) {
  const std::int64_t bits = param(d_.countBits);
  const double lsb = param(d_.lsb);
  const auto integral = state(d_.integralState);
  auto counts = state(d_.sampledCounts);
  auto deltaCounts = state(d_.sampledDeltaCounts);
  const bool first = state(d_.samples) == 0;
  for (int i = 0; i < 3; ++i) {
    const std::int64_t c = countsOf(integral[i], lsb, bits);
    deltaCounts[i] = first ? 0 : wrappedDifference(c, counts[i], bits);
    counts[i] = c;
  }
  if (first) {
    state(d_.sampledDelta).setZero();
    state(d_.sampledAverage).setZero();
  } else {
    state(d_.sampledDelta) = integral - state(d_.sampledIntegral);
    state(d_.sampledAverage) = state(d_.sampledDelta) / (t - state(d_.sampleTime));
  }
  state(d_.sampledIntegral) = integral;
  state(d_.sampleTime) = t;
  ++state(d_.samples);
}

void InertialSensor::postDeriv(double /*t*/) {
  const Vector3 biases = Vector3(param(d_.bias)) + Vector3(state(d_.randomWalkBias)) +
                         Vector3(state(d_.markovBias)) + Vector3(state(d_.driftBias));
  const Vector3 scale = Vector3::Ones() + Vector3(param(d_.scaleFactor));
  const Vector3 measured = scale.cwiseProduct(senseAxes_ * trueQuantity()) + biases;
  auto integral = derivative(d_.integralState);
  auto walk = derivative(d_.randomWalkBias);
  auto markov = derivative(d_.markovBias);
  auto drift = derivative(d_.driftBias);
  if (discrete_) {
    // The error states hold between samples; advanceDiscreteErrors moves them.
    integral = measured;
    walk.setZero();
    markov.setZero();
    drift.setZero();
  } else {
    const auto f = state(d_.forcing);
    integral = measured + f.segment<3>(0);
    walk = f.segment<3>(3);
    markov = f.segment<3>(6) - state(d_.markovBias) / param(d_.correlationTime);
    drift = param(d_.driftRate);
  }
}

void InertialSensor::updateFlowOuts(double /*t*/) {
  out(d_.sensedOut) = state(d_.sampledAverage);
  out(d_.integralOut) = state(d_.sampledIntegral);
  out(d_.deltaOut) = state(d_.sampledDelta);
  const auto counts = state(d_.sampledCounts);
  const auto deltaCounts = state(d_.sampledDeltaCounts);
  auto countsOut = out(d_.countsOut);
  auto deltaCountsOut = out(d_.deltaCountsOut);
  for (int i = 0; i < 3; ++i) {
    countsOut[i] = counts[i];
    deltaCountsOut[i] = deltaCounts[i];
  }
}

}  // namespace hopsim::models
