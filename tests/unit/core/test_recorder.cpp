// Recorder: column naming and units, glob and exact patterns, sampling times (rate and the
// default I/O step), CSV output, and the removal of its event on destruction.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

/// A locked simulation: MassSpring "ms" (x = cos t), VanDerPol "vdp" (q of length 2), a
/// vector signal "v" of length 3 in m/s and a string signal "label".
std::unique_ptr<Simulation> makeSim(double ioStep = 0.01) {
  SimulationOptions options;
  options.ioStepSize = ioStep;
  auto sim = std::make_unique<Simulation>(options);
  sim->addModel<test::MassSpring>("ms");
  sim->addModel<test::VanDerPol>("vdp");
  sim->addSignal("v", ElementType::Double, 3, "m/s");
  sim->addSignal("n", ElementType::Int, 1);
  sim->addSignal("label", ElementType::String, 1);
  sim->addSignal("w", ElementType::Double, 1, "m");
  sim->tie("ms", "position", "w");
  sim->lock();
  return sim;
}

template <class F>
std::string inputErrorOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("Recorder names columns path[i] for vectors and keeps units") {
  auto sim = makeSim();
  const hopsim::Recorder r(*sim, {"signals.v", "models.ms.continuousStates.x",
                                  "models.vdp.continuousStates.q", "signals.n"});
  CHECK(r.columns() == std::vector<std::string>{"time", "signals.v[0]", "signals.v[1]",
                                                "signals.v[2]", "models.ms.continuousStates.x",
                                                "models.vdp.continuousStates.q[0]",
                                                "models.vdp.continuousStates.q[1]", "signals.n"});
  REQUIRE(r.units().size() == r.columns().size());
  CHECK(r.units()[0] == "s");
  CHECK(r.units()[1] == "m/s");
  CHECK(r.units()[3] == "m/s");
  CHECK(r.units()[4] == "m");
  CHECK(r.column("signals.v[2]") == 3);
  CHECK(r.column("models.ms.continuousStates.x") == 4);
  const std::string m = inputErrorOf([&] { (void)r.column("signals.v[5]"); });
  CHECK(m.find("did you mean") != std::string::npos);
  // The first sample is taken at the start of the next hop, once the outputs exist.
  CHECK(r.rows() == 0);
  sim->advanceTimeTo(0.01);
  REQUIRE(r.rows() == 2);
  CHECK(r.times()[0] == 0.0);
  CHECK(r.values(4)[0] == 1.0);
}

TEST_CASE("Recorder globs: * within one segment, ** across, misses and strings") {
  auto sim = makeSim();
  const hopsim::Recorder star(*sim, {"models.*.continuousStates.x"});
  CHECK(star.columns() == std::vector<std::string>{"time", "models.ms.continuousStates.x"});
  // `*` does not cross a dot; `**` does. The string signal is skipped by a glob.
  const hopsim::Recorder one(*sim, {"signals.*"});
  CHECK(one.columns() == std::vector<std::string>{"time", "signals.n", "signals.v[0]",
                                                  "signals.v[1]", "signals.v[2]", "signals.w"});
  CHECK(inputErrorOf([&] {
          hopsim::Recorder r(*sim, {"models.*.x"});
        }).find("matches no numeric variable") != std::string::npos);
  const hopsim::Recorder deep(*sim, {"models.**.x"});
  CHECK(deep.columns() == std::vector<std::string>{"time", "models.ms.continuousStates.x"});
  // A variable matched twice is recorded once.
  const hopsim::Recorder twice(*sim, {"signals.n", "signals.*"});
  CHECK(twice.columns().size() == 6);
  std::string m = inputErrorOf([&] { hopsim::Recorder r(*sim, {"signals.vv"}); });
  CHECK(m.find("'signals.vv' matches no numeric variable") != std::string::npos);
  CHECK(m.find("did you mean 'signals.v'") != std::string::npos);
  m = inputErrorOf([&] { hopsim::Recorder r(*sim, {"signals.label"}); });
  CHECK(m.find("string variable") != std::string::npos);
  m = inputErrorOf([&] { hopsim::Recorder r(*sim, {"signals.n"}, 0.0); });
  CHECK(m.find("finite and positive") != std::string::npos);
}

TEST_CASE("Recorder with a rate samples at exactly k / rate") {
  auto sim = makeSim(0.03);  // the I/O step is not a multiple of the sample period
  const hopsim::Recorder r(*sim, {"models.ms.continuousStates.x"}, 20.0);
  sim->advanceTimeTo(0.5);
  REQUIRE(r.rows() == 11);
  for (std::size_t k = 0; k < r.rows(); ++k) {
    CHECK(r.times()[k] == static_cast<double>(k) / 20.0);
    CHECK(r.values(1)[k] == doctest::Approx(std::cos(r.times()[k])).epsilon(1e-7));
  }
}

TEST_CASE("Recorder without a rate samples at the start and the end of every I/O step") {
  auto sim = makeSim(0.125);
  const hopsim::Recorder r(*sim, {"models.ms.continuousStates.x"});
  sim->advanceTimeTo(1.0);
  REQUIRE(r.rows() == 9);
  for (std::size_t k = 0; k < r.rows(); ++k) {
    CHECK(r.times()[k] == static_cast<double>(k) * 0.125);
    CHECK(r.values(1)[k] == doctest::Approx(std::cos(r.times()[k])).epsilon(1e-5));
  }
}

TEST_CASE(
    "Recorder triggers: the sample period is 1 / rate, else the I/O step, and only a rate "
    "or no trigger samples periodically") {
  auto sim = makeSim(0.125);
  using Triggers = hopsim::Recorder::Triggers;
  CHECK(Triggers{}.samplePeriod(*sim) == 0.125);
  CHECK(Triggers{4.0, {}, false}.samplePeriod(*sim) == 0.25);
  CHECK(Triggers{}.periodic());
  CHECK(Triggers{4.0, {"stop"}, true}.periodic());
  CHECK_FALSE(Triggers{std::nullopt, {"stop"}, false}.periodic());
  CHECK_FALSE(Triggers{std::nullopt, {}, true}.periodic());
  // The recorder samples with that period: 1 / 0.125 s over 1 s is 9 rows, start included.
  const hopsim::Recorder r(*sim, {"models.ms.continuousStates.x"}, {}, Triggers{});
  sim->advanceTimeTo(1.0);
  CHECK(r.rows() == 9);
}

TEST_CASE("Recorder CSV: header, then rows with 17 significant digits that round trip") {
  auto sim = makeSim(0.1);
  const hopsim::Recorder r(*sim, {"models.ms.continuousStates.x", "models.vdp.continuousStates.q"});
  sim->advanceTimeTo(0.3);
  std::ostringstream out;
  out << std::setprecision(3);
  r.writeCsv(out);
  CHECK(out.precision() == 3);  // restored
  std::istringstream in(out.str());
  std::string line;
  REQUIRE(std::getline(in, line));
  CHECK(line ==
        "time,models.ms.continuousStates.x,models.vdp.continuousStates.q[0],"
        "models.vdp.continuousStates.q[1]");
  std::size_t row = 0;
  while (std::getline(in, line)) {
    REQUIRE(row < r.rows());
    std::istringstream cells(line);
    std::string cell;
    std::size_t c = 0;
    while (std::getline(cells, cell, ',')) {
      const double x = std::strtod(cell.c_str(), nullptr);
      CHECK(x == (c == 0 ? r.times()[row] : r.values(c)[row]));
      ++c;
    }
    CHECK(c == r.columns().size());
    ++row;
  }
  CHECK(row == r.rows());
  CHECK(row == 4);
  CHECK(r.values(1)[3] != 0.0);
  CHECK(r.values(1)[3] != 1.0);  // a value that needs all 17 digits
}

TEST_CASE("Recorder registers no event and removes its sampler when destroyed") {
  auto sim = makeSim();
  const std::size_t before = sim->listEvents().size();
  {
    const hopsim::Recorder a(*sim, {"signals.n"});
    const hopsim::Recorder b(*sim, {"signals.n"}, 10.0);
    CHECK(sim->listEvents().size() == before);
    sim->advanceTimeTo(0.02);
    CHECK(a.rows() == 3);
    CHECK(b.rows() == 1);
  }
  sim->advanceTimeTo(0.05);  // no dangling callback fires
  hopsim::Recorder empty;
  CHECK(empty.rows() == 0);
  CHECK(empty.columns().empty());
  CHECK(sim->listEvents().size() == before);
}

TEST_CASE("Recorder follows a model removed and added again, and names one that is gone") {
  auto sim = makeSim();
  const hopsim::Recorder r(*sim, {"models.vdp.continuousStates.q", "signals.w"});
  sim->advanceTimeTo(0.02);
  const std::size_t rows = r.rows();
  // Rebuilt while unlocked: the recorder's variable pointers are stale and must be taken again.
  sim->unlock();
  sim->removeModel("vdp");
  sim->addModel<test::VanDerPol>("vdp");
  sim->lock();
  sim->set("models.vdp.continuousStates.q", std::vector<double>{0.25, -0.5});
  sim->advanceTimeTo(0.03);
  REQUIRE(r.rows() == rows + 1);
  // The new model's state (set to 0.25, moving by at most ~0.01 in 0.01 s), not the old one's
  // (near 2).
  CHECK(std::abs(r.values(1)[rows] - 0.25) < 0.02);
  CHECK(std::abs(r.values(1)[rows - 1] - 2.0) < 0.02);
  // A logged variable that no longer exists is named at the next sample.
  sim->unlock();
  sim->removeModel("vdp");
  sim->lock();
  const std::string m = inputErrorOf([&] { sim->advanceTimeTo(0.04); });
  CHECK(m.find("models.vdp.continuousStates.q") != std::string::npos);
}

}  // namespace
}  // namespace hopsim
