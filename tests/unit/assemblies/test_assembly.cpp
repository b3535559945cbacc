// Assembly's helpers for the models it makes: a model it adopts keeps the class it was made with.

#include <doctest/doctest.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/core/flow_model.h"
#include "hopsim/core/model_batch.h"
#include "hopsim/core/simulation.h"

namespace hopsim {
namespace {

/// y = 2 u, written as a batch method only: the executive writes y only for a model whose class
/// it knows (docs/model-authors.md, "Batches").
class BatchedDoubler final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("BatchedDoubler", ModelKind::Flow, "y = 2 u, as a batch method.") {}
    InKey<double> u = flowIn<double>("u").describe("input");
    OutKey<double> y = flowOut<double>("y").feedsFrom(u).describe("twice the input");
  };
  static const Declaration& declaration() {
    static const Declaration declaration;
    return declaration;
  }

  explicit BatchedDoubler(std::string name) : FlowModel(std::move(name), declaration()) {}

  static void updateFlowOutsBatch(const ModelBatch<BatchedDoubler>& batch, double /*t*/) {
    const auto u = batch.in(declaration().u);
    const auto y = batch.out(declaration().y);
    for (std::size_t k = 0; k < batch.size(); ++k) y[k] = 2.0 * u[k];
  }
};

/// Adopts a BatchedDoubler made with std::make_unique, passed as a pointer to its own class or,
/// with kAsModel, to Model, and ties it to its signals u and y.
template <bool kAsModel>
class Doubling : public Assembly {
 public:
  static constexpr const char* kClassName = kAsModel ? "DoublingAsModel" : "Doubling";
  static constexpr const char* kDoc = "One BatchedDoubler from u to y.";

 protected:
  void addSignals() override {
    addSignal("u", ElementType::Double);
    addSignal("y", ElementType::Double);
  }
  void addModels() override {
    auto doubler = std::make_unique<BatchedDoubler>(qualified("doubler"));
    Model& model = kAsModel ? adoptModel(std::unique_ptr<Model>(std::move(doubler)))
                            : adoptModel(std::move(doubler));
    tie(model, "u", "u");
    tie(model, "y", "y");
  }
};

/// y after one hop with u = 1.5, or nothing when y was never written.
template <class A>
std::optional<double> doubled() {
  Simulation sim{{.ioStepSize = 0.1}};
  SimulationAssembly top{sim};
  top.addAssembly<A>("twice");
  sim.set("signals.twice.u", 1.5);
  sim.lock();
  sim.advanceOverHop();
  if (sim.signal("twice.y").version() == 0) return std::nullopt;
  return std::get<double>(sim.get("signals.twice.y"));
}

TEST_CASE("a model an assembly adopts as a pointer to its own class runs its batch methods") {
  // As Simulation::addModel: the class of a std::unique_ptr<BatchedDoubler> is recognized, and so
  // is that of a std::unique_ptr<Model>, by its dynamic type, since the program names the class
  // to recognizeClass (the std::unique_ptr<BatchedDoubler> case does).
  CHECK(doubled<Doubling<false>>() == 3.0);
  CHECK(doubled<Doubling<true>>() == 3.0);
}

}  // namespace
}  // namespace hopsim
