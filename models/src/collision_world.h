#pragma once
// CollisionWorld: the contact points between the collision shapes of a multibody system. The
// broad phase is sweep and prune on world-aligned bounds (preallocated, nearly sorted from one
// call to the next); the narrow phase is FCL's closed forms (pairs with a sphere, box-box), an
// exact segment test for capsule pairs, GJK distance from a capsule's segment to a box or
// cylinder, and FCL's GJK with one reused EPA for what remains (box-cylinder, cylinder-cylinder,
// capsules sunk past their radius): nothing allocates once built. Contacts with the static
// ground (half spaces) are manifolds of vertices so that flat faces rest on several points.

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/models/collision_shape.h"

namespace hopsim::models::detail {

/// One contact point between shapes a < b: where, along which normal (unit, from a to b, so
/// that b is pushed along it), how deep. `feature` tells contacts of one pair apart (a vertex of
/// a box on the ground, the ordinal of a box-box manifold point) and makes key() stable from one
/// step to the next while the contact persists.
struct ContactPoint {
  int shapeA = 0, shapeB = 0, feature = 0;
  spatial::Vector3 point_W = spatial::Vector3::Zero();  ///< midway between the surfaces (m)
  spatial::Vector3 normal_W = spatial::Vector3::UnitZ();
  double depth = 0.0;  ///< penetration, > 0 (m)

  /// (a, b, feature) packed in one integer, ordered as the triple.
  std::int64_t key() const {
    return (static_cast<std::int64_t>(shapeA) << 42) | (static_cast<std::int64_t>(shapeB) << 20) |
           static_cast<std::int64_t>(feature);
  }
};

class CollisionWorld {
 public:
  /// Shape indices and features (a mesh's vertices and triangles) are limited so that
  /// ContactPoint::key() packs them: 21 and 20 bits.
  static constexpr int kMaxShapes = 1 << 21;
  static constexpr int kMaxFeatures = 1 << 20;

  CollisionWorld();
  ~CollisionWorld();
  CollisionWorld(const CollisionWorld&) = delete;
  CollisionWorld& operator=(const CollisionWorld&) = delete;

  /// Replaces the shapes. `bodies[i]` is the body index of shape i, `isStatic[b]` says whether
  /// body b never moves (the world and bodies welded to it), and `excluded` lists body pairs
  /// (lower index first) that must not collide. Static half spaces are the ground.
  void build(const std::vector<CollisionShape>& shapes, const std::vector<int>& bodies,
             const std::vector<bool>& isStatic, std::vector<std::pair<int, int>> excluded);

  /// The contacts at the body poses X_WB (indexed by body), sorted by key, into `contacts`
  /// (cleared first; its capacity is reused). Static shapes are placed on the first call.
  /// The shape pairs that may touch: on different bodies, not both static, not excluded.
  std::vector<std::pair<int, int>> candidatePairs() const;

  /// The signed gap between shapes a and b at the body poses X_WB (m): their distance when apart,
  /// minus their deepest penetration when they overlap. Continuous through contact onset and
  /// separation, so that it can be a zero-crossing residual. Does not allocate once warm.
  double signedGap(int a, int b, const std::vector<spatial::RigidTransform>& X_WB);

  void detect(const std::vector<spatial::RigidTransform>& X_WB,
              std::vector<ContactPoint>& contacts);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hopsim::models::detail
