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

/// Where a HULL or MESH shape's OBJ file is: an absolute name as it is; else under the model's
/// `data_path` root when it has one; else beside the file that names it (`modelFile`), or, when
/// it is not there but is in the working directory (where Chrono looks), there with a warning.
struct ShapeFile {
  std::string path;
  std::string warning;  ///< empty unless the working directory was used
};
ShapeFile resolveShapeFile(const std::string& name, const std::string& modelFile,
                           const std::string& dataRoot);

/// The shape as a SmoothContact shape: type and sizes, and for HULL the convex hull of the OBJ
/// file's vertices (untransformed, as Chrono reads it), for MESH the OBJ's triangles scaled by
/// `scale`, with the contact radius. The caller sets the body, the pose and the material.
/// @throws InputError located at the shape for an OBJ file that cannot be read or a hull of no
/// volume.
models::CollisionShape collisionShape(const mechanism::ContactShape& shape,
                                      const std::string& file);

}  // namespace hopsim::chrono::detail
