// sortDataflow on its own: stability, breaks, cycle reporting.

#include <doctest/doctest.h>

#include "hopsim/core/dataflow_sort.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

DataflowConnection edge(std::size_t from, std::size_t to, bool broken = false) {
  const std::string a = "m" + std::to_string(from);
  const std::string b = "m" + std::to_string(to);
  return {from,  to, a + ".y", "'s" + std::to_string(from) + "'", b + ".u", "M declares u -> y",
          broken};
}

}  // namespace

TEST_CASE("independent models keep index order, constrained ones move just enough") {
  CHECK(sortDataflow(4, {}) == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(sortDataflow(4, {edge(3, 1)}) == std::vector<std::size_t>{0, 2, 3, 1});
  CHECK(sortDataflow(3, {edge(2, 1), edge(1, 0)}) == std::vector<std::size_t>{2, 1, 0});
}

TEST_CASE("a cycle is reported link by link in flow order, a break removes it") {
  const std::vector<DataflowConnection> loop{edge(0, 1), edge(1, 2), edge(2, 0), edge(2, 3)};
  std::string message;
  try {
    sortDataflow(4, loop);
  } catch (const ModelError& e) {
    message = e.what();
  }
  const auto first = message.find("m0.y -> 's0' -> m1.u");
  const auto second = message.find("m1.y -> 's1' -> m2.u");
  const auto third = message.find("m2.y -> 's2' -> m0.u");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  REQUIRE(third != std::string::npos);
  CHECK(message.find("m3") == std::string::npos);
  std::vector<DataflowConnection> broken = loop;
  broken[2].broken = true;
  CHECK(sortDataflow(4, broken) == std::vector<std::size_t>{0, 1, 2, 3});
}

TEST_CASE("a model feeding itself through is a loop of one") {
  CHECK_THROWS_WITH_AS(sortDataflow(2, {edge(1, 1)}), doctest::Contains("m1.y -> 's1' -> m1.u"),
                       ModelError);
}

}  // namespace hopsim
