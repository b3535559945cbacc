// YAML input: locations, quoting, nulls, merge keys, aliases and the errors of bad input.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"
#include "temp_dir.h"

namespace hopsim {
namespace {

std::string text(const InputNode& node) { return std::get<std::string>(node.scalar()); }

/// The node at `key`, failing the test (rather than crashing) when it is missing.
const InputNode& at(const InputNode& mapping, std::string_view key) {
  const InputNode* value = mapping.find(key);
  REQUIRE_MESSAGE(value != nullptr, "missing key ", key);
  return *value;
}

/// "line:column" of a node, to compare positions compactly.
std::string pos(const InputNode& node) {
  return std::to_string(node.location().line) + ":" + std::to_string(node.location().column);
}

using testing::TempDir;

}  // namespace

TEST_CASE("yaml: every node has the 1-based line and column where it was written") {
  const InputNode doc = parseYaml(
      "name: probe\n"
      "body:\n"
      "  mass: 2.5\n"
      "  cm: [0, 0, 0.5]\n"
      "list:\n"
      "  - a\n"
      "  - {k: v}\n",
      "scene.yaml");
  CHECK(doc.isMapping());
  CHECK(doc.keys() == std::vector<std::string>{"name", "body", "list"});
  CHECK(doc.location().toString() == "scene.yaml:1:1");
  CHECK(at(doc, "name").location().toString() == "scene.yaml:1:7");
  const InputNode& body = at(doc, "body");
  CHECK(pos(body) == "3:3");
  CHECK(pos(at(body, "mass")) == "3:9");
  const InputNode& cm = at(body, "cm");
  REQUIRE(cm.isSequence());
  CHECK(pos(cm) == "4:7");
  CHECK(pos(cm.items()[0]) == "4:8");
  CHECK(pos(cm.items()[2]) == "4:14");
  CHECK(text(cm.items()[2]) == "0.5");
  const InputNode& list = at(doc, "list");
  CHECK(pos(list.items()[0]) == "6:5");
  CHECK(pos(list.items()[1]) == "7:5");
  CHECK(pos(at(list.items()[1], "k")) == "7:9");
}

TEST_CASE("yaml: quoted and block scalars are marked quoted, plain ones are not") {
  const InputNode doc = parseYaml(
      "plain: true\n"
      "double: \"true\"\n"
      "single: '12 km'\n"
      "literal: |\n"
      "  two\n"
      "  lines\n"
      "folded: >\n"
      "  one\n"
      "explicit: !!str 3\n"
      "number: 3\n");
  CHECK_FALSE(at(doc, "plain").quoted());
  CHECK(text(at(doc, "plain")) == "true");
  CHECK(at(doc, "double").quoted());
  CHECK(text(at(doc, "double")) == "true");
  CHECK(at(doc, "single").quoted());
  CHECK(text(at(doc, "single")) == "12 km");
  CHECK(at(doc, "literal").quoted());
  CHECK(text(at(doc, "literal")) == "two\nlines\n");
  CHECK(at(doc, "folded").quoted());
  CHECK(at(doc, "explicit").quoted());
  CHECK_FALSE(at(doc, "number").quoted());
}

TEST_CASE("yaml: ~, null, an empty value and !!null are null, a quoted \"~\" is text") {
  const InputNode doc = parseYaml(
      "tilde: ~\n"
      "word: null\n"
      "empty:\n"
      "tagged: !!null ''\n"
      "quoted: \"~\"\n"
      "list: [~, 1]\n",
      "n.yaml");
  CHECK(at(doc, "tilde").isNull());
  CHECK(pos(at(doc, "tilde")) == "1:8");
  CHECK(at(doc, "word").isNull());
  CHECK(at(doc, "empty").isNull());
  CHECK(at(doc, "tagged").isNull());
  CHECK(at(doc, "quoted").isScalar());
  CHECK(text(at(doc, "quoted")) == "~");
  CHECK(at(doc, "list").items()[0].isNull());
  CHECK(parseYaml("").isNull());
  CHECK(parseYaml("# only a comment\n").isNull());
}

TEST_CASE("yaml: a merge key merges one mapping, explicit keys win and come first") {
  const InputNode doc = parseYaml(
      "base: &base {mass: 1, length: 2}\n"
      "derived:\n"
      "  <<: *base\n"
      "  length: 5\n"
      "  width: 3\n",
      "m.yaml");
  const InputNode& derived = at(doc, "derived");
  CHECK(derived.keys() == std::vector<std::string>{"length", "width", "mass"});
  CHECK(text(at(derived, "length")) == "5");
  CHECK(pos(at(derived, "length")) == "4:11");
  // A merged value keeps the location where it was written: in the anchored mapping.
  CHECK(text(at(derived, "mass")) == "1");
  CHECK(at(derived, "mass").location().toString() == "m.yaml:1:20");
  CHECK(at(doc, "base").keys() == std::vector<std::string>{"mass", "length"});
}

TEST_CASE("yaml: in a merge list, earlier mappings win over later ones") {
  const InputNode doc = parseYaml(
      "a: &a {x: a, y: a}\n"
      "b: &b {y: b, z: b}\n"
      "c:\n"
      "  z: own\n"
      "  <<: [*a, *b, {w: inline}]\n");
  const InputNode& c = at(doc, "c");
  CHECK(c.keys() == std::vector<std::string>{"z", "x", "y", "w"});
  CHECK(text(at(c, "x")) == "a");
  CHECK(text(at(c, "y")) == "a");
  CHECK(text(at(c, "z")) == "own");
  CHECK(text(at(c, "w")) == "inline");
}

TEST_CASE("yaml: merges nest: a merged mapping may merge, and nested mappings merge too") {
  const InputNode doc = parseYaml(
      "root: &root {g: 9.81, t: 0}\n"
      "mid: &mid\n"
      "  <<: *root\n"
      "  t: 1\n"
      "leaf:\n"
      "  <<: *mid\n"
      "  body:\n"
      "    <<: *root\n"
      "    g: 1.62\n");
  const InputNode& leaf = at(doc, "leaf");
  CHECK(leaf.keys() == std::vector<std::string>{"body", "t", "g"});
  CHECK(text(at(leaf, "t")) == "1");
  CHECK(text(at(leaf, "g")) == "9.81");
  const InputNode& body = at(leaf, "body");
  CHECK(text(at(body, "g")) == "1.62");
  CHECK(text(at(body, "t")) == "0");
}

TEST_CASE("yaml: a merge value that is not a mapping or a list of mappings is an error") {
  CHECK_THROWS_WITH_AS(parseYaml("a:\n  <<: 3\n", "e.yaml"),
                       "e.yaml:2:3: merge key '<<' needs a mapping or a sequence of mappings, "
                       "not a scalar",
                       InputError);
  CHECK_THROWS_WITH_AS(parseYaml("x: &x {k: 1}\na:\n  <<: [*x, [1]]\n", "e.yaml"),
                       "e.yaml:3:3: merge key '<<' needs a sequence of mappings, but item 2 is "
                       "a sequence",
                       InputError);
  CHECK_THROWS_WITH_AS(parseYaml("a: {<<: ~}\n", "e.yaml"),
                       doctest::Contains("e.yaml:1:5: merge key '<<' needs a mapping"), InputError);
  CHECK_THROWS_WITH_AS(parseYaml("x: &x {k: 1}\na:\n  <<: *x\n  <<: *x\n", "e.yaml"),
                       "e.yaml:4:3: duplicate key '<<' (first written at e.yaml:3:3)", InputError);
}

TEST_CASE("yaml: a quoted \"<<\" is an ordinary key, not a merge") {
  const InputNode doc = parseYaml("a: {\"<<\": 3}\n");
  CHECK(at(doc, "a").keys() == std::vector<std::string>{"<<"});
}

TEST_CASE("yaml: an alias is a copy of the anchored node, located at the anchor") {
  const InputNode doc = parseYaml(
      "shape: &box {size: [1, 2, 3]}\n"
      "other: *box\n"
      "names: [&n wheel, *n]\n",
      "a.yaml");
  const InputNode& other = at(doc, "other");
  REQUIRE(other.isMapping());
  CHECK(text(at(other, "size").items()[1]) == "2");
  CHECK(pos(other) == "1:8");
  CHECK(text(at(doc, "names").items()[1]) == "wheel");
}

TEST_CASE("yaml: a syntax error names file:line:column") {
  CHECK_THROWS_WITH_AS(parseYaml("ok: 1\nbad: b: c\n", "s.yaml"),
                       doctest::Contains("s.yaml:2:7: YAML syntax error: "), InputError);
  CHECK_THROWS_WITH_AS(parseYaml("a: [1, 2\n", "s.yaml"),
                       doctest::Contains("YAML syntax error: end of sequence flow not found"),
                       InputError);
  CHECK_THROWS_WITH_AS(parseYaml("a: *nowhere\n", "s.yaml"),
                       "s.yaml:1:4: YAML syntax error: the referenced anchor is not defined",
                       InputError);
}

TEST_CASE("yaml: only the first document is read") {
  const InputNode doc = parseYaml("a: 1\n---\nb: 2\n");
  CHECK(doc.keys() == std::vector<std::string>{"a"});
  // yaml-cpp 0.7's LoadAll loops forever on this; Load must not.
  CHECK(parseYaml(",").isNull());
}

TEST_CASE("yaml: files are read and their path names every location") {
  const TempDir dir;
  const std::string path = dir.write("scene.yaml", "hopsim: 1\nend: 10 s\n");
  const InputNode doc = loadYamlFile(path);
  CHECK(at(doc, "end").location().toString() == path + ":2:6");
  const std::string broken = dir.write("broken.yaml", "a: [\n");
  CHECK_THROWS_WITH_AS(loadYamlFile(broken),
                       doctest::Contains((broken + ":2:1: YAML syntax error").c_str()), InputError);
}

TEST_CASE("yaml: an unreadable file is an error naming the path and the reason") {
  const TempDir dir;
  const std::string missing = dir.path() + "/missing.yaml";
  CHECK_THROWS_WITH_AS(loadYamlFile(missing),
                       ("cannot read '" + missing + "': No such file or directory").c_str(),
                       InputError);
  CHECK_THROWS_WITH_AS(
      loadYamlFile(dir.path()),
      ("cannot read '" + dir.path() + "': not a regular file (a directory)").c_str(), InputError);
  CHECK_THROWS_WITH_AS(loadYamlFile("/dev/zero"),
                       "cannot read '/dev/zero': not a regular file (a character device)",
                       InputError);
}

TEST_CASE("yaml: deep nesting and recursive aliases stop with an error, not a crash") {
  const auto nested = [](int depth) {
    return std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']');
  };
  CHECK(parseYaml(nested(150)).isSequence());
  CHECK_THROWS_WITH_AS(parseYaml(nested(300), "deep.yaml"),
                       "deep.yaml:1:202: YAML nesting deeper than 200 levels (a recursive alias?)",
                       InputError);
  // Beyond yaml-cpp's own limit (about 500 levels) the parser itself stops.
  CHECK_THROWS_WITH_AS(parseYaml(nested(100000), "deep.yaml"),
                       "deep.yaml: YAML nesting too deep for the parser", InputError);
  CHECK_THROWS_WITH_AS(parseYaml("a: &a [1, *a]\n"), doctest::Contains("nesting deeper"),
                       InputError);
  CHECK_THROWS_WITH_AS(parseYaml("a: &a {x: 1, <<: *a}\n"), doctest::Contains("nesting deeper"),
                       InputError);
}

TEST_CASE("yaml: an alias bomb stops at the node limit") {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char name = 'b'; name <= 'h'; ++name) {
    const std::string previous = std::string("*") + static_cast<char>(name - 1);
    bomb += std::string(1, name) + ": &" + name + " [" + previous;
    for (int i = 1; i < 10; ++i) bomb += ", " + previous;
    bomb += "]\n";
  }
  CHECK_THROWS_WITH_AS(parseYaml(bomb), doctest::Contains("more than 1000000 nodes"), InputError);
}

TEST_CASE("yaml: a repeated key is an error naming both places") {
  CHECK_THROWS_WITH_AS(parseYaml("a: 1\nb: 2\na: 3\n", "k.yaml"),
                       "k.yaml:3:1: duplicate key 'a' (first written at k.yaml:1:1)", InputError);
  CHECK_THROWS_WITH_AS(parseYaml("x:\n  a: 1\n  \"a\": 2\n", "k.yaml"),
                       "k.yaml:3:3: duplicate key 'a' (first written at k.yaml:2:3)", InputError);
}

TEST_CASE("yaml: a mapping key must be a scalar") {
  CHECK_THROWS_WITH_AS(parseYaml("ok: 1\n? [1, 2]\n: v\n", "k.yaml"),
                       "k.yaml:2:3: a mapping key must be a scalar, not a sequence", InputError);
  CHECK_THROWS_WITH_AS(parseYaml("{a: 1}: v\n", "k.yaml"),
                       "k.yaml:1:1: a mapping key must be a scalar, not a mapping", InputError);
  CHECK_THROWS_WITH_AS(parseYaml("~: v\n", "k.yaml"),
                       doctest::Contains("a mapping key must be a scalar, not a null"), InputError);
}

}  // namespace hopsim
