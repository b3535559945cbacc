#pragma once
/// @file
/// ZeroCrossingDetector: the zero-crossing conditions and their memory across hops — the
/// trigger rule, localization inside the hop just integrated, the conditions that fire
/// together, chattering, firing (docs/zero-crossings.md). The executive owns one and gives it
/// the trial states localization needs through a Host.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/events.h"
#include "hopsim/core/root_finder.h"
#include "hopsim/core/snapshot.h"
#include "hopsim/core/time.h"
#include "hopsim/core/zero_crossing.h"

namespace hopsim {

class Model;
struct PropagationStatistics;

class ZeroCrossingDetector {
 public:
  /// What detection asks of the executive: the state at a time inside the hop just integrated,
  /// put into the models, and the outputs the residuals read.
  class Host {
   public:
    virtual ~Host() = default;
    /// The simulation residuals and callbacks are given.
    virtual Simulation& simulation() = 0;
    /// The continuous outputs for the state the models hold, at t.
    virtual void refreshOutputs(double t) = 0;
    /// Puts the state at t, inside the hop just integrated, into the models.
    virtual void setStateAt(double t) = 0;
    /// The n sub-steps of the hop whose boundary states were recorded (a fixed-step method's;
    /// boundaries 1 to n-1 lie inside the hop), or 1 when the state is found by setStateAt alone.
    virtual int recordedSubSteps() = 0;
    /// Puts the state recorded at sub-step boundary k into the models; returns its time.
    virtual double setSubStepState(int k) = 0;
    /// After trials moved them: the state at the hop's end, at t, back in the models, with the
    /// outputs for it.
    virtual void backToHopEnd(double t) = 0;
    /// Called after the callback of the condition `name` fired at t ran.
    virtual void crossingFired(const std::string& name, double t) = 0;
  };

  /// `statistics` receives the residual evaluations of localization and the firings.
  explicit ZeroCrossingDetector(PropagationStatistics& statistics) : statistics_(statistics) {}

  // ---- registration -----------------------------------------------------------------------

  /// Registers a condition; `owner`, when given, is the model whose class declares it: it goes
  /// with that model and never triggers while the model is inactive.
  /// @throws InputError for a missing residual or callback, or non-positive tolerances.
  void add(std::string name, ZeroCrossingResidual residual, CrossingDirection direction,
           EventCallback callback, ZeroCrossingOptions options, const Model* owner = nullptr);
  /// Whether a condition of that name is registered.
  bool has(std::string_view name) const;
  std::optional<EventInfo> find(std::string_view name) const;
  /// Appends every condition's description, in registration order.
  void list(std::vector<EventInfo>& into) const;
  /// Removes the condition `name`; false if there is none.
  /// @throws InputError for a condition a model declares (it goes with its model).
  bool remove(std::string_view name);
  /// Removes every condition no model declares.
  void clear();
  /// Removes the conditions `model` declares.
  void removeOwnedBy(const Model& model);
  /// After the active models changed: conditions of inactive models do not trigger.
  void setActiveModels(const std::vector<Model*>& active);
  /// @throws InputError unless hops >= 1.
  void setChatteringLimit(int hops);

  bool empty() const { return crossings_.empty(); }
  std::size_t size() const { return crossings_.size(); }
  /// The name of the i-th condition, in registration order.
  const std::string& name(std::size_t i) const { return crossings_[i].name; }

  // ---- snapshots --------------------------------------------------------------------------

  /// The memory of every condition across hops, in registration order, and the chattering
  /// count.
  void save(std::vector<Snapshot::CrossingMemory>& memory, int& chattering) const;
  /// Puts back what save gave, for the same conditions.
  void restore(const std::vector<Snapshot::CrossingMemory>& memory, int chattering);

  // ---- within a hop -----------------------------------------------------------------------

  /// The residuals at the hop's start, with the state at t in the models.
  void evaluateStartSigns(Host& host, double t);
  /// After the hop [t0, t1] was integrated, its continuous state ending at x1Time: whether a
  /// condition triggered. If one did, the crossing is localized, t1 and x1Time move to it (the
  /// tick nearest it, at least one into the hop; the located time), the conditions that fire
  /// there are chosen, and the result is whether the hop must be run again to end there.
  /// Otherwise the models hold the state at the hop's end again.
  /// @throws NumericalError when crossings have stopped time from advancing for the
  /// chattering limit's number of hops.
  bool locate(Host& host, Ticks t0, Ticks& t1, double& x1Time);
  /// Whether conditions located in this hop are waiting to fire.
  bool firing() const { return !firing_.empty(); }
  /// Forgets the conditions waiting to fire (the hop failed).
  void cancelFiring() { firing_.clear(); }
  /// Fires the conditions located in this hop, at the located time t.
  void fire(Host& host, double t);

 private:
  /// A registered condition and its memory across hops.
  struct Crossing {
    std::string name;
    // A condition a model class declares belongs to that model: removed with it, and never
    // triggering while the model is inactive.
    const Model* owner = nullptr;
    bool ownerActive = true;
    ZeroCrossingResidual residual;
    CrossingDirection direction;
    EventCallback callback;
    ZeroCrossingOptions options;
    std::uint64_t sequence = 0;
    bool removed = false;
    // Memory across hops: after firing, the value it had and the side it crossed to. While
    // the residual still has that value at the next hop start, the condition counts as being
    // on the crossed side, so a crossing is never fired twice.
    bool afterFiring = false;
    double firedValue = 0.0;
    int crossedSign = 0;
    // Within a hop.
    int startSign = 0;
    bool triggered = false;
    bool fires = false;
    Bracket bracket{};
  };
  Bracket localize(Host& host, Crossing& crossing);
  /// Erases the conditions marked removed, unless some are waiting to fire.
  void eraseRemoved();

  PropagationStatistics& statistics_;
  std::deque<Crossing> crossings_;  // registration order; stays in place while callbacks add
  std::uint64_t sequence_ = 0;
  std::vector<std::size_t> firing_;  // crossings to fire at the end of this hop, in order
  int chatteringLimit_ = 1000;
  int chattering_ = 0;
};

}  // namespace hopsim
