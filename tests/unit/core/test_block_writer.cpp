// BlockWriter: the blocks a sink is handed, column by column, in the caller's thread or in one
// of the writer's own, and a failed write thrown by the next call.

#include <doctest/doctest.h>

#include <memory>
#include <thread>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/block_writer.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

/// A recorder of a MassSpring's two continuous states at 1 kHz, 0.05 s recorded: 51 samples
/// of 3 columns.
struct Recorded {
  std::unique_ptr<Simulation> sim;
  std::unique_ptr<Recorder> recorder;
  Recorded() : sim(std::make_unique<Simulation>(SimulationOptions{.ioStepSize = 0.01})) {
    test::addSpring(*sim);
    sim->lock();
    recorder = std::make_unique<Recorder>(
        *sim, std::vector<std::string>{"models.spring.continuousStates.**"}, 1000.0);
    sim->advanceTimeTo(0.05);
  }
};

/// What the blocks held, as the recorder's columns: times, then each column's values.
struct Written {
  std::vector<std::vector<double>> columns;
  std::vector<std::thread::id> threads;
  int calls = 0;
  int failAt = -1;  ///< the call that throws
};

BlockWriter::WriteBlock keepIn(Written& written) {
  return [&written](const double* columns, std::size_t count, std::size_t width) {
    if (written.calls++ == written.failAt) throw InputError("cannot write 'blocks': it broke");
    written.threads.push_back(std::this_thread::get_id());
    written.columns.resize(width);
    for (std::size_t c = 0; c < width; ++c) {
      written.columns[c].insert(written.columns[c].end(), columns + c * count,
                                columns + (c + 1) * count);
    }
  };
}

TEST_CASE("a BlockWriter hands the samples over column by column, in order") {
  const Recorded run;
  const Recorder& r = *run.recorder;
  REQUIRE(r.times().size() == 51);
  for (const bool background : {false, true}) {
    CAPTURE(background);
    Written written;
    {
      BlockWriter writer(keepIn(written), background);
      writer.write(r, 0, 20);
      writer.write(r, 20, 21);
      writer.write(r, 21, 51);
      writer.close();
      CHECK(writer.samples() == 51);
    }
    REQUIRE(written.columns.size() == 3);
    CHECK(written.columns[0] == r.times());
    CHECK(written.columns[1] == r.values(1));
    CHECK(written.columns[2] == r.values(2));
    // In the caller's thread, or in one thread of the writer's own.
    REQUIRE(written.threads.size() == 3);
    CHECK((written.threads[0] == std::this_thread::get_id()) == !background);
    CHECK(written.threads[1] == written.threads[0]);
  }
}

TEST_CASE(
    "a BlockWriter throws a failed write at once or by its next call, and at every later one") {
  const Recorded run;
  const Recorder& r = *run.recorder;
  Written now;
  now.failAt = 1;
  BlockWriter caller(keepIn(now), false);
  caller.write(r, 0, 10);
  CHECK_THROWS_WITH_AS(caller.write(r, 10, 20), "cannot write 'blocks': it broke", InputError);
  CHECK_THROWS_WITH_AS(caller.write(r, 20, 30), "cannot write 'blocks': it broke", InputError);
  CHECK_THROWS_WITH_AS(caller.close(), "cannot write 'blocks': it broke", InputError);
  CHECK(caller.samples() == 10);
  CHECK(now.calls == 2);

  Written later;
  later.failAt = 0;
  BlockWriter background(keepIn(later), true);
  background.write(r, 0, 10);  // fails in the writer's thread
  CHECK_THROWS_WITH_AS(background.write(r, 10, 20), "cannot write 'blocks': it broke", InputError);
  CHECK_THROWS_WITH_AS(background.close(), "cannot write 'blocks': it broke", InputError);
  CHECK(background.samples() == 0);
  CHECK(later.calls == 1);
}

TEST_CASE("a BlockWriter destroyed with a block pending writes it") {
  const Recorded run;
  Written written;
  {
    BlockWriter writer(keepIn(written), true);
    writer.write(*run.recorder, 0, 51);
  }
  REQUIRE(written.columns.size() == 3);
  CHECK(written.columns[0].size() == 51);
}

}  // namespace
}  // namespace hopsim
