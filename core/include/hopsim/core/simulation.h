#pragma once
/// @file
/// Simulation: the executive. Owns signals, models, events and the variable tree, and advances
/// time hop by hop (DESIGN.md sections 2 and 3; docs/executive.md).

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "hopsim/core/batch_calls.h"
#include "hopsim/core/batch_list.h"
#include "hopsim/core/dataflow_sort.h"
#include "hopsim/core/event_manager.h"
#include "hopsim/core/events.h"
#include "hopsim/core/granularity.h"
#include "hopsim/core/linearization.h"
#include "hopsim/core/model.h"
#include "hopsim/core/model_batch.h"
#include "hopsim/core/multibody_system.h"
#include "hopsim/core/period.h"
#include "hopsim/core/snapshot.h"
#include "hopsim/core/state_vector.h"
#include "hopsim/core/time.h"
#include "hopsim/core/timeline.h"
#include "hopsim/core/zero_crossing.h"
#include "hopsim/core/zero_crossing_detector.h"
#include "hopsim/integrators/integrator.h"
#include "hopsim/signals/signal.h"
#include "hopsim/signals/variable_tree.h"

namespace hopsim {

/// Settings fixed when a simulation is created (ioStepSize and integrationSteps may change later
/// while unlocked).
struct SimulationOptions {
  /// Simulation time at creation, s. Periodic schedules are phased from it.
  double startTime = 0.0;
  /// The default model period (the seed's ioStepSize), s.
  double ioStepSize = 0.01;
  /// Equal integration sub-steps per hop for fixed-step integrators.
  int integrationSteps = 1;
  /// The integrator, by name (integratorNames(): "euler", "rk4", "rkf45", "cvode",
  /// "euler_implicit_linearized", "euler_implicit").
  std::string integrator = "rk4";
  /// Its options (tolerances for rkf45 and cvode).
  IntegratorOptions integratorOptions{};
  /// The largest magnitude an integrated state may reach: a state beyond it, or not finite,
  /// after an integration step stops the run with a NumericalError (docs/integrators.md,
  /// "Divergence"). Positive; infinity checks finiteness only.
  double stateBound = 1e15;
};

/// Which hopsim wrote a checkpoint, as Simulation::restoreCheckpoint read it
/// (docs/checkpoints.md, "Versions").
struct CheckpointOrigin {
  /// The file's format version.
  int formatVersion = 0;
  /// hopsim's version ("0.1.0") and git commit that wrote the file; empty for files of format
  /// 7 and before, which did not record them (the commit is empty too when the writer was not
  /// built from a git checkout).
  std::string hopsimVersion;
  std::string gitCommit;
  /// True when this very build wrote it: the same version and the same commit, of a checkout
  /// without uncommitted changes. Only then is the continuation bit for bit with the run that
  /// wrote it.
  bool sameBuild = false;
  /// Empty when sameBuild; else one sentence on who wrote the file and what that means.
  std::string note;
};

class ContinuousModel;
class CheckpointParser;

/// A model's next I/O-step end for variable-rate models: given the current time (s), the next
/// time (s, strictly later), or nullopt for "no future trigger".
using NextIoTime = std::function<std::optional<double>(double now)>;

/// Decides after each hop whether run() stops.
using StopCallback = std::function<bool(Simulation& sim, double t)>;

/// The sorted calling order and the declared breaks, as modelOrder() reports them.
struct ModelOrder {
  /// FlowModels in calling order.
  std::vector<std::string> flowModels;
  /// ContinuousModels (and the DartsModel family) in calling order; sorted separately.
  std::vector<std::string> continuousModels;
  /// One line per connection a declared break cut: "A.y -> s -> B.u".
  std::vector<std::string> breaks;
  /// A readable multi-line rendering.
  std::string toString() const;
};

/// Work counters of the continuous part, cumulative since creation.
struct PropagationStatistics {
  /// Derivative evaluations (the full per-evaluation sweep sequence).
  std::uint64_t derivativeEvaluations = 0;
  /// Zero-crossing firings.
  std::uint64_t crossingsFired = 0;
  /// Hops rolled back to their start because a condition triggered inside them.
  std::uint64_t rollbacks = 0;
  /// Residual evaluations spent localizing crossings.
  std::uint64_t localizationResiduals = 0;
  /// Derivative evaluations spent localizing: the re-run of a fixed-step method's sub-step when
  /// the crossing lies in one before the hop's last (localizing on dense output needs none).
  std::uint64_t localizationDerivatives = 0;
  /// Derivative evaluations spent on samples inside hops (addSampler): one per sample, plus
  /// the re-runs of fixed-step sub-steps before the hop's last. Not counted in
  /// derivativeEvaluations, which recording leaves unchanged.
  std::uint64_t samplingDerivatives = 0;
  /// Derivative evaluations of hops integrated to their planned end and then rolled back
  /// because a condition triggered inside them. (The re-run to the located time is not
  /// counted: a barrier there would have cost the same.)
  std::uint64_t discardedDerivatives = 0;
};

/// Identifies a sampler or an event observer (Simulation::addSampler).
using SamplerId = std::uint64_t;
/// Told each event that fired, by name, and its time (Simulation::addEventObserver).
using EventObserver = std::function<void(Simulation& sim, std::string_view event, double t)>;

/// The simulation executive.
///
/// Structure (signals, models, ties, breaks, schedules) changes only while unlocked; lock()
/// validates it, sorts the dataflow and prepares every model. Time advances only while locked,
/// hop by hop from barrier to barrier. Every structural call also requires being between hops:
/// not from inside a model method or a model-method event.
class Simulation {
 public:
  explicit Simulation(SimulationOptions options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // ---- signals ---------------------------------------------------------------------------

  /// Creates a signal `name`, reachable as variable `signals.<name>`.
  /// @throws InputError for a bad or taken name or a bad type/length; ModelError when locked.
  Signal& addSignal(const std::string& name, ElementType type, std::size_t length = 1,
                    std::string unit = {}, std::string description = {});
  /// @throws InputError naming the signal and the nearest names.
  Signal& signal(std::string_view name);
  /// @throws ModelError if a port is still tied to it (naming the ports) or when locked.
  void removeSignal(std::string_view name);
  std::vector<std::string> signalNames() const;

  // ---- models ----------------------------------------------------------------------------

  /// Adds a model; its params, states and ports become variables under `models.<name>`. A model
  /// whose class was not recognized when it was made is recognized from its dynamic type
  /// (recognizeClassOf), when the program names its class anywhere.
  /// @throws InputError if the name is taken; ModelError when locked.
  Model& addModel(std::unique_ptr<Model> model);
  /// Adds a model passed as a pointer to its own class, as `std::make_unique<Gain>("g")` makes
  /// it: the executive then knows the class, as with addModel<M>(name) (recognizeClass).
  template <class M>
  requires(std::is_base_of_v<Model, M> &&
           !std::is_same_v<M, Model>) M& addModel(std::unique_ptr<M> model) {
    if (model != nullptr) recognizeClass(*model);
    return static_cast<M&>(addModel(std::unique_ptr<Model>(std::move(model))));
  }
  /// Constructs and adds a model of class M: `sim.addModel<Gain>("g")`. Knowing the class, the
  /// executive calls only the methods M overrides.
  template <class M, class... Args>
  M& addModel(std::string name, Args&&... args) {
    return static_cast<M&>(addModel(makeModel<M>(std::move(name), std::forward<Args>(args)...)));
  }
  /// @throws InputError naming the model and the nearest names.
  Model& model(std::string_view name);
  const Model& model(std::string_view name) const;
  /// Removes a model with its variables, breaks, schedule and model-method events.
  void removeModel(std::string_view name);
  /// Model names in creation order.
  std::vector<std::string> modelNames() const;

  /// Ties a port of a model to a whole signal. @throws InputError on any mismatch.
  void tie(std::string_view model, std::string_view port, std::string_view signal);
  /// Ties a port to elements [offset, offset+length) of a signal.
  void tie(std::string_view model, std::string_view port, std::string_view signal,
           std::size_t offset, std::size_t length);

  /// Declares a break on the connection(s) into a model's flowIn: sorting ignores them, so the
  /// model may run before their writers and read their previous value.
  void addBreak(std::string_view model, std::string_view flowIn);
  void removeBreak(std::string_view model, std::string_view flowIn);

  /// Puts a model on its own fixed rate (Hz), phased from the start time.
  void setModelRate(std::string_view model, double hertz);
  /// Puts a model on its own fixed period (s), phased from the start time.
  void setModelPeriod(std::string_view model, double seconds);
  /// Makes a model variable-rate: `next(now)` gives the end of each of its I/O steps.
  void registerMultiRateModel(std::string_view model, NextIoTime next);
  /// Returns a model to the default period.
  void useDefaultPeriod(std::string_view model);

  /// Raises a model's output granularity (never lowers it below its declaration).
  void raiseOutputGranularity(std::string_view model, Granularity granularity);
  /// The granularity in force after lock(): declared | raised | needed downstream.
  Granularity outputGranularity(std::string_view model) const;

  /// Deactivated models are skipped by every sweep; reactivated ones start a fresh I/O step at
  /// the next hop. Between hops only.
  void activate(std::string_view model);
  void deactivate(std::string_view model);
  bool isActive(std::string_view model) const;

  // ---- structure and time settings -------------------------------------------------------

  /// Validates and freezes the structure: every port tied, lengths resolved, params set, no
  /// two writers on one element, no algebraic loop; sorts the dataflow and calls each model's
  /// setup(). A failure leaves the simulation unlocked with its structure unchanged (models
  /// prepared before the failure have had setup() called; the next lock() calls it again, so
  /// setup() must be repeatable). Locking twice is a no-op.
  /// @throws ModelError (or InputError) naming what is wrong.
  void lock();
  /// Runs `hook` at the start of every lock() that is not a no-op, before any validation: an
  /// assembly tree binds its params and checks its signal ties there. A hook that throws
  /// fails the lock. @throws InputError if the name is taken.
  void addLockHook(std::string name, std::function<void()> hook);
  /// Removing a hook that does not exist is not an error.
  void removeLockHook(std::string_view name);
  /// Allows structural changes again (between hops only).
  void unlock();
  bool locked() const { return phase_ != Phase::Unlocked; }

  /// The default model period, s. Changing it (while unlocked) keeps the phase at the start
  /// time.
  double ioStepSize() const { return timeline_.ioPeriod().seconds(); }
  void setIoStepSize(double seconds);
  int integrationSteps() const { return integrationSteps_; }
  void setIntegrationSteps(int steps);

  /// The sorted order and the breaks in force (after lock()).
  ModelOrder modelOrder() const;

  // ---- continuous dynamics ---------------------------------------------------------------

  /// Selects the integrator (one of integratorNames()) and its options; while unlocked.
  /// @throws InputError for an unknown name (with suggestions) or a bad option.
  void setIntegrator(std::string_view name, IntegratorOptions options = {});
  /// The integrator in use, with its statistics.
  const Integrator& integrator() const { return *integrator_; }
  /// Runs one extra derivative evaluation after every integration sub-step, so outputs computed
  /// in the derivative sweeps (accelerations, forces) match the accepted state. Off by default.
  void setBonusDerivativeEvaluation(bool enabled) { bonusEvaluation_ = enabled; }
  /// The largest magnitude an integrated state may reach (SimulationOptions::stateBound):
  /// after every integration sub-step, a state beyond it or not finite stops the run with a
  /// NumericalError naming the state, the time and the integrator. Between hops.
  /// @throws InputError unless `bound` is positive (infinity: finiteness only).
  void setStateBound(double bound);
  double stateBound() const { return stateBound_; }

  /// Masks (true) or unmasks every element of a continuous state of a ContinuousModel. Masked
  /// elements are not integrated: they keep their value unless the model's maskedCoordinates
  /// prescribes it. While unlocked. @throws InputError naming the model and state.
  void setStateMasked(std::string_view model, std::string_view state, bool masked);
  /// Masks or unmasks one element of a vector continuous state.
  void setStateMasked(std::string_view model, std::string_view state, std::size_t element,
                      bool masked);
  /// The number of integrated state elements (after lock()).
  Eigen::Index stateCount() const { return states_.size(); }
  /// The integrated elements in X order: "models.ball.continuousStates.h".
  std::vector<std::string> stateNames() const;
  /// The exact time of the continuous state, s: time() except after a hop ended by a zero
  /// crossing, when it is the located crossing time (within half a tick of time(), or up to
  /// one tick before it when the crossing lies in the first half tick of the hop).
  double stateTime() const { return stateTime_; }
  const PropagationStatistics& propagationStatistics() const { return statistics_; }

  // ---- multibody -------------------------------------------------------------------------

  /// The multibody system: build the tree here (multibody().editModel()) while unlocked; its
  /// Q and U join the continuous state X at lock() (docs/multibody.md, "In a simulation").
  MultibodySystem& multibody() { return *multibody_; }
  const MultibodySystem& multibody() const { return *multibody_; }

  // ---- zero crossings --------------------------------------------------------------------

  /// Registers a zero-crossing condition (docs/zero-crossings.md). It triggers in a hop
  /// (t0, t1] iff g(t0) != 0 and g(t1) is zero or of the other sign, in `direction`. The
  /// crossing is then localized, the hop rolled back and re-run to end there, and `callback`
  /// fires with the located time; the condition is re-armed unless options.oneShot.
  /// Between hops only. @throws InputError for a taken name, a missing residual or callback,
  /// or non-positive tolerances.
  void registerZeroCrossing(std::string name, ZeroCrossingResidual residual,
                            CrossingDirection direction, EventCallback callback,
                            ZeroCrossingOptions options = {});
  /// The seed's target condition: fires when the numeric variable at `path` reaches `target`
  /// from below (Rising), above (Falling) or either; options.valueTolerance is its "eps".
  /// @throws InputError for a bad path (with suggestions) or a non-scalar, non-numeric variable.
  void registerTargetCrossing(std::string name, std::string_view path, double target,
                              CrossingDirection direction, EventCallback callback,
                              ZeroCrossingOptions options = {});
  /// How many hops in a row may end by a crossing with no time advance (a hop of at most one
  /// tick) before advancing stops with a NumericalError. Default 1000.
  void setChatteringLimit(int hops);

  // ---- checkpoint ------------------------------------------------------------------------

  /// Writes the complete state (time, continuous and discrete states, params, signal values,
  /// event schedules, zero-crossing memory, integrator choice) to `file`, between hops.
  /// @throws InputError if the file cannot be written; ModelError inside a hop.
  void saveCheckpoint(const std::string& file) const;
  /// Restores a checkpoint into this simulation, which must be built the same way (same
  /// signals, models, fields, events) and locked. The whole file is read and checked before
  /// anything changes: if it fails, the simulation is exactly as it was.
  /// @returns which hopsim wrote the file (a file of another build restores too, with a note).
  /// @throws InputError naming the file, the line, the field and the bad value or the first
  /// structural mismatch; ModelError when not locked or inside a hop.
  CheckpointOrigin restoreCheckpoint(const std::string& file);

  // ---- time ------------------------------------------------------------------------------

  /// Current simulation time, s.
  double time() const { return timeline_.nowSeconds(); }
  /// Current simulation time, ticks of 1 ns.
  Ticks ticks() const { return timeline_.now(); }

  /// Advances hop by hop until time t (a barrier is added at t) or until a stop callback
  /// says stop. @throws InputError if t is in the past; ModelError if not locked.
  void advanceTimeTo(double t);
  void advanceTimeBy(double dt);
  /// Advances to the n-th next default-period barrier.
  void step(int n = 1);
  /// Advances hop by hop until a stop callback says stop (after at least one hop).
  /// @throws ModelError if no stop callback is registered.
  void run();
  /// Advances exactly one hop, to the next barrier.
  void advanceOverHop();

  /// Stops run()/advanceTimeTo()/advanceTimeBy()/step() after the current hop, as a stop
  /// callback returning true would: for event and zero-crossing callbacks ("stop when the ball
  /// lands"). A request made while not advancing stops the next advance after its first hop.
  void requestStop() { stopRequest_ = true; }

  /// Stop callbacks are asked after every hop; any true stops run()/advanceTimeTo().
  void addStopCallback(std::string name, StopCallback callback);
  void removeStopCallback(std::string_view name);

  /// Number of hops taken since creation.
  std::uint64_t hopCount() const { return timeline_.hopCount(); }

  // ---- events ----------------------------------------------------------------------------

  /// Fires once at time t (>= now; at now means at the start of the next hop).
  void registerTimedEvent(std::string name, double t, EventCallback callback,
                          EventOptions options = {});
  /// Fires at each of `times`.
  void registerTimedEvent(std::string name, const std::vector<double>& times,
                          EventCallback callback, EventOptions options = {});
  /// Fires at first + k*period for k = 0, 1, ..., computed exactly from k.
  void registerPeriodicEvent(std::string name, double first, double period, EventCallback callback,
                             EventOptions options = {});
  /// Fires at `first`, then at each time its callback returns.
  void registerSelfReschedulingEvent(std::string name, double first, RescheduleCallback callback,
                                     EventOptions options = {});
  /// Fires at the start of every default-period I/O step.
  void registerBeginIoStepEvent(std::string name, EventCallback callback,
                                EventOptions options = {});
  /// Fires at the end of every default-period I/O step.
  void registerEndIoStepEvent(std::string name, EventCallback callback, EventOptions options = {});
  /// Fires at the end of every hop.
  void registerEndHopEvent(std::string name, EventCallback callback, EventOptions options = {});
  /// Fires before or after every call of `method` on `model`; the time is the method's own
  /// (its start time for start*/ends for end*).
  void registerModelEvent(std::string name, std::string_view model, ModelMethod method,
                          EventTiming timing, EventCallback callback, EventOptions options = {});

  /// Any event, zero-crossing conditions included.
  std::optional<EventInfo> findEvent(std::string_view name) const;
  /// Every event in registration order, then every zero-crossing condition.
  std::vector<EventInfo> listEvents() const;
  /// @throws InputError naming the event and the nearest names if there is no such event, or
  /// for a zero crossing a model declares (it goes with its model).
  void removeEvent(std::string_view name);
  /// Removes every event and zero-crossing condition except those models declare.
  void clearEvents();

  // ---- sampling --------------------------------------------------------------------------

  /// Calls `callback(sim, t)` at t = time() + k·period, k = 0, 1, 2, ..., exact to the tick,
  /// without making those times barriers: the hops, and so the results, are the same bit for
  /// bit with or without samplers (docs/recording.md). A sample inside a hop sees the
  /// continuous state there (the integrator's dense output; a re-integration from the last
  /// sub-step for fixed-step methods) and what a derivative evaluation there computes from it;
  /// everything that evaluation wrote is then put back. A sample at a barrier sees the values
  /// after that barrier's events. The callback only reads: it must not set variables or
  /// change the structure. Samplers stay across unlock() and lock().
  /// @returns the id removeSampler takes. @throws InputError for a period outside
  /// [1 ns, 4e9 s] or an empty callback.
  SamplerId addSampler(double period, EventCallback callback);
  /// Calls `callback(sim, t)` at the start of the next hop, then at the end of every hop, after
  /// the end barrier's events. Same rules as addSampler; removeSampler takes its id too.
  SamplerId addHopSampler(EventCallback callback);
  /// Calls `observer(sim, name, t)` right after each timed, I/O-step, hop or zero-crossing
  /// event has fired (its callback has run; not model-method events, which fire inside hops).
  /// It only reads, like a sampler. For recorders that sample on events.
  /// @returns the id removeSampler takes. @throws InputError for an empty observer.
  SamplerId addEventObserver(EventObserver observer);
  /// Removes a sampler or an event observer.
  /// @throws InputError for an id that names neither, ModelError from inside a sample.
  void removeSampler(SamplerId id);
  /// The samplers registered (recorders included).
  std::size_t samplerCount() const { return samplers_.size(); }

  // ---- the variable tree -----------------------------------------------------------------

  VariableTree& variables() { return variables_; }
  const VariableTree& variables() const { return variables_; }
  /// get/set/list by dotted path; see VariableTree.
  Value get(std::string_view path) const { return variables_.get(path); }
  void set(std::string_view path, const Value& value) { variables_.set(path, value); }
  std::vector<std::string> list(std::string_view prefix = {}) const {
    return variables_.list(prefix);
  }

  // ---- linearization and trim (docs/linearization.md) ---------------------------------------

  /// The linear model (A, B, C, D) about the current time and state, between hops; the
  /// simulation is left exactly as it was. @throws InputError for a state, input or output
  /// that matches nothing or cannot be one, or a bad option; ModelError when not locked or
  /// inside a hop.
  LinearSystem linearize(const LinearizationRequest& request);
  /// Solves for the freed states and inputs that zero the chosen state rates and meet the
  /// output targets (damped Newton on the linearization's Jacobians), then sets them.
  /// @throws NumericalError when it does not converge, leaving the simulation as it was;
  /// InputError and ModelError as linearize.
  TrimResult trim(const TrimRequest& request);

 private:
  friend class LinearizationSession;
  /// How a model's I/O steps are scheduled.
  struct IoSchedule {
    enum class Kind { Default, Fixed, Variable } kind = Kind::Default;
    std::optional<Period> period;
    NextIoTime next;
  };
  /// An I/O step [start, end], and whether it begins at the current hop's start.
  struct IoStep {
    Ticks start = 0;
    Ticks end = kNever;  // kNotStarted until a first step begins
    bool startsThisHop = false;
  };
  /// The executive's record of one model.
  struct ModelSlot {
    std::unique_ptr<Model> model;
    ContinuousModel* continuous = nullptr;  // the same model, when it is one
    IoSchedule schedule;
    bool active = true;
    Granularity raised;
    Granularity effective;
    // Its I/O step: its own, or, on the default period, the step it shares with every model
    // there (inDefaultStep, then `io` is stale), which the executive advances once per hop.
    IoStep io;
    bool inDefaultStep = false;
    std::vector<std::string> variablePaths;
  };
  /// A masked continuous-state element; element kAllElements masks the whole field.
  struct StateMask {
    std::string model;
    std::string state;
    std::size_t element;
  };
  static constexpr std::size_t kAllElements = std::numeric_limits<std::size_t>::max();
  struct StopEntry {
    std::string name;
    StopCallback callback;
  };

  static constexpr Ticks kNotStarted = Timeline::kNotStarted;
  void setSchedule(ModelSlot& slot, IoSchedule schedule);
  void setActive(ModelSlot& slot, bool active);
  const IoStep& ioStepOf(const ModelSlot& s) const { return s.inDefaultStep ? defaultStep_ : s.io; }
  /// Gives `s` its own copy of the shared default-period step it is in, if it is in it.
  void leaveDefaultStep(ModelSlot& s);
  /// ownStepSlots_ from the active slots, in calling order.
  void rebuildOwnStepSlots();
  /// Begins the next I/O steps due at t0 and returns the earliest end of a step in progress.
  Ticks beginIoSteps(Ticks t0);

  ModelSlot& slot(std::string_view model);
  const ModelSlot& slot(std::string_view model) const;
  void requireUnlocked(std::string_view what) const;
  void requireBetweenHops(std::string_view what) const;
  void requireNotAskingStops(std::string_view what) const;
  void advanceToTick(Ticks target);
  bool stopRequested();

  // The stages of a hop (simulation_run.cpp), in the order advanceOverHop runs them.
  /// Where a hop starts and ends; x0Time and x1Time span the continuous state, which ends at
  /// the located crossing when one cuts the hop short.
  struct HopSpan {
    Ticks t0 = 0;
    double t0s = 0.0;
    Ticks t1 = 0;
    double t1s = 0.0;
    double x0Time = 0.0;
    double x1Time = 0.0;
  };
  /// The seed's "step zero", after lock() or an activation: every output computed once before
  /// the start barrier's events read them.
  void updateForStepZero(double t0);
  /// Fires the events due at the start barrier; returns whether any was due.
  /// @throws ModelError when one of them left the simulation unlocked.
  bool fireStartBarrierEvents(Ticks t0, double t0s);
  /// processParams where params were set; returns whether any value was set from outside the
  /// dataflow (a model field by set(), a signal by Signal::set) since the last look.
  bool processParamsAndTakeSets(double t);
  /// processParams and every output again where the start barrier or sets since the previous
  /// hop call for it.
  void updateOutputsAtHopStart(double t0, bool stepZero, bool eventsFired);
  /// Begins the I/O steps due at t0 and sets the hop's end: the earliest barrier of any source.
  void planHop(HopSpan& hop);
  /// Runs the hop body, rolled back and run again to a crossing located inside it, then takes
  /// the samples inside the hop.
  void integrateHop(HopSpan& hop);
  /// The ENDHOP sweep, endHop, the clock moved to t1, endIoStep.
  void finishHop(const HopSpan& hop);
  Ticks nextIoEnd(ModelSlot& slot, Ticks now);
  void rebuildSweepLists();
  /// The sweeps' update lists and calls_ from the active models; rebuilt also when a
  /// model-method event is registered, since an event makes an empty method called.
  void rebuildCallLists();
  void computeGranularities(const std::vector<DataflowConnection>& connections);
  std::vector<DataflowConnection> findConnections() const;
  using TimeBatchList = BatchList<BatchCalls::TimeMethod>;
  using HopBatchList = BatchList<BatchCalls::HopMethod>;
  /// updateFlowOuts(t) of each model, with the output-write permission around each call.
  void runUpdates(const TimeBatchList& models, double t);
  const TimeBatchList& updateList(Sweep sweep) const {
    return updateLists_[static_cast<std::size_t>(sweep)];
  }
  template <class Call>
  void callModel(Model& model, ModelMethod method, double t, Call&& call);
  void requireUniqueEventName(const std::string& name) const;
  /// Registers the zero-crossing conditions `model`'s class declares, as "<model>.<name>".
  void registerModelCrossings(Model& model);
  bool isSameKind(std::size_t a, std::size_t b) const {
    return (slots_[a].continuous == nullptr) == (slots_[b].continuous == nullptr);
  }
  void checkStateMasks() const;

  // Snapshots (simulation_snapshot.cpp): the one place that lists the executive's state.
  // Taking one changes nothing; applying one cannot fail on a snapshot this simulation took or
  // the checkpoint parser accepted.
  friend struct SnapshotAccess;
  void takeSnapshot(Snapshot& into, Snapshot::Scope scope) const;
  void applySnapshot(const Snapshot& from, Snapshot::Scope scope);
  void applyModelValues(const Snapshot& from);

  // Checkpoints (simulation_checkpoint.cpp). CheckpointParser reads and checks a whole file
  // against this simulation into a Snapshot, changing nothing; restoreCheckpoint then applies
  // it.
  friend class CheckpointParser;

  // Multibody (simulation_multibody.cpp).
  void prepareMultibody();
  void endIntegrationSubStep();

  // Continuous part (simulation_propagate.cpp).
  void rebuildStateVector();
  /// The sweep's maskedCoordinates, kinematics and updateFlowOuts; most hops have sweeps with
  /// none of them, which cost no call.
  void runSweep(Sweep sweep, double t) {
    const auto k = static_cast<std::size_t>(sweep);
    if (maskingLists_[k].empty() && updateLists_[k].empty() && !multibodyActive_) return;
    runSweepCalls(sweep, t);
  }
  void runSweepCalls(Sweep sweep, double t);
  /// One pass over the hop. `recording` keeps the integrator's dense output (or the sub-step
  /// states of fixed-step methods) for localization and samples.
  void runHopBody(const HopSpan& hop, bool detecting, bool recording);
  void propagate(double x0Time, double x1Time, bool recordSubSteps);
  void evaluateDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                           Eigen::Ref<Eigen::VectorXd> xdot);
  void refreshContinuousOutputs(double t);
  /// The seed's "step zero": masked coordinates and kinematics for the current state, then
  /// every active model's outputs, in sorted order.
  void updateAllOutputs(double t);
  [[noreturn]] void throwNonFiniteDerivative(double t,
                                             const Eigen::Ref<const Eigen::VectorXd>& xdot) const;
  /// After an integration sub-step from ta to tb: x_ within the state bound, or a
  /// NumericalError naming the first state beyond it.
  void checkStateBound(double ta, double tb) const;
  [[noreturn]] void throwDivergence(double ta, double tb) const;
  /// Whether element `element` of continuous state `field` of `model` is masked.
  bool stateMasked(const Model& model, std::size_t field, std::size_t element) const;

  // Zero crossings (simulation_zero_crossings.cpp): the detector's stages of a hop, with this
  // simulation as its host.
  struct CrossingHost;
  void evaluateStartSigns(double t);
  bool locateCrossings(Ticks t0, Ticks& t1, double& x1Time);
  void fireCrossings(double t);
  void setTrialState(double t);

  // Sampling (simulation_sampling.cpp).
  struct Sampler {
    SamplerId id;
    Ticks start;  // the first sample's time
    // Between samples; none for an every-hop sampler, whose samples after the first come at
    // hop ends.
    std::optional<Period> period;
    std::int64_t next;  // index of the next sample
    EventCallback callback;
    bool everyHop() const { return !period; }
    Ticks nextTick() const {
      if (next == 0) return start;
      return period ? period->barrier(start, next) : kNever;
    }
  };
  /// Tells the event observers that `name` fired at t.
  void notifyEventFired(const std::string& name, double t);
  /// The earliest sample not yet taken (kNever without samplers).
  Ticks nextSampleTick() const {
    Ticks next = kNever;
    for (const Sampler& s : samplers_) next = std::min(next, s.nextTick());
    return next;
  }
  /// Takes every sample due at or before the barrier `t` with the values as they are, and at
  /// the end of a hop (`hopEnd`) those of the every-hop samplers.
  void takeSamplesAt(Ticks t, bool hopEnd);
  /// Takes the samples strictly inside the hop (t0, t1) just integrated, whose state spans
  /// [x0Time, x1Time], and puts back what their evaluations wrote.
  void takeSamplesWithin(Ticks t1, double x0Time, double x1Time);
  void saveEvaluationState();
  void restoreEvaluationState();

  Timeline timeline_;
  int integrationSteps_;

  std::map<std::string, std::unique_ptr<Signal>, std::less<>> signals_;
  std::vector<ModelSlot> slots_;                             // creation order
  std::vector<std::pair<std::string, std::string>> breaks_;  // (model, flowIn)
  VariableTree variables_;
  EventManager events_;
  std::vector<StopEntry> stopCallbacks_;
  std::vector<std::pair<std::string, std::function<void()>>> lockHooks_;

  // Where the executive stands, which decides what a call made now may do: unlocked (the
  // structure may change), locked between hops, or inside a hop (a model method or a
  // model-method event may be running; the structure is locked).
  enum class Phase : std::uint8_t { Unlocked, BetweenHops, InHop };
  Phase phase_ = Phase::Unlocked;
  // Whether an advance (advanceTimeTo, advanceTimeBy, step, run) is in progress, and whether it
  // is asking its stop callbacks, whose list must not change meanwhile.
  enum class Advance : std::uint8_t { Idle, Hopping, AskingStops };
  Advance advance_ = Advance::Idle;
  bool initialUpdatePending_ = false;
  // Signal::set calls on this simulation's signals (Signal::countSetsIn) and the count the
  // executive last looked at: a difference is a value set from outside since then.
  std::uint64_t signalSets_ = 0;
  std::uint64_t signalSetsSeen_ = 0;
  // The same for the models' processParams and set() flags (ModelBinding::countFlagsIn): the
  // hop start looks at every model's flags only when this count moved.
  std::uint64_t modelFlagsRaised_ = 0;
  std::uint64_t modelFlagsSeen_ = 0;
  bool stopRequest_ = false;  // requestStop() since the stop callbacks were last asked
  // The I/O step of every model on the default period that began it with the others: advanced
  // once per hop instead of model by model (ModelSlot::inDefaultStep).
  IoStep defaultStep_{0, kNotStarted, false};

  // Built by lock(): calling order and per-sweep update lists (active models only).
  std::vector<std::size_t> order_;
  std::vector<Model*> activeOrder_;
  std::vector<ModelSlot*> activeSlots_;
  std::vector<ModelSlot*> ownStepSlots_;  // active slots not in defaultStep_: advanced one by one
  std::array<TimeBatchList, kSweepCount> updateLists_;
  std::vector<std::string> breakReport_;
  std::vector<std::size_t> continuousOrder_;  // sorted separately from order_ (flow models)
  std::vector<ContinuousModel*> activeContinuous_;
  TimeBatchList continuousOutputs_;  // active ContinuousModels, refreshed for residuals
  TimeBatchList everyOutput_;        // every active model's updateFlowOuts, in calling order
  std::array<std::vector<ContinuousModel*>, kSweepCount> maskingLists_;
  std::vector<ContinuousModel*> maskedModels_;  // active models with a masked element
  // Per model method, the active models the executive calls (ModelBinding::needsCall), in
  // calling order: models whose class leaves a method empty are not visited for it. The lists
  // of the methods called at every hop or derivative evaluation call consecutive models of one
  // class with one call (BatchList).
  struct CallLists {
    std::vector<ModelSlot*> startIoStep, endIoStep;
    HopBatchList startHop, endHop;
    std::vector<ContinuousModel*> startIntegrationStep, endIntegrationStep;
    TimeBatchList preDeriv, postDeriv;  // ContinuousModels
  };
  CallLists calls_;
  // The fields of the active models whose class has batch methods, placed in columns while
  // locked. Declared after slots_, so destroyed before the models.
  BatchColumns columns_;

  // The continuous state and its integration.
  std::string integratorName_;
  std::unique_ptr<Integrator> integrator_;
  DerivativeFunction derivativeFunction_;
  StepProjection stepProjection_;  // the multibody projection, for integrators that call it
  std::vector<StateMask> masks_;
  StateVector states_;
  Eigen::VectorXd x_;              // X during a hop
  Eigen::VectorXd xdot_;           // bonus evaluations
  Eigen::VectorXd xTrial_;         // localization
  Eigen::MatrixXd subStepStates_;  // X at each sub-step boundary of the last pass (fixed-step)
  std::vector<double> subStepTimes_;
  // Per slot, and last for the multibody system: a group id, equal for models that signals
  // (or the multibody system) join, directly or through other models.
  std::vector<Eigen::Index> modelCouplingGroups() const;
  // Restarts the integrator for the sub-step from (ta, x_), or continues its history there
  // where it can and nothing changed (continuesIntegratorHistory).
  void startIntegrationInterval(double ta);
  bool continuesIntegratorHistory(double ta);
  // After the sub-step that ended at (tb, x_): what the next one may continue with.
  void recordContinuation(double tb);
  StepContinuation continuation_;  // what the last sub-step ended with
  // Set by saveCheckpoint (a CVODE history cannot be saved) and by values set from outside
  // between hops: the next hop restarts the integrator, as a run restored from the checkpoint
  // does.
  mutable bool restartNextHop_ = false;
  double stateTime_;
  bool bonusEvaluation_ = false;
  double stateBound_;
  double stateLimit_;  // stateBound_, or the largest double for an infinite bound: inf fails
  PropagationStatistics statistics_;

  // The multibody system; active (its Q and U in X) when it has bodies at lock().
  std::unique_ptr<MultibodySystem> multibody_;
  bool multibodyActive_ = false;

  // Zero crossings and rollback.
  ZeroCrossingDetector crossings_{statistics_};
  Snapshot rollbackPoint_;  // of Scope::Hop, taken before a hop with crossings

  // Samplers, and what the evaluations of samples inside a hop overwrite.
  std::vector<Sampler> samplers_;  // registration order
  std::vector<std::pair<SamplerId, EventObserver>> eventObservers_;
  SamplerId nextSamplerId_ = 1;
  bool sampling_ = false;                                  // a sample callback is running
  std::vector<Model::EvaluationState> sampleSavedModels_;  // per active ContinuousModel
  MultibodySystem::EvaluationState sampleSavedMultibody_;
  Eigen::VectorXd xdotSample_;
};

}  // namespace hopsim
