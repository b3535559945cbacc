// The scene of a simulation: bodies from the multibody model, shapes and springs from the
// Chrono model files among its assemblies, contact arrows from its SmoothContact models.

#include "hopsim/viewer/scene.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/chrono_yaml.h"
#include "hopsim/assemblies/front_end.h"
#include "hopsim/assemblies/model_file_assembly.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/core/simulation.h"
#include "inertia_shape.h"
#include "shape_sources.h"

namespace hopsim::viewer {

namespace {

/// A body of a model file, with the mechanism and lowering it comes from.
struct MechanismBody {
  const mechanism::MechanismBuilder* builder;
  std::size_t index;  // in builder->mechanism().bodies
};

/// Every model file among `assembly` and its children, depth first.
void collectModelFiles(const Assembly& assembly,
                       std::vector<const mechanism::MechanismBuilder*>& builders) {
  if (const auto* file = dynamic_cast<const ModelFileAssembly*>(&assembly)) {
    builders.push_back(&file->builder());
  }
  for (const auto& child : assembly.children()) collectModelFiles(*child, builders);
}

bool recorded(const std::set<std::string>& columns, const auto& names) {
  return std::all_of(names.begin(), names.end(),
                     [&](const std::string& n) { return columns.contains(n); });
}

/// The pose columns of a moving body among the recorded ones: hopsim's own, else a model
/// file's outputs (`bodies.<name>.position.x`, `.orientation.e0`, ...), which hold the same
/// frame's pose.
std::optional<PoseColumns> poseColumns(const std::string& body, const MechanismBody* source,
                                       const std::set<std::string>& columns) {
  PoseColumns own = multibodyPoseColumns(body);
  if (recorded(columns, own.position) && recorded(columns, own.orientation)) return own;
  if (source != nullptr) {
    const std::string base = "bodies." + source->builder->mechanism().bodies[source->index].name;
    PoseColumns outputs{{base + ".position.x", base + ".position.y", base + ".position.z"},
                        {base + ".orientation.e0", base + ".orientation.e1",
                         base + ".orientation.e2", base + ".orientation.e3"}};
    if (recorded(columns, outputs.position) && recorded(columns, outputs.orientation))
      return outputs;
  }
  return std::nullopt;
}

/// A hinge as drawn on the body that carries its outboard frame M, posed X_BM in that body: M's
/// origin and the axes fixed in M, which are those of the sliders after the hinge's last rotation
/// and that rotation's own (the earlier ones turn with it). With `inboard`, the same hinge drawn
/// on the body that carries its inboard frame F, posed X_BM = X_AF there: the axes fixed in F are
/// those of the sliders before the first rotation and that rotation's own.
HingeMarker hingeMarker(const multibody::Hinge& hinge, const RigidTransform& X_BM,
                        bool inboard = false) {
  HingeMarker marker;
  marker.name = std::string(multibody::toString(hinge.type()));
  marker.position = X_BM.translation();
  using multibody::SubhingeType;
  const int n = hinge.subhingeCount();
  for (int j = 0; j < n; ++j) {
    const multibody::Subhinge& s = hinge.subhinge(inboard ? j : n - 1 - j);
    if (s.type != SubhingeType::Pin && s.type != SubhingeType::Slider) break;
    marker.axes.push_back(X_BM.rotation() * s.axis);
    marker.translation.push_back(s.type == SubhingeType::Slider);
    if (s.type == SubhingeType::Pin) break;
  }
  if (!inboard) {  // collected from the last subhinge back: put them in the hinge's order
    std::reverse(marker.axes.begin(), marker.axes.end());
    std::reverse(marker.translation.begin(), marker.translation.end());
  }
  return marker;
}

/// Adds each cut joint of the simulation's constraint set (the joints that close loops) to the
/// hinges of the body that carries its frame M, or of its other body (frame F) when M is on the
/// world. Bodies are looked up by name among `bodies`.
void addCutJoints(const Simulation& sim, std::vector<BodyView>& bodies) {
  const multibody::MultibodyModel& model = sim.multibody().model();
  const multibody::ConstraintSet& set = sim.multibody().constraints();
  for (int i = 0; i < set.size(); ++i) {
    const multibody::Constraint& c = set.constraint(i);
    if (c.type != multibody::ConstraintType::CutJoint) continue;
    const bool onB = c.bodyB != multibody::kWorldBody;
    const std::string body = model.bodyName(onB ? c.bodyB : c.bodyA);
    const auto view = std::find_if(bodies.begin(), bodies.end(),
                                   [&](const BodyView& v) { return v.name == body; });
    if (view == bodies.end()) continue;
    HingeMarker marker = hingeMarker(c.hinge, onB ? c.X_BM : c.X_AF, !onB);
    marker.name += " cut joint " + c.name;
    view->hinges.push_back(std::move(marker));
  }
}

/// The up direction: against gravity, else a Chrono simulation file's camera.vertical, else Z.
Vector3 upDirection(const multibody::MultibodyModel& model,
                    const std::optional<Vector3>& vertical) {
  const Vector3& g = model.gravity();
  if (g.norm() > 0.0) return (-g.normalized()).array() + 0.0;  // + 0: no -0 in the page
  return vertical.value_or(Vector3::UnitZ());
}

/// A Chrono simulation file's camera and vertical axis, when `file` is one that has them.
void readFileCamera(const std::string& file, Scene& scene, std::optional<Vector3>& vertical) {
  if (file.empty() || !std::filesystem::is_regular_file(file)) return;
  if (detectYamlFileKind(loadYamlFile(file), file) != YamlFileKind::ChronoSimulation) return;
  const std::optional<chrono::SimulationFile::Camera> camera =
      chrono::readSimulationFile(file).camera;
  if (!camera) return;
  vertical = camera->vertical;
  if (camera->location && camera->target) {
    scene.camera = CameraView{*camera->location, *camera->target};
  }
}

/// The SmoothContact arrows whose point and force columns are all recorded.
void addContactArrows(const Simulation& sim, const std::set<std::string>& columns, Scene& scene) {
  for (const std::string& name : sim.modelNames()) {
    if (sim.model(name).spec().className() != "SmoothContact") continue;
    const std::string base = "models." + name + ".scratch.";
    for (int k = 0;; ++k) {
      const std::string i = "[" + std::to_string(k) + "]";
      ArrowView arrow{name + " contact " + std::to_string(k),
                      {base + "point_x" + i, base + "point_y" + i, base + "point_z" + i},
                      {base + "force_x" + i, base + "force_y" + i, base + "force_z" + i}};
      if (!recorded(columns, arrow.point) || !recorded(columns, arrow.vector)) break;
      scene.arrows.push_back(std::move(arrow));
    }
  }
}

}  // namespace

PoseColumns multibodyPoseColumns(const std::string& body) {
  const std::string base = "multibody.bodies." + body;
  return {{base + ".position[0]", base + ".position[1]", base + ".position[2]"},
          {base + ".orientation[0]", base + ".orientation[1]", base + ".orientation[2]",
           base + ".orientation[3]"}};
}

Scene sceneOf(const Simulation& sim, const Assembly* assemblies, const SceneSource& source) {
  Scene scene;
  scene.source = source.file;
  scene.title = source.file.empty() ? std::string("hopsim run")
                                    : std::filesystem::path(source.file).filename().string();
  scene.plots = source.plots;
  const std::set<std::string> columns(source.recordedColumns.begin(), source.recordedColumns.end());
  std::optional<Vector3> vertical;
  readFileCamera(source.file, scene, vertical);

  std::vector<const mechanism::MechanismBuilder*> builders;
  if (assemblies != nullptr) collectModelFiles(*assemblies, builders);
  std::map<std::string, MechanismBody> fromFile;  // by multibody body name
  for (const auto* builder : builders) {
    const auto& bodies = builder->mechanism().bodies;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      if (!bodies[i].fixed)
        fromFile.emplace(builder->bodyName(bodies[i].name), MechanismBody{builder, i});
    }
  }

  const multibody::MultibodyModel& model = sim.multibody().model();
  // The model's extent at the current state: body origins, centres of mass and nodes (a
  // simulation without bodies has no kinematics to ask for).
  Eigen::AlignedBox3d extent;
  if (model.bodyCount() > 1) {
    const multibody::MultibodyData& kinematics = sim.multibody().kinematicsNow();
    for (int b = 1; b < model.bodyCount(); ++b) {
      const RigidTransform& X_WB = kinematics.X_WB[static_cast<std::size_t>(b)];
      extent.extend(X_WB.translation());
      extent.extend(X_WB * model.massProperties(b).comPosition());
    }
    for (int n = 0; n < model.nodeCount(); ++n) {
      const multibody::Node& node = model.node(n);
      extent.extend(kinematics.X_WB[static_cast<std::size_t>(node.body)] * node.X_BN.translation());
    }
  }
  for (const auto* builder : builders) {
    const auto& bodies = builder->mechanism().bodies;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      if (bodies[i].fixed) extent.extend(builder->plan().X_WB[i].translation());
    }
  }
  const double size = extent.isEmpty() ? 0.0 : extent.diagonal().norm();
  // A degenerate edge of a default box: a twentieth of the model, or of the largest box.
  double largestEdge = 0.0;
  for (int b = 1; b < model.bodyCount(); ++b) {
    largestEdge = std::max(largestEdge, inertiaBox(model.massProperties(b), 0.0).size.maxCoeff());
  }
  scene.lengthScale = size > 0.0 ? size : (largestEdge > 0.0 ? largestEdge : 1.0);
  const double minimumEdge = 0.05 * std::max(size > 0.0 ? size : largestEdge, 1e-3);

  const std::map<std::string, std::vector<Shape>> collision = collisionShapes(sim);
  for (int b = 1; b < model.bodyCount(); ++b) {
    BodyView body;
    body.name = model.bodyName(b);
    body.mass = model.massProperties(b).mass();
    const auto file = fromFile.find(body.name);
    const MechanismBody* mb = file != fromFile.end() ? &file->second : nullptr;
    body.pose = poseColumns(body.name, mb, columns);
    if (mb != nullptr) {
      for (const auto& v : mb->builder->mechanism().bodies[mb->index].visualShapes)
        body.shapes.push_back(visualShape(v, mb->builder->mechanism()));
    }
    if (body.shapes.empty()) {
      if (const auto c = collision.find(body.name); c != collision.end()) body.shapes = c->second;
    }
    if (body.shapes.empty()) {
      body.shapes.push_back(inertiaBox(model.massProperties(b), minimumEdge));
      body.defaultShape = true;
    }
    for (int n = 0; n < model.nodeCount(); ++n) {
      const multibody::Node& node = model.node(n);
      if (node.body == b) body.frames.push_back({node.name, node.X_BN});
    }
    body.hinges.push_back(hingeMarker(model.hinge(b), model.X_BM(b)));
    scene.bodies.push_back(std::move(body));
  }
  // The static collision shapes, on the world; a model file's fixed bodies are the world
  // too, drawn with their visualization shapes where the file put them.
  if (const auto c = collision.find("world"); c != collision.end()) {
    BodyView world;
    world.name = "world";
    world.fixedPose = RigidTransform::Identity();
    world.shapes = c->second;
    scene.bodies.push_back(std::move(world));
  }
  for (const auto* builder : builders) {
    const auto& m = builder->mechanism();
    for (std::size_t i = 0; i < m.bodies.size(); ++i) {
      if (!m.bodies[i].fixed || m.bodies[i].visualShapes.empty()) continue;
      BodyView body;
      body.name = builder->bodyName(m.bodies[i].name);
      body.fixedPose = builder->plan().X_WB[i];
      for (const auto& v : m.bodies[i].visualShapes) body.shapes.push_back(visualShape(v, m));
      scene.bodies.push_back(std::move(body));
    }
  }
  for (const auto* builder : builders) {
    const auto& m = builder->mechanism();
    // A TSDA point (a point of the file's world at t = 0) in its body's frame, or in hopsim's
    // world for a fixed body (the placement of the file applied).
    const auto inBody = [&](const std::string& name, const Vector3& p_file) {
      const std::size_t i = static_cast<std::size_t>(m.bodyIndex(name));
      const Vector3 p_B = m.bodies[i].X_WR.inverseApplyToPoint(p_file);
      if (m.bodies[i].fixed)
        return std::pair{std::string(), Vector3(builder->plan().X_WB[i] * p_B)};
      return std::pair{builder->bodyName(name), p_B};
    };
    for (const mechanism::Tsda& t : m.tsdas) {
      SpringView spring;
      spring.name = builder->bodyName(t.name);
      std::tie(spring.body1, spring.point1) = inBody(t.body1, t.point1);
      std::tie(spring.body2, spring.point2) = inBody(t.body2, t.point2);
      if (t.visualization) {
        spring.coil = t.visualization->spring;
        spring.radius = t.visualization->radius;
        spring.turns = t.visualization->turns;
        spring.color = t.visualization->color;
      }
      scene.springs.push_back(std::move(spring));
    }
  }
  addCutJoints(sim, scene.bodies);
  addContactArrows(sim, columns, scene);
  scene.up = upDirection(model, vertical);
  return scene;
}

}  // namespace hopsim::viewer
