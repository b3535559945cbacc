// Terrain surfaces against their closed forms: heights and normals of the inclined plane and the
// sinusoid (1e-15: one or two rounded operations on O(1) numbers); the height map's bilinear
// interpolant, exact for planes (which bilinear interpolation reproduces) to 1e-12 over a
// 100 m grid, and its normals, the interpolant's own derivatives checked against central
// differences (1e-7: the differences' O(h²) = 0 for a bilinear cell, left with rounding
// 1e-16 / 1e-6); its file's errors, each naming file and line; the soil map.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "hopsim/models/height_map.h"
#include "hopsim/models/soil_map.h"
#include "hopsim/models/terrain.h"
#include "hopsim/signals/error.h"
#include "temp_dir.h"

namespace hopsim {
namespace {

using models::HeightMapTerrain;
using spatial::Vector3;

/// The grid file of the plane z = c0 + cx x + cy y on nx x ny points from (x0, y0), spacing d.
std::string planeMapText(int nx, int ny, double x0, double y0, double d, double c0, double cx,
                         double cy) {
  std::string text = "# a plane\nhopsim_height_map 1\norigin " + std::to_string(x0) + " " +
                     std::to_string(y0) + "\nspacing " + std::to_string(d) + " " +
                     std::to_string(d) + "\nsize " + std::to_string(nx) + " " + std::to_string(ny) +
                     "\nheights\n";
  char number[32];
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      std::snprintf(number, sizeof number, "%.17g ", c0 + cx * (x0 + i * d) + cy * (y0 + j * d));
      text += number;
    }
    text += "\n";
  }
  return text;
}

}  // namespace

TEST_CASE("terrain: the inclined plane's height and normal are the plane's") {
  const double h0 = 0.3, slope = 0.25, heading = 2.0;
  const models::InclinedPlaneTerrain terrain(h0, slope, heading);
  // Uphill unit direction u: h = h0 + tan(slope) u·(x, y); n̂ = [-sin(slope) u, cos(slope)].
  const Eigen::Vector2d u(std::cos(heading), std::sin(heading));
  const Vector3 nHat(-std::sin(slope) * u.x(), -std::sin(slope) * u.y(), std::cos(slope));
  for (const Eigen::Vector2d& p : {Eigen::Vector2d(0, 0), Eigen::Vector2d(3.0, -1.5)}) {
    CHECK(terrain.height(p.x(), p.y()) ==
          doctest::Approx(h0 + std::tan(slope) * u.dot(p)).epsilon(1e-15));
    CHECK((terrain.normal(p.x(), p.y()) - nHat).norm() < 1e-15);
  }
  CHECK(models::InclinedPlaneTerrain(-1.0, 0.0, 0.7).normal(5.0, 2.0) == Vector3::UnitZ());
}

TEST_CASE("terrain: the sinusoid's height and normal are the closed forms") {
  const double h0 = 0.1;
  const Eigen::Vector2d a(0.05, 0.2), lambda(2.0, 5.0);
  const models::SinusoidTerrain terrain(h0, a, lambda);
  const double kx = 2 * std::numbers::pi / lambda.x(), ky = 2 * std::numbers::pi / lambda.y();
  for (const Eigen::Vector2d& p : {Eigen::Vector2d(0.3, 0.7), Eigen::Vector2d(-4.1, 2.2)}) {
    const double x = p.x(), y = p.y();
    CHECK(terrain.height(x, y) ==
          doctest::Approx(h0 + a.x() * std::sin(kx * x) + a.y() * std::sin(ky * y)).epsilon(1e-15));
    const Vector3 n =
        Vector3(-a.x() * kx * std::cos(kx * x), -a.y() * ky * std::cos(ky * y), 1.0).normalized();
    CHECK((terrain.normal(x, y) - n).norm() < 1e-15);
  }
  CHECK_THROWS_WITH_AS(models::SinusoidTerrain(0.0, a, Eigen::Vector2d(1.0, 0.0)),
                       "wavelength: value [1, 0] must be finite and positive in both directions",
                       InputError);
}

TEST_CASE("terrain: a height map of a plane is the plane everywhere on the grid") {
  testing::TempDir dir;
  const double c0 = 0.5, cx = 0.2, cy = -0.35, d = 2.5;
  const auto terrain = HeightMapTerrain::read(
      dir.write("plane.txt", planeMapText(41, 31, -50.0, -20.0, d, c0, cx, cy)));
  const Vector3 nHat = Vector3(-cx, -cy, 1.0).normalized();
  // Grid points, cell interiors and cell edges alike.
  for (const Eigen::Vector2d& p :
       {Eigen::Vector2d(-50.0, -20.0), Eigen::Vector2d(50.0, 55.0), Eigen::Vector2d(0.0, 0.0),
        Eigen::Vector2d(13.7, 41.3), Eigen::Vector2d(-48.9, -19.2), Eigen::Vector2d(7.5, 3.1)}) {
    CAPTURE(p);
    CHECK(terrain.height(p.x(), p.y()) ==
          doctest::Approx(c0 + cx * p.x() + cy * p.y()).epsilon(1e-12));
    CHECK((terrain.normal(p.x(), p.y()) - nHat).norm() < 1e-12);
  }
}

TEST_CASE("terrain: a height map interpolates bilinearly, its normals from the interpolant") {
  // One 2 x 2 cell with a saddle: h(s, t) = h00 (1-s)(1-t) + h10 s(1-t) + h01 (1-s) t + h11 s t.
  const HeightMapTerrain terrain({1.0, 2.0}, {0.5, 2.0}, 2, 2, {0.0, 1.0, 3.0, -2.0});
  const double x = 1.2, y = 3.5;
  const double s = 0.4, t = 0.75;
  const double h = 0.0 * (1 - s) * (1 - t) + 1.0 * s * (1 - t) + 3.0 * (1 - s) * t - 2.0 * s * t;
  CHECK(terrain.height(x, y) == doctest::Approx(h).epsilon(1e-15));
  const double e = 1e-6;
  const Eigen::Vector2d g((terrain.height(x + e, y) - terrain.height(x - e, y)) / (2 * e),
                          (terrain.height(x, y + e) - terrain.height(x, y - e)) / (2 * e));
  CHECK((terrain.gradient(x, y) - g).norm() < 1e-7);
  CHECK((terrain.normal(x, y) - Vector3(-g.x(), -g.y(), 1.0).normalized()).norm() < 1e-7);
  // Outside the grid the border heights extend flat: no slope across the border.
  CHECK(terrain.height(0.0, 2.0) == 0.0);
  CHECK(terrain.height(9.0, 9.0) == -2.0);
  CHECK(terrain.gradient(9.0, 3.0).x() == 0.0);
  CHECK(terrain.gradient(9.0, 3.0).y() == doctest::Approx((-2.0 - 1.0) / 2.0));
}

TEST_CASE("terrain: a bad height-map file is refused naming the file, the line and the fault") {
  testing::TempDir dir;
  const auto refused = [&](const std::string& text, const std::string& message) {
    const std::string path = dir.write("bad.txt", text);
    CHECK_THROWS_WITH_AS(HeightMapTerrain::read(path), (path + message).c_str(), InputError);
  };
  const std::string head = "hopsim_height_map 1\norigin 0 0\nspacing 1 1\nsize 3 2\n";
  refused("# none\nheight_map 1\n",
          ":2: expected 'hopsim_height_map 1' (the format and its version) first");
  refused("hopsim_height_map 1\norigin 0\n", ":2: expected 'origin' and x0 y0 (m)");
  refused("hopsim_height_map 1\norigin 0 0\nspacing 1 -1\n", ":3: the spacing must be positive");
  refused("hopsim_height_map 1\norigin 0 0\nspacing 1 1\nsize 3 1\n",
          ":4: size ny must be a whole number from 2 to 1000000, not 1");
  refused(head + "heights\n0 1 2\n0 1\n", ":7: row 1 of 3 heights has 2 values, expected 3");
  refused(head + "heights\n0 1 2\n0 x 2\n", ":7: 'x' is not a finite number");
  refused(head + "heights\n0 1 2\n", ":6: the file ends; expected row 1 of 3 heights (2 rows)");
  refused(head + "heights\n0 1 2\n\n0 1 2\n\n4\n",
          ":10: unexpected text after the 2 rows of heights");
  CHECK_THROWS_WITH_AS(HeightMapTerrain::read(dir.path() + "/missing.txt"),
                       doctest::Contains("cannot read"), InputError);
}

TEST_CASE("terrain: the soil map gives each point its region's soil") {
  Eigen::VectorXd table(12), regions(10);
  table << 1e3, 2e6, 1.1, 800, 0.5, 0.02, /**/ 5e3, 1e6, 0.8, 200, 0.6, 0.01;
  regions << 0, 10, 0, 10, 1, /**/ 2, 3, 2, 3, 0;  // soil 1 with a patch of soil 0 in it
  const models::SoilMap map(table, regions);
  CHECK(map.at(-1.0, 5.0).kc == 1e3);  // in no region: soil 0
  CHECK(map.at(5.0, 5.0).kc == 5e3);
  CHECK(map.at(2.5, 2.5).kc == 1e3);  // the later region wins
  CHECK(map.at(5.0, 5.0).shearModulus == 0.01);
  regions[4] = 2;
  CHECK_THROWS_WITH_AS(models::SoilMap(table, regions),
                       "soil_regions: region 0 names soil 2; expected a whole number from 0 to 1",
                       InputError);
  regions[4] = 1;
  table[2] = 0.0;
  CHECK_THROWS_WITH_AS(models::SoilMap(table, regions), "soils: soil 0 has n 0: it must be > 0",
                       InputError);
  CHECK_THROWS_WITH_AS(models::SoilMap(table.head(5), regions),
                       doctest::Contains("soils: 5 values"), InputError);
}

}  // namespace hopsim
