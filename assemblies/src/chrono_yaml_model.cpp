// The model file: top level, data_path, bodies (frames, inertia, velocities, contact and
// visualization data), joints (frames, bushings) and constraints.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <optional>

#include "chrono_yaml_read.h"
#include "contact_input.h"
#include "hopsim/assemblies/chrono_yaml.h"
#include "hopsim/signals/error.h"

namespace hopsim::chrono {

using namespace detail;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kModelKeys = {
    "name",  "angle_degrees", "data_path", "bodies",     "joints",           "constraints",
    "tsdas", "rsdas",         "motors",    "body_loads", "load_controllers", "FEA"};
const std::vector<std::string> kBodyKeys = {"name",
                                            "fixed",
                                            "mass",
                                            "com",
                                            "inertia",
                                            "location",
                                            "orientation",
                                            "initial_linear_velocity",
                                            "initial_angular_velocity",
                                            "contact",
                                            "visualization"};
const std::vector<std::string> kVisualShapeTypes = {"SPHERE", "BOX", "CYLINDER", "MESH"};

/// The body's contact entry: materials and shapes (kept as written in Body::contact too).
void readContact(ModelContext& c, const InputNode& node, const std::string& path,
                 mechanism::Body& b) {
  Reader& r = c.reader;
  r.expectMapping(node, path);
  r.checkKeys(node, path, {"materials", "shapes", "collision_family"});
  if (const InputNode* family = node.find("collision_family")) {
    r.warn(*family, at(path, "collision_family") +
                        " is ignored as in Chrono (hopsim keeps bodies joined by a joint from "
                        "colliding; docs/contact.md)");
  }
  if (const InputNode* list = Reader::optional(node, "materials")) {
    const auto& items = r.sequence(*list, at(path, "materials"));
    for (std::size_t i = 0; i < items.size(); ++i) {
      mechanism::ContactMaterial m =
          readContactMaterial(r, items[i], item(at(path, "materials"), i));
      for (const auto& other : b.contactMaterials) {
        if (other.name == m.name) {
          r.fail(items[i], item(at(path, "materials"), i),
                 "contact material '" + m.name + "' is defined twice in this body");
        }
      }
      b.contactMaterials.push_back(std::move(m));
    }
  }
  if (const InputNode* shapes = Reader::optional(node, "shapes")) {
    const auto& items = r.sequence(*shapes, at(path, "shapes"));
    for (std::size_t i = 0; i < items.size(); ++i) {
      b.contactShapes.push_back(readContactShape(r, c.degrees, items[i],
                                                 item(at(path, "shapes"), i), b.contactMaterials,
                                                 ShapeSet::Chrono));
    }
  }
  b.contact = node;
}

/// A body's visualization shapes, for viewers: an unknown shape type warns and is skipped,
/// as Chrono skips it; `model_file` is a MESH at the reference frame.
std::vector<mechanism::VisualShape> readVisualization(ModelContext& c, const InputNode& node,
                                                      const std::string& path) {
  Reader& r = c.reader;
  r.expectMapping(node, path);
  r.checkKeys(node, path, {"model_file", "shapes"});
  std::vector<mechanism::VisualShape> shapes;
  if (const InputNode* file = Reader::optional(node, "model_file")) {
    mechanism::VisualShape mesh;
    mesh.type = mechanism::ShapeGeometry::Type::Mesh;
    mesh.file = r.text(*file, at(path, "model_file"));
    mesh.where = r.where(*file);
    shapes.push_back(std::move(mesh));
  }
  if (const InputNode* items = Reader::optional(node, "shapes")) {
    const auto& list = r.sequence(*items, at(path, "shapes"));
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string sp = item(at(path, "shapes"), i);
      r.expectMapping(list[i], sp);
      const InputNode* type = Reader::optional(list[i], "type");
      if (type == nullptr) {
        r.warn(list[i], sp + ": visualization shape without 'type' (ignored)");
      } else if (r.choice(*type, at(sp, "type"), kVisualShapeTypes, true) >= 0) {
        shapes.push_back(readVisualShape(r, c.degrees, list[i], sp));
      }
    }
  }
  return shapes;
}

mechanism::Body readBody(ModelContext& c, const InputNode& e, const std::string& p) {
  Reader& r = c.reader;
  r.expectMapping(e, p);
  std::vector<std::string> known = kBodyKeys;
  known.push_back("lin_vel");
  known.push_back("ang_vel");
  r.checkKeys(e, p, known);
  mechanism::Body b;
  b.where = r.where(e);
  b.name = r.text(r.required(e, p, "name"), at(p, "name"));
  if (const InputNode* f = Reader::optional(e, "fixed")) b.fixed = r.boolean(*f, at(p, "fixed"));
  const Vector3 location = r.vec3(r.required(e, p, "location"), at(p, "location"));
  Matrix3 R = Matrix3::Identity();
  if (const InputNode* o = Reader::optional(e, "orientation"))
    R = r.orientation(*o, at(p, "orientation"), c.degrees);
  b.X_WR = RigidTransform(R, location);
  if (const InputNode* com = Reader::optional(e, "com"); com && com->isSequence()) {
    // The older spec's form: the COM's location, COM axes along the reference frame's.
    if (!c.olderSpec) {
      r.warn(*com, at(p, "com") +
                       " given as a point, the older model spec's form; read as "
                       "com.location");
    }
    b.X_RC = RigidTransform(Matrix3::Identity(), r.vec3(*com, at(p, "com")));
  } else if (com != nullptr) {
    const std::string cp = at(p, "com");
    r.expectMapping(*com, cp);
    r.checkKeys(*com, cp, {"location", "orientation"});
    Vector3 pc = Vector3::Zero();
    Matrix3 Rc = Matrix3::Identity();
    if (const InputNode* l = Reader::optional(*com, "location"))
      pc = r.vec3(*l, at(cp, "location"));
    if (const InputNode* o = Reader::optional(*com, "orientation"))
      Rc = r.orientation(*o, at(cp, "orientation"), c.degrees);
    b.X_RC = RigidTransform(Rc, pc);
  }
  // Mass and inertia (required, and checked, for a body that moves).
  const InputNode* mass = Reader::optional(e, "mass");
  const InputNode* inertia = Reader::optional(e, "inertia");
  if (!b.fixed) {
    mass = &r.required(e, p, "mass");
    inertia = &r.required(e, p, "inertia");
  }
  if (mass != nullptr) {
    b.mass = r.number(*mass, at(p, "mass"));
    if (!b.fixed && !(b.mass > 0.0))
      r.fail(*mass, at(p, "mass"), "non-positive mass " + show(*mass) + "; expected > 0 kg");
  }
  if (inertia != nullptr) {
    const std::string ip = at(p, "inertia");
    r.expectMapping(*inertia, ip);
    r.checkKeys(*inertia, ip, {"moments", "products"});
    const InputNode* momentsNode =
        b.fixed ? Reader::optional(*inertia, "moments") : &r.required(*inertia, ip, "moments");
    Vector3 m = Vector3::Zero(), pr = Vector3::Zero();
    if (momentsNode != nullptr) m = r.vec3(*momentsNode, at(ip, "moments"));
    if (const InputNode* q = Reader::optional(*inertia, "products"))
      pr = r.vec3(*q, at(ip, "products"));
    // Products are the tensor entries [Ixy, Ixz, Iyz] (Chrono's parser; its doc says Iyz, Izx).
    b.inertia << m[0], pr[0], pr[1], pr[0], m[1], pr[2], pr[1], pr[2], m[2];
    if (!b.fixed) {
      Eigen::LLT<Matrix3> llt(b.inertia);
      const double scale = std::max(1.0, b.inertia.cwiseAbs().maxCoeff());
      if (llt.info() != Eigen::Success ||
          !(b.inertia.determinant() > 1e-14 * scale * scale * scale)) {
        r.fail(*inertia, ip,
               "inertia (moments " + (momentsNode ? show(*momentsNode) : "[]") + ", products [" +
                   std::to_string(pr[0]) + ", " + std::to_string(pr[1]) + ", " +
                   std::to_string(pr[2]) +
                   "]) is singular or not positive definite; expected a positive-definite tensor "
                   "(products are [Ixy, Ixz, Iyz])");
      }
      // No rigid mass distribution has these moments, but Chrono integrates them as given.
      const Vector3 l = Eigen::SelfAdjointEigenSolver<Matrix3>(b.inertia).eigenvalues();
      if (l[0] + l[1] < l[2] * (1.0 - 1e-12)) {
        r.warn(*inertia, at(ip, "moments") + ": principal moments " + std::to_string(l[0]) + ", " +
                             std::to_string(l[1]) + ", " + std::to_string(l[2]) +
                             " violate the triangle inequality that every rigid body satisfies; "
                             "simulated as given, as Chrono does");
      }
    }
  }
  // Initial velocities: COM velocity in world axes; angular velocity in COM axes.
  auto velocity = [&](const char* key, const char* alias, Vector3& out) {
    const InputNode* v = Reader::optional(e, key);
    const InputNode* a = Reader::optional(e, alias);
    if (a != nullptr) {
      if (v != nullptr) {
        r.warn(*a, at(p, alias) + " is not read by Chrono and '" + key +
                       "' is given; ignored (did you mean '" + key + "'?)");
      } else {
        r.warn(*a, at(p, alias) +
                       " is not read by Chrono (the body starts at rest there); "
                       "hopsim reads it as '" +
                       key + "' (did you mean '" + key + "'?)");
        v = a;
      }
    }
    if (v == nullptr) return;
    out = r.vec3(*v, at(p, v == a ? alias : key));
    if (b.fixed && out.norm() > 0.0) {
      r.warn(*v, at(p, v == a ? alias : key) + " on a fixed body is ignored");
      out.setZero();
    }
  };
  velocity("initial_linear_velocity", "lin_vel", b.v_WC_W);
  velocity("initial_angular_velocity", "ang_vel", b.w_WC_C);
  if (const InputNode* v = Reader::optional(e, "visualization")) {
    b.visualization = *v;
    b.visualShapes = readVisualization(c, *v, at(p, "visualization"));
  }
  if (const InputNode* k = Reader::optional(e, "contact")) readContact(c, *k, at(p, "contact"), b);
  return b;
}

const std::vector<std::string> kJointTypes = {"LOCK",      "SPHERICAL",  "REVOLUTE",   "PRISMATIC",
                                              "UNIVERSAL", "POINT_LINE", "POINT_PLANE"};

mechanism::Bushing readBushing(Reader& r, const InputNode& node, const std::string& p,
                               mechanism::JointType type, const InputNode& typeNode) {
  using mechanism::JointType;
  if (type == JointType::Prismatic || type == JointType::PointLine ||
      type == JointType::PointPlane) {
    r.fail(node, p,
           "a bushing on a " + show(typeNode) +
               " joint is not supported (Chrono prohibits it); expected a LOCK, SPHERICAL, "
               "REVOLUTE or UNIVERSAL joint, or no bushing_data");
  }
  r.expectMapping(node, p);
  r.checkKeys(
      node, p,
      {"stiffness_linear", "damping_linear", "stiffness_rotational", "damping_rotational", "DOF"});
  const double kl = r.number(r.required(node, p, "stiffness_linear"), at(p, "stiffness_linear"));
  const double dl = r.number(r.required(node, p, "damping_linear"), at(p, "damping_linear"));
  const double kr =
      r.number(r.required(node, p, "stiffness_rotational"), at(p, "stiffness_rotational"));
  const double dr =
      r.number(r.required(node, p, "damping_rotational"), at(p, "damping_rotational"));
  double kf = 0.0, df = 0.0;
  if (const InputNode* dof = Reader::optional(node, "DOF")) {
    const std::string dp = at(p, "DOF");
    r.expectMapping(*dof, dp);
    r.checkKeys(
        *dof, dp,
        {"stiffness_linear", "damping_linear", "stiffness_rotational", "damping_rotational"});
    const double kfl =
        r.number(r.required(*dof, dp, "stiffness_linear"), at(dp, "stiffness_linear"));
    const double dfl = r.number(r.required(*dof, dp, "damping_linear"), at(dp, "damping_linear"));
    kf = r.number(r.required(*dof, dp, "stiffness_rotational"), at(dp, "stiffness_rotational"));
    df = r.number(r.required(*dof, dp, "damping_rotational"), at(dp, "damping_rotational"));
    if (kfl != 0.0 || dfl != 0.0) {
      r.warn(*dof, dp + ": the linear DOF values are unused (as in Chrono: no joint with a "
                        "bushing has a free translation)");
    }
  }
  mechanism::Bushing b;
  b.stiffness = {kl, kl, kl, kr, kr, kr};
  b.damping = {dl, dl, dl, dr, dr, dr};
  auto freeRotation = [&](int i) {
    b.stiffness[i] = kf;
    b.damping[i] = df;
  };
  if (type == JointType::Revolute) freeRotation(5);
  if (type == JointType::Universal) freeRotation(3), freeRotation(4);
  if (type == JointType::Spherical) freeRotation(3), freeRotation(4), freeRotation(5);
  return b;
}

mechanism::Joint readJoint(ModelContext& c, const InputNode& e, const std::string& p) {
  using mechanism::JointType;
  Reader& r = c.reader;
  r.expectMapping(e, p);
  r.checkKeys(
      e, p,
      {"name", "type", "body1", "body2", "location", "axis", "axis1", "axis2", "bushing_data"});
  mechanism::Joint j;
  j.where = r.where(e);
  j.name = r.text(r.required(e, p, "name"), at(p, "name"));
  const InputNode& typeNode = r.required(e, p, "type");
  j.type = static_cast<JointType>(r.choice(typeNode, at(p, "type"), kJointTypes));
  j.body1 = c.body(e, p, "body1");
  j.body2 = c.body(e, p, "body2");
  const Vector3 location = r.vec3(r.required(e, p, "location"), at(p, "location"));
  Matrix3 R = Matrix3::Identity();
  auto unused = [&](const char* key) {
    if (const InputNode* n = e.find(key))
      r.warn(*n, at(p, key) + " is not used by a " + show(typeNode) + " joint");
  };
  switch (j.type) {
    case JointType::Revolute:
    case JointType::Prismatic:
      R = zFrame(r.direction(r.required(e, p, "axis"), at(p, "axis")));
      unused("axis1"), unused("axis2");
      break;
    case JointType::Universal: {
      const InputNode& n1 = r.required(e, p, "axis1");
      const Vector3 a1 = r.direction(n1, at(p, "axis1"));
      const Vector3 a2 = r.direction(r.required(e, p, "axis2"), at(p, "axis2"));
      const Vector3 z = a1.cross(a2);
      if (!(z.norm() > 1e-9))
        r.fail(n1, at(p, "axis1"), "axis1 and axis2 are parallel; expected two distinct axes");
      R.col(0) = a1;
      R.col(2) = z.normalized();
      R.col(1) = R.col(2).cross(R.col(0));
      unused("axis");
      break;
    }
    case JointType::PointLine:
    case JointType::PointPlane:
      if (const InputNode* a = Reader::optional(e, "axis")) {
        const Vector3 axis = r.direction(*a, at(p, "axis"));
        const Matrix3 Z = zFrame(axis);
        if (j.type == JointType::PointPlane) {
          R = Z;  // plane normal along Z
        } else {
          R.col(0) = Z.col(2);  // line along X: the Z-frame's axes cycled (Z, X, Y)
          R.col(1) = Z.col(0);
          R.col(2) = Z.col(1);
        }
        r.warn(*a, at(p, "axis") + ": Chrono ignores the axis of a " + show(typeNode) +
                       " joint (world axes: line along X, plane normal Z); hopsim orients the "
                       "joint by it");
      }
      unused("axis1"), unused("axis2");
      break;
    case JointType::Lock:
    case JointType::Spherical:
      unused("axis"), unused("axis1"), unused("axis2");
      break;
  }
  j.X_WF = RigidTransform(R, location);
  if (const InputNode* bd = Reader::optional(e, "bushing_data"))
    j.bushing = readBushing(r, *bd, at(p, "bushing_data"), j.type, typeNode);
  return j;
}

const std::vector<std::string> kConstraintTypes = {"DISTANCE", "REVOLUTE-SPHERICAL",
                                                   "REVOLUTE-TRANSLATIONAL"};

/// A constraint, or none for a composite constraint written as Chrono's spec writes it (no
/// `axis`), which Chrono ignores.
std::optional<mechanism::Constraint> readConstraint(ModelContext& c, const InputNode& e,
                                                    const std::string& p) {
  using mechanism::ConstraintType;
  Reader& r = c.reader;
  r.expectMapping(e, p);
  r.checkKeys(e, p,
              {"name", "type", "body1", "body2", "point1", "point2", "distance", "axis", "axis2"});
  mechanism::Constraint k;
  k.where = r.where(e);
  k.name = r.text(r.required(e, p, "name"), at(p, "name"));
  const InputNode& typeNode = r.required(e, p, "type");
  k.type = static_cast<ConstraintType>(r.choice(typeNode, at(p, "type"), kConstraintTypes));
  k.body1 = c.body(e, p, "body1");
  k.body2 = c.body(e, p, "body2");
  k.point1 = r.vec3(r.required(e, p, "point1"), at(p, "point1"));
  k.point2 = r.vec3(r.required(e, p, "point2"), at(p, "point2"));
  if (const InputNode* d = Reader::optional(e, "distance")) {
    k.distance = r.number(*d, at(p, "distance"));
    if (*k.distance < 0.0)
      r.fail(*d, at(p, "distance"), "negative distance " + show(*d) + "; expected >= 0 m");
    r.warn(*d, at(p, "distance") +
                   " is a hopsim extension (Chrono always uses the initial "
                   "distance |point2 - point1|)");
  }
  if (k.type == ConstraintType::Distance) {
    for (const char* key : {"axis", "axis2"})
      if (const InputNode* n = e.find(key))
        r.warn(*n, at(p, key) + " is not used by a DISTANCE constraint");
    return k;
  }
  const std::string name = kConstraintTypes[static_cast<int>(k.type)];
  const InputNode* axis = Reader::optional(e, "axis");
  if (axis == nullptr) {
    r.warn(e, p + ": " + name + " constraint '" + k.name +
                  "' without 'axis' is ignored, as Chrono ignores it (hopsim implements it when "
                  "'axis', the revolute axis fixed on body1, is given)");
    return std::nullopt;
  }
  k.axis = r.direction(*axis, at(p, "axis"));
  if (k.type == ConstraintType::RevoluteTranslational) {
    const InputNode* a2 = Reader::optional(e, "axis2");
    if (a2 == nullptr) {
      r.fail(e, at(p, "axis2"),
             "missing required key 'axis2': the sliding direction of the translational part (a "
             "world direction fixed on body2, perpendicular to 'axis')");
    }
    k.axis2 = r.direction(*a2, at(p, "axis2"));
    if (std::abs(k.axis.dot(k.axis2)) > 1e-6)
      r.fail(*a2, at(p, "axis2"),
             "axis2 " + show(*a2) + " is not perpendicular to axis " + show(*axis));
  } else if (const InputNode* n = e.find("axis2")) {
    r.warn(*n, at(p, "axis2") + " is not used by a REVOLUTE-SPHERICAL constraint");
  }
  return k;
}

template <class T, class F>
void readSection(ModelContext& c, const InputNode& model, const char* key, const char* what,
                 std::vector<T>& out, F read) {
  const InputNode* list = Reader::optional(model, key);
  if (list == nullptr) return;
  const std::string path = at("model", key);
  NameSet names(what);
  const auto& items = c.reader.sequence(*list, path);
  for (std::size_t i = 0; i < items.size(); ++i) {
    // A reader returns std::optional<T> when it may skip an entry (as Chrono skips it).
    std::optional<T> value = read(c, items[i], item(path, i));
    const InputNode& name = c.reader.required(items[i], item(path, i), "name");
    names.add(c.reader, name, at(item(path, i), "name"),
              c.reader.text(name, at(item(path, i), "name")));
    if (value) out.push_back(std::move(*value));
  }
}

/// The older spec's `spring_dampers`: TSDAs and RSDAs in one list, told apart by `type`, each
/// entry otherwise written as in `tsdas` or `rsdas`.
void readSpringDampers(ModelContext& c, const InputNode& model, mechanism::Mechanism& m) {
  const InputNode* list = Reader::optional(model, "spring_dampers");
  if (list == nullptr) return;
  Reader& r = c.reader;
  const std::string path = "model.spring_dampers";
  NameSet names("spring-damper");
  const auto& items = r.sequence(*list, path);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string p = item(path, i);
    r.expectMapping(items[i], p);
    const int type = r.choice(r.required(items[i], p, "type"), at(p, "type"), {"TSDA", "RSDA"});
    std::vector<InputNode::Entry> entries;
    for (const auto& entry : items[i].entries())
      if (entry.first != "type") entries.push_back(entry);
    const InputNode untyped = InputNode::mapping(std::move(entries), items[i].location());
    std::string name;
    if (type == 0) {
      m.tsdas.push_back(readTsda(c, untyped, p));
      name = m.tsdas.back().name;
    } else {
      m.rsdas.push_back(readRsda(c, untyped, p));
      name = m.rsdas.back().name;
    }
    names.add(r, r.required(items[i], p, "name"), at(p, "name"), name);
  }
}

}  // namespace

namespace {

/// Chrono keeps each section's names apart; hopsim names a body load's and a load controller's
/// models alike (`loads.<name>`) and a load controller's and a CONTROLLER motor's setpoints alike
/// (`controllers.<name>`), so those must differ.
void checkSharedNames(const mechanism::Mechanism& m) {
  for (const mechanism::BodyLoad& l : m.loads) {
    if (!l.controlled) continue;
    const auto clash = [&l](const std::string& other, const SourceLocation& where,
                            const std::string& shared) {
      throw InputError(locateMessage(l.where, "model.load_controllers",
                                     "load controller '" + l.name + "' has the name of the " +
                                         other + " at " + where.toString() +
                                         "; hopsim names both " + shared + l.name +
                                         " (expected different names)"));
    };
    for (const mechanism::BodyLoad& o : m.loads) {
      if (!o.controlled && o.name == l.name) clash("body load", o.where, "loads.");
    }
    for (const mechanism::Motor& motor : m.motors) {
      if (motor.function.isController() && motor.name == l.name) {
        clash("CONTROLLER motor", motor.where, "controllers.");
      }
    }
  }
}

}  // namespace

bool isOlderSpecModel(const InputNode& document) {
  return document.isMapping() && document.find("chrono-version") == nullptr &&
         document.find("model") == nullptr && document.find("bodies") != nullptr;
}

mechanism::Mechanism readModel(const InputNode& document, const std::string& file) {
  mechanism::Mechanism m;
  m.file = file;
  Reader r(file, m.warnings);
  r.expectMapping(document, "");
  ModelContext c{r};
  c.olderSpec = isOlderSpecModel(document);
  if (c.olderSpec) {
    r.warn(document,
           "read as a model of Chrono's older YAML model spec (the model's keys at the top "
           "level without 'chrono-version' and 'model', 'spring_dampers', 'com' as a point); "
           "key paths are reported as in the current spec (model.bodies[0], ...)");
  } else {
    r.checkKeys(document, "", {"chrono-version", "model"});
    checkVersion(r, document);
  }
  const InputNode& model = c.olderSpec ? document : r.required(document, "", "model");
  r.expectMapping(model, "model");
  std::vector<std::string> modelKeys = kModelKeys;
  if (c.olderSpec) modelKeys.push_back("spring_dampers");
  r.checkKeys(model, "model", modelKeys);
  if (const InputNode* n = Reader::optional(model, "name")) m.name = r.text(*n, "model.name");
  if (const InputNode* d = Reader::optional(model, "angle_degrees"))
    c.degrees = r.boolean(*d, "model.angle_degrees");
  if (const InputNode* fea = model.find("FEA"))
    r.warn(*fea, "model.FEA is not supported (ignored)");
  if (const InputNode* dp = Reader::optional(model, "data_path")) {
    r.expectMapping(*dp, "model.data_path");
    r.checkKeys(*dp, "model.data_path", {"type", "root"});
    const int type = r.choice(r.required(*dp, "model.data_path", "type"), "model.data_path.type",
                              {"ABSOLUTE", "RELATIVE"});
    std::string root = ".";
    if (const InputNode* n = Reader::optional(*dp, "root"))
      root = r.text(*n, "model.data_path.root");
    if (type == 1) {
      const fs::path base = fs::path(file).parent_path();
      m.dataRoot = (base / root).lexically_normal().string();
    } else if (root != ".") {
      m.dataRoot = root;
    }
  }
  // Bodies first: every other section names them.
  const InputNode& bodies = r.required(model, "model", "bodies");
  const auto& items = r.sequence(bodies, "model.bodies");
  if (items.empty()) r.fail(bodies, "model.bodies", "expected at least one body");
  for (std::size_t i = 0; i < items.size(); ++i) {
    mechanism::Body b = readBody(c, items[i], item("model.bodies", i));
    c.bodies.add(r, r.required(items[i], item("model.bodies", i), "name"),
                 at(item("model.bodies", i), "name"), b.name);
    m.bodies.push_back(std::move(b));
  }
  readSection(c, model, "joints", "joint", m.joints, readJoint);
  readSection(c, model, "constraints", "constraint", m.constraints, readConstraint);
  readSection(c, model, "tsdas", "TSDA", m.tsdas, readTsda);
  readSection(c, model, "rsdas", "RSDA", m.rsdas, readRsda);
  readSpringDampers(c, model, m);
  readSection(c, model, "motors", "motor", m.motors, readMotor);
  const auto loads = [](bool controlled) {
    return [controlled](ModelContext& context, const InputNode& entry, const std::string& path) {
      return readLoad(context, entry, path, controlled);
    };
  };
  readSection(c, model, "body_loads", "body load", m.loads, loads(false));
  readSection(c, model, "load_controllers", "load controller", m.loads, loads(true));
  checkSharedNames(m);
  return m;
}

}  // namespace hopsim::chrono
