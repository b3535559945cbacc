#include "hopsim/core/recorder.h"

#include <algorithm>
#include <cmath>
#include <ostream>

#include "hopsim/core/csv_sink.h"
#include "hopsim/core/output_file.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "variable_glob.h"

namespace hopsim {

namespace {

bool isNumeric(const Variable& v) { return v.type() != ElementType::String; }

/// The CSV of every sample `recorder` holds, header first.
std::string csvText(const Recorder& recorder) {
  std::string text = csvHeader(recorder);
  appendCsvLines(text, recorder, 0, recorder.times().size());
  return text;
}

}  // namespace

double Recorder::Triggers::samplePeriod(const Simulation& sim) const {
  return rate ? 1.0 / *rate : sim.ioStepSize();
}

Recorder::Recorder(Simulation& sim) : sim_(&sim) {}

Recorder::Recorder(Simulation& sim, const std::vector<std::string>& patterns,
                   std::optional<double> rate)
    : Recorder(sim, patterns, {}, rate) {}

Recorder::Recorder(Simulation& sim, const std::vector<std::string>& patterns,
                   const std::vector<NamedColumn>& named, std::optional<double> rate)
    : Recorder(sim, patterns, named, Triggers{rate, {}, false}) {}

Recorder::Recorder(Simulation& sim, const std::vector<std::string>& patterns,
                   const std::vector<NamedColumn>& named, const Triggers& triggers)
    : sim_(&sim), eventPatterns_(triggers.events) {
  const std::optional<double> rate = triggers.rate;
  if (rate && !(std::isfinite(*rate) && *rate > 0.0)) {
    throw InputError("logging rate " + describeValue(*rate) + " Hz must be finite and positive");
  }
  checkEventPatterns(eventPatterns_, "logging: ", " (register events before the recorder)");
  const std::vector<std::string> all = sim.list();
  columns_.push_back("time");
  units_.push_back("s");
  for (const std::string& pattern : patterns) {
    const bool glob = pattern.find('*') != std::string::npos;
    std::size_t matched = 0;
    for (const std::string& path : all) {
      if (glob ? !globMatch(pattern, path) : path != pattern) continue;
      const Variable& v = sim.variables().at(path);
      if (!isNumeric(v)) {
        if (!glob) throw InputError("cannot log '" + path + "': it is a string variable");
        continue;
      }
      ++matched;
      if (std::find(paths_.begin(), paths_.end(), path) != paths_.end()) continue;
      const std::size_t n = v.length();
      for (std::size_t i = 0; i < n; ++i) {
        addColumn(n == 1 ? path : path + "[" + std::to_string(i) + "]", path, v, i);
      }
    }
    if (matched == 0) {
      throw InputError("logging: '" + pattern + "' matches no numeric variable" +
                       didYouMean(pattern, all));
    }
  }
  for (const NamedColumn& c : named) {
    if (!sim.variables().contains(c.path)) {
      throw InputError("logging: column '" + c.name + "': no variable '" + c.path + "'" +
                       didYouMean(c.path, all));
    }
    const Variable& v = sim.variables().at(c.path);
    if (!isNumeric(v)) {
      throw InputError("logging: column '" + c.name + "': '" + c.path + "' is a string variable");
    }
    if (c.element >= v.length()) {
      throw InputError("logging: column '" + c.name + "': '" + c.path + "' has " +
                       std::to_string(v.length()) + " elements, so element " +
                       std::to_string(c.element) + " does not exist");
    }
    if (std::find(columns_.begin(), columns_.end(), c.name) != columns_.end()) {
      throw InputError("logging: column name '" + c.name + "' is used twice");
    }
    addColumn(c.name, c.path, v, c.element);
  }
  if (paths_.empty()) return;
  revision_ = sim.variables().revision();
  const auto record = [this](Simulation&, double t) { sample(t); };
  if (triggers.periodic()) samplers_.push_back(sim.addSampler(triggers.samplePeriod(sim), record));
  if (triggers.everyHop) samplers_.push_back(sim.addHopSampler(record));
  observeEvents();
}

void Recorder::observeEvents() {
  if (observing_ || eventPatterns_.empty() || paths_.empty()) return;
  samplers_.push_back(sim_->addEventObserver([this](Simulation&, std::string_view event, double t) {
    for (const std::string& pattern : eventPatterns_) {
      if (globMatch(pattern, event)) {
        sample(t);
        return;
      }
    }
  }));
  observing_ = true;
}

void Recorder::sampleOnEvents(const std::vector<std::string>& patterns) {
  if (sim_ == nullptr) throw ModelError("sampleOnEvents: the recorder has no simulation");
  checkEventPatterns(patterns, "", "");
  eventPatterns_.insert(eventPatterns_.end(), patterns.begin(), patterns.end());
  observeEvents();
}

void Recorder::checkEventPatterns(const std::vector<std::string>& patterns, std::string_view prefix,
                                  std::string_view hint) const {
  std::vector<std::string> names;
  for (const EventInfo& e : sim_->listEvents()) names.push_back(e.name);
  for (const std::string& pattern : patterns) {
    if (std::none_of(names.begin(), names.end(),
                     [&](const std::string& name) { return globMatch(pattern, name); })) {
      throw InputError(std::string(prefix) + "event '" + pattern + "' matches no event" +
                       didYouMean(pattern, names) + std::string(hint));
    }
  }
}

void Recorder::addColumn(std::string name, const std::string& path, const Variable& v,
                         std::size_t element) {
  auto it = std::find(paths_.begin(), paths_.end(), path);
  if (it == paths_.end()) it = paths_.insert(paths_.end(), path);
  columns_.push_back(std::move(name));
  units_.push_back(v.elementUnit(element));
  sources_.push_back({&v, static_cast<std::size_t>(it - paths_.begin()), element});
  data_.emplace_back();
}

Recorder::~Recorder() {
  if (sink_) {
    // Destructors do not throw: a write that fails here goes unreported (finishStream reports).
    try {
      finishStream();
    } catch (const std::exception&) {
    }
  }
  removeSamplers();
}

void Recorder::removeSamplers() {
  for (SamplerId id : samplers_) sim_->removeSampler(id);
  samplers_.clear();
}

void Recorder::stop() {
  removeSamplers();
  stopped_ = true;
}

const Variable& Recorder::variable(std::size_t column) const {
  const Source& s = sources_[column - 1];
  if (sim_->variables().revision() == revision_) return *s.variable;
  return sim_->variables().at(paths_[s.path]);
}

void Recorder::resolveSources() {
  std::vector<const Variable*> variables;
  variables.reserve(paths_.size());
  for (const std::string& path : paths_) {
    variables.push_back(&sim_->variables().at(path));  // names a logged variable that is gone
  }
  for (Source& s : sources_) {
    s.variable = variables[s.path];
    if (s.element >= s.variable->length()) {
      throw ModelError("recorder: '" + paths_[s.path] + "' changed length while being logged");
    }
  }
  revision_ = sim_->variables().revision();
}

void Recorder::sample(double t) {
  // Element reads, not get(): a vector variable's get() would allocate a copy every sample.
  // Pointers are taken again only after the variable tree changed (a model removed and
  // re-added while unlocked).
  if (sim_->variables().revision() != revision_) resolveSources();
  times_.push_back(t);
  for (std::size_t c = 0; c < sources_.size(); ++c) {
    data_[c].push_back(sources_[c].variable->element(sources_[c].element));
  }
  if (sink_ && times_.size() - written_ >= stream_.flushSamples) flush();
}

void Recorder::reserve(std::size_t rows) {
  times_.reserve(rows);
  for (auto& column : data_) column.reserve(rows);
}

std::size_t Recorder::column(std::string_view name) const {
  for (std::size_t c = 1; c < columns_.size(); ++c) {
    if (columns_[c] == name) return c;
  }
  throw InputError("the recorder has no column '" + std::string(name) + "'" +
                   didYouMean(name, columns_));
}

void Recorder::writeCsv(std::ostream& out) const { out << csvText(*this); }

void Recorder::writeCsv(const std::string& path) const {
  OutputFile file = OutputFile::create(path);
  file.write(csvText(*this));
  file.close();
}

}  // namespace hopsim
