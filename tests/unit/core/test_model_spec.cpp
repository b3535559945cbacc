// ModelSpec: declarations, their validation, introspection and generated reference docs.

#include <doctest/doctest.h>

#include <sstream>

#include "hopsim/core/model_reference.h"
#include "hopsim/core/model_registry.h"
#include "hopsim/signals/error.h"
#include "test_models.h"

namespace hopsim {
namespace {

struct Thruster : ModelSpec {
  Thruster() : ModelSpec("Thruster", ModelKind::Flow, "F = throttle * maxThrust") {
    setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
  }
  ParamKey<double> maxThrust = param<double>("maxThrust")
                                   .unit("N")
                                   .defaultValue(400.0)
                                   .bounds(0.0, 1e6)
                                   .describe("thrust at full throttle");
  ParamKey<Eigen::VectorXd> axis =
      param<Eigen::VectorXd>("axis").length(3).defaultValue(std::vector<double>{0, 0, 1});
  InKey<double> throttle = flowIn<double>("throttle").unit("1");
  InKey<bool> armed = flowIn<bool>("armed");
  OutKey<Eigen::VectorXd> force =
      flowOut<Eigen::VectorXd>("force").length(3).unit("N").feedsFrom(throttle);
  OutKey<double> mass_rate = flowOut<double>("mass_rate").unit("kg/s").noFeedThrough();
};

template <class Build>
std::string declarationError(Build build) {
  try {
    build();
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a declaration lists its fields with types, units, defaults, bounds and feed-through") {
  const Thruster spec;
  CHECK(spec.className() == "Thruster");
  CHECK(spec.fields(FieldRole::Param).size() == 2);
  const FieldSpec& maxThrust =
      spec.fields(FieldRole::Param)[spec.indexOf(FieldRole::Param, "maxThrust")];
  CHECK(maxThrust.unit == "N");
  CHECK(maxThrust.upper.value() == 1e6);
  CHECK(spec.fields(FieldRole::Param)[1].typeName() == "double[3]");
  CHECK(spec.feedsThrough(spec.throttle.index, spec.force.index));
  CHECK_FALSE(spec.feedsThrough(spec.armed.index, spec.force.index));
  CHECK_FALSE(spec.feedsThrough(spec.throttle.index, spec.mass_rate.index));
  CHECK(spec.feedsAnyOutput(spec.throttle.index));
  CHECK_FALSE(spec.feedsAnyOutput(spec.armed.index));
  CHECK(spec.outputGranularity().toString() == "STARTHOP|ENDHOP");
}

TEST_CASE(
    "feed-through is conservative by default, a model without outputs has granularity "
    "NONE") {
  const test::Pass::Declaration& pass = test::Pass::declaration();
  CHECK(pass.feedsThrough(0, 0));
  CHECK(pass.outputGranularity() == Granularity::all());
  CHECK(test::Probe::declaration().outputGranularity() == Granularity::none());
}

TEST_CASE("unknown field names are reported with the declared ones and the nearest") {
  const Thruster spec;
  CHECK_THROWS_WITH_AS(spec.indexOf(FieldRole::Param, "maxThrst"),
                       "model class 'Thruster' has no param 'maxThrst' (did you mean "
                       "'maxThrust'?); declared: maxThrust, axis",
                       InputError);
}

TEST_CASE("malformed declarations fail with the class and field named") {
  struct Twice : ModelSpec {
    Twice() : ModelSpec("Twice", ModelKind::Flow, "") {}
    InKey<double> a = flowIn<double>("x");
    OutKey<double> b = flowOut<double>("x");
  };
  CHECK(declarationError([] { Twice t; })
            .find("model class 'Twice': flowOut 'x': declared "
                  "twice") != std::string::npos);
  struct OutOfBounds : ModelSpec {
    OutOfBounds() : ModelSpec("OutOfBounds", ModelKind::Flow, "") {}
    ParamKey<double> k = param<double>("k").bounds(0.0, 1.0).defaultValue(2.0);
  };
  CHECK(declarationError([] { OutOfBounds o; }).find("default 2 is above the upper bound 1") !=
        std::string::npos);
  struct EmptyRange : ModelSpec {
    EmptyRange() : ModelSpec("EmptyRange", ModelKind::Flow, "") {}
    ParamKey<double> k = param<double>("k").above(1.0).max(1.0);
  };
  CHECK(declarationError([] { EmptyRange e; }).find("bounds (1, 1] admit no value") !=
        std::string::npos);
  struct WrongDefault : ModelSpec {
    WrongDefault() : ModelSpec("WrongDefault", ModelKind::Flow, "") {}
    ParamKey<Eigen::VectorXd> v =
        param<Eigen::VectorXd>("v").length(3).defaultValue(std::vector<double>{1, 2});
  };
  CHECK(declarationError([] { WrongDefault w; }).find("has 2 elements, expected 1 or 3") !=
        std::string::npos);
  struct BadName : ModelSpec {
    BadName() : ModelSpec("BadName", ModelKind::Flow, "") {}
    ParamKey<double> k = param<double>("max thrust");
  };
  CHECK(declarationError([] { BadName b; }).find("is not an identifier") != std::string::npos);
  CHECK(declarationError([] {
          ModelSpec s("9lives", ModelKind::Flow, "");
        }).find("'9lives' is not an identifier") != std::string::npos);
}

TEST_CASE("the registry creates models by class name with validated params") {
  ModelRegistry registry;
  registry.add<test::Pass>();
  const auto model = registry.create("Pass", "p", {{"offset", 2.5}});
  CHECK(std::get<double>(model->get(FieldRole::Param, "offset")) == 2.5);
  CHECK_THROWS_WITH_AS(registry.create("Pas", "p"),
                       "no model class 'Pas' is registered (did you mean 'Pass'?)", InputError);
  CHECK_THROWS_WITH_AS(registry.create("Pass", "p", {{"ofset", 1.0}}),
                       doctest::Contains("model 'p' (Pass): model class 'Pass' has no param "
                                         "'ofset' (did you mean 'offset'?)"),
                       InputError);
  CHECK_THROWS_AS(registry.add<test::Pass>(), ModelError);
  CHECK(registry.classNames() == std::vector<std::string>{"Pass"});
}

TEST_CASE("the reference documentation is generated from the declaration") {
  const Thruster spec;
  std::ostringstream out;
  writeModelReference(out, spec);
  const std::string doc = out.str();
  CHECK(doc.find("## Thruster") != std::string::npos);
  CHECK(doc.find("*FlowModel*. F = throttle * maxThrust") != std::string::npos);
  CHECK(doc.find("| `maxThrust` | double | N | 400 | [0, 1000000] | thrust at full throttle |") !=
        std::string::npos);
  CHECK(doc.find("| `force` | double[3] | N |") != std::string::npos);
  CHECK(doc.find("Feed-through: `throttle` -> `force`.") != std::string::npos);
  CHECK(doc.find("Default output granularity: STARTHOP|ENDHOP.") != std::string::npos);
  CHECK(doc.find("zero crossings") == std::string::npos);  // it declares none
}

TEST_CASE("the reference documentation lists the zero crossings a class declares") {
  struct Stop : ModelSpec {
    Stop() : ModelSpec("Stop", ModelKind::Continuous, "a stop") {
      zeroCrossing("upper", CrossingDirection::Rising).describe("theta reaches the upper bound");
    }
  };
  std::ostringstream out;
  writeModelReference(out, Stop());
  CHECK(out.str().find("| `upper` | rising | theta reaches the upper bound |") !=
        std::string::npos);
}

}  // namespace hopsim
