#include "contact_input.h"

#include <algorithm>
#include <filesystem>

#include "hopsim/assemblies/mechanism_lowering.h"
#include "hopsim/models/contact_material.h"
#include "hopsim/models/triangle_mesh.h"
#include "hopsim/signals/error.h"

namespace hopsim::chrono::detail {

/// A contact material: Chrono's spellings (A14; the ignored ones are read too, with a warning),
/// the spec's defaults, ranges checked.
mechanism::ContactMaterial readContactMaterial(Reader& r, const InputNode& m,
                                               const std::string& mp) {
  r.expectMapping(m, mp);
  mechanism::ContactMaterial material;
  material.name = r.text(r.required(m, mp, "name"), at(mp, "name"));
  material.where = r.where(m);
  models::ContactMaterial& p = material.properties;
  std::vector<std::string> known = {"name", "coefficient_of_friction", "coefficient_of_restitution",
                                    "physical_properties", "coefficients"};
  if (const InputNode* v = Reader::optional(m, "coefficient_of_friction"))
    p.friction = r.number(*v, at(mp, "coefficient_of_friction"));
  if (const InputNode* v = Reader::optional(m, "coefficient_of_restitution"))
    p.restitution = r.number(*v, at(mp, "coefficient_of_restitution"));
  for (const auto& [key, value] : m.entries()) {
    if (key != "physical_properties" && key != "physical__properties" && key != "properties") {
      continue;
    }
    const std::string pp = at(mp, key);
    if (key != "physical_properties") {
      r.warn(value, pp + ": Chrono reads 'physical_properties' (this spelling is ignored there, "
                         "leaving Young_modulus 2e7); hopsim reads it as physical_properties");
      known.push_back(key);
    }
    r.expectMapping(value, pp);
    r.checkKeys(value, pp, {"Young_modulus", "Youngs_modulus", "Poisson_ratio"});
    for (const char* young : {"Young_modulus", "Youngs_modulus"}) {
      const InputNode* v = Reader::optional(value, young);
      if (v == nullptr) continue;
      if (std::string_view(young) == "Youngs_modulus") {
        r.warn(*v, at(pp, young) +
                       ": Chrono reads 'Young_modulus' (this spelling is ignored there); hopsim "
                       "reads it as Young_modulus");
      }
      p.youngModulus = r.number(*v, at(pp, young));
    }
    if (const InputNode* v = Reader::optional(value, "Poisson_ratio"))
      p.poissonRatio = r.number(*v, at(pp, "Poisson_ratio"));
  }
  r.checkKeys(m, mp, known);
  if (const InputNode* c = Reader::optional(m, "coefficients")) {
    const std::string cp = at(mp, "coefficients");
    r.expectMapping(*c, cp);
    r.checkKeys(
        *c, cp,
        {"normal_stiffness", "normal_damping", "tangential_stiffness", "tangential_damping"});
    p.normalStiffness =
        r.number(r.required(*c, cp, "normal_stiffness"), at(cp, "normal_stiffness"));
    p.normalDamping = r.number(r.required(*c, cp, "normal_damping"), at(cp, "normal_damping"));
    p.tangentialStiffness =
        r.number(r.required(*c, cp, "tangential_stiffness"), at(cp, "tangential_stiffness"));
    p.tangentialDamping =
        r.number(r.required(*c, cp, "tangential_damping"), at(cp, "tangential_damping"));
  }
  try {
    models::checkContactMaterial(p, mp);
  } catch (const InputError& e) {
    r.fail(m, mp, std::string(e.what()).substr(mp.size() + 2));
  }
  return material;
}

namespace {

/// What a caller reads of a shape besides its geometry, and whether its pose is required.
struct ShapeKeys {
  /// The keys the caller reads besides (a collision shape's material, a visualization shape's
  /// colour), for every type and for MESH only.
  std::vector<std::string> anyType;
  std::vector<std::string> mesh;
  /// Whether a shape must give its pose (a collision shape's `location`, and a box's
  /// `orientation`), or is at the reference frame and axis-aligned without one.
  bool poseRequired{true};
};

/// The geometry of a shape (spec "Shape"): its type and the keys of that type, posed in the
/// body's reference frame; a native scenario's shape also names its `body`.
mechanism::ShapeGeometry readShapeGeometry(Reader& r, bool degrees, const InputNode& e,
                                           const std::string& sp, ShapeSet types,
                                           const ShapeKeys& extra) {
  using Type = mechanism::ShapeGeometry::Type;
  mechanism::ShapeGeometry shape;
  const auto checkKeys = [&](std::vector<std::string> keys) {
    keys.insert(keys.end(), extra.anyType.begin(), extra.anyType.end());
    if (shape.type == Type::Mesh) keys.insert(keys.end(), extra.mesh.begin(), extra.mesh.end());
    if (types == ShapeSet::Native) keys.emplace_back("body");
    r.checkKeys(e, sp, keys);
  };
  r.expectMapping(e, sp);
  shape.where = r.where(e);
  // The names in the order of kTypes; a native scenario may also use the last two.
  static const std::vector<std::string> kChrono = {"SPHERE", "BOX", "CYLINDER", "MESH", "HULL"};
  static const std::vector<std::string> kNative = {"SPHERE", "BOX",     "CYLINDER", "MESH",
                                                   "HULL",   "CAPSULE", "HALFSPACE"};
  constexpr Type kTypes[] = {Type::Sphere, Type::Box,     Type::Cylinder, Type::Mesh,
                             Type::Hull,   Type::Capsule, Type::HalfSpace};
  shape.type = kTypes[r.choice(r.required(e, sp, "type"), at(sp, "type"),
                               types == ShapeSet::Chrono ? kChrono : kNative)];
  const auto location = [&](bool required) {
    const InputNode* v = required && extra.poseRequired ? &r.required(e, sp, "location")
                                                        : Reader::optional(e, "location");
    return v != nullptr ? r.vec3(*v, at(sp, "location")) : Vector3(Vector3::Zero());
  };
  switch (shape.type) {
    case Type::Sphere:
      checkKeys({"type", "location", "radius"});
      shape.X_RS = RigidTransform::fromTranslation(location(true));
      shape.radius = r.positive(r.required(e, sp, "radius"), at(sp, "radius"));
      break;
    case Type::Box: {
      checkKeys({"type", "location", "orientation", "dimensions"});
      Matrix3 R = Matrix3::Identity();
      if (const InputNode* o = extra.poseRequired ? &r.required(e, sp, "orientation")
                                                  : Reader::optional(e, "orientation"))
        R = r.orientation(*o, at(sp, "orientation"), degrees);
      shape.X_RS = RigidTransform(R, location(true));
      const InputNode& d = r.required(e, sp, "dimensions");
      shape.dimensions = r.vec3(d, at(sp, "dimensions"));
      if (!(shape.dimensions.minCoeff() > 0.0)) {
        r.fail(d, at(sp, "dimensions"), "expected three lengths > 0");
      }
      break;
    }
    case Type::Cylinder: {
      checkKeys({"type", "location", "axis", "radius", "length", "orientation"});
      if (const InputNode* o = e.find("orientation")) {
        r.warn(*o, at(sp, "orientation") + " is ignored: a cylinder is posed by its axis");
      }
      const Vector3 axis = r.direction(r.required(e, sp, "axis"), at(sp, "axis"));
      shape.X_RS = RigidTransform(xThenRyFrame(axis), location(true));
      shape.radius = r.positive(r.required(e, sp, "radius"), at(sp, "radius"));
      shape.length = r.positive(r.required(e, sp, "length"), at(sp, "length"));
      break;
    }
    case Type::Capsule: {
      checkKeys({"type", "location", "axis", "radius", "length"});
      const Vector3 axis = r.direction(r.required(e, sp, "axis"), at(sp, "axis"));
      shape.X_RS = RigidTransform(xThenRyFrame(axis), location(true));
      shape.radius = r.positive(r.required(e, sp, "radius"), at(sp, "radius"));
      const InputNode& length = r.required(e, sp, "length");
      shape.length = r.number(length, at(sp, "length"));
      if (shape.length < 0.0) r.fail(length, at(sp, "length"), "expected a value >= 0");
      break;
    }
    case Type::HalfSpace: {
      checkKeys({"type", "location", "orientation"});
      Matrix3 R = Matrix3::Identity();
      if (const InputNode* o = Reader::optional(e, "orientation"))
        R = r.orientation(*o, at(sp, "orientation"), degrees);
      shape.X_RS = RigidTransform(R, location(false));
      break;
    }
    case Type::Hull:
      checkKeys({"type", "filename"});
      shape.file = r.text(r.required(e, sp, "filename"), at(sp, "filename"));
      break;
    case Type::Mesh: {
      checkKeys({"type", "filename", "location", "orientation", "scale"});
      shape.file = r.text(r.required(e, sp, "filename"), at(sp, "filename"));
      Matrix3 R = Matrix3::Identity();
      if (const InputNode* o = Reader::optional(e, "orientation"))
        R = r.orientation(*o, at(sp, "orientation"), degrees);
      shape.X_RS = RigidTransform(R, location(false));
      if (const InputNode* v = Reader::optional(e, "scale"))
        shape.scale = r.positive(*v, at(sp, "scale"));
      break;
    }
  }
  return shape;
}

}  // namespace

/// A collision shape (spec "Collision Shape"): its geometry in the body's reference frame.
mechanism::ContactShape readContactShape(Reader& r, bool degrees, const InputNode& e,
                                         const std::string& sp,
                                         const std::vector<mechanism::ContactMaterial>& materials,
                                         ShapeSet types) {
  mechanism::ContactShape shape;
  static_cast<mechanism::ShapeGeometry&>(shape) =
      readShapeGeometry(r, degrees, e, sp, types, {{"material"}, {"contact_radius"}, true});
  const InputNode& mat = r.required(e, sp, "material");
  shape.material = r.text(mat, at(sp, "material"));
  if (std::none_of(materials.begin(), materials.end(),
                   [&](const auto& m) { return m.name == shape.material; })) {
    r.fail(mat, at(sp, "material"),
           "unknown contact material '" + shape.material +
               "'; expected one of the body's "
               "contact.materials");
  }
  const bool mesh = shape.type == mechanism::ShapeGeometry::Type::Mesh;
  if (const InputNode* v = mesh ? Reader::optional(e, "contact_radius") : nullptr) {
    shape.contactRadius = r.number(*v, at(sp, "contact_radius"));
    if (shape.contactRadius < 0.0) r.fail(*v, at(sp, "contact_radius"), "expected a value >= 0");
  }
  return shape;
}

mechanism::VisualShape readVisualShape(Reader& r, bool degrees, const InputNode& e,
                                       const std::string& sp) {
  mechanism::VisualShape shape;
  static_cast<mechanism::ShapeGeometry&>(shape) =
      readShapeGeometry(r, degrees, e, sp, ShapeSet::Chrono, {{"color"}, {}, false});
  if (const InputNode* color = Reader::optional(e, "color"))
    shape.color = r.color(*color, at(sp, "color"));
  return shape;
}

namespace {

/// An OBJ file's path and, when the working directory had it, the warning that says so.
struct ShapeFile {
  std::string path;
  std::string warning;
};

ShapeFile resolveShapeFile(const std::string& name, const std::string& modelFile,
                           const std::string& dataRoot) {
  namespace fs = std::filesystem;
  const fs::path file(name);
  if (file.is_absolute()) return {name, {}};
  if (!dataRoot.empty()) return {(fs::path(dataRoot) / file).lexically_normal().string(), {}};
  const fs::path beside = (fs::path(modelFile).parent_path() / file).lexically_normal();
  std::error_code error;
  if (!fs::exists(beside, error) && fs::exists(file, error)) {
    return {name, "'" + name + "' is not beside " + modelFile +
                      "; it was found in the working directory, where Chrono looks"};
  }
  return {beside.string(), {}};
}

}  // namespace

}  // namespace hopsim::chrono::detail

namespace hopsim::mechanism {

std::string shapeFilePath(const Mechanism& mechanism, const std::string& name) {
  return chrono::detail::resolveShapeFile(name, mechanism.file, mechanism.dataRoot).path;
}

}  // namespace hopsim::mechanism

namespace hopsim::chrono::detail {

LoweredShape lowerShape(const mechanism::ContactShape& shape,
                        const std::vector<mechanism::ContactMaterial>& materials, int firstMaterial,
                        const std::string& modelFile, const std::string& dataRoot) {
  using Type = mechanism::ContactShape::Type;
  std::string file, warning;
  if (!shape.file.empty()) {
    ShapeFile found = resolveShapeFile(shape.file, modelFile, dataRoot);
    file = std::move(found.path);
    if (!found.warning.empty()) warning = locateMessage(shape.where, "", found.warning);
  }
  models::CollisionShape s;
  for (std::size_t m = 0; m < materials.size(); ++m) {
    if (materials[m].name == shape.material) s.material = firstMaterial + static_cast<int>(m);
  }
  s.radius = shape.radius;
  s.dimensions = shape.dimensions;
  s.length = shape.length;
  try {
    switch (shape.type) {
      case Type::Sphere:
        s.type = models::ShapeType::Sphere;
        break;
      case Type::Box:
        s.type = models::ShapeType::Box;
        break;
      case Type::Cylinder:
        s.type = models::ShapeType::Cylinder;
        break;
      case Type::Capsule:
        s.type = models::ShapeType::Capsule;
        break;
      case Type::HalfSpace:
        s.type = models::ShapeType::HalfSpace;
        break;
      case Type::Hull:
        s.type = models::ShapeType::Hull;
        s.mesh = std::make_shared<const models::TriangleMesh>(
            models::convexHull(models::readObj(file).vertices));
        break;
      case Type::Mesh:
        s.type = models::ShapeType::Mesh;
        s.mesh = std::make_shared<const models::TriangleMesh>(models::readObj(file, shape.scale));
        s.contactRadius = shape.contactRadius;
        break;
    }
  } catch (const InputError& e) {
    throw InputError(locateMessage(shape.where, "", e.what()));
  }
  return {std::move(s), std::move(warning)};
}

}  // namespace hopsim::chrono::detail
