#include "hopsim/models/collision_shape.h"

namespace hopsim::models {

const char* toString(ShapeType type) {
  switch (type) {
    case ShapeType::Sphere:
      return "SPHERE";
    case ShapeType::Box:
      return "BOX";
    case ShapeType::Cylinder:
      return "CYLINDER";
    case ShapeType::Capsule:
      return "CAPSULE";
    case ShapeType::HalfSpace:
      return "HALFSPACE";
    case ShapeType::Hull:
      return "HULL";
    case ShapeType::Mesh:
      return "MESH";
  }
  return "?";
}

}  // namespace hopsim::models
