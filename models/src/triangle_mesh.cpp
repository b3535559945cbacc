#include "hopsim/models/triangle_mesh.h"

#include <Eigen/Geometry>  // cross products
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "hopsim/signals/error.h"
#include "hopsim/signals/input_file.h"
#include "hopsim/signals/value.h"

namespace hopsim::models {
namespace {

using Eigen::Vector3d;

// ---------------------------------------------------------------------------------------------
// Wavefront OBJ

/// The whitespace-separated fields of `line` (a trailing '\r' of a Windows file included).
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  constexpr std::string_view kSpace = " \t\r\f\v";
  std::size_t begin = line.find_first_not_of(kSpace);
  while (begin != std::string_view::npos) {
    const std::size_t end = std::min(line.find_first_of(kSpace, begin), line.size());
    out.push_back(line.substr(begin, end - begin));
    begin = line.find_first_not_of(kSpace, end);
  }
  return out;
}

/// `field` as a finite double; `at` is the "path:line: " prefix of the error.
double parseNumber(std::string_view field, const std::string& at) {
  std::string_view digits = field;
  // std::from_chars takes no leading '+', which OBJ writers may print.
  if (digits.size() > 1 && digits.front() == '+') digits.remove_prefix(1);
  double x = 0.0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
  if (ec != std::errc() || end != digits.data() + digits.size() || !std::isfinite(x)) {
    throw InputError(at + "malformed number '" + std::string(field) + "'");
  }
  return x;
}

/// The 0-based vertex of a face field `v`, `v/vt`, `v/vt/vn` or `v//vn`: OBJ counts from 1, and
/// a negative index counts back from the last vertex read so far (-1 is the last).
int parseVertexIndex(std::string_view field, int vertexCount, const std::string& at) {
  const std::string_view digits = field.substr(0, field.find('/'));
  long long index = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    throw InputError(at + "malformed vertex index '" + std::string(field) + "'");
  }
  if (index == 0) {
    throw InputError(at + "vertex index 0 is invalid (OBJ indices start at 1; negative ones " +
                     "count back from the last vertex)");
  }
  const long long resolved = index > 0 ? index - 1 : vertexCount + index;
  if (resolved < 0 || resolved >= vertexCount) {
    throw InputError(at + "vertex index " + std::to_string(index) + " is out of range (" +
                     std::to_string(vertexCount) + " vertices read so far)");
  }
  return static_cast<int>(resolved);
}

// ---------------------------------------------------------------------------------------------
// Exact orientation

/// a + b = s + e exactly (Knuth's TwoSum; needs round-to-nearest double arithmetic).
void twoSum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bVirtual = s - a;
  const double aVirtual = s - bVirtual;
  e = (a - aVirtual) + (b - bVirtual);
}

/// a * b = p + e exactly: the fused multiply-add returns the product's rounding error.
void twoProduct(double a, double b, double& p, double& e) {
  p = a * b;
  e = std::fma(a, b, -p);
}

/// The sign of the exact sum of `terms`. The running sum is kept as an expansion, components of
/// increasing magnitude that do not overlap (Shewchuk's Grow-Expansion, zeros dropped), so the
/// sign of the sum is the sign of its largest component.
int exactSign(const std::vector<double>& terms) {
  std::vector<double> sum, grown;
  for (const double term : terms) {
    grown.clear();
    double q = term;
    for (const double component : sum) {
      double error = 0.0;
      twoSum(q, component, q, error);
      if (error != 0.0) grown.push_back(error);
    }
    if (q != 0.0) grown.push_back(q);
    sum.swap(grown);
  }
  if (sum.empty()) return 0;
  return sum.back() > 0.0 ? 1 : -1;
}

/// The sign of det[b - a, c - a, d - a], exactly: +1 when d is above the triangle a, b, c (seen
/// counter-clockwise from above), -1 below, 0 in its plane. Exact signs keep the hull's topology
/// consistent whatever rounding does to nearly coplanar points: the faces a point sees then
/// always form a disk, bounded by one simple horizon loop.
int orientation(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d) {
  const Vector3d u = b - a, v = c - a, w = d - a;
  const double det = u.x() * (v.y() * w.z() - v.z() * w.y()) +
                     u.y() * (v.z() * w.x() - v.x() * w.z()) +
                     u.z() * (v.x() * w.y() - v.y() * w.x());
  const double permanent = std::abs(u.x()) * (std::abs(v.y() * w.z()) + std::abs(v.z() * w.y())) +
                           std::abs(u.y()) * (std::abs(v.z() * w.x()) + std::abs(v.x() * w.z())) +
                           std::abs(u.z()) * (std::abs(v.x() * w.y()) + std::abs(v.y() * w.x()));
  // Shewchuk's error bound of this evaluation is 7.8e-16 × permanent: beyond it the rounded sign
  // is right, which is the case for all but nearly coplanar points.
  if (std::abs(det) > 1e-15 * permanent) return det > 0.0 ? 1 : -1;

  // Nearly coplanar: each difference is exactly hi + lo, each product of three doubles exactly
  // four doubles, so the determinant is an exact sum of at most 6 × 8 × 4 doubles.
  std::array<std::array<double, 2>, 3> du{}, dv{}, dw{};
  for (int k = 0; k < 3; ++k) {
    twoSum(b[k], -a[k], du[k][0], du[k][1]);
    twoSum(c[k], -a[k], dv[k][0], dv[k][1]);
    twoSum(d[k], -a[k], dw[k][0], dw[k][1]);
  }
  // det = sum over the permutations (i, j, k) of (0, 1, 2) of sign × u_i v_j w_k.
  constexpr std::array<std::array<int, 4>, 6> kPermutations{
      {{0, 1, 2, 1}, {1, 2, 0, 1}, {2, 0, 1, 1}, {0, 2, 1, -1}, {1, 0, 2, -1}, {2, 1, 0, -1}}};
  std::vector<double> terms;
  terms.reserve(6 * 8 * 4);
  for (const auto& [i, j, k, sign] : kPermutations) {
    for (const double x : du[i]) {
      for (const double y : dv[j]) {
        for (const double z : dw[k]) {
          double xy = 0.0, xyError = 0.0, p1 = 0.0, e1 = 0.0, p2 = 0.0, e2 = 0.0;
          twoProduct(x, y, xy, xyError);
          twoProduct(xy, z, p1, e1);
          twoProduct(xyError, z, p2, e2);
          for (const double t : {p1, e1, p2, e2}) {
            if (t != 0.0) terms.push_back(sign * t);
          }
        }
      }
    }
  }
  return exactSign(terms);
}

// ---------------------------------------------------------------------------------------------
// Quickhull

/// A triangle of the hull under construction.
struct Face {
  std::array<int, 3> v{};    ///< point indices, counter-clockwise seen from outside
  std::array<int, 3> adj{};  ///< adj[i]: the face across the edge v[i] -> v[i + 1]
  Vector3d normal;           ///< unit, outward
  double offset = 0.0;       ///< the plane is normal · x = offset
  std::vector<int> outside;  ///< conflict list: the points more than tol above the plane
  bool alive = true;
  int stamp = -1;        ///< the step that last classified the face as visible or not
  bool visible = false;  ///< valid when stamp is the current step
};

/// One horizon edge a -> b, seen counter-clockwise from outside by the visible face it bounds;
/// `hidden` is the face beyond it that stays.
struct HorizonEdge {
  int a, b, hidden;
};

/// Quickhull (Barber, Dobkin, Huhdanpaa 1996) over points centred on their bounding box (so
/// rounding is relative to the extent, not to the distance from the origin). Topology decisions
/// (which faces a point sees) use exact signs; a point is added only when it is more than `tol`
/// above a face, so points within tol of the hull never become vertices.
class Quickhull {
 public:
  Quickhull(const std::vector<Vector3d>& points, double tol)
      : p_(points), tol_(tol), startsAt_(points.size(), -1) {}

  /// The outward triangles of the hull of the points `ids` (point indices, increasing).
  /// @throws InputError when they span no volume; `count` is the number of points to name.
  std::vector<std::array<int, 3>> run(const std::vector<int>& ids, std::size_t count) {
    const auto [a, b, c, d] = initialSimplex(ids, count);
    // initialSimplex puts d below the triangle a, b, c: the other faces turn their outside
    // away from the fourth vertex.
    for (const auto& [x, y, z] : {std::array<int, 3>{a, b, c}, std::array<int, 3>{a, d, b},
                                  std::array<int, 3>{b, d, c}, std::array<int, 3>{c, d, a}}) {
      addFace(x, y, z);
    }
    for (int f = 0; f < 4; ++f) {
      for (int g = 0; g < 4; ++g) {
        for (int i = 0; i < 3; ++i) {
          if (edgeIndex(g, faces_[f].v[(i + 1) % 3], faces_[f].v[i]) >= 0) faces_[f].adj[i] = g;
        }
      }
    }
    for (const int i : ids) {
      if (i == a || i == b || i == c || i == d) continue;
      assign(i, 0, 4);
    }
    std::vector<int> pending{0, 1, 2, 3};
    while (!pending.empty()) {
      const int f = pending.back();
      pending.pop_back();
      if (faces_[f].alive && !faces_[f].outside.empty()) addFarthestPoint(f, pending);
    }
    std::vector<std::array<int, 3>> triangles;
    for (const Face& face : faces_) {
      if (face.alive) triangles.push_back(face.v);
    }
    return triangles;
  }

 private:
  /// Four points of `ids` spanning a tetrahedron wider than tol, d below the triangle a, b, c.
  std::array<int, 4> initialSimplex(const std::vector<int>& ids, std::size_t count) const {
    const std::string what = "convex hull of " + std::to_string(count) + " points: ";
    const std::string within = " to within " + formatNumber(tol_) + " (1e-10 × their extent)";
    if (ids.size() < 4) {
      throw InputError(what + "at least 4 points not in one plane are needed to span a volume");
    }
    // The farthest pair among the points extreme along the axes spans a long base.
    std::array<int, 6> extreme{};
    extreme.fill(ids[0]);
    for (const int i : ids) {
      for (int k = 0; k < 3; ++k) {
        if (p_[i][k] < p_[extreme[2 * k]][k]) extreme[2 * k] = i;
        if (p_[i][k] > p_[extreme[2 * k + 1]][k]) extreme[2 * k + 1] = i;
      }
    }
    int a = extreme[0], b = extreme[0];
    for (const int i : extreme) {
      for (const int j : extreme) {
        if ((p_[j] - p_[i]).squaredNorm() > (p_[b] - p_[a]).squaredNorm()) {
          a = i;
          b = j;
        }
      }
    }
    if ((p_[b] - p_[a]).norm() <= tol_) {
      throw InputError(what + "they all coincide" + within + ", so they span no volume");
    }
    const Vector3d axis = (p_[b] - p_[a]).normalized();
    int c = a;
    double farthest = 0.0;
    for (const int i : ids) {
      const double distance = axis.cross(p_[i] - p_[a]).norm();
      if (distance > farthest) {
        c = i;
        farthest = distance;
      }
    }
    if (farthest <= tol_) {
      throw InputError(what + "they are collinear" + within + ", so they span no volume");
    }
    const Vector3d normal = (p_[b] - p_[a]).cross(p_[c] - p_[a]).normalized();
    int d = a;
    farthest = 0.0;
    for (const int i : ids) {
      const double distance = std::abs(normal.dot(p_[i] - p_[a]));
      if (distance > farthest) {
        d = i;
        farthest = distance;
      }
    }
    if (farthest <= tol_) {
      throw InputError(what + "they are coplanar" + within + ", so they span no volume");
    }
    if (orientation(p_[a], p_[b], p_[c], p_[d]) > 0) std::swap(b, c);
    return {a, b, c, d};
  }

  void addFace(int a, int b, int c) {
    Face& face = faces_.emplace_back();
    face.v = {a, b, c};
    face.adj = {-1, -1, -1};
    face.normal = (p_[b] - p_[a]).cross(p_[c] - p_[a]).normalized();
    face.offset = face.normal.dot(p_[a]);
  }

  /// The index i of the edge x -> y of face f (v[i] = x, v[i + 1] = y), or -1.
  int edgeIndex(int f, int x, int y) const {
    for (int i = 0; i < 3; ++i) {
      if (faces_[f].v[i] == x && faces_[f].v[(i + 1) % 3] == y) return i;
    }
    return -1;
  }

  double height(const Face& face, int i) const { return face.normal.dot(p_[i]) - face.offset; }

  /// Puts point i on the conflict list of the first face of [first, end) it is more than tol
  /// above; a point above none is inside the hull (within tol) and is dropped for good.
  void assign(int i, int first, int end) {
    for (int f = first; f < end; ++f) {
      if (height(faces_[f], i) > tol_) {
        faces_[f].outside.push_back(i);
        return;
      }
    }
  }

  /// Adds the point of f's conflict list farthest above f: removes the faces it sees, joins it
  /// to their horizon and hands their conflict points to the new faces.
  void addFarthestPoint(int f, std::vector<int>& pending) {
    const std::vector<int>& candidates = faces_[f].outside;
    int eye = candidates.front();
    for (const int i : candidates) {
      if (height(faces_[f], i) > height(faces_[f], eye)) eye = i;
    }
    // Rounding is far below tol, so the eye is above f exactly too; this only guards the cone.
    const Face& base = faces_[f];
    if (orientation(p_[base.v[0]], p_[base.v[1]], p_[base.v[2]], p_[eye]) <= 0) {
      faces_[f].outside.erase(std::find(faces_[f].outside.begin(), faces_[f].outside.end(), eye));
      if (!faces_[f].outside.empty()) pending.push_back(f);
      return;
    }
    ++step_;
    // The faces the eye sees, breadth first from f: they form a disk as the signs are exact.
    std::vector<int> visible{f};
    faces_[f].stamp = step_;
    faces_[f].visible = true;
    std::vector<HorizonEdge> horizon;
    for (std::size_t k = 0; k < visible.size(); ++k) {
      const Face& face = faces_[visible[k]];
      for (int i = 0; i < 3; ++i) {
        Face& next = faces_[face.adj[i]];
        if (next.stamp != step_) {
          next.stamp = step_;
          next.visible = orientation(p_[next.v[0]], p_[next.v[1]], p_[next.v[2]], p_[eye]) > 0;
          if (next.visible) visible.push_back(face.adj[i]);
        }
        if (!next.visible) horizon.push_back({face.v[i], face.v[(i + 1) % 3], face.adj[i]});
      }
    }
    // A cone of new faces a, b, eye over the horizon edges a -> b.
    const int first = static_cast<int>(faces_.size());
    for (const auto& [a, b, hidden] : horizon) {
      const int added = static_cast<int>(faces_.size());
      addFace(a, b, eye);
      faces_[added].adj[0] = hidden;
      faces_[hidden].adj[edgeIndex(hidden, b, a)] = added;
      startsAt_[a] = added;
    }
    const int end = static_cast<int>(faces_.size());
    for (int added = first; added < end; ++added) {
      // The horizon is one simple loop: the face after a -> b starts at b.
      const int after = startsAt_[faces_[added].v[1]];
      if (after < first) throw std::logic_error("convex hull: the horizon is not a loop");
      faces_[added].adj[1] = after;  // the edge b -> eye
      faces_[after].adj[2] = added;  // its edge eye -> b
    }
    for (int added = first; added < end; ++added) startsAt_[faces_[added].v[0]] = -1;
    // The conflict points of the removed faces go to the new faces they are above; the others
    // are now inside the hull.
    for (const int gone : visible) {
      for (const int i : faces_[gone].outside) {
        if (i != eye) assign(i, first, end);
      }
      faces_[gone].alive = false;
      std::vector<int>().swap(faces_[gone].outside);
    }
    for (int added = first; added < end; ++added) {
      if (!faces_[added].outside.empty()) pending.push_back(added);
    }
  }

  const std::vector<Vector3d>& p_;
  double tol_;
  std::vector<Face> faces_;
  std::vector<int> startsAt_;  ///< per point: the new face whose horizon edge starts there
  int step_ = 0;
};

/// The vertices of `triangles` that stick out of their neighbours by more than tol, in
/// increasing order. A point added to the hull early may end up on a face or an edge of the
/// final hull (points on a cube's faces, added before its corners); its neighbours then do not
/// all lie below it along the mean normal of its triangles, which lies inside the normal cone of
/// every true vertex.
std::vector<int> extremeVertices(const std::vector<Vector3d>& p,
                                 const std::vector<std::array<int, 3>>& triangles, double tol) {
  std::vector<Vector3d> normalSum(p.size(), Vector3d::Zero());
  for (const auto& [a, b, c] : triangles) {
    const Vector3d normal = (p[b] - p[a]).cross(p[c] - p[a]).normalized();
    for (const int i : {a, b, c}) normalSum[i] += normal;
  }
  std::vector<double> clearance(p.size(), std::numeric_limits<double>::infinity());
  for (const auto& t : triangles) {
    for (int k = 0; k < 3; ++k) {
      const int i = t[k];
      const Vector3d direction = normalSum[i].normalized();
      for (const int j : {t[(k + 1) % 3], t[(k + 2) % 3]}) {
        clearance[i] = std::min(clearance[i], direction.dot(p[i] - p[j]));
      }
    }
  }
  std::vector<int> kept;
  for (int i = 0; i < static_cast<int>(p.size()); ++i) {
    if (clearance[i] > tol && clearance[i] != std::numeric_limits<double>::infinity()) {
      kept.push_back(i);
    }
  }
  return kept;
}

}  // namespace

TriangleMesh readObj(const std::string& path, double scale) {
  if (!std::isfinite(scale) || scale <= 0.0) {
    throw InputError(path + ": scale " + formatNumber(scale) + " must be finite and positive");
  }
  std::istringstream in(readInputFile(path));
  TriangleMesh mesh;
  std::string line;
  int lineNumber = 0;
  std::vector<int> polygon;
  while (std::getline(in, line)) {
    ++lineNumber;
    const auto record = fields(std::string_view(line).substr(0, line.find('#')));
    if (record.empty()) continue;
    const std::string at = path + ":" + std::to_string(lineNumber) + ": ";
    if (record[0] == "v") {
      // x y z, then an optional w or r g b colour: numbers too, ignored.
      if (record.size() < 4) {
        throw InputError(at + "vertex has " + std::to_string(record.size() - 1) +
                         " coordinates (expected x y z)");
      }
      Vector3d x;
      for (int k = 0; k < 3; ++k) x[k] = parseNumber(record[k + 1], at);
      for (std::size_t k = 4; k < record.size(); ++k) parseNumber(record[k], at);
      mesh.vertices.push_back(scale * x);
    } else if (record[0] == "f") {
      if (record.size() < 4) {
        throw InputError(at + "face has " + std::to_string(record.size() - 1) +
                         " vertices (at least 3 needed)");
      }
      const int count = static_cast<int>(mesh.vertices.size());
      polygon.clear();
      for (std::size_t k = 1; k < record.size(); ++k) {
        polygon.push_back(parseVertexIndex(record[k], count, at));
      }
      // A fan from the first vertex: exact for the convex polygons OBJ writers emit.
      for (std::size_t k = 1; k + 1 < polygon.size(); ++k) {
        mesh.triangles.push_back({polygon[0], polygon[k], polygon[k + 1]});
      }
    }
  }
  if (mesh.vertices.empty()) throw InputError(path + ": no vertex ('v' record) in the OBJ file");
  return mesh;
}

TriangleMesh convexHull(const std::vector<Eigen::Vector3d>& points) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) {
      throw InputError("convex hull of " + std::to_string(points.size()) + " points: point " +
                       std::to_string(i) + " is not finite");
    }
  }
  // Centred on the bounding box, the rounding of heights is relative to the extent.
  Vector3d lower = Vector3d::Constant(std::numeric_limits<double>::infinity());
  Vector3d upper = -lower;
  for (const Vector3d& x : points) lower = lower.cwiseMin(x), upper = upper.cwiseMax(x);
  const Vector3d centre = points.empty() ? Vector3d::Zero() : Vector3d(0.5 * (lower + upper));
  std::vector<Vector3d> centred;
  centred.reserve(points.size());
  for (const Vector3d& x : points) centred.push_back(x - centre);
  const double tol = points.empty() ? 0.0 : 1e-10 * (upper - lower).maxCoeff();

  std::vector<int> ids(points.size());
  for (int i = 0; i < static_cast<int>(ids.size()); ++i) ids[i] = i;
  std::vector<std::array<int, 3>> triangles;
  // Hull the points, drop the vertices that turned out to lie on a face or an edge, and hull
  // the remaining vertices again: every vertex is extreme then, and the next pass keeps all.
  for (;;) {
    triangles = Quickhull(centred, tol).run(ids, points.size());
    const std::vector<int> kept = extremeVertices(centred, triangles, tol);
    bool flat = false;
    for (const auto& t : triangles) {
      for (const int i : t) flat = flat || !std::binary_search(kept.begin(), kept.end(), i);
    }
    if (!flat) break;
    ids = kept;
  }

  // The vertices in the order of `points`, numbered from 0.
  std::vector<int> renumbered(points.size(), -1);
  for (const auto& t : triangles) {
    for (const int i : t) renumbered[i] = 0;
  }
  TriangleMesh hull;
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    if (renumbered[i] < 0) continue;
    renumbered[i] = static_cast<int>(hull.vertices.size());
    hull.vertices.push_back(points[i]);
  }
  for (const auto& [a, b, c] : triangles)
    hull.triangles.push_back({renumbered[a], renumbered[b], renumbered[c]});
  return hull;
}

}  // namespace hopsim::models
