#pragma once
/// @file
/// Triangle meshes for collision shapes: Wavefront OBJ reading (Chrono's MESH shape, an OBJ
/// with a scale) and the 3D convex hull (Chrono's HULL shape, the hull of an OBJ's vertices).

#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

namespace hopsim::models {

/// A triangle mesh: vertices (m) and triangles as vertex index triples (counter-clockwise seen
/// from outside for a hull).
struct TriangleMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;
};

/// Reads the `v` and `f` records of a Wavefront OBJ file; faces may be `f 1 2 3`,
/// `f 1/2/3 ...`, `f 1//3 ...`, polygons of more than 3 vertices (fan-triangulated), negative
/// (relative) indices; other records (vn, vt, o, g, s, usemtl, mtllib, comments, blank lines)
/// are ignored. Vertices are multiplied by `scale`.
/// @throws InputError "path:line: ..." for a malformed number, an index out of range or 0, a
/// face with fewer than 3 vertices; readInputFile's errors for a file that cannot be read
/// (hopsim/signals/input_file.h); a file with no vertex is an error.
TriangleMesh readObj(const std::string& path, double scale = 1.0);

/// The convex hull of `points`: only its extreme points as vertices (points inside or on a
/// face/edge interior are dropped), triangles outward (counter-clockwise seen from outside).
/// Deterministic (same input, same output, bit for bit). Points within 1e-10 × extent (the
/// largest side of their bounding box) of the hull count as on it. The vertices keep the order
/// of `points`.
/// @throws InputError when the points span no volume (fewer than 4 points, all coplanar or
/// collinear), naming how many points and why.
TriangleMesh convexHull(const std::vector<Eigen::Vector3d>& points);

}  // namespace hopsim::models
