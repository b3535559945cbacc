#pragma once
// Reading contact materials and collision shapes, shared by Chrono model files (a body's
// `contact`) and native scenarios (the `contact` section), which use the same keys.

#include <string>
#include <vector>

#include "chrono_yaml_read.h"
#include "hopsim/assemblies/mechanism.h"
#include "hopsim/models/collision_shape.h"

namespace hopsim::chrono::detail {

/// The shape types a file may use: Chrono's (SPHERE, BOX, CYLINDER, MESH, HULL) or, in native
/// scenarios, those and CAPSULE and HALFSPACE.
enum class ShapeSet { Chrono, Native };

/// A contact material: Chrono's spellings (the ones Chrono ignores are read too, with a
/// warning), the spec's defaults, ranges checked.
/// @throws InputError with file:line:col and the key path.
mechanism::ContactMaterial readContactMaterial(Reader& r, const InputNode& m,
                                               const std::string& path);

/// A collision shape posed in its body's frame: its keys by type (docs/chrono-yaml.md, Bodies);
/// `degrees` converts a 3-angle orientation; `material` must name one of `materials`.
/// @throws InputError with file:line:col and the key path.
mechanism::ContactShape readContactShape(Reader& r, bool degrees, const InputNode& e,
                                         const std::string& path,
                                         const std::vector<mechanism::ContactMaterial>& materials,
                                         ShapeSet types);

/// Whether SmoothContact simulates the shape (HULL and MESH are kept as data for now).
bool simulated(const mechanism::ContactShape& shape);

/// The shape's type and sizes as a SmoothContact shape (the caller sets its body, pose and
/// material). Precondition: simulated(shape).
models::CollisionShape collisionShape(const mechanism::ContactShape& shape);

}  // namespace hopsim::chrono::detail
