// Reading a checkpoint file against a simulation's structure (docs/checkpoints.md,
// "Restoring"): every value is parsed and checked into a Snapshot before anything changes, so
// that applying it cannot fail.

#include "checkpoint_parser.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "checkpoint_format.h"
#include "hopsim/core/continuous_model.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/version.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

constexpr std::int64_t kLeast = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMost = std::numeric_limits<std::int64_t>::max();

/// "hopsim 0.1.0 (git 0123...)", as versionText() renders this one.
std::string describeWriter(const std::string& version, const std::string& commit) {
  return "hopsim " + version + (commit.empty() ? "" : " (git " + commit + ")");
}

/// Whether this very build wrote the file, and if not, the note restoreCheckpoint returns.
void judgeOrigin(CheckpointOrigin& origin) {
  const bool sameText = origin.hopsimVersion == version() && origin.gitCommit == gitCommit();
  const bool identifiable = !origin.gitCommit.empty() && !origin.gitCommit.ends_with("-dirty");
  origin.sameBuild = sameText && identifiable;
  if (origin.sameBuild) return;
  const std::string consequence =
      "it restores, but the continuation is bit for bit only in the build that wrote it";
  if (origin.hopsimVersion.empty()) {
    origin.note = "format " + std::to_string(origin.formatVersion) +
                  " does not record the hopsim that wrote it: " + consequence;
  } else if (sameText) {
    origin.note = "written by " + describeWriter(origin.hopsimVersion, origin.gitCommit) +
                  ", as this hopsim is, but from " +
                  (origin.gitCommit.empty() ? "a source tree outside git"
                                            : "a checkout with uncommitted changes") +
                  ", so whether it is this build cannot be told: " + consequence;
  } else {
    origin.note =
        "written by " + describeWriter(origin.hopsimVersion, origin.gitCommit) + ", restored by " +
        describeWriter(std::string(version()), std::string(gitCommit())) + ": " + consequence;
  }
}

/// Refuses what set() would refuse (a value outside the field's declared bounds) and what no
/// run produces: a NaN param (a param always has a value) or a non-finite continuous state
/// (no integrator starts from one). NaN is a meaningful discrete state ("no sample yet") and
/// signal value ("never written").
void checkFieldValues(const CheckpointReader& reader, const FieldSpec& field, FieldRole role,
                      const Buffer& values, const std::string& path) {
  if (!isNumericVectorType(values.type())) return;
  for (std::size_t k = 0; k < values.length(); ++k) {
    const double x = values.type() == ElementType::Double ? values.doubles()[k]
                                                          : static_cast<double>(values.ints()[k]);
    const auto element = [&] {
      return (values.length() > 1 ? path + "[" + std::to_string(k) + "]" : path) + " is " +
             formatNumber(x);
    };
    if (role == FieldRole::ContinuousState && !std::isfinite(x)) {
      reader.fail(element() + "; expected a finite continuous state");
    }
    if (role == FieldRole::Param && std::isnan(x)) {
      reader.fail(element() + "; expected a number (a param always has a value)");
    }
    if (!field.withinBounds(x)) {
      reader.fail(element() + ", " + field.violatedBound(x) +
                  (field.unit.empty() ? "" : " " + field.unit));
    }
  }
}

}  // namespace

CheckpointParser::CheckpointParser(const Simulation& sim, const std::string& file)
    : sim_(sim), reader_(file) {}

CheckpointStaging CheckpointParser::parse(const Simulation& sim, const std::string& file) {
  CheckpointParser parser(sim, file);
  parser.readHeader();
  parser.readClock();
  parser.readIntegrator();
  parser.readSignals();
  parser.readModels();
  parser.readMultibody();
  parser.readEvents();
  parser.readCrossings();
  parser.reader_.expect("end");
  parser.reader_.endFile();
  parser.checkWholeFile();
  return std::move(parser.staged_);
}

void CheckpointParser::readHeader() {
  reader_.expect(checkpoint::kMagic);
  formatVersion_ =
      static_cast<int>(reader_.integer("the format version", 0, std::numeric_limits<int>::max()));
  reader_.endLine();
  const std::string readable = "this hopsim (" + std::string(version()) +
                               ") reads format versions " +
                               std::to_string(checkpoint::kOldestReadableVersion) + " to " +
                               std::to_string(checkpoint::kFormatVersion);
  if (formatVersion_ > checkpoint::kFormatVersion) {
    reader_.fail("format version " + std::to_string(formatVersion_) + newerWriter() + "; " +
                 readable + ": restore it with that hopsim or a newer one");
  }
  if (formatVersion_ < checkpoint::kOldestReadableVersion) {
    reader_.fail("format version " + std::to_string(formatVersion_) + "; " + readable);
  }
  CheckpointOrigin& origin = staged_.origin;
  origin.formatVersion = formatVersion_;
  if (formatVersion_ >= 8) {
    reader_.expect("written_by");
    origin.hopsimVersion = reader_.text("the hopsim version");
    origin.gitCommit = reader_.text("the git commit");
    reader_.endLine();
  }
  judgeOrigin(origin);
}

std::string CheckpointParser::newerWriter() {
  if (reader_.nextKeyword() != "written_by") return {};
  try {
    reader_.expect("written_by");
    const std::string hopsimVersion = reader_.text("the hopsim version");
    return ", written by " + describeWriter(hopsimVersion, reader_.text("the git commit"));
  } catch (const InputError&) {
    return {};  // a newer format may write it differently: the version alone is refused
  }
}

void CheckpointParser::readClock() {
  Snapshot::Clock& c = staged_.snapshot.clock;
  reader_.expect("time");
  c.now = reader_.integer("the clock (ticks)", kLeast, kMost);
  const double t = ticksToSeconds(c.now);
  if (c.now < sim_.timeline_.origin() || !isRepresentableTime(t)) {
    const std::string start = formatNumber(ticksToSeconds(sim_.timeline_.origin()));
    reader_.fail("the clock is " + formatNumber(t) + " s; expected a time from this simulation's " +
                 "start time, " + start + " s, to 4e9 s");
  }
  c.stateTime = reader_.finite("the state time");
  // stateTime() is within half a tick of the clock, or up to one tick before it.
  const double slack = 1e-9 + 8.0 * std::numeric_limits<double>::epsilon() * std::abs(t);
  if (!(std::abs(c.stateTime - t) <= slack)) {
    reader_.fail("the state time " + formatNumber(c.stateTime) + " s disagrees with the clock, " +
                 std::to_string(c.now) + " ticks (" + formatNumber(t) +
                 " s); expected them within a tick");
  }
  c.hopCount = reader_.natural("the hop count");
  c.lastBeginIoStep = reader_.integer("the last begin-I/O-step tick", kLeast, kMost);
  if (c.lastBeginIoStep != Simulation::kNotStarted &&
      (c.lastBeginIoStep < sim_.timeline_.origin() || c.lastBeginIoStep > c.now)) {
    reader_.fail("the last begin-I/O-step tick " + std::to_string(c.lastBeginIoStep) +
                 " is not between the start time and the clock (ticks " +
                 std::to_string(sim_.timeline_.origin()) + " to " + std::to_string(c.now) + ")");
  }
  c.initialUpdatePending = reader_.flag("the step-zero flag");
  c.chattering =
      static_cast<int>(reader_.integer("the chattering count", 0, std::numeric_limits<int>::max()));
  c.valuesSet = reader_.flag("the values-set flag");
  reader_.endLine();
}

void CheckpointParser::readIntegrator() {
  reader_.expect("integrator");
  staged_.snapshot.integratorName = reader_.text("the integrator name");
  const std::vector<std::string> names = integratorNames();
  if (std::find(names.begin(), names.end(), staged_.snapshot.integratorName) == names.end()) {
    reader_.fail("unknown integrator " + shownToken(staged_.snapshot.integratorName));
  }
  reader_.endLine();
  staged_.snapshot.integratorOptions = readOptions();
  try {
    // Made here to check the options, so that the restore, which makes it again, cannot fail.
    makeIntegrator(staged_.snapshot.integratorName, staged_.snapshot.integratorOptions);
  } catch (const InputError& e) {
    reader_.failAt(optionsLine_, e.what());
  }
  if (formatVersion_ >= 5) {
    reader_.expect("continuation");
    const double step = reader_.real("the continuation step");
    if (!(step >= 0.0) || !std::isfinite(step)) {
      reader_.fail("the continuation step is " + formatNumber(step) +
                   " s; expected 0 or a positive finite step");
    }
    staged_.snapshot.continuation.step = step;
    reader_.endLine();
  }
}

// The integrator's options as the writer wrote them; makeIntegrator checks their values.
IntegratorOptions CheckpointParser::readOptions() {
  reader_.expect("options");
  optionsLine_ = reader_.line();
  IntegratorOptions o;
  o.relativeTolerance = reader_.real("the relative tolerance");
  o.absoluteTolerance = reader_.real("the absolute tolerance");
  o.maxStep = reader_.real("the max step");
  o.initialStep = reader_.real("the initial step");
  o.maxStepsPerAdvance = reader_.integer("the max steps per advance", 1, kMost);
  o.multistep =
      static_cast<MultistepMethod>(reader_.integer("the multistep method (0 BDF, 1 Adams)", 0, 1));
  o.absoluteTolerances.resize(
      static_cast<Eigen::Index>(reader_.count("the per-state absolute tolerance count")));
  for (double& atol : o.absoluteTolerances) atol = reader_.real("a per-state absolute tolerance");
  reader_.endLine();
  if (formatVersion_ >= 6) {
    reader_.expect("nonlinear_solver");
    o.nonlinearSolver = static_cast<NonlinearSolver>(
        reader_.integer("the nonlinear solver (0 Newton, 1 fixed point)", 0, 1));
    reader_.endLine();
  }
  if (formatVersion_ >= 7) {
    reader_.expect("continue_across_hops");
    o.continueAcrossHops = reader_.flag("the continue-across-hops flag");
    reader_.endLine();
  }
  return o;
}

void CheckpointParser::readSignals() {
  reader_.expect("signals");
  reader_.match("the signal count", std::to_string(reader_.count("the signal count")),
                std::to_string(sim_.signals_.size()));
  reader_.endLine();
  for (const auto& [name, signal] : sim_.signals_) {
    reader_.expect("signal");
    reader_.match("the next signal", reader_.text("the signal name"), name);
    const std::uint64_t signalVersion = reader_.natural("the signal version");
    Buffer value = reader_.values(signal->type(), signal->length(), "signals." + name);
    reader_.endLine();
    staged_.snapshot.signals.push_back({signalVersion, std::move(value)});
  }
}

void CheckpointParser::readModels() {
  reader_.expect("models");
  reader_.match("the model count", std::to_string(reader_.count("the model count")),
                std::to_string(sim_.slots_.size()));
  reader_.endLine();
  for (const Simulation::ModelSlot& slot : sim_.slots_) readModel(slot);
}

void CheckpointParser::readModel(const Simulation::ModelSlot& slot) {
  const Model& model = *slot.model;
  reader_.expect("model");
  reader_.match("the next model", reader_.text("the model name"), model.name());
  reader_.match("the class of model '" + model.name() + "'", reader_.text("the class name"),
                model.spec().className());
  Snapshot::ModelValues values;
  values.active = reader_.flag("the active flag");
  values.ioStart = reader_.integer("the I/O step start (ticks)", kLeast, kMost);
  values.ioEnd = reader_.integer("the I/O step end (ticks)", kLeast, kMost);
  reader_.endLine();
  // A step in progress began at a hop start, at or before the clock, and ends after it began.
  const Ticks now = staged_.snapshot.clock.now;
  if (values.ioEnd != Simulation::kNotStarted &&
      !(values.ioStart <= now && values.ioStart < values.ioEnd)) {
    reader_.fail("model '" + model.name() + "' is in the I/O step [" +
                 std::to_string(values.ioStart) + ", " + std::to_string(values.ioEnd) +
                 "] (ticks); expected a step that began at or before the clock (" +
                 std::to_string(now) + ") and ends after it began");
  }
  for (FieldRole role : Snapshot::kFieldRoles) {
    for (std::size_t i = 0; i < model.spec().fields(role).size(); ++i) {
      values.fields(role).push_back(readField(model, role, i));
    }
  }
  reader_.expect("reads");
  const std::size_t inputs = model.spec().fields(FieldRole::FlowIn).size();
  reader_.match("the flowIn count of model '" + model.name() + "'",
                std::to_string(reader_.count("the flowIn count")), std::to_string(inputs));
  for (std::size_t i = 0; i < inputs; ++i) {
    values.reads.push_back(reader_.natural("the signal version a flowIn last read"));
  }
  reader_.endLine();
  staged_.snapshot.models.push_back(std::move(values));
}

Buffer CheckpointParser::readField(const Model& model, FieldRole role, std::size_t index) {
  const FieldSpec& field = model.spec().fields(role)[index];
  const std::string path = "models." + model.name() + "." + branchName(role) + "." + field.name;
  reader_.expect("field");
  const std::string savedRole(reader_.word("the field role"));
  const std::string savedName = reader_.text("the field name");
  reader_.match("the next field of model '" + model.name() + "'", savedRole + "." + savedName,
                std::string(branchName(role)) + "." + field.name);
  const Buffer& current = model.fieldBuffer(role, index);
  Buffer values = reader_.values(current.type(), current.length(), path);
  reader_.endLine();
  checkFieldValues(reader_, field, role, values, path);
  return values;
}

void CheckpointParser::readMultibody() {
  const multibody::MultibodyModel& tree = sim_.multibody_->model();
  reader_.expect("multibody");
  reader_.match("the body count", std::to_string(reader_.count("the body count")),
                std::to_string(tree.bodyCount() - 1));
  reader_.match("nq", std::to_string(reader_.count("nq")), std::to_string(tree.nq()));
  reader_.match("nu", std::to_string(reader_.count("nu")), std::to_string(tree.nu()));
  reader_.endLine();
  reader_.expect("gravity");
  for (int k = 0; k < 3; ++k)
    staged_.snapshot.gravity[k] = reader_.finite("a gravity component (m/s^2)");
  reader_.endLine();
  for (multibody::BodyIndex b = 1; b < tree.bodyCount(); ++b) {
    staged_.snapshot.massProperties.push_back(readBody(b));
  }
  if (tree.bodyCount() > 1) readCoordinates();
}

spatial::SpatialInertia CheckpointParser::readBody(multibody::BodyIndex body) {
  const std::string& name = sim_.multibody_->model().bodyName(body);
  reader_.expect("body");
  reader_.match("the next body", reader_.text("the body name"), name);
  const double mass = reader_.real("the mass (kg)");
  spatial::Vector3 c;
  for (int k = 0; k < 3; ++k) c[k] = reader_.real("a CM coordinate (m)");
  double e[6];
  for (double& v : e) v = reader_.real("an inertia element (kg m^2)");
  reader_.endLine();
  spatial::Matrix3 I;
  I << e[0], e[3], e[4], e[3], e[1], e[5], e[4], e[5], e[2];
  try {
    return multibody::MultibodyModel::checkedMassProperties(
        spatial::SpatialInertia::fromCmInertiaUnchecked(mass, c, I),
        "body '" + name + "' mass properties");
  } catch (const InputError& error) {
    reader_.fail(error.what());
  }
}

void CheckpointParser::readCoordinates() {
  const multibody::MultibodyModel& tree = sim_.multibody_->model();
  reader_.expect("coordinates");
  reader_.match("nq", std::to_string(reader_.count("nq")), std::to_string(tree.nq()));
  reader_.match("nu", std::to_string(reader_.count("nu")), std::to_string(tree.nu()));
  staged_.snapshot.q.resize(tree.nq());
  staged_.snapshot.u.resize(tree.nu());
  for (double& v : staged_.snapshot.q) v = reader_.finite("a Q element");
  for (double& v : staged_.snapshot.u) v = reader_.finite("a U element");
  reader_.endLine();
  // The kinematics normalizes the quaternions before use: each must be normalizable.
  Eigen::VectorXd normalized = staged_.snapshot.q;
  try {
    multibody::normalizeQuaternions(tree, normalized);
  } catch (const InputError& error) {
    reader_.fail(error.what());
  }
}

void CheckpointParser::readEvents() {
  reader_.expect("events");
  const std::size_t count = reader_.count("the event count");
  reader_.endLine();
  std::set<std::string> listed;
  for (std::size_t k = 0; k < count; ++k) {
    reader_.expect("event");
    EventManager::ScheduleState e;
    e.name = reader_.text("the event name");
    e.kind = static_cast<EventKind>(
        reader_.integer("the event kind", 0, static_cast<std::int64_t>(EventKind::ModelMethod)));
    e.next = reader_.integer("the next firing (ticks)", kLeast, kMost);
    e.nextIndex = reader_.natural("the list position");
    e.periodIndex = reader_.integer("the period index", kLeast, kMost);
    reader_.endLine();
    if (!listed.insert(e.name).second) reader_.fail("event '" + e.name + "' is listed twice");
    try {
      sim_.events_.checkScheduleState(e, staged_.snapshot.clock.now);
    } catch (const InputError& error) {
      reader_.fail(error.what());
    }
    staged_.snapshot.events.push_back(std::move(e));
  }
}

void CheckpointParser::readCrossings() {
  reader_.expect("crossings");
  reader_.match("the zero-crossing count", std::to_string(reader_.count("the zero-crossing count")),
                std::to_string(sim_.crossings_.size()));
  reader_.endLine();
  for (std::size_t c = 0; c < sim_.crossings_.size(); ++c) {
    reader_.expect("crossing");
    reader_.match("the next zero crossing", reader_.text("the zero-crossing name"),
                  sim_.crossings_.name(c));
    Snapshot::CrossingMemory memory;
    memory.afterFiring = reader_.flag("the fired flag");
    memory.firedValue = reader_.finite("the residual value at the last firing");
    memory.crossedSign = static_cast<int>(reader_.integer("the crossed sign", -1, 1));
    reader_.endLine();
    staged_.snapshot.crossings.push_back(memory);
  }
}

void CheckpointParser::checkWholeFile() {
  // Per-state tolerances must fit the state vector the restored activity gives; the
  // integrator refuses them when it is sized, which must not happen halfway through applying.
  const Eigen::Index tolerances = staged_.snapshot.integratorOptions.absoluteTolerances.size();
  if (tolerances == 0) return;
  Eigen::Index states = sim_.multibodyActive_ ? sim_.multibody_->stateCount() : 0;
  for (std::size_t m = 0; m < sim_.slots_.size(); ++m) {
    const Simulation::ModelSlot& slot = sim_.slots_[m];
    if (slot.continuous == nullptr || !staged_.snapshot.models[m].active) continue;
    const Model& model = *slot.model;
    for (std::size_t f = 0; f < model.spec().fields(FieldRole::ContinuousState).size(); ++f) {
      const std::size_t length = model.fieldBuffer(FieldRole::ContinuousState, f).length();
      for (std::size_t e = 0; e < length; ++e) states += sim_.stateMasked(model, f, e) ? 0 : 1;
    }
  }
  if (states != 0 && tolerances != states) {
    reader_.failAt(optionsLine_, "the options give " + std::to_string(tolerances) +
                                     " per-state absolute tolerances, but the restored "
                                     "simulation integrates " +
                                     std::to_string(states) + " states (expected one per state)");
  }
}

}  // namespace hopsim
