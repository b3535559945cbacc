#pragma once
/// @file
/// Converting the Python arguments of the multibody bindings (multibody_arguments.cpp): numbers,
/// poses, bodies, nodes, frames, Q, U and body forces. Each function names the argument `what`
/// in its errors: TypeMismatchError for the wrong kind of object, InputError for a wrong shape or
/// value, NotFoundError (with suggestions) for an unknown name.

#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include "hopsim/core/multibody/frames.h"
#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/core/multibody_system.h"
#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::python {

namespace py = pybind11;

// ---- numeric arguments ------------------------------------------------------------------------

/// A 1-D array of `n` finite numbers (any length for n < 0). Accepts numpy arrays and
/// sequences of ints and floats. `size` names `n` in the message ("nq": "a vector of nq = 7
/// numbers").
Eigen::VectorXd vectorArg(py::handle object, const std::string& what, Eigen::Index n,
                          const std::string& size = "");

/// A vector of 3 finite numbers.
spatial::Vector3 vector3Arg(py::handle object, const std::string& what);

/// A vector of 6 finite numbers (a spatial vector [angular; linear]).
spatial::Vector6 vector6Arg(py::handle object, const std::string& what);

/// A rows x cols matrix of finite numbers.
Eigen::MatrixXd matrixArg(py::handle object, const std::string& what, Eigen::Index rows,
                          Eigen::Index cols);

/// A 3x3 matrix of finite numbers.
spatial::Matrix3 matrix3Arg(py::handle object, const std::string& what);

/// A rotation matrix, checked orthonormal with determinant +1 to 1e-9.
spatial::Matrix3 rotationArg(py::handle object, const std::string& what);

/// A RigidTransform, or the identity for None.
spatial::RigidTransform poseArg(py::handle object, const std::string& what);

// ---- names ------------------------------------------------------------------------------------

/// Body names in index order, "world" first.
std::vector<std::string> bodyNames(const multibody::MultibodyModel& model);

/// Node names in index order.
std::vector<std::string> nodeNames(const multibody::MultibodyModel& model);

/// A body given by name or index; the world is "world" or 0.
multibody::BodyIndex bodyArg(const multibody::MultibodyModel& model, py::handle body,
                             const std::string& what);

/// A body other than the world.
multibody::BodyIndex movingBodyArg(const multibody::MultibodyModel& model, py::handle body,
                                   const std::string& what);

/// A node given by name or index.
multibody::NodeIndex nodeArg(const multibody::MultibodyModel& model, py::handle node,
                             const std::string& what);

/// A frame: "world", "body:<b>", "node:<n>", "inboard:<b>", "outboard:<b>", a bare body or node
/// name (when it names only one of them), or a body index.
multibody::Frame frameArg(const multibody::MultibodyModel& model, py::handle frame,
                          const std::string& what);

// ---- state and forces -------------------------------------------------------------------------

/// The Q to evaluate at: `q`, or the system's current Q for None.
Eigen::VectorXd qArg(MultibodySystem& system, py::handle q, const std::string& what);

/// The U to evaluate at: `u`, or the system's current U for None.
Eigen::VectorXd uArg(MultibodySystem& system, py::handle u, const std::string& what);

/// External forces {body: [n; f] about Bo in B} as one SpatialForce per body (empty for None).
std::vector<spatial::SpatialForce> bodyForcesArg(const multibody::MultibodyModel& model,
                                                 py::handle forces, const std::string& what);

}  // namespace hopsim::python
