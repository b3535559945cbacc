// The value types of the multibody bindings: RigidTransform (poses; quaternions scalar first),
// SpatialInertia (mass properties about the body origin), HingeType, SubhingeType, Hinge, and
// EnergyAndMomentum (the result of MultibodySystem.energy_and_momentum). Their arguments are
// converted by multibody_arguments.h; MultibodySystem itself is bound in multibody.cpp.

#include "spatial_types.h"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <sstream>
#include <string>
#include <vector>

#include "hopsim/core/multibody/hinge.h"
#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/core/spatial/spatial_inertia.h"
#include "hopsim/signals/error.h"
#include "multibody_arguments.h"

namespace hopsim::python {
namespace {

using multibody::Hinge;
using multibody::HingeType;
using multibody::SubhingeType;
using spatial::Matrix3;
using spatial::Quaternion;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

// ---- formatting -------------------------------------------------------------------------------

std::string formatVector(const Eigen::VectorXd& v) {
  std::ostringstream os;
  os.precision(6);
  os << "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) os << (i > 0 ? ", " : "") << v[i];
  os << "]";
  return os.str();
}

std::string hingeRepr(const Hinge& h) {
  std::string text = "Hinge(" + std::string(multibody::toString(h.type()));
  for (int k = 0; k < h.subhingeCount(); ++k) {
    const auto type = h.subhinge(k).type;
    if (type == SubhingeType::Pin || type == SubhingeType::Slider) {
      text += (k == 0 ? ", axes=" : ", ") + formatVector(h.subhinge(k).axis);
    }
  }
  return text + ")";
}

// ---- bindings ---------------------------------------------------------------------------------

void bindRigidTransform(py::module_& m) {
  py::class_<RigidTransform>(
      m, "RigidTransform",
      "The pose X_AB of a frame B in a frame A: the rotation R_AB (3x3, its columns are B's axes "
      "expressed in A, so v_A = R_AB v_B) and the translation p_AoBo_A (m, B's origin from A's, "
      "in A). `X_AB @ X_BC` composes to X_AC; `X_AB @ p_B` maps a point from B to A. "
      "Quaternions are scalar first, [e0, e1, e2, e3] = [cos(θ/2), sin(θ/2) n].")
      .def(py::init([](py::object rotation, py::object translation) {
             return RigidTransform(
                 rotation.is_none() ? Matrix3(Matrix3::Identity())
                                    : rotationArg(rotation, "RigidTransform: rotation"),
                 translation.is_none() ? Vector3(Vector3::Zero())
                                       : vector3Arg(translation, "RigidTransform: translation"));
           }),
           py::arg("rotation") = py::none(), py::arg("translation") = py::none(),
           "X_AB from R_AB (3x3 rotation matrix, checked orthonormal with det +1 to 1e-9; None: "
           "identity) and p_AoBo_A (3 numbers, m; None: zero).")
      .def_static("identity", &RigidTransform::Identity, "The identity pose.")
      .def_static(
          "from_translation",
          [](py::object p) {
            return RigidTransform::fromTranslation(vector3Arg(p, "from_translation: translation"));
          },
          py::arg("translation"), "A pure translation p_AoBo_A (m).")
      .def_static(
          "from_rotation",
          [](py::object R) {
            return RigidTransform::fromRotation(rotationArg(R, "from_rotation: rotation"));
          },
          py::arg("rotation"), "A pure rotation R_AB.")
      .def_static(
          "from_quaternion",
          [](py::object q, py::object p) {
            const Quaternion qv = spatial::normalizeQuaternion(
                vectorArg(q, "from_quaternion: quaternion", 4), "from_quaternion: quaternion");
            return RigidTransform::fromQuaternion(
                qv, p.is_none() ? Vector3(Vector3::Zero())
                                : vector3Arg(p, "from_quaternion: translation"));
          },
          py::arg("quaternion"), py::arg("translation") = py::none(),
          "X_AB from q_AB, scalar first [e0, e1, e2, e3] (normalized here), and p_AoBo_A (m).")
      .def_static(
          "from_axis_angle",
          [](py::object axis, double angle, py::object p) {
            return RigidTransform(
                spatial::rotationFromAxisAngle(vector3Arg(axis, "from_axis_angle: axis"), angle),
                p.is_none() ? Vector3(Vector3::Zero())
                            : vector3Arg(p, "from_axis_angle: translation"));
          },
          py::arg("axis"), py::arg("angle"), py::arg("translation") = py::none(),
          "B rotated from A by `angle` (rad, right hand) about `axis` (need not be unit), with "
          "origin at p_AoBo_A (m).")
      .def_static(
          "from_euler",
          [](const std::string& sequence, py::object angles, bool intrinsic, py::object p) {
            return RigidTransform(
                spatial::rotationFromEuler(
                    spatial::eulerSequenceFromString(sequence),
                    vector3Arg(angles, "from_euler: angles"),
                    intrinsic ? spatial::EulerAxes::Intrinsic : spatial::EulerAxes::Extrinsic),
                p.is_none() ? Vector3(Vector3::Zero()) : vector3Arg(p, "from_euler: translation"));
          },
          py::arg("sequence"), py::arg("angles"), py::arg("intrinsic") = true,
          py::arg("translation") = py::none(),
          "R_AB from three angles (rad) of an Euler/Cardan sequence ('XYZ', 'ZXZ', ...): "
          "intrinsic (body-fixed axes, R = R_i(a) R_j(b) R_k(c); a GIMBAL hinge) or extrinsic "
          "(space-fixed axes, R = R_k(c) R_j(b) R_i(a)).")
      .def_static(
          "from_matrix",
          [](py::object T) {
            const Eigen::MatrixXd H = matrixArg(T, "from_matrix: matrix", 4, 4);
            if (H.row(3) != Eigen::RowVector4d(0, 0, 0, 1)) {
              throw InputError("from_matrix: matrix: the last row is " +
                               formatVector(H.row(3).transpose()) +
                               "; expected [0, 0, 0, 1] (a homogeneous transform)");
            }
            return RigidTransform(rotationArg(py::cast(Matrix3(H.topLeftCorner<3, 3>())),
                                              "from_matrix: matrix[:3, :3]"),
                                  Vector3(H.topRightCorner<3, 1>()));
          },
          py::arg("matrix"), "X_AB from its 4x4 homogeneous matrix [[R_AB, p_AoBo_A], [0, 1]].")
      .def_property_readonly(
          "rotation", [](const RigidTransform& X) { return X.rotation(); }, "R_AB (3x3, a copy).")
      .def_property_readonly(
          "translation", [](const RigidTransform& X) { return X.translation(); },
          "p_AoBo_A (m, a copy).")
      .def_property_readonly("quaternion", &RigidTransform::quaternion,
                             "q_AB scalar first [e0, e1, e2, e3], canonical (e0 >= 0).")
      .def_property_readonly("matrix", &RigidTransform::matrix,
                             "The 4x4 homogeneous matrix [[R_AB, p_AoBo_A], [0, 0, 0, 1]].")
      .def("inverse", &RigidTransform::inverse, "X_BA = X_AB⁻¹.")
      .def(
          "__matmul__",
          [](const RigidTransform& X, py::object other) -> py::object {
            if (py::isinstance<RigidTransform>(other)) {
              return py::cast(X * other.cast<RigidTransform>());
            }
            return py::cast(X.applyToPoint(vector3Arg(other, "RigidTransform @ point")));
          },
          py::arg("other"),
          "X_AB @ X_BC is the composition X_AC; X_AB @ p_BoQ_B is the point p_AoQ_A (m).")
      .def(
          "apply_to_point",
          [](const RigidTransform& X, py::object p) {
            return X.applyToPoint(vector3Arg(p, "apply_to_point: point"));
          },
          py::arg("point"), "p_AoQ_A = R_AB p_BoQ_B + p_AoBo_A (m).")
      .def(
          "apply_to_vector",
          [](const RigidTransform& X, py::object v) {
            return X.applyToVector(vector3Arg(v, "apply_to_vector: vector"));
          },
          py::arg("vector"), "A free vector re-expressed from B to A: v_A = R_AB v_B.")
      .def("is_approx", &RigidTransform::isApprox, py::arg("other"), py::arg("tolerance") = 1e-12,
           "Whether both poses agree within `tolerance` (max-abs over R and over p in m).")
      .def("__repr__", [](const RigidTransform& X) {
        return "RigidTransform(quaternion=" + formatVector(X.quaternion()) +
               ", translation=" + formatVector(X.translation()) + ")";
      });
}

void bindSpatialInertia(py::module_& m) {
  py::class_<SpatialInertia>(
      m, "SpatialInertia",
      "The mass properties of a rigid body about its body frame origin Bo, in B's axes: the "
      "mass m (kg), the CM position p_BoBcm_B (m) and the rotational inertia about the CM "
      "I_Bcm_B (kg·m², the tensor [[Ixx, -Pxy, -Pxz], ...] with products Pxy = +∫xy dm).")
      .def(py::init([](double mass, py::object com, py::object inertia) {
             return SpatialInertia::fromCmInertia(
                 mass,
                 com.is_none() ? Vector3(Vector3::Zero()) : vector3Arg(com, "SpatialInertia: com"),
                 inertia.is_none() ? Matrix3(Matrix3::Zero())
                                   : matrix3Arg(inertia, "SpatialInertia: inertia"),
                 "SpatialInertia");
           }),
           py::arg("mass"), py::arg("com") = py::none(), py::arg("inertia") = py::none(),
           "A body of `mass` (kg, finite and positive) with its CM at `com` = p_BoBcm_B (m; "
           "None: at Bo) and the inertia tensor `inertia` ABOUT THE CM in B's axes (kg·m²; "
           "None: zero, a point mass). Raises InputError for invalid values (negative or "
           "non-symmetric inertia, triangle inequality violated).")
      .def_static(
          "from_origin_inertia",
          [](double mass, py::object com, py::object inertia) {
            return SpatialInertia::fromOriginInertia(
                mass, vector3Arg(com, "from_origin_inertia: com"),
                matrix3Arg(inertia, "from_origin_inertia: inertia"), "from_origin_inertia");
          },
          py::arg("mass"), py::arg("com"), py::arg("inertia"),
          "A body whose inertia tensor is given about the body frame origin Bo (kg·m²; the "
          "seed's `inertia` parameter): I_Bcm = I_BBo + m c̃c̃.")
      .def_static(
          "point_mass",
          [](double mass, py::object p) {
            return SpatialInertia::pointMass(mass, vector3Arg(p, "point_mass: position"),
                                             "point_mass");
          },
          py::arg("mass"), py::arg("position") = Vector3(Vector3::Zero()),
          "A point mass (kg) at p_BoQ_B (m).")
      .def_property_readonly("mass", &SpatialInertia::mass, "m (kg).")
      .def_property_readonly(
          "com", [](const SpatialInertia& M) { return M.comPosition(); }, "p_BoBcm_B (m).")
      .def_property_readonly(
          "inertia", [](const SpatialInertia& M) { return M.rotationalInertiaAboutCm(); },
          "I_Bcm_B, the inertia tensor about the CM in B's axes (kg·m²).")
      .def_property_readonly("inertia_about_origin", &SpatialInertia::rotationalInertiaAboutOrigin,
                             "I_BBo_B, the inertia tensor about Bo in B's axes (kg·m²).")
      .def_property_readonly("matrix", &SpatialInertia::matrix,
                             "The 6x6 matrix [[I_BBo_B, m c̃], [-m c̃, m 1]] acting on [ω; v_Bo].")
      .def(
          "transformed",
          [](const SpatialInertia& M, const RigidTransform& X_AB) { return M.transformed(X_AB); },
          py::arg("X_AB"),
          "The same body's mass properties about Ao in A, for X_AB the pose of B in A.")
      .def(
          "__add__", [](const SpatialInertia& a, const SpatialInertia& b) { return a + b; },
          "The composite of two bodies given about the same point in the same frame.")
      .def("__repr__", [](const SpatialInertia& M) {
        std::ostringstream os;
        os.precision(6);
        const Matrix3 I = M.rotationalInertiaAboutCm();
        os << "SpatialInertia(mass=" << M.mass() << ", com=" << formatVector(M.comPosition())
           << ", inertia diag=" << formatVector(I.diagonal()) << ")";
        return os.str();
      });
}

void bindHinges(py::module_& m) {
  py::enum_<HingeType>(m, "HingeType", "The hinge types (docs/multibody.md, Hinges).")
      .value("LOCKED", HingeType::Locked)
      .value("PIN", HingeType::Pin)
      .value("SLIDER", HingeType::Slider)
      .value("CYLINDRICAL", HingeType::Cylindrical)
      .value("UJOINT", HingeType::Ujoint)
      .value("GIMBAL", HingeType::Gimbal)
      .value("BALL", HingeType::Ball)
      .value("PLANAR", HingeType::Planar)
      .value("TRANSLATIONAL", HingeType::Translational)
      .value("FULL6DOF", HingeType::Full6Dof)
      .value("FULL6DOF_INERTIAL", HingeType::Full6DofInertial);
  py::enum_<SubhingeType>(m, "SubhingeType", "The elementary joints hinges are made of.")
      .value("PIN", SubhingeType::Pin)
      .value("SLIDER", SubhingeType::Slider)
      .value("BALL", SubhingeType::Ball)
      .value("FREE", SubhingeType::Free)
      .value("FREE_INERTIAL", SubhingeType::FreeInertial);

  const auto axis = [](py::object a, const char* what) { return vector3Arg(a, what); };
  py::class_<Hinge>(
      m, "Hinge",
      "A hinge: the joint between a body and its parent, a chain of subhinges moving the "
      "hinge's outboard frame M (on the body) relative to its inboard frame F (on the parent). "
      "Axes are in the inboard frame of their subhinge (the first in F) and are normalized. Q and "
      "U of each type: docs/multibody.md, Hinges (angles rad, offsets m, quaternions scalar "
      "first).")
      .def_static("locked", &Hinge::locked, "LOCKED: no degree of freedom, M = F.")
      .def_static(
          "pin", [=](py::object a) { return Hinge::pin(axis(a, "Hinge.pin: axis")); },
          py::arg("axis"), "PIN: rotation θ (rad) about `axis` (in F). Q = [θ], U = [θ̇].")
      .def_static(
          "slider", [=](py::object a) { return Hinge::slider(axis(a, "Hinge.slider: axis")); },
          py::arg("axis"), "SLIDER: translation d (m) along `axis` (in F). Q = [d], U = [ḋ].")
      .def_static(
          "cylindrical",
          [=](py::object a) { return Hinge::cylindrical(axis(a, "Hinge.cylindrical: axis")); },
          py::arg("axis"), "CYLINDRICAL: translation then rotation along/about `axis`. Q = [d, θ].")
      .def_static(
          "ujoint",
          [=](py::object a1, py::object a2) {
            return Hinge::ujoint(axis(a1, "Hinge.ujoint: axis1"), axis(a2, "Hinge.ujoint: axis2"));
          },
          py::arg("axis1"), py::arg("axis2"),
          "UJOINT: θ1 about axis1 (in F), then θ2 about axis2 (in the rotated frame).")
      .def_static(
          "gimbal",
          [=](py::object a1, py::object a2, py::object a3) {
            return Hinge::gimbal(axis(a1, "Hinge.gimbal: axis1"), axis(a2, "Hinge.gimbal: axis2"),
                                 axis(a3, "Hinge.gimbal: axis3"));
          },
          py::arg("axis1") = Vector3(Vector3::UnitX()),
          py::arg("axis2") = Vector3(Vector3::UnitY()),
          py::arg("axis3") = Vector3(Vector3::UnitZ()),
          "GIMBAL: three successive rotations, R_FM = R(n1, θ1) R(n2, θ2) R(n3, θ3) (default "
          "x, y, z: intrinsic XYZ).")
      .def_static("ball", &Hinge::ball, "BALL: free rotation. Q = q_FM (4), U = ω_FM_M (3).")
      .def_static(
          "planar",
          [=](py::object a1, py::object a2) {
            return Hinge::planar(axis(a1, "Hinge.planar: axis1"), axis(a2, "Hinge.planar: axis2"));
          },
          py::arg("axis1") = Vector3(Vector3::UnitX()),
          py::arg("axis2") = Vector3(Vector3::UnitY()),
          "PLANAR: translations along axis1 then axis2 (in F; no rotation).")
      .def_static(
          "translational",
          [=](py::object a1, py::object a2, py::object a3) {
            return Hinge::translational(axis(a1, "Hinge.translational: axis1"),
                                        axis(a2, "Hinge.translational: axis2"),
                                        axis(a3, "Hinge.translational: axis3"));
          },
          py::arg("axis1") = Vector3(Vector3::UnitX()),
          py::arg("axis2") = Vector3(Vector3::UnitY()),
          py::arg("axis3") = Vector3(Vector3::UnitZ()),
          "TRANSLATIONAL: translations along three axes (in F).")
      .def_static("full6dof", &Hinge::full6Dof,
                  "FULL6DOF: Q = [q_FM (4); p_FoMo_F (3)], U = [ω_FM_M; v_FMo_M] (rates in M).")
      .def_static("full6dof_inertial", &Hinge::full6DofInertial,
                  "FULL6DOF_INERTIAL: Q = [q_FM; p_FoMo_F], U = [ω_FM_F; v_FMo_F] (rates in F).")
      .def_property_readonly("type", &Hinge::type, "The HingeType.")
      .def_property_readonly("nq", &Hinge::nq, "Number of coordinates Q.")
      .def_property_readonly("nu", &Hinge::nu, "Number of rates U (degrees of freedom).")
      .def_property_readonly("subhinge_count", &Hinge::subhingeCount, "Number of subhinges.")
      .def_property_readonly(
          "subhinge_types",
          [](const Hinge& h) {
            std::vector<SubhingeType> types;
            for (int k = 0; k < h.subhingeCount(); ++k) types.push_back(h.subhinge(k).type);
            return types;
          },
          "The SubhingeType of each subhinge, in chain order.")
      .def_property_readonly(
          "axes",
          [](const Hinge& h) {
            std::vector<Vector3> axes;
            for (int k = 0; k < h.subhingeCount(); ++k) axes.push_back(h.subhinge(k).axis);
            return axes;
          },
          "The unit axis of each subhinge, in its inboard frame (unused for BALL and free "
          "subhinges).")
      .def("__repr__", &hingeRepr);
}

py::class_<EnergyAndMomentum> bindEnergyAndMomentum(py::module_& m) {
  py::class_<EnergyAndMomentum> c(
      m, "EnergyAndMomentum",
      "Energies and momenta of a multibody system at one state (MultibodySystem."
      "energy_and_momentum). Potential energy is that of the uniform gravity, zero at the world "
      "origin; vectors are in the world frame W.");
  c.def_readonly("kinetic_energy", &EnergyAndMomentum::kineticEnergy, "Kinetic energy (J).")
      .def_readonly("potential_energy", &EnergyAndMomentum::potentialEnergy,
                    "Potential energy in gravity, -Σ m g·p_cm (J).")
      .def_property_readonly(
          "total_energy",
          [](const EnergyAndMomentum& e) { return e.kineticEnergy + e.potentialEnergy; },
          "kinetic_energy + potential_energy (J).")
      .def_readonly("total_mass", &EnergyAndMomentum::totalMass, "Sum of the bodies' masses (kg).")
      .def_readonly("center_of_mass", &EnergyAndMomentum::centerOfMass,
                    "The system CM p_WoScm_W (m).")
      .def_readonly("linear_momentum", &EnergyAndMomentum::linearMomentum, "L_W (kg·m/s).")
      .def_readonly("angular_momentum", &EnergyAndMomentum::angularMomentum,
                    "H about the world origin Wo, in W (kg·m²/s).")
      .def(
          "angular_momentum_about",
          [](const EnergyAndMomentum& e, py::object point) {
            // H_P = Σ (r - p) × m v = H_Wo - p × L.
            const Vector3 p = vector3Arg(point, "angular_momentum_about: point");
            return Vector3(e.angularMomentum - p.cross(e.linearMomentum));
          },
          py::arg("point"),
          "Angular momentum about the point p_WoP_W (m), in W: H_Wo - p × L (kg·m²/s).")
      .def("__repr__", [](const EnergyAndMomentum& e) {
        std::ostringstream os;
        os.precision(10);
        os << "EnergyAndMomentum(kinetic_energy=" << e.kineticEnergy
           << ", potential_energy=" << e.potentialEnergy
           << ", linear_momentum=" << formatVector(e.linearMomentum)
           << ", angular_momentum=" << formatVector(e.angularMomentum) << ")";
        return os.str();
      });
  return c;
}

}  // namespace

void bindSpatialTypes(py::module_& m) {
  bindRigidTransform(m);
  bindSpatialInertia(m);
  bindHinges(m);
  bindEnergyAndMomentum(m);
}

}  // namespace hopsim::python
