#pragma once
/// @file
/// Scene: what a replay page draws of a simulation (docs/viewer.md): every body with its shapes,
/// node frames and hinge axes in its own frame, the springs between bodies, the contact force
/// arrows, and where in a recording each body's pose is found.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "hopsim/core/spatial/rigid_transform.h"

namespace hopsim {
class Simulation;
class Assembly;
}  // namespace hopsim

namespace hopsim::viewer {

using spatial::RigidTransform;
using spatial::Vector3;

/// A shape fixed on a body, posed in the body frame B. Cylinders and capsules lie along the
/// shape frame's Z.
struct Shape {
  enum class Type { Box, Sphere, Cylinder, Capsule, Mesh };
  Type type{Type::Box};
  RigidTransform X_BS;
  Vector3 size{Vector3::Zero()};  ///< Box: full edge lengths (m)
  double radius{0.0};             ///< Sphere, Cylinder, Capsule (m)
  double length{0.0};             ///< Cylinder: full length; Capsule: between its caps' centres
  std::vector<double> vertices;   ///< Mesh: x, y, z per vertex in S (m, scaled)
  std::vector<int> indices;       ///< Mesh: three vertex indices per triangle
  Vector3 color{0.75, 0.75, 0.75};
};

/// A named frame fixed on a body (a node), posed in B.
struct Frame {
  std::string name;
  RigidTransform X_BF;
};

/// Where a body's hinge acts, on the body: the hinge's outboard frame origin in B and the
/// directions in B of the subhinge axes fixed in that frame.
struct HingeMarker {
  std::string name;  ///< the hinge type ("PIN", "SLIDER", ...); "PIN cut joint J" for a cut joint
  Vector3 position{Vector3::Zero()};
  std::vector<Vector3> axes;
  std::vector<bool> translation;  ///< per axis: a slider's (true) or a pin's (false)
};

/// The recording columns of a body frame's origin in the world (m) and its orientation in the
/// world (a unit quaternion, scalar first).
struct PoseColumns {
  std::array<std::string, 3> position;
  std::array<std::string, 4> orientation;
};

/// A body: moving ones have pose columns, those fixed to the world a fixed pose.
struct BodyView {
  std::string name;
  std::optional<PoseColumns> pose;
  std::optional<RigidTransform> fixedPose;  ///< X_WB of a body fixed to the world
  double mass{0.0};
  bool defaultShape{false};  ///< the shape was made from the inertia: the model has none
  std::vector<Shape> shapes;
  std::vector<Frame> frames;
  std::vector<HingeMarker> hinges;
};

/// A spring-damper drawn between a point on each of two bodies (an empty body is the world).
struct SpringView {
  std::string name;
  std::string body1;
  Vector3 point1{Vector3::Zero()};  ///< in body1's frame, or the world's
  std::string body2;
  Vector3 point2{Vector3::Zero()};
  bool coil{false};    ///< a coil, else a segment
  double radius{0.0};  ///< m; 0 leaves it to the page
  int turns{0};        ///< 0 leaves it to the page
  Vector3 color{0.75, 0.75, 0.75};
};

/// A force drawn as an arrow at a world point, both from recording columns.
struct ArrowView {
  std::string name;
  std::array<std::string, 3> point;
  std::array<std::string, 3> vector;
  Vector3 color{0.9, 0.2, 0.1};
};

/// The initial camera: where it is and what it looks at (world, m).
struct CameraView {
  Vector3 location{Vector3::Zero()};
  Vector3 target{Vector3::Zero()};
};

/// Everything a replay page draws besides the recording.
struct Scene {
  std::string title;
  std::string source;
  Vector3 up{Vector3::UnitZ()};
  double lengthScale{1.0};  ///< the model's size (m): the grid, axes and arrows scale with it
  std::optional<CameraView> camera;
  std::vector<BodyView> bodies;
  std::vector<SpringView> springs;
  std::vector<ArrowView> arrows;
  std::vector<std::string> plots;  ///< columns plotted when the page opens
};

/// What the scene is built from besides the simulation.
struct SceneSource {
  /// The file that was run (its name is the title); a Chrono simulation file's
  /// `visualization.camera` becomes the camera.
  std::string file;
  /// The columns of the recording the page replays: each moving body's pose is looked up
  /// among them (`multibody.bodies.<B>.position[i]` and `.orientation[i]`, or a Chrono model's
  /// `bodies.<name>.position.x` outputs), as are the contact points and forces.
  std::vector<std::string> recordedColumns;
  /// The columns plotted when the page opens.
  std::vector<std::string> plots;
};

/// The scene of a locked simulation in its current state: its bodies with the visualization
/// shapes of the Chrono model files among `assemblies` and its children (null: none), else their
/// collision shapes, else a box of the body's inertia; nodes; hinges and cut joints; the model
/// files' TSDAs; the contact arrows of SmoothContact models whose points and forces are
/// recorded.
/// @throws InputError for a mesh file that cannot be read.
Scene sceneOf(const Simulation& sim, const Assembly* assemblies, const SceneSource& source);

/// The column names of a body's pose that hopsim's recorder writes for `body`.
PoseColumns multibodyPoseColumns(const std::string& body);

}  // namespace hopsim::viewer
