// VariableTree: paths, get/set with checks, listing, and errors that suggest names.

#include <doctest/doctest.h>

#include "hopsim/signals/error.h"
#include "hopsim/signals/variable_tree.h"

namespace hopsim {
namespace {

struct Fixture {
  Signal thrust{"lander.thrust", ElementType::Double, 3, "N", "engine thrust"};
  Signal mode{"lander.mode", ElementType::String, 1};
  Signal count{"count", ElementType::Int, 1};
  VariableTree tree;
  Fixture() {
    tree.add("signals.lander.thrust", std::make_unique<SignalVariable>(thrust));
    tree.add("signals.lander.mode", std::make_unique<SignalVariable>(mode));
    tree.add("signals.count", std::make_unique<SignalVariable>(count));
  }
};

}  // namespace

TEST_CASE("get and set by path reach the signal and count as writes") {
  Fixture f;
  f.tree.set("signals.lander.thrust", std::vector<double>{0.0, 0.0, 9.0});
  CHECK(f.thrust.version() == 1);
  CHECK(std::get<std::vector<double>>(f.tree.get("signals.lander.thrust"))[2] == 9.0);
  f.tree.set("signals.count", std::int64_t{7});
  CHECK(f.count.buffer().ints()[0] == 7);
  CHECK(f.tree.at("signals.lander.thrust").unit() == "N");
}

TEST_CASE("a set of the wrong type or length names the path") {
  Fixture f;
  CHECK_THROWS_WITH_AS(f.tree.set("signals.lander.thrust", 1.0),
                       "signals.lander.thrust: expected double[3] but got double 1", InputError);
  CHECK_THROWS_WITH_AS(f.tree.set("signals.lander.mode", 2.0),
                       doctest::Contains("signals.lander.mode: expected string"), InputError);
}

TEST_CASE("an unknown path names itself and suggests the nearest existing names") {
  Fixture f;
  CHECK_THROWS_WITH_AS(f.tree.get("signals.lander.thrst"),
                       "no variable 'signals.lander.thrst' (did you mean "
                       "'signals.lander.thrust'?)",
                       NotFoundError);
  CHECK_THROWS_WITH_AS(f.tree.get("signal.count"),
                       doctest::Contains("did you mean 'signals.count'"), InputError);
  CHECK_THROWS_WITH_AS(f.tree.get("signals.lander"),
                       doctest::Contains("'signals.lander' is a branch, not a variable"),
                       InputError);
}

TEST_CASE("listing a subtree gives its leaves, sorted, the prefix must be a whole segment") {
  Fixture f;
  CHECK(f.tree.list("signals.lander") ==
        std::vector<std::string>{"signals.lander.mode", "signals.lander.thrust"});
  CHECK(f.tree.list().size() == 3);
  CHECK(f.tree.list("signals.count") == std::vector<std::string>{"signals.count"});
  CHECK_THROWS_AS(f.tree.list("signals.land"), InputError);
}

TEST_CASE("a path is a leaf or a branch, never both, and malformed paths are refused") {
  Fixture f;
  Signal extra("x", ElementType::Double, 1);
  CHECK_THROWS_WITH_AS(f.tree.add("signals.count.sub", std::make_unique<SignalVariable>(extra)),
                       doctest::Contains("'signals.count' is a variable, not a branch"),
                       InputError);
  CHECK_THROWS_AS(f.tree.add("signals.lander", std::make_unique<SignalVariable>(extra)),
                  InputError);
  CHECK_THROWS_AS(f.tree.add("signals.count", std::make_unique<SignalVariable>(extra)), InputError);
  CHECK_THROWS_WITH_AS(f.tree.add("signals..x", std::make_unique<SignalVariable>(extra)),
                       doctest::Contains("empty name segment"), InputError);
  CHECK_THROWS_WITH_AS(f.tree.add("signals.x-y", std::make_unique<SignalVariable>(extra)),
                       doctest::Contains("character '-' is not allowed"), InputError);
}

TEST_CASE("removing a branch removes its leaves and nothing that merely shares a prefix") {
  Fixture f;
  Signal lander2("lander2", ElementType::Double, 1);
  f.tree.add("signals.lander2", std::make_unique<SignalVariable>(lander2));
  f.tree.remove("signals.lander");
  CHECK(f.tree.list() == std::vector<std::string>{"signals.count", "signals.lander2"});
}

}  // namespace hopsim
