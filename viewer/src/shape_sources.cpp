// Where the shapes a page draws come from: a model file's visualization shapes and the
// SmoothContact models' collision shapes.

#include "shape_sources.h"

#include "hopsim/assemblies/mechanism_lowering.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/smooth_contact.h"
#include "hopsim/models/triangle_mesh.h"

namespace hopsim::viewer {

namespace {

using mechanism::ShapeGeometry;

/// A mesh shape's vertices and triangles.
void setMesh(Shape& shape, const models::TriangleMesh& mesh) {
  shape.type = Shape::Type::Mesh;
  shape.vertices.reserve(3 * mesh.vertices.size());
  for (const auto& v : mesh.vertices)
    shape.vertices.insert(shape.vertices.end(), {v.x(), v.y(), v.z()});
  shape.indices.reserve(3 * mesh.triangles.size());
  for (const auto& t : mesh.triangles)
    shape.indices.insert(shape.indices.end(), t.begin(), t.end());
}

/// A primitive's type and sizes; false for a half space (an infinite ground: the page's grid
/// stands for it) and the meshes, which the callers set.
bool setPrimitive(Shape& s, models::ShapeType type, double radius, const Vector3& dimensions,
                  double length) {
  using Type = models::ShapeType;
  switch (type) {
    case Type::Sphere:
      s.type = Shape::Type::Sphere;
      break;
    case Type::Box:
      s.type = Shape::Type::Box;
      break;
    case Type::Cylinder:
      s.type = Shape::Type::Cylinder;
      break;
    case Type::Capsule:
      s.type = Shape::Type::Capsule;
      break;
    case Type::HalfSpace:
    case Type::Hull:
    case Type::Mesh:
      return false;
  }
  s.radius = radius;
  s.size = dimensions;
  s.length = length;
  return true;
}

/// The smooth-contact primitive of a model file's shape type.
models::ShapeType primitiveType(ShapeGeometry::Type type) {
  using Type = ShapeGeometry::Type;
  switch (type) {
    case Type::Sphere:
      return models::ShapeType::Sphere;
    case Type::Box:
      return models::ShapeType::Box;
    case Type::Cylinder:
      return models::ShapeType::Cylinder;
    case Type::Capsule:
      return models::ShapeType::Capsule;
    case Type::HalfSpace:
      return models::ShapeType::HalfSpace;
    case Type::Hull:
      return models::ShapeType::Hull;
    case Type::Mesh:
      return models::ShapeType::Mesh;
  }
  return models::ShapeType::Mesh;
}

}  // namespace

// Visualization shapes are never half spaces: the reader takes Chrono's types only.
Shape visualShape(const mechanism::VisualShape& v, const mechanism::Mechanism& m) {
  using Type = ShapeGeometry::Type;
  Shape s;
  s.X_BS = v.X_RS;  // the body frame of a model file's body is its reference frame
  s.color = v.color;
  if (!setPrimitive(s, primitiveType(v.type), v.radius, v.dimensions, v.length)) {
    const models::TriangleMesh mesh =
        models::readObj(mechanism::shapeFilePath(m, v.file), v.type == Type::Mesh ? v.scale : 1.0);
    setMesh(s, v.type == Type::Hull ? models::convexHull(mesh.vertices) : mesh);
  }
  return s;
}

std::map<std::string, std::vector<Shape>> collisionShapes(const Simulation& sim) {
  std::map<std::string, std::vector<Shape>> byBody;
  for (const std::string& name : sim.modelNames()) {
    const auto* contact = dynamic_cast<const models::SmoothContact*>(&sim.model(name));
    if (contact == nullptr) continue;
    for (const models::CollisionShape& c : contact->shapes()) {
      Shape s;
      s.X_BS = c.X_BS;
      s.color = Vector3(0.55, 0.6, 0.7);
      if (setPrimitive(s, c.type, c.radius, c.dimensions, c.length)) {
        byBody[c.body].push_back(std::move(s));
      } else if (c.mesh) {
        setMesh(s, *c.mesh);
        byBody[c.body].push_back(std::move(s));
      }
    }
  }
  return byBody;
}

}  // namespace hopsim::viewer
