#pragma once
// ContinuousModels with their own states, for the continuous-dynamics tests: each has a known
// analytic or reference solution.

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/simulation.h"

namespace hopsim::test {

/// Declares `declaration()` for a model class whose nested Declaration is default-constructible.
#define HOPSIM_TEST_DECLARATION             \
  static const Declaration& declaration() { \
    static const Declaration d;             \
    return d;                               \
  }

/// m x'' = -k x: x(t) = x0 cos(w t) + v0/w sin(w t), w = sqrt(k/m). Output x.
class MassSpring final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("MassSpring", ModelKind::Continuous, "m x'' = -k x") {}
    ParamKey<double> m = param<double>("m").unit("kg").defaultValue(1.0).min(0.0);
    ParamKey<double> k = param<double>("k").unit("N/m").defaultValue(1.0);
    ContinuousStateKey<double> x = continuousState<double>("x").unit("m").defaultValue(1.0);
    ContinuousStateKey<double> v = continuousState<double>("v").unit("m/s").defaultValue(0.0);
    OutKey<double> position = flowOut<double>("position").unit("m");
  };
  HOPSIM_TEST_DECLARATION
  explicit MassSpring(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void updateFlowOuts(double) override { out(d_.position) = state(d_.x); }
  void postDeriv(double) override {
    derivative(d_.x) = state(d_.v);
    derivative(d_.v) = -param(d_.k) / param(d_.m) * state(d_.x);
  }
  double x() const { return state(d_.x); }

 private:
  const Declaration& d_ = declaration();
};

/// Adds a MassSpring "spring" with its position tied to a new signal "x".
inline MassSpring& addSpring(Simulation& sim) {
  sim.addSignal("x", ElementType::Double);
  auto& spring = sim.addModel<MassSpring>("spring");
  sim.tie("spring", "position", "x");
  return spring;
}

/// A ball in free fall: h' = v, v' = -g. The bounce is a zero-crossing callback's job.
class Ball final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Ball", ModelKind::Continuous, "h' = v, v' = -g") {}
    ParamKey<double> g = param<double>("g").unit("m/s^2").defaultValue(9.81);
    ContinuousStateKey<double> h = continuousState<double>("h").unit("m").defaultValue(10.0);
    ContinuousStateKey<double> v = continuousState<double>("v").unit("m/s").defaultValue(0.0);
    DiscreteStateKey<std::int64_t> hops = discreteState<std::int64_t>("hops").defaultValue(0);
  };
  HOPSIM_TEST_DECLARATION
  explicit Ball(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  /// Counts hops in a declared discrete state: rollback must undo the count of a hop that is
  /// re-run, and only a declared state can be restored.
  void startHop(double, double) override { state(d_.hops) += 1; }
  void postDeriv(double) override {
    derivative(d_.h) = state(d_.v);
    derivative(d_.v) = -param(d_.g);
  }
  double height() const { return state(d_.h); }
  double velocity() const { return state(d_.v); }
  void setVelocity(double v) { state(d_.v) = v; }
  std::int64_t hops() const { return state(d_.hops); }

 private:
  const Declaration& d_ = declaration();
};

/// Thermal RC node: C T' = P - (T - Tamb) / R, heated by input P. Output T.
class ThermalNode final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("ThermalNode", ModelKind::Continuous, "C T' = P - (T - Ta)/R") {}
    ParamKey<double> r = param<double>("R").unit("K/W").defaultValue(2.0);
    ParamKey<double> c = param<double>("C").unit("J/K").defaultValue(5.0);
    ParamKey<double> ambient = param<double>("ambient").unit("K").defaultValue(300.0);
    ContinuousStateKey<double> t = continuousState<double>("T").unit("K").defaultValue(300.0);
    InKey<double> power = flowIn<double>("P").unit("W");
    OutKey<double> temperature = flowOut<double>("T").unit("K").noFeedThrough();
  };
  HOPSIM_TEST_DECLARATION
  explicit ThermalNode(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void updateFlowOuts(double) override { out(d_.temperature) = state(d_.t); }
  void postDeriv(double) override {
    derivative(d_.t) =
        (in(d_.power) - (state(d_.t) - param(d_.ambient)) / param(d_.r)) / param(d_.c);
  }

 private:
  const Declaration& d_ = declaration();
};

/// Van der Pol: x'' = mu (1 - x^2) x' - x, as states (x, y = x').
class VanDerPol final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("VanDerPol", ModelKind::Continuous, "x'' = mu (1 - x^2) x' - x") {}
    ParamKey<double> mu = param<double>("mu").defaultValue(1.0);
    ContinuousStateKey<Eigen::VectorXd> q =
        continuousState<Eigen::VectorXd>("q").length(2).defaultValue(std::vector<double>{2.0, 0.0});
  };
  HOPSIM_TEST_DECLARATION
  explicit VanDerPol(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void postDeriv(double) override {
    const auto q = state(d_.q);
    auto dq = derivative(d_.q);
    dq[0] = q[1];
    dq[1] = param(d_.mu) * (1.0 - q[0] * q[0]) * q[1] - q[0];
  }

 private:
  const Declaration& d_ = declaration();
};

/// Robertson's stiff chemical kinetics (Hairer & Wanner II, p. 3).
class Robertson final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Robertson", ModelKind::Continuous, "stiff chemical kinetics") {}
    ContinuousStateKey<Eigen::VectorXd> y =
        continuousState<Eigen::VectorXd>("y").length(3).defaultValue(
            std::vector<double>{1.0, 0.0, 0.0});
  };
  HOPSIM_TEST_DECLARATION
  explicit Robertson(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void postDeriv(double) override {
    const auto y = state(d_.y);
    auto dy = derivative(d_.y);
    dy[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
    dy[2] = 3e7 * y[1] * y[1];
    dy[1] = -dy[0] - dy[2];
  }

 private:
  const Declaration& d_ = declaration();
};

/// x' = y with y prescribed: y(t) = sin t when masked, so x(t) = x0 + 1 - cos t.
class Prescribed final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Prescribed", ModelKind::Continuous, "x' = y, y prescribed") {}
    ContinuousStateKey<double> x = continuousState<double>("x").defaultValue(0.0);
    ContinuousStateKey<double> y = continuousState<double>("y").defaultValue(0.0);
  };
  HOPSIM_TEST_DECLARATION
  explicit Prescribed(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void maskedCoordinates(double t) override { state(d_.y) = std::sin(t); }
  void postDeriv(double) override {
    derivative(d_.x) = state(d_.y);
    derivative(d_.y) = 1.0;  // ignored while y is masked
  }

 private:
  const Declaration& d_ = declaration();
};

/// Records every method call as "name:method@t" for calling-sequence tests; x' = -x.
class Recorder final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Recorder", ModelKind::Continuous, "x' = -x; logs calls") {
      setOutputGranularity(Sweep::EndHop);
    }
    ContinuousStateKey<double> x = continuousState<double>("x").defaultValue(1.0);
    OutKey<double> y = flowOut<double>("y");
  };
  HOPSIM_TEST_DECLARATION
  Recorder(std::string name, std::vector<std::string>& log)
      : ContinuousModel(std::move(name), declaration()), log_(&log) {}
  void startHop(double, double) override { record("startHop"); }
  void startIntegrationStep(double, double) override { record("startIntegrationStep"); }
  void preDeriv(double) override { record("preDeriv"); }
  void postDeriv(double) override {
    record("postDeriv");
    derivative(d_.x) = -state(d_.x);
  }
  void endIntegrationStep(double, double) override { record("endIntegrationStep"); }
  void endHop(double, double) override { record("endHop"); }
  void updateFlowOuts(double) override {
    record("updateFlowOuts");
    out(d_.y) = state(d_.x);
  }

 private:
  void record(const char* method) { log_->push_back(name() + ":" + method); }
  const Declaration& d_ = declaration();
  std::vector<std::string>* log_;
};

}  // namespace hopsim::test
