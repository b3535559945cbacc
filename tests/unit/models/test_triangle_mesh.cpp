// readObj and convexHull against hand-built references. The OBJ tests read a unit cube written
// by hand (its 8 corners, its fan triangles and its volume 1 known exactly) and files with one
// error each, whose message must name file and line. The hull tests compare against the known
// hull of the input: a box's 8 corners (volume exact to rounding, by the divergence theorem), a
// sphere's points all on the hull (Euler characteristic 2, volume near 4/3 π r³), a cube whose
// face and edge points and duplicates must all be dropped. Every hull is also checked for
// containment of every input point, outward triangles and a closed, consistently oriented
// surface.

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "hopsim/models/triangle_mesh.h"
#include "hopsim/signals/error.h"
#include "temp_dir.h"

namespace hopsim {
namespace {

using Eigen::Vector3d;
using models::convexHull;
using models::readObj;
using models::TriangleMesh;

using testing::TempDir;

/// doctest::Contains of a std::string (it takes doctest's own string only).
doctest::Contains contains(const std::string& text) { return doctest::Contains(text.c_str()); }

/// The unit cube [0, 1]³, its quads counter-clockwise from outside, in the record forms OBJ
/// writers use: v/vt/vn, v//vn, v/vt, plain and negative (relative) indices.
constexpr const char* kCubeObj = R"(# unit cube
mtllib cube.mtl
o cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0.0 0.0 1.0
v +1 0 1e0
v 1 1 1
v 0 1 1
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 -1
vn 0 0 1
g sides
usemtl steel
s off
f 1/1/1 4/2/1 3/3/1 2/4/1
f 5//2 6//2 7//2 8//2
f 1/1 2/2 6/3 5/4
f -5 -1 -2 -6
	f 1 5 8 4   # left, after a tab
f 2 3 7 6
)";

/// The volume enclosed by a closed mesh, counter-clockwise from outside (divergence theorem:
/// the sum of the signed volumes of the tetrahedra joining the origin to the triangles).
double volume(const TriangleMesh& mesh) {
  double sum = 0.0;
  for (const auto& [a, b, c] : mesh.triangles) {
    sum += mesh.vertices[a].dot(mesh.vertices[b].cross(mesh.vertices[c]));
  }
  return sum / 6.0;
}

Vector3d unitNormal(const TriangleMesh& mesh, const std::array<int, 3>& t) {
  const auto& v = mesh.vertices;
  return (v[t[1]] - v[t[0]]).cross(v[t[2]] - v[t[0]]).normalized();
}

/// The largest side of the bounding box of `points`.
double extent(const std::vector<Vector3d>& points) {
  Vector3d lower = points.front(), upper = points.front();
  for (const Vector3d& x : points) lower = lower.cwiseMin(x), upper = upper.cwiseMax(x);
  return (upper - lower).maxCoeff();
}

/// The checks every hull must pass: each directed edge once and its reverse once (a closed,
/// consistently oriented surface), V - E + F = 2, every triangle facing away from the centroid
/// of the vertices, every input point on or below every triangle's plane (1e-12 × extent).
void checkHull(const TriangleMesh& hull, const std::vector<Vector3d>& points) {
  std::map<std::pair<int, int>, int> edges;
  for (const auto& [a, b, c] : hull.triangles) {
    ++edges[{a, b}];
    ++edges[{b, c}];
    ++edges[{c, a}];
  }
  bool closed = true;
  for (const auto& [edge, count] : edges) {
    closed = closed && count == 1 && edges.count({edge.second, edge.first}) == 1;
  }
  CHECK(closed);
  const auto V = static_cast<long>(hull.vertices.size());
  const auto E = static_cast<long>(edges.size() / 2);
  const auto F = static_cast<long>(hull.triangles.size());
  CHECK(V - E + F == 2);

  Vector3d centroid = Vector3d::Zero();
  for (const Vector3d& x : hull.vertices) centroid += x;
  centroid /= static_cast<double>(hull.vertices.size());
  const double tol = 1e-12 * extent(points);
  int inward = 0, outside = 0;
  for (const auto& t : hull.triangles) {
    const Vector3d n = unitNormal(hull, t);
    const Vector3d& a = hull.vertices[t[0]];
    if (n.dot(a - centroid) <= 0.0) ++inward;
    for (const Vector3d& x : points) {
      if (n.dot(x - a) > tol) ++outside;
    }
  }
  CHECK(inward == 0);
  CHECK(outside == 0);
}

/// Uniform in (0, 1) from 32 random bits: the same numbers on every platform, which
/// std::uniform_real_distribution does not promise.
double uniform(std::mt19937& random) {
  return (static_cast<double>(random()) + 0.5) / 4294967296.0;
}

/// The 8 corners of the box centre ± half.
std::vector<Vector3d> boxCorners(const Vector3d& centre, const Vector3d& half) {
  std::vector<Vector3d> corners;
  for (const double x : {-1.0, 1.0}) {
    for (const double y : {-1.0, 1.0}) {
      for (const double z : {-1.0, 1.0}) {
        corners.push_back(centre + Vector3d(x, y, z).cwiseProduct(half));
      }
    }
  }
  return corners;
}

/// n points spread evenly over the sphere of radius r about the origin (Fibonacci lattice).
std::vector<Vector3d> fibonacciSphere(int n, double r) {
  const double goldenAngle = std::numbers::pi * (3.0 - std::sqrt(5.0));
  std::vector<Vector3d> points;
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - (2.0 * i + 1.0) / n;
    const double rho = std::sqrt(1.0 - z * z);
    points.emplace_back(r * rho * std::cos(goldenAngle * i), r * rho * std::sin(goldenAngle * i),
                        r * z);
  }
  return points;
}

}  // namespace

TEST_CASE("readObj: a unit cube of quads in every face form gives 12 fan triangles") {
  const TempDir dir;
  const TriangleMesh cube = readObj(dir.write("cube.obj", kCubeObj));
  const std::vector<Vector3d> corners{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                      {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  CHECK(cube.vertices == corners);
  // Each quad a b c d as (a, b, c), (a, c, d); OBJ's 1-based and negative indices resolved.
  const std::vector<std::array<int, 3>> triangles{{0, 3, 2}, {0, 2, 1}, {4, 5, 6}, {4, 6, 7},
                                                  {0, 1, 5}, {0, 5, 4}, {3, 7, 6}, {3, 6, 2},
                                                  {0, 4, 7}, {0, 7, 3}, {1, 2, 6}, {1, 6, 5}};
  CHECK(cube.triangles == triangles);
  CHECK(volume(cube) == doctest::Approx(1.0).epsilon(1e-15));
}

TEST_CASE("readObj: scale multiplies every vertex") {
  const TempDir dir;
  const TriangleMesh cube = readObj(dir.write("cube.obj", kCubeObj), 2.5);
  REQUIRE(cube.vertices.size() == 8);
  CHECK(cube.vertices[6] == Vector3d(2.5, 2.5, 2.5));
  CHECK(cube.vertices[1] == Vector3d(2.5, 0.0, 0.0));
  CHECK(cube.triangles.size() == 12);
  CHECK(volume(cube) == doctest::Approx(2.5 * 2.5 * 2.5).epsilon(1e-15));
}

TEST_CASE("readObj: errors name the file and the line") {
  const TempDir dir;
  const std::string vertices = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  SUBCASE("malformed number") {
    const std::string path = dir.write("bad.obj", "v 0 0 0\nv 1 0 0x\n");
    CHECK_THROWS_WITH_AS(readObj(path), contains(path + ":2: malformed number '0x'"), InputError);
  }
  SUBCASE("a vertex of two coordinates") {
    const std::string path = dir.write("bad.obj", "# two\nv 1 2\n");
    CHECK_THROWS_WITH_AS(readObj(path), contains(path + ":2: vertex has 2 coordinates"),
                         InputError);
  }
  SUBCASE("index out of range") {
    const std::string path = dir.write("bad.obj", vertices + "f 1 2 4\n");
    CHECK_THROWS_WITH_AS(readObj(path), contains(path + ":4: vertex index 4 is out of range"),
                         InputError);
  }
  SUBCASE("negative index out of range") {
    const std::string path = dir.write("bad.obj", vertices + "\nf -1 -2 -4\n");
    CHECK_THROWS_WITH_AS(readObj(path), contains(path + ":5: vertex index -4 is out of range"),
                         InputError);
  }
  SUBCASE("index 0") {
    const std::string path = dir.write("bad.obj", vertices + "f 0/1/1 1/1/1 2/1/1\n");
    CHECK_THROWS_WITH_AS(readObj(path), contains(path + ":4: vertex index 0 is invalid"),
                         InputError);
  }
  SUBCASE("malformed index") {
    const std::string path = dir.write("bad.obj", vertices + "f 1 2 three\n");
    CHECK_THROWS_WITH_AS(readObj(path), contains(path + ":4: malformed vertex index 'three'"),
                         InputError);
  }
  SUBCASE("a face of two vertices") {
    const std::string path = dir.write("bad.obj", vertices + "f 1 2\n");
    CHECK_THROWS_WITH_AS(readObj(path), contains(path + ":4: face has 2 vertices"), InputError);
  }
  SUBCASE("missing file") {
    const std::string path = dir.write("present.obj", vertices) + ".missing";
    CHECK_THROWS_WITH_AS(readObj(path), contains("cannot read '" + path + "': No such file"),
                         InputError);
  }
  SUBCASE("no vertex") {
    const std::string path = dir.write("empty.obj", "# nothing\n\nvn 0 0 1\n");
    CHECK_THROWS_WITH_AS(readObj(path), contains(path + ": no vertex"), InputError);
  }
  SUBCASE("scale not positive") {
    const std::string path = dir.write("ok.obj", vertices);
    CHECK_THROWS_WITH_AS(readObj(path, 0.0), contains(path + ": scale 0 must be"), InputError);
  }
}

TEST_CASE("convexHull: box corners among 500 interior points give the box") {
  const Vector3d centre(10.0, -3.0, 2.0), half(1.5, 0.75, 0.4);
  const std::vector<Vector3d> corners = boxCorners(centre, half);
  std::mt19937 random(20240611);
  std::vector<Vector3d> points;
  for (int i = 0; i < 500; ++i) {
    if (i == 250) points.insert(points.end(), corners.begin(), corners.end());
    const Vector3d u(uniform(random), uniform(random), uniform(random));
    points.push_back(centre + (2.0 * u - Vector3d::Ones()).cwiseProduct(half));
  }
  const TriangleMesh hull = convexHull(points);
  CHECK(hull.vertices == corners);  // the extreme points, in input order
  CHECK(hull.triangles.size() == 12);
  CHECK(volume(hull) == doctest::Approx(8.0 * half.prod()).epsilon(1e-12));
  checkHull(hull, points);
}

TEST_CASE("convexHull: every point of a sphere is a vertex") {
  const double r = 0.8;
  std::vector<Vector3d> points = fibonacciSphere(2000, r);
  for (Vector3d& x : points) x += Vector3d(0.1, -0.2, 0.3);
  const TriangleMesh hull = convexHull(points);
  CHECK(hull.vertices == points);
  CHECK(hull.triangles.size() == 2 * 2000 - 4);
  const double sphere = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  CHECK(volume(hull) < sphere);
  CHECK(volume(hull) > 0.995 * sphere);
  checkHull(hull, points);
}

TEST_CASE("convexHull: points on a cube's faces and edges and duplicates leave its 8 corners") {
  // A 7 × 7 grid on each face (edges and corners included, so each corner appears 3 times and
  // each edge point twice), the face points first so that some become vertices before the
  // corners do, then every corner once more.
  std::vector<Vector3d> points;
  for (int axis = 0; axis < 3; ++axis) {
    for (const double side : {-1.0, 1.0}) {
      for (int i = 0; i <= 6; ++i) {
        for (int j = 0; j <= 6; ++j) {
          Vector3d x;
          x[axis] = side;
          x[(axis + 1) % 3] = -1.0 + i / 3.0;
          x[(axis + 2) % 3] = -1.0 + j / 3.0;
          points.push_back(x);
        }
      }
    }
  }
  for (const Vector3d& corner : boxCorners(Vector3d::Zero(), Vector3d::Ones())) {
    points.push_back(corner);
  }
  SUBCASE("aligned with the axes") {}
  SUBCASE("rotated, so the face points are coplanar only to rounding") {
    const Eigen::Matrix3d rotation =
        Eigen::AngleAxisd(0.7, Vector3d(1, 2, 3).normalized()).toRotationMatrix();
    for (Vector3d& x : points) x = rotation * x + Vector3d(0.25, 0.5, -4.0);
  }
  const TriangleMesh hull = convexHull(points);
  CHECK(hull.vertices.size() == 8);
  CHECK(hull.triangles.size() == 12);
  CHECK(volume(hull) == doctest::Approx(8.0).epsilon(1e-12));
  checkHull(hull, points);
}

TEST_CASE("convexHull: points spanning no volume are an InputError") {
  SUBCASE("3 points") {
    const std::vector<Vector3d> points{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    CHECK_THROWS_WITH_AS(convexHull(points), doctest::Contains("convex hull of 3 points"),
                         InputError);
  }
  SUBCASE("a coplanar grid") {
    std::vector<Vector3d> points;
    for (int i = 0; i < 10; ++i) {
      for (int j = 0; j < 10; ++j) points.emplace_back(i, j, 0.5 * i + 0.25 * j);
    }
    CHECK_THROWS_WITH_AS(convexHull(points),
                         doctest::Contains("convex hull of 100 points: they are coplanar"),
                         InputError);
  }
  SUBCASE("collinear points") {
    std::vector<Vector3d> points;
    for (int i = 0; i < 7; ++i) points.emplace_back(1.0 + i, 2.0 - 0.5 * i, 3.0 * i);
    CHECK_THROWS_WITH_AS(convexHull(points),
                         doctest::Contains("convex hull of 7 points: they are collinear"),
                         InputError);
  }
  SUBCASE("one point repeated") {
    const std::vector<Vector3d> points(5, Vector3d(1, 2, 3));
    CHECK_THROWS_WITH_AS(convexHull(points),
                         doctest::Contains("convex hull of 5 points: they all coincide"),
                         InputError);
  }
}

TEST_CASE("convexHull: the same points give the same hull, bit for bit") {
  // Points in a ball: many are vertices, many are not.
  std::mt19937 random(7);
  std::vector<Vector3d> points;
  while (points.size() < 3000) {
    const Vector3d x(2.0 * uniform(random) - 1.0, 2.0 * uniform(random) - 1.0,
                     2.0 * uniform(random) - 1.0);
    if (x.squaredNorm() < 1.0) points.push_back(x);
  }
  const TriangleMesh first = convexHull(points);
  const TriangleMesh second = convexHull(points);
  CHECK(first.vertices == second.vertices);
  CHECK(first.triangles == second.triangles);
  checkHull(first, points);
}

TEST_CASE("convexHull: the hull of an OBJ cube's vertices is the cube") {
  const TempDir dir;
  const TriangleMesh cube = readObj(dir.write("cube.obj", kCubeObj));
  const TriangleMesh hull = convexHull(cube.vertices);
  CHECK(hull.vertices == cube.vertices);
  CHECK(hull.triangles.size() == 12);
  CHECK(volume(hull) == doctest::Approx(1.0).epsilon(1e-15));
  checkHull(hull, cube.vertices);
}

}  // namespace hopsim
