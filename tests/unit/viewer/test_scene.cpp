// The scene a replay page draws: shapes from a Chrono model's visualization, from collision
// shapes, from the inertia; TSDAs; the camera; where the poses are recorded.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "../../../viewer/src/inertia_shape.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"
#include "hopsim/viewer/scene.h"
#include "temp_dir.h"

using namespace hopsim;
using hopsim::viewer::Shape;
using spatial::Matrix3;
using spatial::Vector3;

namespace {

const std::string kExamples = HOPSIM_SOURCE_DIR "/examples/";

/// The body `name` of `scene`.
const viewer::BodyView& body(const viewer::Scene& scene, const std::string& name) {
  const auto found = std::find_if(scene.bodies.begin(), scene.bodies.end(),
                                  [&](const viewer::BodyView& b) { return b.name == name; });
  REQUIRE(found != scene.bodies.end());
  return *found;
}

/// A Chrono model of one body whose `visualization` entry is `visualization` (its lines,
/// indented under the key).
std::string oneBodyModel(const std::string& visualization) {
  return R"(chrono-version: 10.0
model:
  name: one body
  bodies:
    - name: body
      location: [0, 0, 0]
      mass: 1
      inertia:
        moments: [1, 1, 1]
      visualization:
)" + visualization;
}

/// The uniform box's inertia about its centre, in its own axes.
Matrix3 boxInertia(double m, const Vector3& edges) {
  const Vector3 e2 = edges.cwiseProduct(edges);
  return Matrix3(Vector3(e2.y() + e2.z(), e2.x() + e2.z(), e2.x() + e2.y()).asDiagonal()) * m /
         12.0;
}

}  // namespace

TEST_CASE("the inertia box of a uniform box is that box, whatever the axes it is given in") {
  const double m = 3.5;
  const Vector3 edges(0.4, 1.3, 2.2);
  const Matrix3 R =
      spatial::rotationFromQuaternion(spatial::Quaternion(0.3, -0.2, 0.7, 0.1).normalized());
  const Vector3 cm(0.1, -2.0, 0.5);
  const Matrix3 I_B = R * boxInertia(m, edges) * R.transpose();
  const Shape box = viewer::inertiaBox(spatial::SpatialInertia::fromCmInertia(m, cm, I_B), 1e-3);
  CHECK(box.type == Shape::Type::Box);
  // Eigen sorts the principal moments ascending: the largest edge has the smallest moment.
  // Reconstruction error of a 3x3 eigen-decomposition: a few ulps of the moments.
  CHECK(box.size.x() == doctest::Approx(2.2).epsilon(1e-12));
  CHECK(box.size.y() == doctest::Approx(1.3).epsilon(1e-12));
  CHECK(box.size.z() == doctest::Approx(0.4).epsilon(1e-12));
  CHECK((box.X_BS.translation() - cm).norm() < 1e-15);
  // The box's inertia in B, from the shape's pose, is the body's.
  const Matrix3& R_BS = box.X_BS.rotation();
  CHECK(R_BS.determinant() == doctest::Approx(1.0).epsilon(1e-12));
  CHECK((R_BS * boxInertia(m, box.size) * R_BS.transpose() - I_B).norm() < 1e-12);
}

TEST_CASE("an inertia box's degenerate edges take the minimum edge") {
  SUBCASE("a thin rod along x") {
    const double m = 2.0, L = 3.0;
    const Matrix3 I = Vector3(0.0, m * L * L / 12.0, m * L * L / 12.0).asDiagonal();
    const Shape box =
        viewer::inertiaBox(spatial::SpatialInertia::fromCmInertia(m, Vector3::Zero(), I), 0.05);
    // Ascending moments: x first (0), so the rod's length is the first edge.
    CHECK(box.size.x() == doctest::Approx(L).epsilon(1e-12));
    CHECK(box.size.y() == 0.05);
    CHECK(box.size.z() == 0.05);
  }
  SUBCASE("a massless body is a cube of the minimum edge at its centre of mass") {
    const Shape box = viewer::inertiaBox(
        spatial::SpatialInertia::fromCmInertiaUnchecked(0.0, Vector3(1, 2, 3), Matrix3::Zero()),
        0.2);
    CHECK(box.size == Vector3::Constant(0.2));
    CHECK(box.X_BS.translation() == Vector3(1, 2, 3));
  }
}

TEST_CASE("the slider-crank example's scene has the file's visualization shapes and camera") {
  const auto scenario = Scenario::load(kExamples + "slider_crank.yaml");
  const std::vector<std::string> chronoColumns = scenario->recorder().columns();
  const viewer::Scene scene = viewer::sceneOf(scenario->sim(), &scenario->assemblies(),
                                              {kExamples + "slider_crank.yaml", chronoColumns, {}});
  CHECK(scene.title == "slider_crank.yaml");
  CHECK(scene.up.isApprox(Vector3::UnitZ(), 1e-15));  // against Chrono's gravity (0, 0, -9.8)
  REQUIRE(scene.camera);
  CHECK(scene.camera->location == Vector3(9, -4, 1));
  CHECK(scene.camera->target == Vector3(2, 0, 0));

  const viewer::BodyView& crank = body(scene, "crank");
  CHECK_FALSE(crank.defaultShape);
  REQUIRE(crank.shapes.size() == 2);
  CHECK(crank.shapes[0].type == Shape::Type::Box);
  CHECK(crank.shapes[0].size == Vector3(2, 0.14, 0.14));
  CHECK(crank.shapes[0].color == Vector3(0.6, 0.2, 0.2));
  CHECK(crank.shapes[1].type == Shape::Type::Cylinder);
  CHECK(crank.shapes[1].radius == 0.07);
  CHECK(crank.shapes[1].length == 0.4);
  // Chrono's cylinder lies along its axis (y here): the shape frame's Z.
  CHECK((crank.shapes[1].X_BS.rotation().col(2) - Vector3::UnitY()).norm() < 1e-15);
  CHECK(crank.shapes[1].X_BS.translation() == Vector3(1, 0, 0));
  const viewer::BodyView& rod = body(scene, "rod");
  REQUIRE(rod.shapes.size() == 3);
  CHECK(rod.shapes[1].type == Shape::Type::Sphere);
  CHECK(rod.shapes[1].X_BS.translation() == Vector3(-2, 0, 0));

  // The file's logging holds the Chrono outputs of the same frame's pose.
  REQUIRE(crank.pose);
  CHECK(crank.pose->position[0] == "bodies.crank.position.x");
  CHECK(crank.pose->orientation[3] == "bodies.crank.orientation.e3");
  // hopsim's own columns win when both are recorded.
  std::vector<std::string> both = chronoColumns;
  const viewer::PoseColumns own = viewer::multibodyPoseColumns("crank");
  both.insert(both.end(), own.position.begin(), own.position.end());
  both.insert(both.end(), own.orientation.begin(), own.orientation.end());
  const viewer::Scene preferred =
      viewer::sceneOf(scenario->sim(), &scenario->assemblies(), {"", both, {}});
  CHECK(body(preferred, "crank").pose->position[0] == "multibody.bodies.crank.position[0]");
  CHECK_FALSE(preferred.camera);
  // Nothing recorded: no pose, which the page writer reports.
  const viewer::Scene none = viewer::sceneOf(scenario->sim(), &scenario->assemblies(), {});
  CHECK_FALSE(body(none, "crank").pose);

  // The hinge markers: the slider's prismatic guide along x, in the slider's frame.
  bool slides = false;
  for (const viewer::BodyView& b : scene.bodies) {
    for (const viewer::HingeMarker& h : b.hinges) {
      for (std::size_t k = 0; k < h.axes.size(); ++k) {
        if (h.translation[k])
          slides = slides || (h.axes[k].cwiseAbs() - Vector3::UnitX()).norm() < 1e-15;
      }
    }
  }
  CHECK(slides);
}

TEST_CASE("an MBSE file's planar bodies are bars between their points") {
  const auto scenario = Scenario::load(kExamples + "fourbar.yaml");
  const viewer::Scene scene = viewer::sceneOf(scenario->sim(), &scenario->assemblies(), {});
  // The four-bar's links: 1 m, 2 m and sqrt(13) m (examples/fourbar.yaml).
  const double lengths[] = {1.0, 2.0, std::sqrt(13.0)};
  for (int k = 0; k < 3; ++k) {
    const viewer::BodyView& bar = body(scene, "body" + std::to_string(k));
    CAPTURE(bar.name);
    CHECK_FALSE(bar.defaultShape);
    REQUIRE(bar.shapes.size() == 1);
    const Shape& s = bar.shapes[0];
    CHECK(s.type == Shape::Type::Box);
    CHECK(s.size.x() == doctest::Approx(lengths[k]).epsilon(1e-12));
    // From the body's first point (its frame's origin) along its x.
    CHECK(s.X_BS.translation().x() == doctest::Approx(0.5 * lengths[k]).epsilon(1e-12));
  }
}

TEST_CASE("bodies without shapes are drawn as their inertia boxes, sized from the model") {
  const auto scenario = Scenario::load(kExamples + "double_pendulum.yaml");
  const viewer::Scene scene = viewer::sceneOf(scenario->sim(), &scenario->assemblies(), {});
  REQUIRE_FALSE(scene.bodies.empty());
  for (const viewer::BodyView& b : scene.bodies) {
    CAPTURE(b.name);
    CHECK(b.defaultShape);
    REQUIRE(b.shapes.size() == 1);
    CHECK(b.shapes[0].type == Shape::Type::Box);
    CHECK(b.shapes[0].size.minCoeff() >= 0.05 * scene.lengthScale * (1 - 1e-12));
  }
  // The upper link: 2 kg, principal moments 0.12, 0.21, 0.3 kg m^2 (ascending, Eigen's order):
  // edges sqrt(6 (I_j + I_k - I_i) / m).
  const Vector3 edges = body(scene, "upper").shapes[0].size;
  CHECK(edges.x() == doctest::Approx(std::sqrt(3.0 * (0.21 + 0.3 - 0.12))).epsilon(1e-12));
  CHECK(edges.y() == doctest::Approx(std::sqrt(3.0 * (0.12 + 0.3 - 0.21))).epsilon(1e-12));
  CHECK(edges.z() == doctest::Approx(std::sqrt(3.0 * (0.12 + 0.21 - 0.3))).epsilon(1e-12));
}

TEST_CASE("a Chrono model's TSDA with SPRING visualization is a coil between its body points") {
  testing::TempDir dir;
  const std::string model = dir.write("model.yaml", R"(chrono-version: 10.0
model:
  name: spring
  bodies:
    - name: ground
      location: [0, 0, 0]
      fixed: true
    - name: ball
      location: [5.5, 0, 0]
      orientation: [90, 0, 0]
      mass: 1
      inertia:
        moments: [0.02, 0.02, 0.02]
  tsdas:
    - name: spring
      type: TSDA
      body1: ground
      body2: ball
      point1: [6.5, 0, 0]
      point2: [5.5, 1, 0]
      spring_coefficient: 50.0
      free_length: 1.0
      visualization:
        type: SPRING
        radius: 0.05
        turns: 15
        color: [0.1, 0.2, 0.3]
)");
  const auto scenario = Scenario::load(model);
  const viewer::Scene scene = viewer::sceneOf(scenario->sim(), &scenario->assemblies(), {});
  REQUIRE(scene.springs.size() == 1);
  const viewer::SpringView& s = scene.springs[0];
  CHECK(s.body1.empty());  // the fixed ground is the world
  CHECK(s.point1 == Vector3(6.5, 0, 0));
  CHECK(s.body2 == "ball");
  // (5.5, 1, 0) in the ball's frame, turned 90 degrees about z: (1, 0, 0) rotated back.
  CHECK((s.point2 - Vector3(1, 0, 0)).norm() < 1e-15);
  CHECK(s.coil);
  CHECK(s.radius == 0.05);
  CHECK(s.turns == 15);
  CHECK(s.color == Vector3(0.1, 0.2, 0.3));
}

TEST_CASE("a visualization MESH is its OBJ file's triangles, scaled, and model_file is one too") {
  testing::TempDir dir;
  dir.write("tetra.obj",
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  const std::string model = dir.write("model.yaml", oneBodyModel(R"(        model_file: tetra.obj
        shapes:
          - type: MESH
            filename: tetra.obj
            scale: 2
            location: [0, 0, 1]
          - type: HULL
            filename: tetra.obj
)"));
  std::unique_ptr<Scenario> scenario;
  CHECK_NOTHROW(scenario = Scenario::load(model));
  // HULL is not a visualization shape type of the spec: warned about and skipped.
  CHECK(std::any_of(scenario->warnings().begin(), scenario->warnings().end(),
                    [](const std::string& w) { return w.find("HULL") != std::string::npos; }));
  const viewer::Scene scene = viewer::sceneOf(scenario->sim(), &scenario->assemblies(), {});
  const viewer::BodyView& b = body(scene, "body");
  REQUIRE(b.shapes.size() == 2);
  for (const Shape& s : b.shapes) CHECK(s.type == Shape::Type::Mesh);
  CHECK(b.shapes[0].vertices == std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1});
  CHECK(b.shapes[1].vertices == std::vector<double>{0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2});
  CHECK(b.shapes[1].indices == std::vector<int>{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3});
  CHECK(b.shapes[1].X_BS.translation() == Vector3(0, 0, 1));
}

TEST_CASE("a bad visualization shape is an error naming the file, line, column and key") {
  testing::TempDir dir;
  const auto load = [&](const std::string& shape) {
    const std::string model = dir.write("bad.yaml", oneBodyModel("        shapes:\n" + shape));
    Scenario::load(model);
  };
  CHECK_THROWS_WITH_AS(
      load("          - {type: SPHERE, radius: 0.1, location: [0, 0, 0], color: [2, 0, 0]}\n"),
      doctest::Contains("bad.yaml:12:"), InputError);
  CHECK_THROWS_WITH_AS(
      load("          - {type: SPHERE, radius: 0.1, location: [0, 0, 0], color: [2, 0, 0]}\n"),
      doctest::Contains("model.bodies[0].visualization.shapes[0].color"), InputError);
  CHECK_THROWS_WITH_AS(load("          - {type: BOX, dimensions: [1, 0, 1], location: [0, 0, 0], "
                            "orientation: [0, 0, 0]}\n"),
                       doctest::Contains("expected three lengths > 0"), InputError);
}

TEST_CASE("a visualization mesh whose file cannot be read fails the scene, naming the file") {
  testing::TempDir dir;
  const std::string model =
      dir.write("model.yaml",
                oneBodyModel("        shapes:\n          - {type: MESH, filename: missing.obj}\n"));
  const auto scenario = Scenario::load(model);
  CHECK_THROWS_WITH_AS(viewer::sceneOf(scenario->sim(), &scenario->assemblies(), {}),
                       doctest::Contains("missing.obj"), InputError);
}

TEST_CASE("collision shapes are drawn when a body has no visualization, and contacts as arrows") {
  testing::TempDir dir;
  const std::string file = dir.write("capsule.yaml", R"(hopsim: 1
simulation: {end_time: 0.1, io_step: 0.01}
assemblies:
  ball:
    class: VehicleAssembly
    basename: ball
    params:
      position: [0, 0, 0.3]
      attitude: [1, 0, 0, 0]
      bodies:
        ball: {mass: 2 kg, inertia: [0.008, 0.008, 0.008]}
contact:
  params: {max_contacts: 2}
  materials:
    - {name: rubber, coefficient_of_friction: 0.6, coefficient_of_restitution: 0.3}
  shapes:
    - {body: world, type: HALFSPACE, material: rubber}
    - {body: world, type: BOX, material: rubber, location: [1, 0, 0], orientation: [0, 0, 0], dimensions: [0.5, 0.5, 0.1]}
    - {body: ball, type: CAPSULE, material: rubber, location: [0, 0, 0.05], axis: [1, 0, 0], radius: 0.1, length: 0.4}
)");
  const auto scenario = Scenario::load(file);
  std::vector<std::string> columns;
  for (const char* q : {"point_x", "point_y", "point_z", "force_x", "force_y", "force_z"}) {
    for (int k = 0; k < 2; ++k) {
      columns.push_back("models.contact.scratch." + std::string(q) + "[" + std::to_string(k) + "]");
    }
  }
  const viewer::Scene scene =
      viewer::sceneOf(scenario->sim(), &scenario->assemblies(), {"", columns, {}});
  const viewer::BodyView& ball = body(scene, "ball");
  CHECK_FALSE(ball.defaultShape);
  REQUIRE(ball.shapes.size() == 1);
  CHECK(ball.shapes[0].type == Shape::Type::Capsule);
  CHECK(ball.shapes[0].radius == 0.1);
  CHECK(ball.shapes[0].length == 0.4);
  CHECK((ball.shapes[0].X_BS.rotation().col(2) - Vector3::UnitX()).norm() < 1e-15);
  // The static shapes are the world's; the half space is left to the page's grid.
  const viewer::BodyView& world = body(scene, "world");
  REQUIRE(world.fixedPose);
  REQUIRE(world.shapes.size() == 1);
  CHECK(world.shapes[0].type == Shape::Type::Box);
  CHECK(world.shapes[0].X_BS.translation() == Vector3(1, 0, 0));
  // One arrow per recorded contact slot.
  REQUIRE(scene.arrows.size() == 2);
  CHECK(scene.arrows[1].point[2] == "models.contact.scratch.point_z[1]");
  CHECK(scene.arrows[1].vector[0] == "models.contact.scratch.force_x[1]");
}

TEST_CASE("a cut joint is drawn where it closes its loop, with the axes fixed on its body") {
  // A slider-crank closed by the cut joint "wrist" (rod to slider), straight along x at the
  // start: the rod's end F at x = 0.3 + 0.5 meets the slider, at x = 0.8. And a UJOINT cut joint
  // from the crank to the world ("anchor"): drawn on the crank, where its first axis (z) is
  // fixed, not its second (y), which turns with the crank.
  using multibody::Hinge;
  using multibody::kWorldBody;
  Simulation sim;
  auto& tree = sim.multibody().editModel();
  const spatial::SpatialInertia link = spatial::SpatialInertia::fromCmInertia(
      1.0, {0.25, 0, 0}, Vector3(1e-4, 0.02, 0.02).asDiagonal());
  const auto crank = tree.addBody("crank", kWorldBody, link, Hinge::pin(Vector3::UnitZ()));
  const auto rod = tree.addBody("rod", crank, link, Hinge::pin(Vector3::UnitZ()),
                                spatial::RigidTransform::fromTranslation({0.3, 0, 0}));
  const auto slider = tree.addBody("slider", kWorldBody, link, Hinge::slider(Vector3::UnitX()));
  auto& constraints = sim.multibody().editConstraints();
  constraints.addCutJoint("wrist", Hinge::pin(Vector3::UnitZ()), rod,
                          spatial::RigidTransform::fromTranslation({0.5, 0, 0}), slider,
                          spatial::RigidTransform());
  constraints.addCutJoint("anchor", Hinge::ujoint(Vector3::UnitZ(), Vector3::UnitY()), crank,
                          spatial::RigidTransform::fromTranslation({0.3, 0, 0}), kWorldBody,
                          spatial::RigidTransform::fromTranslation({0.3, 0, 0}));
  sim.multibody().q(slider)[0] = 0.8;
  sim.lock();
  const viewer::Scene scene = viewer::sceneOf(sim, nullptr, {});

  const viewer::BodyView& onSlider = body(scene, "slider");
  REQUIRE(onSlider.hinges.size() == 2);  // its own SLIDER, then the cut joint
  const viewer::HingeMarker& wrist = onSlider.hinges[1];
  CHECK(wrist.name == "PIN cut joint wrist");
  // Where both bodies' frames meet, in the world.
  const auto& X_WB = sim.multibody().kinematicsNow().X_WB;
  const Vector3 p_W = X_WB[static_cast<std::size_t>(slider)] * wrist.position;
  const Vector3 p_F_W = X_WB[static_cast<std::size_t>(rod)] * Vector3(0.5, 0, 0);
  CHECK((p_W - Vector3(0.8, 0, 0)).norm() < 1e-15);
  CHECK((p_W - p_F_W).norm() < 1e-15);
  REQUIRE(wrist.axes.size() == 1);
  CHECK(wrist.axes[0] == Vector3::UnitZ());
  CHECK_FALSE(wrist.translation[0]);

  const viewer::BodyView& onCrank = body(scene, "crank");
  REQUIRE(onCrank.hinges.size() == 2);
  const viewer::HingeMarker& anchor = onCrank.hinges[1];
  CHECK(anchor.name == "UJOINT cut joint anchor");
  CHECK(anchor.position == Vector3(0.3, 0, 0));
  REQUIRE(anchor.axes.size() == 1);
  CHECK(anchor.axes[0] == Vector3::UnitZ());
  // The rod carries no cut joint: each is drawn once.
  CHECK(body(scene, "rod").hinges.size() == 1);
}
