// InputNode: the document tree every front end produces, and where its values were written.

#include <doctest/doctest.h>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/signals/error.h"

namespace hopsim {

TEST_CASE("a source location prints as much of file:line:col as is known") {
  CHECK(SourceLocation{"scenario.yaml", 12, 7}.toString() == "scenario.yaml:12:7");
  CHECK(SourceLocation{"scenario.yaml"}.toString() == "scenario.yaml");
  CHECK(SourceLocation{"default"}.toString() == "default");
  CHECK(SourceLocation{}.toString().empty());
  CHECK_FALSE(SourceLocation{}.known());
  CHECK(SourceLocation{"--set"}.known());
}

TEST_CASE("scalars keep the C++ type they were given with") {
  CHECK(std::get<bool>(InputNode(true).scalar()));
  CHECK(std::get<std::int64_t>(InputNode(12).scalar()) == 12);
  CHECK(std::get<double>(InputNode(2.5).scalar()) == 2.5);
  CHECK(std::get<std::string>(InputNode("abc").scalar()) == "abc");
  CHECK(InputNode().isNull());
  CHECK(InputNode(1.0).isScalar());
  CHECK(std::string(InputNode().kindName()) == "null");
  CHECK(std::string(InputNode({1.0, 2.0}).kindName()) == "sequence");
}

TEST_CASE("text scalars carry their location and whether they were quoted") {
  const InputNode node = InputNode::text("12 km", {"a.yaml", 3, 9}, true);
  CHECK(std::get<std::string>(node.scalar()) == "12 km");
  CHECK(node.quoted());
  CHECK(node.location().toString() == "a.yaml:3:9");
  CHECK_FALSE(InputNode::text("x").quoted());
}

TEST_CASE("describe shows values as a message would") {
  CHECK(InputNode(12).describe() == "12");
  CHECK(InputNode(0.1).describe() == "0.1");
  CHECK(InputNode("abc").describe() == "\"abc\"");
  CHECK(InputNode(true).describe() == "true");
  CHECK(InputNode().describe() == "null");
  CHECK(InputNode::sequence({1, 2, 3}).describe() == "[1, 2, 3]");
  CHECK(InputNode::mapping({{"a", 1}}).describe() == "{...}");
  std::vector<InputNode> many(20, InputNode(1));
  CHECK(InputNode::sequence(many).describe() == "[1, 1, 1, 1, 1, 1, 1, 1, ... (20 items)]");
}

TEST_CASE("a sequence of doubles from an initializer list") {
  const InputNode node{0.0, 0.0, -9.81};
  REQUIRE(node.isSequence());
  REQUIRE(node.items().size() == 3);
  CHECK(std::get<double>(node.items()[2].scalar()) == -9.81);
}

TEST_CASE("mappings keep their key order and find keys") {
  const InputNode node = InputNode::mapping({{"zeta", 1}, {"alpha", 2}, {"mid", 3}});
  CHECK(node.keys() == std::vector<std::string>{"zeta", "alpha", "mid"});
  REQUIRE(node.find("alpha") != nullptr);
  CHECK(std::get<std::int64_t>(node.find("alpha")->scalar()) == 2);
  CHECK(node.find("beta") == nullptr);
}

TEST_CASE("a repeated key is an error naming the key and where it was written") {
  CHECK_THROWS_WITH_AS(
      InputNode::mapping({{"mass", 1}, {"mass", InputNode::text("2", {"b.yaml", 4, 3})}}),
      "b.yaml:4:3: duplicate key 'mass' in a mapping", InputError);
  CHECK_THROWS_WITH_AS(InputNode::mapping({{"k", 1}, {"k", 2}}, {"c.yaml", 1, 1}),
                       "c.yaml:1:1: duplicate key 'k' in a mapping", InputError);
}

TEST_CASE("set adds or replaces a key, a null node becomes a mapping") {
  InputNode node;
  node.set("a", 1);
  node.set("b", 2);
  node.set("a", 3);
  REQUIRE(node.isMapping());
  CHECK(node.keys() == std::vector<std::string>{"a", "b"});
  CHECK(std::get<std::int64_t>(node.find("a")->scalar()) == 3);
  InputNode scalar(1.0);
  CHECK_THROWS_AS(scalar.set("a", 1), ModelError);
}

TEST_CASE("at() attaches a location to an existing node") {
  InputNode node(2.0);
  node.at({"x.yaml", 2, 1});
  CHECK(node.location().toString() == "x.yaml:2:1");
  CHECK(InputNode(1).at({"--set"}).location().toString() == "--set");
}

}  // namespace hopsim
