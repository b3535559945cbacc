#include "hopsim/models/terrain_penetration.h"

#include "ascii_case.h"
#include "hopsim/models/height_map.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

using spatial::Vector3;

TerrainPenetration::Declaration::Declaration()
    : ModelSpec("TerrainPenetration", ModelKind::Sensor,
                "Penetration of the attached node into the terrain z = h(x, y) (PLANE, SLOPE, "
                "SINUSOID or a bilinear HEIGHT_MAP): δ = (h(x, y) - z) n̂_z, δ̇ = -v·n̂ with "
                "n̂ ∝ [-∂h/∂x, -∂h/∂y, 1] at the node's (x, y), and the Bekker soil of the "
                "region under it. No feed-through.") {
  // The outputs change only with the multibody state.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const TerrainPenetration::Declaration& TerrainPenetration::declaration() {
  static const Declaration declaration;
  return declaration;
}

TerrainPenetration::~TerrainPenetration() = default;

void TerrainPenetration::processParams(double /*t*/) {
  const std::string prefix = "models." + name() + ".params.";
  const std::string& kind = param(d_.terrain);
  // Built aside and moved in, so that a refused set leaves the previous terrain in place.
  std::unique_ptr<Terrain> terrain;
  try {
    if (equalsIgnoringCase(kind, "PLANE")) {
      terrain = std::make_unique<InclinedPlaneTerrain>(param(d_.height), 0.0, 0.0);
    } else if (equalsIgnoringCase(kind, "SLOPE")) {
      terrain = std::make_unique<InclinedPlaneTerrain>(param(d_.height), param(d_.slope),
                                                       param(d_.slopeHeading));
    } else if (equalsIgnoringCase(kind, "SINUSOID")) {
      terrain = std::make_unique<SinusoidTerrain>(param(d_.height), param(d_.amplitude),
                                                  param(d_.wavelength));
    } else if (equalsIgnoringCase(kind, "HEIGHT_MAP")) {
      if (param(d_.file).empty()) {
        throw InputError("file: empty; HEIGHT_MAP needs a height-map file");
      }
      try {
        terrain = std::make_unique<HeightMapTerrain>(HeightMapTerrain::read(param(d_.file)));
      } catch (const InputError& error) {
        throw InputError(std::string("file: ") + error.what());
      }
    } else {
      throw InputError("terrain: value '" + kind + "' is not PLANE, SLOPE, SINUSOID or HEIGHT_MAP");
    }
    SoilMap soilMap(param(d_.soils), param(d_.soilRegions));
    terrain_ = std::move(terrain);
    soilMap_.emplace(std::move(soilMap));
  } catch (const InputError& error) {
    throw InputError(prefix + error.what());
  }
}

void TerrainPenetration::updateFlowOuts(double /*t*/) {
  const Vector3 p = nodePose().translation();
  const Vector3 v = nodeVelocity().translational();
  const double h = terrain_->height(p.x(), p.y());
  const Vector3 n = terrain_->normal(p.x(), p.y());
  out(d_.penetration) = (h - p.z()) * n.z();
  out(d_.penetrationRate) = -v.dot(n);
  out(d_.contactNormal) = n;
  out(d_.surfaceHeight) = h;
  const auto soil = soilMap_->at(p.x(), p.y()).values();
  out(d_.soil) = Eigen::Map<const Eigen::VectorXd>(soil.data(), BekkerSoil::kSize);
}

}  // namespace hopsim::models
