#pragma once
/// @file
/// CollisionShape: a contact shape fixed on a body, as Chrono's MBS YAML `contact.shapes`
/// describes it.

#include <cstdint>
#include <memory>
#include <string>

#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/models/triangle_mesh.h"

namespace hopsim::models {

/// The geometric primitives of smooth contact. Every shape is centred on its frame S; the axis
/// of a cylinder or capsule is S's Z. A half space is the static ground: everything below the
/// XY plane of S (its outward normal is S's +Z); it may sit only on the world or a body welded
/// to it. A hull is a convex polyhedron given by its vertices (Chrono's HULL, the convex hull of
/// an OBJ's vertices); a mesh is a triangle mesh whose triangles are swept by a contact radius
/// (Chrono's MESH).
enum class ShapeType : std::uint8_t { Sphere, Box, Cylinder, Capsule, HalfSpace, Hull, Mesh };

/// "SPHERE", "BOX", "CYLINDER", "CAPSULE", "HALFSPACE", "HULL", "MESH".
const char* toString(ShapeType type);

/// One contact shape: its primitive, the body that carries it, its pose on that body and its
/// material (an index into SmoothContact's materials).
struct CollisionShape {
  ShapeType type = ShapeType::Sphere;
  std::string body{};              ///< the body's name in the multibody system ("world" allowed)
  spatial::RigidTransform X_BS{};  ///< the shape frame S in the body frame B (m)
  double radius = 0.0;             ///< sphere, cylinder and capsule radius (m)
  spatial::Vector3 dimensions = spatial::Vector3::Zero();  ///< box: full edge lengths (m)
  /// Cylinder: the full length; capsule: the length between its caps' centres (m).
  double length = 0.0;
  int material = 0;  ///< index of the shape's ContactMaterial
  /// Hull: a convex polyhedron (convexHull()); mesh: its triangles; vertices in S (m).
  std::shared_ptr<const TriangleMesh> mesh{};
  double contactRadius = 0.0;  ///< mesh: the radius that sweeps its triangles (m)
};

}  // namespace hopsim::models
