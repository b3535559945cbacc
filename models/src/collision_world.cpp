#include "collision_world.h"

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/geometry/shape/triangle_p.h>
#include <fcl/narrowphase/detail/convexity_based_algorithm/epa.h>
#include <fcl/narrowphase/detail/convexity_based_algorithm/gjk.h>
#include <fcl/narrowphase/detail/convexity_based_algorithm/minkowski_diff.h>
#include <fcl/narrowphase/detail/gjk_solver_indep.h>
#include <fcl/narrowphase/detail/primitive_shape_algorithm/box_box.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace hopsim::models::detail {
namespace {

using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::Vector3;

std::shared_ptr<fcl::ShapeBased> makeGeometry(const CollisionShape& shape) {
  switch (shape.type) {
    case ShapeType::Sphere:
      return std::make_shared<fcl::Sphered>(shape.radius);
    case ShapeType::Box:
      return std::make_shared<fcl::Boxd>(shape.dimensions);
    case ShapeType::Cylinder:
      return std::make_shared<fcl::Cylinderd>(shape.radius, shape.length);
    case ShapeType::Capsule:
      return std::make_shared<fcl::Capsuled>(shape.radius, shape.length);
    case ShapeType::Hull: {
      auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(shape.mesh->vertices.begin(),
                                                                   shape.mesh->vertices.end());
      auto faces = std::make_shared<std::vector<int>>();
      for (const auto& t : shape.mesh->triangles) {
        faces->insert(faces->end(), {3, t[0], t[1], t[2]});
      }
      return std::make_shared<fcl::Convexd>(vertices,
                                            static_cast<int>(shape.mesh->triangles.size()), faces);
    }
    case ShapeType::HalfSpace:
    case ShapeType::Mesh:
      break;
  }
  return nullptr;
}

/// The half extents of the world-aligned box around a shape with rotation R.
Vector3 halfExtents(const CollisionShape& shape, const Matrix3& R) {
  const Vector3 axis = R.col(2).cwiseAbs();
  switch (shape.type) {
    case ShapeType::Sphere:
      return Vector3::Constant(shape.radius);
    case ShapeType::Box:
      return R.cwiseAbs() * (0.5 * shape.dimensions);
    case ShapeType::Cylinder:
      // The end discs: |a_i| L/2 along the axis, r √(1 - a_i²) across it.
      return 0.5 * shape.length * axis +
             shape.radius * (Vector3::Ones() - axis.cwiseProduct(axis)).cwiseMax(0.0).cwiseSqrt();
    case ShapeType::Capsule:
      return 0.5 * shape.length * axis + Vector3::Constant(shape.radius);
    case ShapeType::HalfSpace:
    case ShapeType::Hull:
    case ShapeType::Mesh:
      break;
  }
  return Vector3::Zero();
}

/// The closest points s on segment [p0, p1] and t on [q0, q1] (Ericson, Real-Time Collision
/// Detection 5.1.9), clamped to the segments.
std::pair<Vector3, Vector3> closestPointsOfSegments(const Vector3& p0, const Vector3& p1,
                                                    const Vector3& q0, const Vector3& q1) {
  const Vector3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a <= 1e-300 && e <= 1e-300) return {p0, q0};
  if (a <= 1e-300) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= 1e-300) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denominator = a * e - b * b;
      s = denominator > 0.0 ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return {p0 + s * d1, q0 + t * d2};
}

}  // namespace

struct CollisionWorld::Impl {
  struct Entry {
    CollisionShape shape;
    int body = 0;
    bool isStatic = false;
    std::shared_ptr<fcl::ShapeBased> geometry;      // null for half spaces
    std::shared_ptr<fcl::Capsuled> core;            // capsules: the segment (a capsule of radius 0)
    std::vector<fcl::TriangleP<double>> triangles;  // meshes, in the shape frame
  };
  struct Bounds {
    Vector3 low, high;
  };
  std::vector<Entry> entries;
  std::vector<int> halfSpaces;  // shape indices
  std::vector<int> solids;      // the other shapes, in sweep order (kept between calls)
  std::vector<int> moving;      // solids that move
  std::vector<std::pair<int, int>> excluded;  // sorted body pairs
  std::vector<RigidTransform> X_WS;           // per shape
  std::vector<fcl::Transform3d> T_WS;         // per shape, for FCL
  std::vector<Bounds> bounds;                 // per shape
  int sweepAxis = 0;
  bool staticPlaced = false;  // detect() places the static shapes once
  fcl::detail::GJKSolver_indepd solver;
  // One EPA for every call: its work arrays are allocated once, here (FCL's shapeIntersect
  // builds a new one per call, and reports its normal in the first shape's frame).
  fcl::detail::EPA<double> epa{solver.epa_max_face_num, solver.epa_max_vertex_num,
                               solver.epa_max_iterations, solver.epa_tolerance};
  // One pair's contacts hold at most a box-box manifold of 4 (boxBox2's limit below; FCL's other
  // primitive pairs give one point). Both lists get this capacity when built, so that the first
  // box-box manifold of a run does not allocate in mid-hop.
  static constexpr std::size_t kPairContactCapacity = 8;
  std::vector<fcl::ContactPointd> pairContacts;  // reused by every FCL call
  std::vector<ContactPoint>* out = nullptr;
  std::vector<ContactPoint> gapContacts;  // signedGap's narrow phase

  const Entry& entry(int shape) const { return entries[static_cast<std::size_t>(shape)]; }

  bool excludedPair(int bodyA, int bodyB) const {
    const auto pair = std::minmax(bodyA, bodyB);
    return std::binary_search(excluded.begin(), excluded.end(), std::pair(pair.first, pair.second));
  }

  bool collides(int a, int b) const {
    const Entry& ea = entry(a);
    const Entry& eb = entry(b);
    return ea.body != eb.body && !(ea.isStatic && eb.isStatic) && !excludedPair(ea.body, eb.body);
  }

  /// Records a contact of a and b with `normal` from a to b, in the order a < b.
  void add(int a, int b, int feature, const Vector3& point, const Vector3& normal, double depth) {
    if (a < b) {
      out->push_back({a, b, feature, point, normal, depth});
    } else {
      out->push_back({b, a, feature, point, -normal, depth});
    }
  }

  void place(int shape, const std::vector<RigidTransform>& X_WB) {
    const auto i = static_cast<std::size_t>(shape);
    const Entry& e = entries[i];
    X_WS[i] = X_WB[static_cast<std::size_t>(e.body)] * e.shape.X_BS;
    T_WS[i].linear() = X_WS[i].rotation();
    T_WS[i].translation() = X_WS[i].translation();
    if (e.shape.type == ShapeType::Hull || e.shape.type == ShapeType::Mesh) {
      // The vertices' extent, grown by the mesh's contact radius.
      Bounds b{Vector3::Constant(INFINITY), Vector3::Constant(-INFINITY)};
      for (const Vector3& v : e.shape.mesh->vertices) {
        const Vector3 p = X_WS[i] * v;
        b.low = b.low.cwiseMin(p);
        b.high = b.high.cwiseMax(p);
      }
      bounds[i] = {b.low - Vector3::Constant(e.shape.contactRadius),
                   b.high + Vector3::Constant(e.shape.contactRadius)};
      return;
    }
    const Vector3 h = halfExtents(e.shape, X_WS[i].rotation());
    bounds[i] = {X_WS[i].translation() - h, X_WS[i].translation() + h};
  }

  // ---- narrow phase ----------------------------------------------------------------------

  /// Records FCL's contacts of a and b (normals from a to b).
  void addFclContacts(int a, int b) {
    int feature = 0;
    for (const fcl::ContactPointd& c : pairContacts) {
      // A normal FCL cannot tell (coincident sphere centres) gives no direction to push along.
      if (!(c.penetration_depth > 0.0) || !(c.normal.squaredNorm() > 0.0)) continue;
      add(a, b, feature++, c.pos, c.normal.normalized(), c.penetration_depth);
    }
  }

  template <class G1, class G2>
  void fclIntersect(int a, const G1& g1, int b, const G2& g2) {
    pairContacts.clear();
    solver.shapeIntersect(g1, T_WS[static_cast<std::size_t>(a)], g2,
                          T_WS[static_cast<std::size_t>(b)], &pairContacts);
    addFclContacts(a, b);
  }

  /// Two boxes: FCL's box-box manifold (up to four points), called directly so that its
  /// contact list is reused (FCL's shapeIntersect copies it out of a new one).
  void boxBox(int a, int b) {
    pairContacts.clear();
    fcl::Vector3d normal;
    double depth = 0.0;
    int code = 0;
    fcl::detail::boxBox2(entry(a).shape.dimensions, T_WS[static_cast<std::size_t>(a)],
                         entry(b).shape.dimensions, T_WS[static_cast<std::size_t>(b)], normal,
                         &depth, &code, 4, pairContacts);
    addFclContacts(a, b);
  }

  /// A sphere (a) against any solid (b): FCL's closed forms.
  void spherePair(int sphere, int other) {
    const auto& g1 = static_cast<const fcl::Sphered&>(*entry(sphere).geometry);
    const fcl::ShapeBased& g2 = *entry(other).geometry;
    switch (entry(other).shape.type) {
      case ShapeType::Sphere:
        return fclIntersect(sphere, g1, other, static_cast<const fcl::Sphered&>(g2));
      case ShapeType::Box:
        return fclIntersect(sphere, g1, other, static_cast<const fcl::Boxd&>(g2));
      case ShapeType::Cylinder:
        return fclIntersect(sphere, g1, other, static_cast<const fcl::Cylinderd&>(g2));
      case ShapeType::Capsule:
        return fclIntersect(sphere, g1, other, static_cast<const fcl::Capsuled&>(g2));
      case ShapeType::Hull:
        return gjkEpa(std::min(sphere, other), std::max(sphere, other));
      case ShapeType::HalfSpace:
      case ShapeType::Mesh:
        return;
    }
  }

  /// The penetration of two convex geometries (GJK, then EPA when they overlap): its depth,
  /// the normal (world) that separates the second from the first, and the point midway into
  /// it. False when they do not overlap.
  bool penetration(const fcl::ShapeBased& g1, const fcl::Transform3d& tf1,
                   const fcl::ShapeBased& g2, const fcl::Transform3d& tf2, Vector3& point,
                   Vector3& normal, double& depth) {
    fcl::detail::MinkowskiDiff<double> difference;
    difference.shapes[0] = &g1;
    difference.shapes[1] = &g2;
    difference.toshape1.noalias() = tf2.linear().transpose() * tf1.linear();
    difference.toshape0 = tf1.inverse(Eigen::Isometry) * tf2;
    fcl::detail::GJK<double> gjk(static_cast<unsigned int>(solver.gjk_max_iterations),
                                 solver.gjk_tolerance);
    const fcl::Vector3d guess(1, 0, 0);
    if (gjk.evaluate(difference, -guess) != fcl::detail::GJK<double>::Inside) return false;
    if (epa.evaluate(gjk, -guess) == fcl::detail::EPA<double>::Failed) return false;
    if (!(epa.depth > 0.0)) return false;
    // The deepest point of the first geometry (in its frame).
    fcl::Vector3d w0 = fcl::Vector3d::Zero();
    for (std::size_t i = 0; i < epa.result.rank; ++i) {
      w0.noalias() += difference.support(epa.result.c[i]->d, 0) * epa.result.p[i];
    }
    normal = (tf1.linear() * epa.normal).normalized();
    point = tf1 * (w0 - epa.normal * (0.5 * epa.depth));
    depth = epa.depth;
    return true;
  }

  /// Any two convex solids: GJK and EPA.
  void gjkEpa(int a, int b) {
    Vector3 point, normal;
    double depth = 0.0;
    if (penetration(*entry(a).geometry, T_WS[static_cast<std::size_t>(a)], *entry(b).geometry,
                    T_WS[static_cast<std::size_t>(b)], point, normal, depth)) {
      add(a, b, 0, point, normal, depth);
    }
  }

  /// The world bounds of triangle k of mesh `shape`, grown by its contact radius.
  Bounds triangleBounds(int shape, std::size_t k) const {
    const Entry& m = entry(shape);
    const auto& t = m.shape.mesh->triangles[k];
    Bounds b{Vector3::Constant(INFINITY), Vector3::Constant(-INFINITY)};
    for (int v : t) {
      const Vector3 p = X_WS[static_cast<std::size_t>(shape)] *
                        m.shape.mesh->vertices[static_cast<std::size_t>(v)];
      b.low = b.low.cwiseMin(p);
      b.high = b.high.cwiseMax(p);
    }
    const Vector3 r = Vector3::Constant(m.shape.contactRadius);
    return {b.low - r, b.high + r};
  }

  static bool overlap(const Bounds& x, const Bounds& y) {
    return !((x.low.array() > y.high.array()).any() || (y.low.array() > x.high.array()).any());
  }

  /// Two meshes, triangle pair by triangle pair (those whose bounds meet): GJK distance within
  /// the two contact radii, EPA deepened by them when triangles cross. A pair's feature is its
  /// index ka·nb + kb, folded into the key's 20 bits for meshes of more than 2^20 pairs (two
  /// folded pairs then share a tangential stretch).
  void meshMesh(int a, int b) {
    const Entry& ma = entry(a);
    const Entry& mb = entry(b);
    const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
    const double ra = ma.shape.contactRadius, rb = mb.shape.contactRadius;
    for (std::size_t k = 0; k < ma.triangles.size(); ++k) {
      const Bounds bk = triangleBounds(a, k);
      if (!overlap(bk, bounds[ib])) continue;
      for (std::size_t j = 0; j < mb.triangles.size(); ++j) {
        if (!overlap(bk, triangleBounds(b, j))) continue;
        const int feature = static_cast<int>((k * mb.triangles.size() + j) %
                                             static_cast<std::size_t>(kMaxFeatures));
        double distance = -1.0;
        fcl::Vector3d p, q;
        const bool apart = solver.shapeDistance(ma.triangles[k], T_WS[ia], mb.triangles[j],
                                                T_WS[ib], &distance, &p, &q);
        if (apart && distance > 1e-12) {
          if (distance < ra + rb) {
            const Vector3 n = (q - p) / distance;
            add(a, b, feature, 0.5 * (p + ra * n + q - rb * n), n, ra + rb - distance);
          }
          continue;
        }
        Vector3 point, normal;
        double depth = 0.0;
        if (penetration(ma.triangles[k], T_WS[ia], mb.triangles[j], T_WS[ib], point, normal,
                        depth)) {
          add(a, b, feature, point, normal, depth + ra + rb);
        }
      }
    }
  }

  /// A mesh against a solid, triangle by triangle (those whose bounds meet the solid's): GJK
  /// distance within the contact radius, EPA (deepened by the radius) when a triangle cuts in.
  void meshPair(int mesh, int other) {
    const Entry& m = entry(mesh);
    const auto im = static_cast<std::size_t>(mesh), io = static_cast<std::size_t>(other);
    const double r = m.shape.contactRadius;
    const fcl::ShapeBased& g = *entry(other).geometry;
    const Bounds& ob = bounds[io];
    for (std::size_t k = 0; k < m.triangles.size(); ++k) {
      if (!overlap(triangleBounds(mesh, k), ob)) continue;
      const int feature = static_cast<int>(k);
      double distance = -1.0;
      fcl::Vector3d p, q;
      const bool apart =
          solver.shapeDistance(m.triangles[k], T_WS[im], g, T_WS[io], &distance, &p, &q);
      if (apart && distance > 1e-12) {
        if (distance < r) {
          const Vector3 n = (q - p) / distance;
          add(mesh, other, feature, 0.5 * (p + r * n + q), n, r - distance);
        }
        continue;
      }
      Vector3 point, normal;
      double depth = 0.0;
      if (penetration(m.triangles[k], T_WS[im], g, T_WS[io], point, normal, depth)) {
        add(mesh, other, feature, point, normal, depth + r);
      }
    }
  }

  std::pair<Vector3, Vector3> segment(int capsule) const {
    const auto& X = X_WS[static_cast<std::size_t>(capsule)];
    const Vector3 half = 0.5 * entry(capsule).shape.length * X.rotation().col(2);
    return {X.translation() - half, X.translation() + half};
  }

  /// Two capsules: their segments' closest points, exactly.
  void capsuleCapsule(int a, int b) {
    const auto [p0, p1] = segment(a);
    const auto [q0, q1] = segment(b);
    const auto [p, q] = closestPointsOfSegments(p0, p1, q0, q1);
    const double ra = entry(a).shape.radius, rb = entry(b).shape.radius;
    const double distance = (q - p).norm();
    if (distance >= ra + rb || !(distance > 0.0)) return;
    const Vector3 n = (q - p) / distance;
    add(a, b, 0, 0.5 * (p + ra * n + q - rb * n), n, ra + rb - distance);
  }

  /// A capsule against a box or a cylinder: the distance from its segment, by GJK; a segment
  /// that reaches inside the other shape (penetration beyond the radius) goes to EPA.
  template <class G>
  void capsuleCore(int capsule, int other, const G& g) {
    double distance = -1.0;
    fcl::Vector3d p, q;
    const bool apart =
        solver.shapeDistance(*entry(capsule).core, T_WS[static_cast<std::size_t>(capsule)], g,
                             T_WS[static_cast<std::size_t>(other)], &distance, &p, &q);
    const double r = entry(capsule).shape.radius;
    if (!apart || !(distance > 1e-12)) return gjkEpa(capsule, other);
    if (distance >= r) return;
    const Vector3 n = (q - p) / distance;
    add(capsule, other, 0, 0.5 * (p + r * n + q), n, r - distance);
  }

  void narrowPhase(int a, int b) {
    const ShapeType ta = entry(a).shape.type, tb = entry(b).shape.type;
    if (ta == ShapeType::Mesh && tb == ShapeType::Mesh) return meshMesh(a, b);
    if (ta == ShapeType::Mesh) return meshPair(a, b);
    if (tb == ShapeType::Mesh) return meshPair(b, a);
    if (ta == ShapeType::Sphere) return spherePair(a, b);
    if (tb == ShapeType::Sphere) return spherePair(b, a);
    if (ta == ShapeType::Capsule && tb == ShapeType::Capsule) return capsuleCapsule(a, b);
    if (ta == ShapeType::Box && tb == ShapeType::Box) return boxBox(a, b);
    if (ta == ShapeType::Capsule || tb == ShapeType::Capsule) {
      const int capsule = ta == ShapeType::Capsule ? a : b, other = capsule == a ? b : a;
      const fcl::ShapeBased& g = *entry(other).geometry;
      switch (entry(other).shape.type) {
        case ShapeType::Box:
          return capsuleCore(capsule, other, static_cast<const fcl::Boxd&>(g));
        case ShapeType::Cylinder:
          return capsuleCore(capsule, other, static_cast<const fcl::Cylinderd&>(g));
        default:
          return capsuleCore(capsule, other, static_cast<const fcl::Convexd&>(g));
      }
    }
    gjkEpa(a, b);  // box-cylinder, cylinder-cylinder, and hulls
  }

  // ---- the ground ------------------------------------------------------------------------

  /// A point p of `shape` (radius r around p) against the ground plane n·x = d.
  void groundPoint(int ground, int shape, int feature, const Vector3& p, double r, const Vector3& n,
                   double d) {
    const double gap = n.dot(p) - d - r;
    if (gap >= 0.0) return;
    add(ground, shape, feature, p - n * (r + 0.5 * gap), n, -gap);
  }

  /// The vertex manifold of a shape on the ground half space `ground`.
  void groundContacts(int ground, int shape) {
    const RigidTransform& X_WH = X_WS[static_cast<std::size_t>(ground)];
    const Vector3 n = X_WH.rotation().col(2);
    const double d = n.dot(X_WH.translation());
    const CollisionShape& s = entry(shape).shape;
    const RigidTransform& X = X_WS[static_cast<std::size_t>(shape)];
    switch (s.type) {
      case ShapeType::Sphere:
        return groundPoint(ground, shape, 0, X.translation(), s.radius, n, d);
      case ShapeType::Box: {
        const Vector3 h = 0.5 * s.dimensions;
        for (int v = 0; v < 8; ++v) {
          const Vector3 corner((v & 1) ? h.x() : -h.x(), (v & 2) ? h.y() : -h.y(),
                               (v & 4) ? h.z() : -h.z());
          groundPoint(ground, shape, v, X * corner, 0.0, n, d);
        }
        return;
      }
      case ShapeType::Capsule: {
        const auto [p0, p1] = segment(shape);
        groundPoint(ground, shape, 0, p0, s.radius, n, d);
        groundPoint(ground, shape, 1, p1, s.radius, n, d);
        return;
      }
      case ShapeType::Cylinder: {
        // Per cap, the rim point deepest towards the ground and the three at quarter turns from
        // it: a cap lying flat rests on four points, an edge on one, the side on one per cap.
        const Vector3 a = X.rotation().col(2);
        Vector3 w = -(n - n.dot(a) * a);
        w = w.norm() > 1e-9 ? w.normalized() : Vector3(X.rotation().col(0));
        const Vector3 v = a.cross(w);
        const Vector3 rim[4] = {w, v, -w, -v};
        for (int cap = 0; cap < 2; ++cap) {
          const Vector3 centre = X.translation() + (cap == 0 ? -0.5 : 0.5) * s.length * a;
          for (int k = 0; k < 4; ++k) {
            groundPoint(ground, shape, 4 * cap + k, centre + s.radius * rim[k], 0.0, n, d);
          }
        }
        return;
      }
      case ShapeType::Hull:
      case ShapeType::Mesh:
        // Every vertex (a mesh's swept by its contact radius; a hull's are its corners).
        for (std::size_t v = 0; v < s.mesh->vertices.size(); ++v) {
          groundPoint(ground, shape, static_cast<int>(v), X * s.mesh->vertices[v], s.contactRadius,
                      n, d);
        }
        return;
      case ShapeType::HalfSpace:
        return;
    }
  }

  // ---- signed gaps -----------------------------------------------------------------------

  /// The height above the ground half space of the lowest point of a shape (negative below).
  double groundGap(int ground, int shape) const {
    const RigidTransform& X_WH = X_WS[static_cast<std::size_t>(ground)];
    const Vector3 n = X_WH.rotation().col(2);
    const double d = n.dot(X_WH.translation());
    const CollisionShape& s = entry(shape).shape;
    const RigidTransform& X = X_WS[static_cast<std::size_t>(shape)];
    const Matrix3& R = X.rotation();
    const double centre = n.dot(X.translation()) - d;
    // The support of the shape in -n, measured from its centre along n.
    const Vector3 a = R.col(2);
    switch (s.type) {
      case ShapeType::Sphere:
        return centre - s.radius;
      case ShapeType::Box:
        return centre - 0.5 * (R.transpose() * n).cwiseAbs().dot(s.dimensions);
      case ShapeType::Capsule:
        return centre - 0.5 * s.length * std::abs(n.dot(a)) - s.radius;
      case ShapeType::Cylinder:
        return centre - 0.5 * s.length * std::abs(n.dot(a)) -
               s.radius * std::sqrt(std::max(0.0, 1.0 - n.dot(a) * n.dot(a)));
      case ShapeType::Hull:
      case ShapeType::Mesh: {
        double lowest = INFINITY;
        for (const Vector3& v : s.mesh->vertices) lowest = std::min(lowest, n.dot(X * v) - d);
        return lowest - s.contactRadius;
      }
      case ShapeType::HalfSpace:
        break;
    }
    return 0.0;
  }

  /// The distance between two solids when apart (GJK; closed forms where FCL has them), else
  /// minus the deepest penetration the narrow phase reports.
  double solidGap(int a, int b) {
    std::vector<ContactPoint>* kept = out;
    gapContacts.clear();
    out = &gapContacts;
    narrowPhase(std::min(a, b), std::max(a, b));
    out = kept;
    if (!gapContacts.empty()) {
      double deepest = 0.0;
      for (const ContactPoint& c : gapContacts) deepest = std::max(deepest, c.depth);
      return -deepest;
    }
    const auto distance = [&](const fcl::ShapeBased& g1, int s1, const fcl::ShapeBased& g2,
                              int s2) {
      double d = 0.0;
      solver.shapeDistance(g1, T_WS[static_cast<std::size_t>(s1)], g2,
                           T_WS[static_cast<std::size_t>(s2)], &d, nullptr, nullptr);
      return std::max(d, 0.0);
    };
    const int mesh = entry(a).shape.type == ShapeType::Mesh   ? a
                     : entry(b).shape.type == ShapeType::Mesh ? b
                                                              : -1;
    if (mesh < 0) return distance(*entry(a).geometry, a, *entry(b).geometry, b);
    const int other = mesh == a ? b : a;
    if (entry(other).shape.type == ShapeType::Mesh) {
      double nearest = INFINITY;
      for (const auto& ta : entry(mesh).triangles) {
        for (const auto& tb : entry(other).triangles)
          nearest = std::min(nearest, distance(ta, mesh, tb, other));
      }
      return nearest - entry(mesh).shape.contactRadius - entry(other).shape.contactRadius;
    }
    double nearest = INFINITY;
    for (const auto& triangle : entry(mesh).triangles) {
      nearest = std::min(nearest, distance(triangle, mesh, *entry(other).geometry, other));
    }
    return nearest - entry(mesh).shape.contactRadius;
  }

  // ---- broad phase -----------------------------------------------------------------------

  /// Sweep and prune along one world axis: the solids sorted by the low end of their bounds
  /// (insertion sort from the last order, nearly sorted after a step), then every pair whose
  /// bounds overlap on all three axes.
  void sweep() {
    const int axis = sweepAxis;
    const auto low = [&](int s) { return bounds[static_cast<std::size_t>(s)].low[axis]; };
    for (std::size_t i = 1; i < solids.size(); ++i) {
      const int s = solids[i];
      std::size_t j = i;
      for (; j > 0 && low(solids[j - 1]) > low(s); --j) solids[j] = solids[j - 1];
      solids[j] = s;
    }
    for (std::size_t i = 0; i < solids.size(); ++i) {
      const Bounds& bi = bounds[static_cast<std::size_t>(solids[i])];
      for (std::size_t j = i + 1; j < solids.size(); ++j) {
        const Bounds& bj = bounds[static_cast<std::size_t>(solids[j])];
        if (bj.low[axis] > bi.high[axis]) break;
        if ((bj.low.array() > bi.high.array()).any() || (bi.low.array() > bj.high.array()).any()) {
          continue;
        }
        const int a = std::min(solids[i], solids[j]), b = std::max(solids[i], solids[j]);
        if (collides(a, b)) narrowPhase(a, b);
      }
    }
  }
};

CollisionWorld::CollisionWorld() : impl_(std::make_unique<Impl>()) {}
CollisionWorld::~CollisionWorld() = default;

void CollisionWorld::build(const std::vector<CollisionShape>& shapes,
                           const std::vector<int>& bodies, const std::vector<bool>& isStatic,
                           std::vector<std::pair<int, int>> excluded) {
  impl_ = std::make_unique<Impl>();
  Impl& w = *impl_;
  std::sort(excluded.begin(), excluded.end());
  w.excluded = std::move(excluded);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const auto body = static_cast<std::size_t>(bodies[i]);
    Impl::Entry entry{shapes[i], bodies[i], isStatic[body], makeGeometry(shapes[i]), nullptr, {}};
    if (shapes[i].type == ShapeType::Capsule) {
      entry.core = std::make_shared<fcl::Capsuled>(0.0, shapes[i].length);
    }
    if (shapes[i].type == ShapeType::Mesh) {
      const auto& v = shapes[i].mesh->vertices;
      for (const auto& t : shapes[i].mesh->triangles) {
        entry.triangles.emplace_back(v[static_cast<std::size_t>(t[0])],
                                     v[static_cast<std::size_t>(t[1])],
                                     v[static_cast<std::size_t>(t[2])]);
      }
    }
    const int index = static_cast<int>(i);
    if (shapes[i].type == ShapeType::HalfSpace) {
      w.halfSpaces.push_back(index);
    } else {
      w.solids.push_back(index);
      if (!entry.isStatic) w.moving.push_back(index);
    }
    w.entries.push_back(std::move(entry));
  }
  w.pairContacts.reserve(Impl::kPairContactCapacity);
  w.gapContacts.reserve(Impl::kPairContactCapacity);
  w.X_WS.resize(shapes.size());
  w.T_WS.assign(shapes.size(), fcl::Transform3d::Identity());
  w.bounds.resize(shapes.size());
}

std::vector<std::pair<int, int>> CollisionWorld::candidatePairs() const {
  const Impl& w = *impl_;
  std::vector<std::pair<int, int>> pairs;
  const int n = static_cast<int>(w.entries.size());
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const bool twoGrounds = w.entry(a).shape.type == ShapeType::HalfSpace &&
                              w.entry(b).shape.type == ShapeType::HalfSpace;
      if (!twoGrounds && w.collides(a, b)) pairs.emplace_back(a, b);
    }
  }
  return pairs;
}

double CollisionWorld::signedGap(int a, int b, const std::vector<RigidTransform>& X_WB) {
  Impl& w = *impl_;
  w.place(a, X_WB);
  w.place(b, X_WB);
  if (w.entry(a).shape.type == ShapeType::HalfSpace) return w.groundGap(a, b);
  if (w.entry(b).shape.type == ShapeType::HalfSpace) return w.groundGap(b, a);
  return w.solidGap(a, b);
}

void CollisionWorld::detect(const std::vector<RigidTransform>& X_WB,
                            std::vector<ContactPoint>& contacts) {
  Impl& w = *impl_;
  w.out = &contacts;
  contacts.clear();
  // Static shapes never move: they are placed at the first call after build(), which every
  // lock() runs (a relock may have moved the bodies they sit on).
  if (!w.staticPlaced) {
    for (std::size_t s = 0; s < w.entries.size(); ++s) w.place(static_cast<int>(s), X_WB);
    w.staticPlaced = true;
  } else {
    for (int s : w.moving) w.place(s, X_WB);
  }
  // Sweep along the axis over which the moving shapes spread most.
  if (!w.moving.empty()) {
    Vector3 low = w.bounds[static_cast<std::size_t>(w.moving.front())].low, high = low;
    for (int s : w.moving) {
      low = low.cwiseMin(w.bounds[static_cast<std::size_t>(s)].low);
      high = high.cwiseMax(w.bounds[static_cast<std::size_t>(s)].high);
    }
    (high - low).maxCoeff(&w.sweepAxis);
  }
  w.sweep();
  for (int ground : w.halfSpaces) {
    for (int shape : w.moving) {
      if (w.collides(ground, shape)) w.groundContacts(ground, shape);
    }
  }
  std::sort(contacts.begin(), contacts.end(),
            [](const ContactPoint& x, const ContactPoint& y) { return x.key() < y.key(); });
}

}  // namespace hopsim::models::detail
