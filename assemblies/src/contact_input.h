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

/// A visualization shape (spec "Visualization Shape"): the keys of a collision shape's type
/// without `material`, and an optional `color`.
/// @throws InputError with file:line:col and the key path.
mechanism::VisualShape readVisualShape(Reader& r, bool degrees, const InputNode& e,
                                       const std::string& path);

/// A shape lowered for SmoothContact, and the warning its lowering gave (empty, or located at
/// the shape).
struct LoweredShape {
  models::CollisionShape shape;
  std::string warning;
};

/// The shape as a SmoothContact shape: type and sizes, for HULL the convex hull of its OBJ
/// file's vertices (untransformed, as Chrono reads it), for MESH the OBJ's triangles scaled by
/// `scale`, with the contact radius; its material is the index of `shape.material` among
/// `materials`, which the caller added to the model in that order from index `firstMaterial`.
/// The caller sets the body and the pose. The OBJ file: an absolute name as it is; else under
/// `dataRoot` when it is not empty (a model's `data_path`); else beside `modelFile`, the file
/// that names it, or, when it is not there but is in the working directory (where Chrono
/// looks), there with a warning.
/// @throws InputError located at the shape for an OBJ file that cannot be read or a hull of no
/// volume.
LoweredShape lowerShape(const mechanism::ContactShape& shape,
                        const std::vector<mechanism::ContactMaterial>& materials, int firstMaterial,
                        const std::string& modelFile, const std::string& dataRoot);

}  // namespace hopsim::chrono::detail
