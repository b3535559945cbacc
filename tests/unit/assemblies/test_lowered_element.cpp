// The lowering names what it creates by the models' declarations (lowered_element.h), and reads
// each mechanism file once (mechanism_files.h).

#include <doctest/doctest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "hopsim/assemblies/front_end.h"
#include "hopsim/assemblies/model_file_assembly.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/models/chrono_motor.h"
#include "hopsim/models/hinge_encoder.h"
#include "hopsim/models/tsda.h"
#include "lowered_element.h"
#include "mechanism_test_util.h"

namespace hopsim {
namespace {

using mechanism::detail::LoweredElement;
using mechanism::detail::LoweredModel;
using testing::TempDir;

/// The value of param `name` in a definition's params (null when it is not set).
const InputNode* paramOf(const ModelDefinition& d, const std::string& name) {
  return d.params.find(name);
}

TEST_CASE("lowering: params, ports and signals are named by the model's declaration") {
  using D = models::Tsda::Declaration;
  const D& d = models::Tsda::declaration();
  LoweredElement e;
  LoweredModel<models::Tsda>(e, "tsdas.spring", SourceLocation{"m.yaml", 3, 7})
      .set(&D::freeLength, 0.5)
      .set(&D::law, "DAMPER")
      .set(&D::springCurve, std::vector<double>{0.0, 1.0, 2.0, 3.0})
      .signal(&D::force, "tsdas.spring");
  REQUIRE(e.model);
  const ModelDefinition& model = *e.model;
  CHECK(model.className == d.className());
  CHECK(model.name == "tsdas.spring");
  CHECK(model.where.line == 3);
  // The names are the declaration's, whatever the C++ member is called.
  const std::string freeLength = d.fields(FieldRole::Param)[d.freeLength.index].name;
  CHECK(freeLength == "free_length");
  REQUIRE(paramOf(model, freeLength) != nullptr);
  CHECK(std::get<double>(paramOf(model, freeLength)->scalar()) == 0.5);
  CHECK(std::get<std::string>(paramOf(model, "law")->scalar()) == "DAMPER");
  CHECK(paramOf(model, "spring_curve")->items().size() == 4);
  // The output's signal: the port's name after the base, its length and unit.
  const FieldSpec& force = d.fields(FieldRole::FlowOut)[d.force.index];
  REQUIRE(e.signals.size() == 1);
  CHECK(e.signals[0].name == "tsdas.spring." + force.name);
  CHECK(e.signals[0].length == force.length);
  CHECK(e.signals[0].unit == force.unit);
  CHECK_FALSE(e.signals[0].zeroUntilWritten);
  REQUIRE(model.ties.size() == 1);
  CHECK(model.ties[0].child == force.name);
  CHECK(model.ties[0].parent == e.signals[0].name);
  CHECK(model.ties[0].where.line == 3);
}

TEST_CASE("lowering: a base declaration's params and an instance's unit and length") {
  using D = models::ChronoMotor::Declaration;
  LoweredElement e;
  LoweredModel<models::ChronoMotor>(e, "motors.drive", {})
      .set(&models::TimeFunctionSpec::function, "SINE")
      .namedSignal(&D::setpoint, "controllers.drive", "rad", true)
      .signal(&D::force, "motors.drive", std::nullopt, "N*m");
  const ModelDefinition& model = *e.model;
  CHECK(std::get<std::string>(paramOf(model, "function")->scalar()) == "SINE");
  REQUIRE(e.signals.size() == 2);
  CHECK(e.signals[0].name == "controllers.drive");
  CHECK(e.signals[0].unit == "rad");
  CHECK(e.signals[0].zeroUntilWritten);
  CHECK(e.signals[1].name == "motors.drive.force");
  CHECK(e.signals[1].unit == "N*m");
  CHECK(model.ties[0].child == "setpoint");

  // A variable-length port takes its length from the lowering, which must give one.
  using E = models::HingeEncoder::Declaration;
  LoweredElement encoder;
  LoweredModel<models::HingeEncoder>(encoder, "encoders.joints.pin", {}).signal(&E::q, "j", 2);
  CHECK(encoder.signals[0].length == 2);
  LoweredModel<models::HingeEncoder> unsized(encoder, "encoders.joints.pin", {});
  CHECK_THROWS_AS(unsized.signal(&E::u, "j"), std::logic_error);
}

constexpr const char* kPendulum = R"(chrono-version: 10.0
model:
  name: pendulum
  angle_degrees: false
  bodies:
    - {name: ground, location: [0, 0, 0], fixed: true}
    - {name: bob, location: [1, 0, 0], mass: 1, inertia: {moments: [0.01, 0.01, 0.01]}}
  joints:
    - {name: pin, type: REVOLUTE, body1: bob, body2: ground, location: [0, 0, 0], axis: [0, 1, 0]}
)";

TEST_CASE("lowering: a model file included twice is read once, and hopsim run reads it once") {
  TempDir dir;
  const std::string model = dir.write("pendulum.yaml", kPendulum);
  auto scenario = Scenario::load(dir.write("two.yaml", R"(hopsim: 1
simulation: {end_time: 0.1, time_step: 0.001}
include:
  - {file: pendulum.yaml, name: left, prefix: "L_"}
  - {file: pendulum.yaml, name: right, prefix: "R_"}
)"));
  const auto& left = dynamic_cast<const ModelFileAssembly&>(scenario->assemblies().child("left"));
  const auto& right = dynamic_cast<const ModelFileAssembly&>(scenario->assemblies().child("right"));
  // One mechanism, lowered twice.
  CHECK(&left.builder().mechanism() == &right.builder().mechanism());

  // hopsim run: the document that plans the output columns keeps the mechanism it read, which
  // the ModelFile assembly then takes instead of the file.
  RunDocument run = runDocumentFor(loadYamlFile(model), model, {});
  std::filesystem::remove(model);
  const auto kept = run.files.read(model);
  REQUIRE(kept != nullptr);
  CHECK(kept->bodies.size() == 2);
  CHECK(run.files.read(model) == kept);
  // A file nothing read before is read from the disk, with the reader's error when it is gone.
  MechanismFiles fresh;
  CHECK_THROWS_AS(fresh.read(model), InputError);
}

}  // namespace
}  // namespace hopsim
