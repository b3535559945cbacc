// Simulation: checkpoint and restore (docs/checkpoints.md).
//
// A checkpoint is a line-oriented text file. Doubles are written as hexadecimal floating point
// (std::hexfloat), so a restore gives back every bit; names and strings are quoted. Restoring
// parses and checks the whole file against this simulation's structure before changing
// anything, so a failed restore leaves the simulation as it was.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/input_file.h"

namespace hopsim {
namespace {

constexpr const char* kMagic = "hopsim-checkpoint";
constexpr int kFormatVersion = 7;
// Version 4 lacks the continuation line; it is read as "no step to continue with". Versions 4
// and 5 lack the nonlinear_solver line; they are read as Newton's method, the only one then.
// Versions 4 to 6 lack the continue_across_hops line; they are read as 0, the only mode then.
constexpr int kOldestReadableVersion = 4;
constexpr FieldRole kSavedRoles[] = {FieldRole::Param, FieldRole::DiscreteState,
                                     FieldRole::ContinuousState};

/// Writes the elements of a buffer: "<count> v0 v1 ...".
void writeBuffer(std::ostream& out, const Buffer& buffer) {
  out << buffer.length();
  switch (buffer.type()) {
    case ElementType::Double:
      for (std::size_t k = 0; k < buffer.length(); ++k) out << ' ' << buffer.doubles()[k];
      break;
    case ElementType::Int:
      for (std::size_t k = 0; k < buffer.length(); ++k) out << ' ' << buffer.ints()[k];
      break;
    case ElementType::Bool:
      out << ' ' << (buffer.boolean() ? 1 : 0);
      break;
    case ElementType::String:
      out << ' ' << std::quoted(buffer.string());
      break;
  }
}

/// One line of the file, split into tokens, with its number for messages.
struct Line {
  int number;
  std::istringstream tokens;
};

class Reader {
 public:
  explicit Reader(const std::string& file) : file_(file), in_(readInputFile(file)) {}
  /// The next line starting with `keyword`. @throws InputError if the file says otherwise.
  Line& expect(std::string_view keyword) {
    std::string text;
    if (!std::getline(in_, text)) fail("expected '" + std::string(keyword) + "', found the end");
    ++number_;
    line_.number = number_;
    line_.tokens = std::istringstream(text);
    line_.tokens >> std::hexfloat;
    std::string word;
    line_.tokens >> word;
    if (word != keyword) {
      fail("expected '" + std::string(keyword) + "', found '" + word + "'");
    }
    return line_;
  }
  template <class T>
  T read(std::string_view what) {
    T value{};
    if constexpr (std::is_same_v<T, std::string>) {
      line_.tokens >> std::quoted(value);
    } else if constexpr (std::is_same_v<T, double>) {
      // operator>> does not parse hexfloat in libstdc++; strtod does.
      std::string token;
      line_.tokens >> token;
      char* end = nullptr;
      value = std::strtod(token.c_str(), &end);
      if (token.empty() || *end != '\0') fail("bad number '" + token + "' for " + std::string(what));
      return value;
    } else {
      line_.tokens >> value;
    }
    if (!line_.tokens) fail("missing or bad " + std::string(what));
    return value;
  }
  /// Reads "<count> values..." into a buffer of the given type and expected length.
  Buffer readBuffer(ElementType type, std::size_t length, const std::string& what) {
    const auto count = read<std::size_t>(what + " length");
    if (count != length) {
      fail(what + " has " + std::to_string(count) + " elements in the checkpoint but " +
           std::to_string(length) + " here");
    }
    Buffer buffer(type, length);
    for (std::size_t k = 0; k < length; ++k) {
      switch (type) {
        case ElementType::Double:
          buffer.doubles()[k] = read<double>(what);
          break;
        case ElementType::Int:
          buffer.ints()[k] = read<std::int64_t>(what);
          break;
        case ElementType::Bool:
          buffer.boolean() = read<int>(what) != 0;
          break;
        case ElementType::String:
          buffer.string() = read<std::string>(what);
          break;
      }
    }
    return buffer;
  }
  /// Fails unless `found` equals `expected`, naming what was compared.
  void match(const std::string& what, const std::string& found, const std::string& expected) {
    if (found != expected) {
      fail(what + " is '" + found + "' in the checkpoint but '" + expected +
           "' in this simulation (restore into a simulation built the same way)");
    }
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError("checkpoint '" + file_ + "' line " + std::to_string(number_) + ": " +
                     message);
  }

 private:
  std::string file_;
  std::istringstream in_;
  Line line_{0, {}};
  int number_ = 0;
};

void writeOptions(std::ostream& out, const IntegratorOptions& o) {
  out << "options " << o.relativeTolerance << ' ' << o.absoluteTolerance << ' ' << o.maxStep
      << ' ' << o.initialStep << ' ' << o.maxStepsPerAdvance << ' '
      << static_cast<int>(o.multistep) << ' ' << o.absoluteTolerances.size();
  for (double atol : o.absoluteTolerances) out << ' ' << atol;
  out << '\n';
  out << "nonlinear_solver " << static_cast<int>(o.nonlinearSolver) << '\n';
  out << "continue_across_hops " << (o.continueAcrossHops ? 1 : 0) << '\n';
}

// The integrator's options as writeOptions wrote them; makeIntegrator checks the other values.
IntegratorOptions readOptions(Reader& reader, int formatVersion) {
  reader.expect("options");
  IntegratorOptions o;
  o.relativeTolerance = reader.read<double>("relative tolerance");
  o.absoluteTolerance = reader.read<double>("absolute tolerance");
  o.maxStep = reader.read<double>("max step");
  o.initialStep = reader.read<double>("initial step");
  o.maxStepsPerAdvance = reader.read<std::int64_t>("max steps");
  o.multistep = static_cast<MultistepMethod>(reader.read<int>("multistep method"));
  o.absoluteTolerances.resize(reader.read<Eigen::Index>("absolute tolerance count"));
  for (double& atol : o.absoluteTolerances) atol = reader.read<double>("absolute tolerance");
  if (formatVersion >= 6) {
    reader.expect("nonlinear_solver");
    const int solver = reader.read<int>("nonlinear solver");
    if (solver != static_cast<int>(NonlinearSolver::Newton) &&
        solver != static_cast<int>(NonlinearSolver::FixedPoint)) {
      reader.fail("nonlinear solver " + std::to_string(solver) +
                  " (expected 0 for Newton or 1 for fixed point)");
    }
    o.nonlinearSolver = static_cast<NonlinearSolver>(solver);
  }
  if (formatVersion >= 7) {
    reader.expect("continue_across_hops");
    const int continueAcrossHops = reader.read<int>("continue-across-hops flag");
    if (continueAcrossHops != 0 && continueAcrossHops != 1) {
      reader.fail("continue-across-hops flag " + std::to_string(continueAcrossHops) +
                  " (expected 0 or 1)");
    }
    o.continueAcrossHops = continueAcrossHops == 1;
  }
  return o;
}

}  // namespace

void Simulation::saveCheckpoint(const std::string& file) const {
  requireBetweenHops("saveCheckpoint");
  std::ostringstream out;
  out << std::hexfloat;
  out << kMagic << ' ' << kFormatVersion << '\n';
  // Whether a value was set from outside since the last hop: the next hop recomputes every
  // output first, and so must the restored simulation's.
  bool valuesSet = signalSets_ != signalSetsSeen_;
  for (const ModelSlot& s : slots_) valuesSet = valuesSet || ModelBinding::valuesSet(*s.model);
  out << "time " << now_ << ' ' << stateTime_ << ' ' << hopCount_ << ' ' << lastBeginIoStep_
      << ' ' << (initialUpdatePending_ ? 1 : 0) << ' ' << chattering_ << ' '
      << (valuesSet ? 1 : 0) << '\n';
  out << "integrator " << std::quoted(integratorName_) << '\n';
  writeOptions(out, integrator_->options());
  // The step the next hop starts with, when the states still continue the last sub-step: a
  // restored run then takes exactly the steps the original run takes.
  Eigen::VectorXd x(states_.size());
  states_.gather(x);
  out << "continuation " << (continuation_.continuesAt(stateTime_, x) ? continuation_.step : 0.0)
      << '\n';
  out << "signals " << signals_.size() << '\n';
  for (const auto& [name, signal] : signals_) {
    out << "signal " << std::quoted(name) << ' ' << signal->version() << ' ';
    writeBuffer(out, signal->buffer());
    out << '\n';
  }
  out << "models " << slots_.size() << '\n';
  for (const ModelSlot& s : slots_) {
    Model& model = *s.model;
    out << "model " << std::quoted(model.name()) << ' ' << std::quoted(model.spec().className())
        << ' ' << (s.active ? 1 : 0) << ' ' << ioStepOf(s).start << ' ' << ioStepOf(s).end << '\n';
    for (FieldRole role : kSavedRoles) {
      for (std::size_t i = 0; i < model.spec().fields(role).size(); ++i) {
        out << "field " << branchName(role) << ' '
            << std::quoted(model.spec().fields(role)[i].name) << ' ';
        writeBuffer(out, ModelBinding::valueBuffer(model, role, i));
        out << '\n';
      }
    }
    out << "reads " << model.spec().fields(FieldRole::FlowIn).size();
    for (std::size_t i = 0; i < model.spec().fields(FieldRole::FlowIn).size(); ++i) {
      out << ' ' << ModelBinding::lastReadVersion(model, i);
    }
    out << '\n';
  }
  const multibody::MultibodyModel& tree = multibody_->model();
  out << "multibody " << tree.bodyCount() - 1 << ' ' << tree.nq() << ' ' << tree.nu() << '\n';
  const spatial::Vector3& g = tree.gravity();
  out << "gravity " << g.x() << ' ' << g.y() << ' ' << g.z() << '\n';
  for (multibody::BodyIndex b = 1; b < tree.bodyCount(); ++b) {
    const spatial::SpatialInertia& M = tree.massProperties(b);
    const spatial::Vector3& c = M.comPosition();
    const spatial::Matrix3 I = M.rotationalInertiaAboutCm();
    out << "body " << std::quoted(tree.bodyName(b)) << ' ' << M.mass() << ' ' << c.x() << ' '
        << c.y() << ' ' << c.z() << ' ' << I(0, 0) << ' ' << I(1, 1) << ' ' << I(2, 2) << ' '
        << I(0, 1) << ' ' << I(0, 2) << ' ' << I(1, 2) << '\n';
  }
  if (tree.bodyCount() > 1) {
    out << "coordinates " << tree.nq() << ' ' << tree.nu();
    for (double v : multibody_->q()) out << ' ' << v;
    for (double v : multibody_->u()) out << ' ' << v;
    out << '\n';
  }
  const std::vector<EventManager::ScheduleState> schedules = events_.scheduleStates();
  out << "events " << schedules.size() << '\n';
  for (const EventManager::ScheduleState& e : schedules) {
    out << "event " << std::quoted(e.name) << ' ' << static_cast<int>(e.kind) << ' ' << e.next
        << ' ' << e.nextIndex << ' ' << e.periodIndex << '\n';
  }
  out << "crossings " << crossings_.size() << '\n';
  for (const Crossing& c : crossings_) {
    out << "crossing " << std::quoted(c.name) << ' ' << (c.afterFiring ? 1 : 0) << ' '
        << c.firedValue << ' ' << c.crossedSign << '\n';
  }
  out << "end\n";
  std::ofstream file_out(file, std::ios::trunc);
  file_out << out.str();
  if (!file_out.flush()) throw InputError("checkpoint '" + file + "': cannot write it");
  // CVODE's history is not in the file: a run restored from it restarts the integrator at its
  // first hop, and so does this one, so that both take the same steps from here.
  restartNextHop_ = true;
}

void Simulation::restoreCheckpoint(const std::string& file) {
  requireBetweenHops("restoreCheckpoint");
  if (!locked_) {
    throw ModelError("restoreCheckpoint: lock() the simulation first, so its structure is "
                     "final and can be checked against the checkpoint");
  }
  Reader reader(file);
  Line& header = reader.expect(kMagic);
  (void)header;
  const int formatVersion = reader.read<int>("format version");
  if (formatVersion < kOldestReadableVersion || formatVersion > kFormatVersion) {
    reader.fail("format version " + std::to_string(formatVersion) +
                "; this hopsim reads versions " + std::to_string(kOldestReadableVersion) +
                " to " + std::to_string(kFormatVersion));
  }
  // Parse and check everything into staging values first.
  reader.expect("time");
  const auto now = reader.read<Ticks>("time");
  const auto stateTime = reader.read<double>("state time");
  const auto hopCount = reader.read<std::uint64_t>("hop count");
  const auto lastBeginIoStep = reader.read<Ticks>("last begin-I/O tick");
  const bool initialUpdatePending = reader.read<int>("step-zero flag") != 0;
  const int chattering = reader.read<int>("chattering count");
  const bool valuesSet = reader.read<int>("values-set flag") != 0;
  reader.expect("integrator");
  const auto integratorName = reader.read<std::string>("integrator name");
  const IntegratorOptions options = readOptions(reader, formatVersion);
  double continuationStep = 0.0;
  if (formatVersion >= 5) {
    reader.expect("continuation");
    continuationStep = reader.read<double>("continuation step");
    if (!(continuationStep >= 0.0) || !std::isfinite(continuationStep)) {
      reader.fail("continuation step " + describeValue(continuationStep) +
                  " s (expected 0 or a positive step)");
    }
  }
  std::unique_ptr<Integrator> integrator;
  try {
    integrator = makeIntegrator(integratorName, options);
  } catch (const InputError& e) {
    reader.fail(e.what());
  }

  reader.expect("signals");
  reader.match("the signal count", std::to_string(reader.read<std::size_t>("signal count")),
               std::to_string(signals_.size()));
  struct SignalValue {
    Signal* signal;
    std::uint64_t version;
    Buffer value;
  };
  std::vector<SignalValue> signalValues;
  for (const auto& [name, signal] : signals_) {
    reader.expect("signal");
    reader.match("the next signal", reader.read<std::string>("signal name"), name);
    const auto version = reader.read<std::uint64_t>("signal version");
    signalValues.push_back({signal.get(), version,
                            reader.readBuffer(signal->type(), signal->length(),
                                              "signal '" + name + "'")});
  }

  reader.expect("models");
  reader.match("the model count", std::to_string(reader.read<std::size_t>("model count")),
               std::to_string(slots_.size()));
  struct ModelValues {
    bool active;
    Ticks ioStart;
    Ticks ioEnd;
    std::vector<Buffer> fields;
    std::vector<std::uint64_t> reads;
  };
  std::vector<ModelValues> modelValues;
  for (ModelSlot& s : slots_) {
    Model& model = *s.model;
    reader.expect("model");
    reader.match("the next model", reader.read<std::string>("model name"), model.name());
    reader.match("the class of model '" + model.name() + "'",
                 reader.read<std::string>("class name"), model.spec().className());
    ModelValues values;
    values.active = reader.read<int>("active flag") != 0;
    values.ioStart = reader.read<Ticks>("I/O step start");
    values.ioEnd = reader.read<Ticks>("I/O step end");
    for (FieldRole role : kSavedRoles) {
      for (std::size_t i = 0; i < model.spec().fields(role).size(); ++i) {
        const FieldSpec& field = model.spec().fields(role)[i];
        const std::string path = "models." + model.name() + "." + branchName(role) + "." +
                                 field.name;
        reader.expect("field");
        const auto savedRole = reader.read<std::string>("role");
        const auto savedField = reader.read<std::string>("field");
        reader.match("the next field of model '" + model.name() + "'",
                     savedRole + "." + savedField, std::string(branchName(role)) + "." + field.name);
        const Buffer& current = ModelBinding::valueBuffer(model, role, i);
        values.fields.push_back(reader.readBuffer(current.type(), current.length(), path));
      }
    }
    reader.expect("reads");
    const std::size_t inputs = model.spec().fields(FieldRole::FlowIn).size();
    reader.match("the flowIn count of model '" + model.name() + "'",
                 std::to_string(reader.read<std::size_t>("flowIn count")),
                 std::to_string(inputs));
    for (std::size_t i = 0; i < inputs; ++i) {
      values.reads.push_back(reader.read<std::uint64_t>("read version"));
    }
    modelValues.push_back(std::move(values));
  }

  // The multibody tree must be the same; mass properties, gravity, Q and U are restored.
  const multibody::MultibodyModel& tree = multibody_->model();
  reader.expect("multibody");
  reader.match("the body count", std::to_string(reader.read<int>("body count")),
               std::to_string(tree.bodyCount() - 1));
  reader.match("nq", std::to_string(reader.read<int>("nq")), std::to_string(tree.nq()));
  reader.match("nu", std::to_string(reader.read<int>("nu")), std::to_string(tree.nu()));
  reader.expect("gravity");
  spatial::Vector3 gravity;
  for (int k = 0; k < 3; ++k) gravity[k] = reader.read<double>("gravity component");
  std::vector<spatial::SpatialInertia> massProperties;
  for (multibody::BodyIndex b = 1; b < tree.bodyCount(); ++b) {
    reader.expect("body");
    reader.match("the next body", reader.read<std::string>("body name"), tree.bodyName(b));
    const double mass = reader.read<double>("mass");
    spatial::Vector3 c;
    for (int k = 0; k < 3; ++k) c[k] = reader.read<double>("CM component");
    double e[6];
    for (double& v : e) v = reader.read<double>("inertia element");
    spatial::Matrix3 I;
    I << e[0], e[3], e[4], e[3], e[1], e[5], e[4], e[5], e[2];
    try {
      massProperties.push_back(spatial::SpatialInertia::fromCmInertia(
          mass, c, I, "body '" + tree.bodyName(b) + "' mass properties"));
    } catch (const InputError& error) {
      reader.fail(error.what());
    }
  }
  Eigen::VectorXd q(tree.nq()), u(tree.nu());
  if (tree.bodyCount() > 1) {
    reader.expect("coordinates");
    reader.match("nq", std::to_string(reader.read<int>("nq")), std::to_string(tree.nq()));
    reader.match("nu", std::to_string(reader.read<int>("nu")), std::to_string(tree.nu()));
    for (double& v : q) v = reader.read<double>("Q element");
    for (double& v : u) v = reader.read<double>("U element");
  }

  reader.expect("events");
  std::vector<EventManager::ScheduleState> schedules(reader.read<std::size_t>("event count"));
  for (EventManager::ScheduleState& e : schedules) {
    reader.expect("event");
    e.name = reader.read<std::string>("event name");
    if (!events_.find(e.name)) reader.fail("event '" + e.name + "' is not registered here");
    e.kind = static_cast<EventKind>(reader.read<int>("event kind"));
    e.next = reader.read<Ticks>("next firing");
    e.nextIndex = reader.read<std::uint64_t>("list position");
    e.periodIndex = reader.read<std::int64_t>("period index");
  }
  reader.expect("crossings");
  reader.match("the zero-crossing count",
               std::to_string(reader.read<std::size_t>("zero-crossing count")),
               std::to_string(crossings_.size()));
  struct CrossingMemory {
    bool afterFiring;
    double firedValue;
    int crossedSign;
  };
  std::vector<CrossingMemory> crossingMemory;
  for (const Crossing& c : crossings_) {
    reader.expect("crossing");
    reader.match("the next zero crossing", reader.read<std::string>("name"), c.name);
    const bool afterFiring = reader.read<int>("fired flag") != 0;
    const double firedValue = reader.read<double>("fired value");
    crossingMemory.push_back({afterFiring, firedValue, reader.read<int>("crossed sign")});
  }
  reader.expect("end");
  // The event schedule checks itself before changing anything; it goes first.
  try {
    events_.restoreScheduleStates(schedules);
  } catch (const InputError& e) {
    reader.fail(e.what());
  }

  // Everything parsed and matched: apply.
  now_ = now;
  nowSeconds_ = ticksToSeconds(now);
  // Samplers go on from the restored time: the next sample is the first at or after it.
  for (Sampler& s : samplers_) {
    if (s.start <= now_) s.next = s.everyHop() ? 0 : s.period->indexAfter(s.start, now_ - 1);
  }
  stateTime_ = stateTime;
  hopCount_ = hopCount;
  lastBeginIoStep_ = lastBeginIoStep;
  initialUpdatePending_ = initialUpdatePending;
  chattering_ = chattering;
  signalSetsSeen_ = signalSets_;  // the restore's own writes are not sets
  integrator_ = std::move(integrator);
  integratorName_ = integratorName;
  for (SignalValue& v : signalValues) {
    v.signal->buffer() = std::move(v.value);
    v.signal->restoreVersion(v.version);
  }
  defaultStep_ = {0, kNotStarted, false};  // begins anew at the next hop
  for (std::size_t m = 0; m < slots_.size(); ++m) {
    ModelSlot& s = slots_[m];
    Model& model = *s.model;
    ModelValues& values = modelValues[m];
    s.active = values.active;
    // Every model gets its own step back; those on the default period rejoin the shared step
    // when their step and the shared one next begin together.
    s.io = {values.ioStart, values.ioEnd, false};
    s.inDefaultStep = false;
    // What processParams derives from params is not saved: it runs again before the next hop
    // (processParams must be a function of the params alone).
    ModelBinding::raiseParamsChanged(model);
    ModelBinding::restoreValuesSet(model, valuesSet);
    std::size_t next = 0;
    for (FieldRole role : kSavedRoles) {
      for (std::size_t i = 0; i < model.spec().fields(role).size(); ++i) {
        Buffer& target = ModelBinding::valueBuffer(model, role, i);
        const Buffer& saved = values.fields[next++];
        // Element-wise for doubles: the state vector refers to this storage.
        if (target.type() == ElementType::Double) {
          std::copy_n(saved.doubles(), saved.length(), target.doubles());
        } else {
          target = saved;
        }
      }
    }
    for (std::size_t i = 0; i < values.reads.size(); ++i) {
      ModelBinding::lastReadVersion(model, i) = values.reads[i];
    }
  }
  multibody_->setGravity(gravity);
  for (multibody::BodyIndex b = 1; b < tree.bodyCount(); ++b) {
    multibody_->setMassProperties(b, massProperties[static_cast<std::size_t>(b - 1)]);
  }
  multibody_->q() = q;
  multibody_->u() = u;
  for (std::size_t c = 0; c < crossings_.size(); ++c) {
    crossings_[c].afterFiring = crossingMemory[c].afterFiring;
    crossings_[c].firedValue = crossingMemory[c].firedValue;
    crossings_[c].crossedSign = crossingMemory[c].crossedSign;
  }
  rebuildSweepLists();  // activity may differ; sizes the new integrator
  if (continuationStep > 0.0) {
    continuation_.time = stateTime_;
    continuation_.step = continuationStep;
    states_.gather(continuation_.state);
  }
}

}  // namespace hopsim
