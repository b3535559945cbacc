#pragma once
// Small FlowModels the core tests build dataflows from.

#include <functional>
#include <string>
#include <vector>

#include "hopsim/core/flow_model.h"
#include "hopsim/core/simulation.h"

namespace hopsim::test {

/// y = u + offset, with feed-through (or without, when declared so: then y = offset + the input
/// read at the last startHop).
class Pass final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Pass", ModelKind::Flow, "y = u + offset") {}
    ParamKey<double> offset = param<double>("offset").defaultValue(1.0);
    InKey<double> u = flowIn<double>("u");
    OutKey<double> y = flowOut<double>("y").feedsFrom(u);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Pass(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double) override {
    ++updates;
    out(d_.y) = in(d_.u) + param(d_.offset);
  }
  int updates = 0;

 private:
  const Declaration& d_ = declaration();
};

/// A discrete accumulator: x_{k+1} = x_k + u_k at each hop, y = x. No feed-through.
class Accumulator final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Accumulator", ModelKind::Flow, "x += u each hop; y = x") {}
    InKey<double> u = flowIn<double>("u");
    OutKey<double> y = flowOut<double>("y").noFeedThrough();
    DiscreteStateKey<double> x = discreteState<double>("x").defaultValue(0.0);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Accumulator(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startHop(double, double) override { state(d_.x) += in(d_.u); }
  void updateFlowOuts(double) override { out(d_.y) = state(d_.x); }

 private:
  const Declaration& d_ = declaration();
};

/// Counts its I/O steps and hops; `onEndIoStep` may check each step's times.
class Probe final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Probe", ModelKind::Flow, "counts its method calls") {}
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Probe(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startIoStep(double tStart, double tEnd) override {
    ++startIoSteps;
    lastStart = tStart;
    plannedEnd = tEnd;
  }
  void startHop(double t0, double t1) override {
    ++hops;
    minHop = std::min(minHop, t1 - t0);
  }
  void endIoStep(double tStart, double tEnd) override {
    ++endIoSteps;
    if (onEndIoStep) onEndIoStep(tStart, tEnd);
    lastEnd = tEnd;
  }
  long startIoSteps = 0;
  long endIoSteps = 0;
  long hops = 0;
  double lastStart = -1.0;
  double plannedEnd = -1.0;
  double lastEnd = -1.0;
  double minHop = 1e300;
  std::function<void(double, double)> onEndIoStep;
};

/// Appends "<name>.<method>@<t>" to a shared log at every method call.
class Logger final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Logger", ModelKind::Flow, "logs its method calls") {
      setOutputGranularity(Sweep::StartIo | Sweep::EndHop);
    }
    OutKey<double> y = flowOut<double>("y");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  Logger(std::string name, std::vector<std::string>& log)
      : FlowModel(std::move(name), declaration()), log_(&log) {}
  void processParams(double t) override { note("processParams", t); }
  void startIoStep(double t, double) override { note("startIoStep", t); }
  void startHop(double t, double) override { note("startHop", t); }
  void updateFlowOuts(double t) override {
    note("updateFlowOuts", t);
    out(declaration().y) = t;
  }
  void endHop(double, double t) override { note("endHop", t); }
  void endIoStep(double, double t) override { note("endIoStep", t); }

 private:
  void note(const char* method, double t) {
    log_->push_back(name() + "." + method + "@" + std::to_string(t).substr(0, 4));
  }
  std::vector<std::string>* log_;
};

/// Acts (counts) only when its input is fresh.
class FreshOnly final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("FreshOnly", ModelKind::Flow, "acts on fresh input only") {}
    InKey<double> u = flowIn<double>("u");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit FreshOnly(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startHop(double, double) override {
    if (!isFresh(declaration().u)) return;
    sum += in(declaration().u);
    ++actions;
  }
  int actions = 0;
  double sum = 0.0;
};

/// y = gain u + x, fed through from u, published at ENDHOP only; x changes only when set.
class EndHopOutput final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("EndHopOutput", ModelKind::Flow, "y = gain u + x at ENDHOP") {
      setOutputGranularity(Sweep::EndHop);
    }
    ParamKey<double> gain = param<double>("gain").defaultValue(1.0);
    DiscreteStateKey<double> x = discreteState<double>("x").defaultValue(0.0);
    InKey<double> u = flowIn<double>("u");
    OutKey<double> y = flowOut<double>("y").feedsFrom(u);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit EndHopOutput(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double) override {
    ++updates;
    out(declaration().y) = param(declaration().gain) * in(declaration().u) + state(declaration().x);
  }
  int updates = 0;
};

/// Records the input it reads in each startHop.
class StartHopReader final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("StartHopReader", ModelKind::Flow, "records u at each startHop") {}
    InKey<double> u = flowIn<double>("u");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit StartHopReader(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startHop(double, double) override { read.push_back(in(declaration().u)); }
  std::vector<double> read;
};

/// u -> source (EndHopOutput) -> y -> reader (StartHopReader), with u = 1, locked.
inline void buildEndHopChain(Simulation& sim) {
  sim.addSignal("u", ElementType::Double);
  sim.addSignal("y", ElementType::Double);
  sim.addModel<EndHopOutput>("source");
  sim.addModel<StartHopReader>("reader");
  sim.tie("source", "u", "u");
  sim.tie("source", "y", "y");
  sim.tie("reader", "u", "y");
  sim.set("signals.u", 1.0);
  sim.lock();
}

}  // namespace hopsim::test
