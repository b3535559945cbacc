#pragma once
// Where the shapes a page draws come from: a model file's visualization shapes and the
// SmoothContact models' collision shapes.

#include <map>
#include <string>
#include <vector>

#include "hopsim/assemblies/mechanism.h"
#include "hopsim/viewer/scene.h"

namespace hopsim {
class Simulation;
}

namespace hopsim::viewer {

/// A model file's visualization shape as drawn: a primitive, or a mesh from its OBJ file
/// (scaled; a HULL's convex hull), in the body frame (a model file's body frame is its
/// reference frame). @throws InputError for an OBJ file that cannot be read.
Shape visualShape(const mechanism::VisualShape& shape, const mechanism::Mechanism& mechanism);

/// The collision shapes of the simulation's SmoothContact models, as drawn (half spaces left
/// to the page's grid), by body name ("world" for the static ones).
std::map<std::string, std::vector<Shape>> collisionShapes(const Simulation& sim);

}  // namespace hopsim::viewer
