// ParamSchema and ParamSet: typed declarations, coercion with units, the validation pipeline,
// error messages with paths and locations, sets with the strong guarantee, and round trips.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "hopsim/assemblies/param_set.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

struct BodyParams : ParamSchema {
  SchemaKey<double> mass = field<double>("mass").unit("kg").above(0).describe("body mass");
  SchemaKey<std::vector<double>> cm =
      field<std::vector<double>>("cm").unit("m").length(3).defaultValue({0.0, 0.0, 0.0});
};

/// One field of every scalar and vector type, with the built-in checks.
struct AllTypes : ParamSchema {
  SchemaKey<bool> flag = field<bool>("flag").defaultValue(false);
  SchemaKey<std::int64_t> count = field<std::int64_t>("count").min(0).defaultValue(1);
  SchemaKey<double> distance = field<double>("distance").unit("m").optional();
  SchemaKey<double> angle = field<double>("angle").unit("rad").optional();
  SchemaKey<double> ratio = field<double>("ratio").bounds(0, 1).optional();
  SchemaKey<double> rate = field<double>("rate").allowNonFinite().optional();
  SchemaKey<std::string> mode =
      field<std::string>("mode").choices({"slow", "medium"}).defaultValue("slow");
  SchemaKey<std::vector<double>> position =
      field<std::vector<double>>("position").unit("m").length(3).optional();
  SchemaKey<std::vector<std::int64_t>> ids =
      field<std::vector<std::int64_t>>("ids").lengthRange(1, 4).min(0).optional();
  SchemaKey<std::vector<std::string>> names = field<std::vector<std::string>>("names").optional();
  SchemaKey<StringMap> graph = field<StringMap>("graph").optional();
  SchemaKey<std::vector<double>> gain = field<std::vector<double>>("gain").length(1).optional();
  SchemaKey<std::vector<double>> quaternion =
      field<std::vector<double>>("quaternion")
          .length(4)
          .check("UnitNorm",
                 [](const ParamValue& value) -> std::string {
                   const auto& q = std::get<std::vector<double>>(value);
                   double norm2 = 0;
                   for (double x : q) norm2 += x * x;
                   return std::abs(norm2 - 1) < 1e-9 ? "" : "is not a unit quaternion";
                 })
          .optional();
};

/// Position and attitude must be given together (a cross-field rule).
struct PoseParams : ParamSchema {
  SchemaKey<std::vector<double>> position =
      field<std::vector<double>>("position").unit("m").length(3).optional();
  SchemaKey<std::vector<double>> attitude =
      field<std::vector<double>>("attitude").length(4).optional();
  void validate(const ParamSet& set) const override {
    if (set.has(position) != set.has(attitude)) {
      set.fail(set.has(position) ? "attitude" : "position",
               "position and attitude must be given together");
    }
  }
};

/// Nested records, with a rule across the records.
struct VehicleParams : ParamSchema {
  SchemaKey<RecordMap<BodyParams>> bodies =
      field<RecordMap<BodyParams>>("bodies").defaultValue(InputNode::mapping({}));
  SchemaKey<Record<PoseParams>> pose =
      field<Record<PoseParams>>("pose").defaultValue(InputNode::mapping({}));
  SchemaKey<double> maxMass = field<double>("maxMass").unit("kg").defaultValue(1000.0);
  void validate(const ParamSet& set) const override {
    double total = 0;
    for (const auto& body : set[bodies].sets) total += body[schemaOf<BodyParams>()->mass];
    if (total > set[maxMass]) set.fail("bodies", "total mass exceeds maxMass");
  }
};

/// Adds a field and gives the inherited mass a default.
struct HeavyBodyParams : BodyParams {
  SchemaKey<double> heavyMass = field<double>("mass").unit("kg").above(0).defaultValue(500.0);
  SchemaKey<std::string> material = field<std::string>("material").defaultValue("steel");
};

ParamSet parseAll(InputNode input) { return ParamSet::parse(schemaOf<AllTypes>(), input, "p"); }
const AllTypes& all() { return *schemaOf<AllTypes>(); }

ParamSet body(InputNode input) { return ParamSet::parse(schemaOf<BodyParams>(), input, "b"); }

ParamSet vehicle(InputNode input) {
  return ParamSet::parse(schemaOf<VehicleParams>(), input, "assemblies.SC1.params");
}

InputNode twoBodies() {
  return InputNode::mapping(
      {{"bodies", InputNode::mapping({{"Base", InputNode::mapping({{"mass", 100.0}})},
                                      {"Arm", InputNode::mapping({{"mass", 20.0}})}})}});
}

}  // namespace

// ---- coercion -----------------------------------------------------------------------------------

TEST_CASE("bools accept bools, 0/1 and the usual words, but not quoted text") {
  CHECK(parseAll(InputNode::mapping({{"flag", true}}))[all().flag]);
  CHECK(parseAll(InputNode::mapping({{"flag", 1}}))[all().flag]);
  CHECK_FALSE(parseAll(InputNode::mapping({{"flag", 0}}))[all().flag]);
  CHECK(parseAll(InputNode::mapping({{"flag", InputNode::text("Yes")}}))[all().flag]);
  CHECK(parseAll(InputNode::mapping({{"flag", InputNode::text("on")}}))[all().flag]);
  CHECK_FALSE(parseAll(InputNode::mapping({{"flag", InputNode::text("FALSE")}}))[all().flag]);
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"flag", 2}})), "p.flag: expected bool, got 2",
                       InputError);
  CHECK_THROWS_WITH_AS(
      parseAll(InputNode::mapping({{"flag", InputNode::text("true", {"f.yaml", 1, 7}, true)}})),
      "f.yaml:1:7: p.flag: expected bool, got \"true\"", InputError);
}

TEST_CASE("ints accept ints, integral doubles and numeric text, fractions are not truncated") {
  CHECK(parseAll(InputNode::mapping({{"count", 7}}))[all().count] == 7);
  CHECK(parseAll(InputNode::mapping({{"count", 8.0}}))[all().count] == 8);
  CHECK(parseAll(InputNode::mapping({{"count", InputNode::text("1e3")}}))[all().count] == 1000);
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"count", 143.7}})),
                       "p.count: value 143.7 is not an integer (int fields are not rounded)",
                       InputError);
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"count", true}})),
                       "p.count: expected int, got true", InputError);
}

TEST_CASE("doubles accept numbers and numeric text, with a unit converted to SI") {
  CHECK(parseAll(InputNode::mapping({{"distance", 5}}))[all().distance] == 5.0);
  CHECK(parseAll(InputNode::mapping({{"distance", InputNode::text("2.5")}}))[all().distance] ==
        2.5);
  CHECK(parseAll(InputNode::mapping({{"distance", "12 km"}}))[all().distance] == 12000.0);
  CHECK(parseAll(InputNode::mapping({{"angle", "30 deg"}}))[all().angle] ==
        doctest::Approx(std::numbers::pi / 6));
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"distance", "fast"}})),
                       "p.distance: expected double, got \"fast\"", InputError);
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"distance", InputNode{1.0, 2.0}}})),
                       "p.distance: expected double, got a sequence [1, 2]", InputError);
}

TEST_CASE("a unit of the wrong dimension is rejected naming both quantities") {
  CHECK_THROWS_WITH_AS(
      parseAll(InputNode::mapping({{"distance", InputNode::text("3 kg", {"s.yaml", 4, 13})}})),
      "s.yaml:4:13: p.distance: value \"3 kg\" has the wrong dimension: '3 kg' is a mass, "
      "expected a length (m)",
      InputError);
  // A dimensionless field takes no length either.
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"ratio", "3 m"}})),
                       doctest::Contains("p.ratio: value \"3 m\" has the wrong dimension"),
                       InputError);
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"distance", "3 furlongs"}})),
                       doctest::Contains("p.distance: value \"3 furlongs\" has an unknown unit"),
                       InputError);
}

TEST_CASE("strings accept any scalar, rendered as text") {
  const auto names = [](InputNode item) {
    return parseAll(InputNode::mapping({{"names", InputNode::sequence({item})}}))[all().names];
  };
  CHECK(names("abc") == std::vector<std::string>{"abc"});
  CHECK(names(true) == std::vector<std::string>{"true"});
  CHECK(names(12) == std::vector<std::string>{"12"});
  CHECK(names(0.5) == std::vector<std::string>{"0.5"});
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"mode", InputNode::mapping({})}})),
                       "p.mode: expected string, got a mapping", InputError);
}

TEST_CASE("a unit on the last element of a vector applies to every element") {
  const auto set =
      parseAll(InputNode::mapping({{"position", InputNode::sequence({"1", "2", "3km"})}}));
  CHECK(set[all().position] == std::vector<double>{1000.0, 2000.0, 3000.0});
  CHECK(parseAll(InputNode::mapping({{"position", {1.0, 2.0, 3.0}}}))[all().position] ==
        std::vector<double>{1.0, 2.0, 3.0});
  CHECK_THROWS_WITH_AS(
      parseAll(InputNode::mapping(
          {{"position",
            InputNode::sequence({"1 km", InputNode::text("2", {"v.yaml", 2, 9}), "3"})}})),
      "p.position[0]: value \"1 km\": a unit may only be written on the last element, where it "
      "applies to every element",
      InputError);
  CHECK_THROWS_WITH_AS(
      parseAll(InputNode::mapping({{"position", InputNode::sequence({1, "x", 3})}})),
      "p.position[1]: expected double, got \"x\"", InputError);
}

TEST_CASE("a scalar stands for a vector only where the vector holds exactly one element") {
  CHECK(parseAll(InputNode::mapping({{"gain", 2.5}}))[all().gain] == std::vector<double>{2.5});
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"position", 1.0}})),
                       "p.position: expected double[3], got 1", InputError);
}

TEST_CASE("int vectors, string vectors and string maps") {
  const auto set = parseAll(
      InputNode::mapping({{"ids", InputNode::sequence({1, "2", 3.0})},
                          {"names", InputNode::sequence({"a", "b"})},
                          {"graph", InputNode::mapping({{"Arm", "Base"}, {"Base", "root"}})}}));
  CHECK(set[all().ids] == std::vector<std::int64_t>{1, 2, 3});
  CHECK(set[all().names] == std::vector<std::string>{"a", "b"});
  CHECK(set[all().graph] == StringMap{{"Arm", "Base"}, {"Base", "root"}});
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"ids", InputNode::sequence({1.5})}})),
                       "p.ids[0]: value 1.5 is not an integer (int fields are not rounded)",
                       InputError);
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"graph", InputNode::sequence({"a"})}})),
                       "p.graph: expected map<string>, got a sequence [\"a\"]", InputError);
}

// ---- checks -------------------------------------------------------------------------------------

TEST_CASE("bounds: exclusive and inclusive, on every element") {
  CHECK(body(InputNode::mapping({{"mass", 1e-9}}))[schemaOf<BodyParams>()->mass] == 1e-9);
  CHECK_THROWS_WITH_AS(body(InputNode::mapping({{"mass", -1}})),
                       "b.mass: value -1 failed check: must be > 0 (bounds (0, inf))", InputError);
  CHECK_THROWS_WITH_AS(body(InputNode::mapping({{"mass", 0.0}})),
                       "b.mass: value 0 failed check: must be > 0 (bounds (0, inf))", InputError);
  CHECK(parseAll(InputNode::mapping({{"ratio", 0.0}}))[all().ratio] == 0.0);
  CHECK(parseAll(InputNode::mapping({{"ratio", 1.0}}))[all().ratio] == 1.0);
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"ratio", 1.5}})),
                       "p.ratio: value 1.5 failed check: must be <= 1 (bounds [0, 1])", InputError);
  CHECK_THROWS_WITH_AS(
      parseAll(InputNode::mapping(
          {{"ids", InputNode::sequence({1, InputNode(-2).at({"i.yaml", 3, 12})})}})),
      "i.yaml:3:12: p.ids[1]: value -2 failed check: must be >= 0 (bounds [0, inf))", InputError);
}

TEST_CASE("length and size checks name the expected type") {
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"position", {1.0, 2.0}}})),
                       "p.position: expected double[3], got 2 elements", InputError);
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"ids", InputNode::sequence({})}})),
                       "p.ids: expected int[1..4], got 0 elements", InputError);
}

TEST_CASE("NaN and infinity are rejected unless the field allows them") {
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"distance", std::nan("")}})),
                       doctest::Contains("p.distance: value nan is not finite"), InputError);
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"distance", InputNode::text(".inf")}})),
                       doctest::Contains("p.distance: value inf is not finite"), InputError);
  CHECK(std::isnan(parseAll(InputNode::mapping({{"rate", InputNode::text(".nan")}}))[all().rate]));
}

TEST_CASE("choices and custom checks") {
  CHECK(parseAll(InputNode::mapping({{"mode", "medium"}}))[all().mode] == "medium");
  CHECK_THROWS_WITH_AS(parseAll(InputNode::mapping({{"mode", "fast"}})),
                       "p.mode: value \"fast\" failed check: must be one of slow, medium",
                       InputError);
  CHECK(parseAll(InputNode::mapping({{"quaternion", {0.0, 0.0, 0.0, 1.0}}}))[all().quaternion]
            .size() == 4);
  CHECK_THROWS_WITH_AS(
      parseAll(InputNode::mapping({{"quaternion", {0.0, 0.0, 0.0, 2.0}}})),
      "p.quaternion: value [0, 0, 0, 2] failed check UnitNorm: is not a unit quaternion",
      InputError);
}

// ---- structure errors ---------------------------------------------------------------------------

TEST_CASE("missing required and unknown fields") {
  CHECK_THROWS_WITH_AS(body(InputNode::mapping({})), "b.mass: missing required field", InputError);
  CHECK_THROWS_WITH_AS(body(InputNode::mapping({{"mas", 2.0}})),
                       "b: unknown field 'mas' (did you mean 'mass'?)", InputError);
  CHECK_THROWS_WITH_AS(
      body(InputNode::mapping({{"mass", 2.0}, {"zzzzzz", InputNode(1).at({"u.yaml", 9, 1})}})),
      "u.yaml:9:1: b: unknown field 'zzzzzz'", InputError);
  CHECK_THROWS_WITH_AS(
      ParamSet::parse(schemaOf<BodyParams>(), InputNode::sequence({}, {"s.yaml", 2, 3}), "b"),
      "s.yaml:2:3: b: expected a mapping of fields, got a sequence", InputError);
}

TEST_CASE("a null input is an empty mapping, a null value counts as not given") {
  const auto set = ParamSet::parse(schemaOf<AllTypes>(), InputNode(), "p");
  CHECK_FALSE(set[all().flag]);
  CHECK_FALSE(set.has(all().distance));
  CHECK(parseAll(InputNode::mapping({{"count", InputNode()}}))[all().count] == 1);
}

TEST_CASE("nested records report their full path and the file position") {
  InputNode input = twoBodies();
  CHECK(vehicle(input)[schemaOf<VehicleParams>()->bodies].names ==
        std::vector<std::string>{"Base", "Arm"});
  CHECK_THROWS_WITH_AS(
      vehicle(InputNode::mapping(
          {{"bodies",
            InputNode::mapping(
                {{"Base",
                  InputNode::mapping({{"mass", InputNode::text("-1", {"s.yaml", 7, 13})}})}})}})),
      "s.yaml:7:13: assemblies.SC1.params.bodies.Base.mass: value -1 failed check: must be > 0 "
      "(bounds (0, inf))",
      InputError);
  CHECK_THROWS_WITH_AS(
      vehicle(InputNode::mapping({{"pose", InputNode::mapping({{"position", {1.0, 2.0}}})}})),
      "assemblies.SC1.params.pose.position: expected double[3], got 2 elements", InputError);
  CHECK_THROWS_WITH_AS(vehicle(InputNode::mapping({{"bodies", InputNode::sequence({})}})),
                       "assemblies.SC1.params.bodies: expected map<BodyParams>, got a sequence []",
                       InputError);
}

// ---- cross-field rules --------------------------------------------------------------------------

TEST_CASE("validate() runs across fields on parse and on set") {
  const auto pose = schemaOf<PoseParams>();
  CHECK_NOTHROW(ParamSet::parse(pose, InputNode::mapping({}), "pose"));
  CHECK_THROWS_WITH_AS(
      ParamSet::parse(
          pose, InputNode::mapping({{"position", InputNode{1.0, 2.0, 3.0}.at({"p.yaml", 2, 11})}}),
          "pose"),
      "pose.attitude: position and attitude must be given together", InputError);
  CHECK_THROWS_WITH_AS(
      ParamSet::parse(
          pose,
          InputNode::mapping({{"attitude", InputNode{0.0, 0.0, 0.0, 1.0}.at({"p.yaml", 3, 11})}}),
          "pose"),
      "pose.position: position and attitude must be given together", InputError);

  auto set = ParamSet::parse(pose, InputNode::mapping({}), "pose");
  CHECK_THROWS_WITH_AS(set.set(pose->position, {1.0, 2.0, 3.0}),
                       "pose.attitude: position and attitude must be given together", InputError);
  CHECK_FALSE(set.has(pose->position));
}

TEST_CASE("the schema's cross-field rule reports the location of the field it names") {
  const auto pose = schemaOf<PoseParams>();
  auto set = ParamSet::parse(
      pose,
      InputNode::mapping({{"position", InputNode{1.0, 2.0, 3.0}.at({"p.yaml", 2, 11})},
                          {"attitude", InputNode{0.0, 0.0, 0.0, 1.0}.at({"p.yaml", 3, 11})}}),
      "pose");
  CHECK_THROWS_WITH_AS(set.fail("attitude", "is bad"), "p.yaml:3:11: pose.attitude: is bad",
                       InputError);
  // Once unset, the attitude has no location left to report.
  CHECK_THROWS_WITH_AS(set.unset("attitude"),
                       "pose.attitude: position and attitude must be given together", InputError);
  CHECK(set.has(pose->attitude));
}

// ---- set ----------------------------------------------------------------------------------------

TEST_CASE("a failed set leaves the set unchanged") {
  const auto& schema = *schemaOf<BodyParams>();
  auto set = body(InputNode::mapping({{"mass", 2.0}}));
  CHECK_THROWS_WITH_AS(set.set(schema.mass, -3.0, {"--set"}),
                       "--set: b.mass: value -3 failed check: must be > 0 (bounds (0, inf))",
                       InputError);
  CHECK(set[schema.mass] == 2.0);
  CHECK_THROWS_AS(set.set("cm", InputNode{1.0, 2.0}), InputError);
  CHECK(set[schema.cm] == std::vector<double>{0.0, 0.0, 0.0});
  set.set("mass", "3 g");
  CHECK(set[schema.mass] == doctest::Approx(0.003));
  CHECK_THROWS_WITH_AS(set.set("mas", 1.0), "C++: b: unknown field 'mas' (did you mean 'mass'?)",
                       InputError);
}

TEST_CASE("setByPath reaches nested records and re-runs the outer rules") {
  const auto& bodyKeys = *schemaOf<BodyParams>();
  auto set = vehicle(twoBodies());
  set.setByPath("bodies.Base.mass", "200 kg", {"--set"});
  const ParamSet* base = set[schemaOf<VehicleParams>()->bodies].find("Base");
  REQUIRE(base != nullptr);
  CHECK((*base)[bodyKeys.mass] == 200.0);
  CHECK(base->source(bodyKeys.mass.index).toString() == "--set");
  CHECK(std::get<double>(set.leaf("bodies.Base.mass")) == 200.0);

  // The body accepts 2000 kg, the vehicle's total-mass rule does not: nothing changes.
  CHECK_THROWS_WITH_AS(set.setByPath("bodies.Base.mass", 2000.0),
                       "assemblies.SC1.params.bodies: total mass exceeds maxMass", InputError);
  CHECK(std::get<double>(set.leaf("bodies.Base.mass")) == 200.0);

  CHECK_THROWS_WITH_AS(set.setByPath("bodies.Bse.mass", 1.0),
                       "C++: assemblies.SC1.params.bodies: no entry 'Bse' (did you mean 'Base'?)",
                       InputError);
  CHECK_THROWS_AS(set.setByPath("bodies.Base", InputNode::mapping({{"mass", 1.0}})), InputError);
  CHECK_THROWS_WITH_AS(set.setByPath("maxMass.x", 1.0, {"--set"}),
                       "--set: assemblies.SC1.params.maxMass: is a double, it has no field 'x'",
                       InputError);
  CHECK_THROWS_WITH_AS(set.setByPath("pose.position", {1.0, 2.0, 3.0}, {"--set"}),
                       "assemblies.SC1.params.pose.attitude: position and attitude must be given "
                       "together",
                       InputError);
  CHECK_FALSE(set[schemaOf<VehicleParams>()->pose].has(schemaOf<PoseParams>()->position));
}

TEST_CASE("unset removes optional fields only") {
  auto set = parseAll(InputNode::mapping({{"distance", 3.0}}));
  set.unset("distance");
  CHECK_FALSE(set.has(all().distance));
  CHECK_THROWS_WITH_AS(set.value(all().distance.index), "p.distance: optional field is not set",
                       InputError);
  CHECK_THROWS_WITH_AS(set.unset("count"),
                       "p.count: a field with a default cannot be unset (set it to the default)",
                       InputError);
  auto required = body(InputNode::mapping({{"mass", 1.0}}));
  CHECK_THROWS_WITH_AS(required.unset("mass"), "b.mass: a required field cannot be unset",
                       InputError);
}

// ---- sources, leaves, paths, round trips --------------------------------------------------------

TEST_CASE("every value knows its source") {
  const auto& schema = *schemaOf<BodyParams>();
  auto set = body(InputNode::mapping({{"mass", InputNode::text("2", {"s.yaml", 3, 9})}}));
  CHECK(set.source(schema.mass.index).toString() == "s.yaml:3:9");
  CHECK(set.source(schema.cm.index).toString() == "default");
  set.set(schema.mass, 3.0, {"--set"});
  CHECK(set.source(schema.mass.index).toString() == "--set");
  set.set(schema.mass, 4.0);
  CHECK(set.source(schema.mass.index).toString() == "C++");
  set.set(schema.mass, InputNode(5.0).at({"t.yaml", 1, 2}));
  CHECK(set.source(schema.mass.index).toString() == "t.yaml:1:2");
}

TEST_CASE("leaves flatten nested records in declaration order") {
  const auto set = vehicle(twoBodies());
  CHECK(set.leafPaths() == std::vector<std::string>{"bodies.Base.mass", "bodies.Base.cm",
                                                    "bodies.Arm.mass", "bodies.Arm.cm", "maxMass"});
  CHECK(std::get<std::vector<double>>(set.leaf("bodies.Arm.cm")) ==
        std::vector<double>{0.0, 0.0, 0.0});
  CHECK_THROWS_WITH_AS(set.leaf("bodies.Arm.mas"),
                       "assemblies.SC1.params.bodies.Arm: no parameter 'mas' (did you mean "
                       "'mass'?)",
                       InputError);
  CHECK_THROWS_WITH_AS(set.leaf("bodies.Arm"),
                       "assemblies.SC1.params.bodies.Arm: is a record, not a leaf", InputError);
  const auto types = parseAll(InputNode::mapping({{"names", InputNode::sequence({"a"})}}));
  CHECK(types.leafPaths() == std::vector<std::string>{"flag", "count", "mode"});
  CHECK(std::get<std::int64_t>(types.leaf("count")) == 1);
}

TEST_CASE("setPath renames nested sets") {
  auto set = vehicle(twoBodies());
  set.setPath("assemblies.SC2.params");
  const ParamSet* arm = set[schemaOf<VehicleParams>()->bodies].find("Arm");
  REQUIRE(arm != nullptr);
  CHECK(arm->path() == "assemblies.SC2.params.bodies.Arm");
  CHECK(set[schemaOf<VehicleParams>()->pose].path() == "assemblies.SC2.params.pose");
  CHECK_THROWS_WITH_AS(set.setByPath("bodies.Arm.mass", -1.0),
                       doctest::Contains("assemblies.SC2.params.bodies.Arm.mass: value -1"),
                       InputError);
}

TEST_CASE("toInput renders SI values that parse back to the same set") {
  const auto original =
      parseAll(InputNode::mapping({{"flag", "yes"},
                                   {"distance", "12 km"},
                                   {"mode", "medium"},
                                   {"position", InputNode::sequence({"1", "2", "3km"})},
                                   {"ids", InputNode::sequence({4, 5})},
                                   {"names", InputNode::sequence({"x", "y"})},
                                   {"graph", InputNode::mapping({{"Arm", "Base"}})}}));
  const InputNode dumped = original.toInput();
  CHECK(dumped.keys() == std::vector<std::string>{"flag", "count", "distance", "mode", "position",
                                                  "ids", "names", "graph"});
  const auto again = parseAll(dumped);
  CHECK(again.leafPaths() == original.leafPaths());
  for (const auto& path : original.leafPaths()) {
    CAPTURE(path);
    CHECK(again.leaf(path) == original.leaf(path));
  }
  CHECK(again[all().names] == original[all().names]);
  CHECK(again[all().graph] == original[all().graph]);
  CHECK(std::get<double>(again.leaf("distance")) == 12000.0);

  const auto nested = vehicle(twoBodies());
  const auto nestedAgain = vehicle(nested.toInput());
  CHECK(nestedAgain.leafPaths() == nested.leafPaths());
  for (const auto& path : nested.leafPaths()) CHECK(nestedAgain.leaf(path) == nested.leaf(path));
}

// ---- schemas ------------------------------------------------------------------------------------

TEST_CASE("a derived schema adds fields and redeclares inherited ones in place") {
  const auto heavy = schemaOf<HeavyBodyParams>();
  CHECK(heavy->fields().size() == 3);
  CHECK(heavy->mass.index == heavy->heavyMass.index);
  const auto set = ParamSet::parse(heavy, InputNode::mapping({}), "h");
  CHECK(set[heavy->mass] == 500.0);
  CHECK(set[heavy->material] == "steel");
  CHECK(set.source(heavy->mass.index).toString() == "default");
  // The base schema is unchanged.
  CHECK_THROWS_AS(body(InputNode::mapping({})), InputError);
}

TEST_CASE("field descriptions for messages and docs") {
  const auto& fields = schemaOf<AllTypes>()->fields();
  const auto field = [&](std::string_view name) {
    return fields[*schemaOf<AllTypes>()->find(name)];
  };
  CHECK(field("position").typeName() == "double[3]");
  CHECK(field("ids").typeName() == "int[1..4]");
  CHECK(field("names").typeName() == "string[]");
  CHECK(field("graph").typeName() == "map<string>");
  CHECK(field("ratio").boundsText() == "[0, 1]");
  CHECK(field("ids").boundsText() == "[0, inf)");
  CHECK(field("distance").boundsText().empty());
  const auto& vehicleFields = schemaOf<VehicleParams>()->fields();
  CHECK(vehicleFields[0].typeName() == "map<BodyParams>");
  CHECK(vehicleFields[1].typeName() == "PoseParams");
  CHECK(std::string(toString(ParamType::RecordMap)) == "map<record>");
  CHECK_FALSE(schemaOf<AllTypes>()->find("nothing").has_value());
}

namespace {
struct ReversedBounds : ParamSchema {
  SchemaKey<double> x = field<double>("x").bounds(2, 1);
};
struct EmptyExclusiveBounds : ParamSchema {
  SchemaKey<double> x = field<double>("x").min(1).below(1);
};
struct DefaultOutOfBounds : ParamSchema {
  SchemaKey<double> x = field<double>("x").defaultValue(2.0).bounds(0, 1);
};
struct DefaultWrongLength : ParamSchema {
  SchemaKey<std::vector<double>> v = field<std::vector<double>>("v").length(3).defaultValue({1.0});
};
struct ChoicesOnDouble : ParamSchema {
  SchemaKey<double> x = field<double>("x").choices({"a"});
};
struct BoundsOnString : ParamSchema {
  SchemaKey<std::string> s = field<std::string>("s").min(0);
};
struct NonSiUnit : ParamSchema {
  SchemaKey<double> x = field<double>("x").unit("km");
};
}  // namespace

TEST_CASE("declaration errors are ModelErrors naming the field") {
  CHECK_THROWS_WITH_AS(ReversedBounds{}, "parameter field 'x': bounds [2, 1] contain no value",
                       ModelError);
  CHECK_THROWS_AS(EmptyExclusiveBounds{}, ModelError);
  CHECK_THROWS_WITH_AS(DefaultOutOfBounds{},
                       "parameter field 'x': invalid default: value 2 failed check: must be <= 1 "
                       "(bounds [0, 1])",
                       ModelError);
  CHECK_THROWS_WITH_AS(DefaultWrongLength{},
                       "parameter field 'v': invalid default: expected double[3], got 1 element",
                       ModelError);
  CHECK_THROWS_WITH_AS(ChoicesOnDouble{},
                       doctest::Contains("parameter field 'x': choices on a double"), ModelError);
  CHECK_THROWS_WITH_AS(BoundsOnString{},
                       doctest::Contains("parameter field 's': bounds on a string"), ModelError);
  CHECK_THROWS_WITH_AS(NonSiUnit{}, "parameter field 'x': unit 'km' is not an SI unit", ModelError);
}

TEST_CASE("schemas can be built at run time") {
  auto schema = std::make_shared<ParamSchema>();
  ParamField gain;
  gain.name = "gain";
  gain.type = ParamType::Double;
  gain.required = false;
  gain.defaultValue = InputNode(0.5);
  const std::size_t index = schema->addField(gain);
  ParamField record;
  record.name = "inner";
  record.type = ParamType::Record;
  record.recordSchema = schemaOf<BodyParams>();
  schema->addField(record);
  CHECK(schema->fields()[1].typeName() == "BodyParams");
  const auto set = ParamSet::parse(
      schema, InputNode::mapping({{"inner", InputNode::mapping({{"mass", 1.0}})}}), "rt");
  CHECK(std::get<double>(set.value(index)) == 0.5);
  CHECK(std::get<double>(set.leaf("inner.mass")) == 1.0);
  const auto plain = std::make_shared<ParamSchema>();
  ParamField nested = record;
  nested.recordSchema = schema;
  plain->addField(nested);
  CHECK(plain->fields()[0].typeName() == "record");
}

}  // namespace hopsim
