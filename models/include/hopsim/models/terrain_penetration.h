#pragma once
/// @file
/// TerrainPenetration: how deep a node is below a terrain (plane, slope, sinusoid or height
/// map), how fast it sinks, the terrain's normal there and the soil under it.

#include <memory>
#include <numbers>
#include <optional>

#include "hopsim/core/darts_model.h"
#include "hopsim/models/soil_map.h"
#include "hopsim/models/terrain.h"

namespace hopsim::models {

/// TerrainPenetration's equations, file format, conventions and choices:
/// docs/models/TerrainPenetration.md.
class TerrainPenetration final : public SensorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> terrain = param<std::string>("terrain")
                                        .defaultValue(std::string("PLANE"))
                                        .describe("PLANE, SLOPE, SINUSOID or HEIGHT_MAP, any case");
    ParamKey<double> height = param<double>("height").unit("m").defaultValue(0.0).describe(
        "h0: the plane's height, the slope's at the origin, the sinusoid's mean");
    ParamKey<double> slope = param<double>("slope")
                                 .unit("rad")
                                 .defaultValue(0.0)
                                 .min(0.0)
                                 .below(std::numbers::pi / 2)
                                 .describe("SLOPE: the inclination from the horizontal");
    ParamKey<double> slopeHeading = param<double>("slope_heading")
                                        .unit("rad")
                                        .defaultValue(0.0)
                                        .describe("SLOPE: the uphill direction, from +x toward +y");
    ParamKey<Eigen::VectorXd> amplitude = param<Eigen::VectorXd>("amplitude")
                                              .length(2)
                                              .unit("m")
                                              .defaultValue(std::vector<double>{0.1, 0.1})
                                              .describe("SINUSOID: [A_x, A_y]");
    ParamKey<Eigen::VectorXd> wavelength = param<Eigen::VectorXd>("wavelength")
                                               .length(2)
                                               .unit("m")
                                               .defaultValue(std::vector<double>{1.0, 1.0})
                                               .describe("SINUSOID: [λ_x, λ_y], > 0");
    ParamKey<std::string> file =
        param<std::string>("file")
            .defaultValue(std::string())
            .describe("HEIGHT_MAP: the height-map file (hopsim_height_map format)");
    ParamKey<Eigen::VectorXd> soils =
        param<Eigen::VectorXd>("soils")
            .length("soil_values")
            .defaultValue(std::vector<double>{0.99e3, 1528.43e3, 1.1, 1.04e3, 0.4887, 0.025})
            .describe(
                "[kc N/m^(n+1), kphi N/m^(n+2), n, cohesion Pa, phi rad, K m] per soil; the "
                "default is Wong's dry sand");
    ParamKey<Eigen::VectorXd> soilRegions =
        param<Eigen::VectorXd>("soil_regions")
            .length("region_values")
            .defaultValue(std::vector<double>{-1e300, 1e300, -1e300, 1e300, 0.0})
            .describe(
                "[xmin, xmax, ymin, ymax, soil index] per region, m; the last region holding a "
                "point wins, soil 0 where none does");
    OutKey<double> penetration = flowOut<double>("penetration")
                                     .unit("m")
                                     .noFeedThrough()
                                     .describe("δ: depth of the node below the surface, < 0 above");
    OutKey<double> penetrationRate = flowOut<double>("penetration_rate")
                                         .unit("m/s")
                                         .noFeedThrough()
                                         .describe("δ̇, > 0 while sinking");
    OutKey<Eigen::VectorXd> contactNormal =
        flowOut<Eigen::VectorXd>("normal").length(3).noFeedThrough().describe(
            "n̂, the surface's unit upward normal under the node, world axes");
    OutKey<double> surfaceHeight = flowOut<double>("surface_height")
                                       .unit("m")
                                       .noFeedThrough()
                                       .describe("h(x, y) under the node");
    OutKey<Eigen::VectorXd> soil =
        flowOut<Eigen::VectorXd>("soil")
            .length(BekkerSoil::kSize)
            .noFeedThrough()
            .describe("the soil under the node, [kc, kphi, n, cohesion, phi, K] as in `soils`");
  };
  static const Declaration& declaration();

  explicit TerrainPenetration(std::string name) : SensorModel(std::move(name), declaration()) {}
  ~TerrainPenetration() override;

  void processParams(double t) override;
  void updateFlowOuts(double t) override;

  /// The terrain the params describe (after the first hop's processParams), or nullptr.
  const Terrain* terrainSurface() const { return terrain_.get(); }

 private:
  const Declaration& d_ = declaration();
  std::unique_ptr<Terrain> terrain_;
  std::optional<SoilMap> soilMap_;
};

}  // namespace hopsim::models
