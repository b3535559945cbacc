#include "two_node_force.h"

#include <cmath>
#include <vector>

#include "ascii_case.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "hopsim/signals/value.h"

namespace hopsim::models::detail {
namespace {

std::string path(const Model& model, std::string_view param) {
  return "models." + model.name() + ".params." + std::string(param);
}

multibody::NodeIndex findNode(const Model& model, const multibody::MultibodyModel& tree,
                              const char* param, const std::string& name) {
  std::vector<std::string> names;
  for (int n = 0; n < tree.nodeCount(); ++n) {
    if (tree.node(n).name == name) return n;
    names.push_back(tree.node(n).name);
  }
  throw ModelError(model.describe() + ": " + param + " '" + name + "' is not a node" +
                   didYouMean(name, names));
}

}  // namespace

std::pair<multibody::NodeIndex, multibody::NodeIndex> resolveNodePair(
    const Model& model, const multibody::MultibodyModel& tree, const std::string& node1,
    const std::string& node2, const char* param1, const char* param2) {
  const multibody::NodeIndex n1 = findNode(model, tree, param1, node1);
  const multibody::NodeIndex n2 = findNode(model, tree, param2, node2);
  if (tree.node(n1).body == tree.node(n2).body) {
    throw ModelError(model.describe() + ": " + param1 + " '" + node1 + "' and " + param2 + " '" +
                     node2 + "' are both on body '" + tree.bodyName(tree.node(n1).body) +
                     "'; the element must join two different bodies");
  }
  return {n1, n2};
}

int parseLaw(const Model& model, std::string_view param, std::string_view name,
             std::span<const std::string_view> names) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (equalsIgnoringCase(name, names[i])) return static_cast<int>(i);
  }
  std::string accepted;
  for (std::size_t i = 0; i < names.size(); ++i) {
    accepted += (i == 0 ? "" : ", ") + std::string(names[i]);
  }
  throw InputError(path(model, param) + ": unknown law '" + std::string(name) + "' (expected " +
                   accepted + ", in any case)");
}

void checkCurve(const Model& model, std::string_view param,
                const Eigen::Ref<const Eigen::VectorXd>& xy) {
  if (xy.size() % 2 != 0 || xy.size() == 0) {
    throw InputError(path(model, param) +
                     ": a curve is [x0, y0, x1, y1, ...] with at least one point, but " +
                     std::to_string(xy.size()) + " values were given");
  }
  for (Eigen::Index k = 0; k < xy.size(); ++k) {
    if (!std::isfinite(xy[k])) {
      throw InputError(path(model, param) + ": value " + std::to_string(k) + " is not finite");
    }
  }
  for (Eigen::Index i = 1; 2 * i < xy.size(); ++i) {
    if (!(xy[2 * i] > xy[2 * i - 2])) {
      throw InputError(path(model, param) + ": x must be strictly increasing, but point " +
                       std::to_string(i) + " has x = " + formatNumber(xy[2 * i]) +
                       " after x = " + formatNumber(xy[2 * i - 2]));
    }
  }
}

void checkAscending(const Model& model, std::string_view param,
                    const Eigen::Ref<const Eigen::VectorXd>& values, Eigen::Index minimum) {
  if (values.size() < minimum) {
    throw InputError(path(model, param) + ": at least " + std::to_string(minimum) +
                     " values are needed, " + std::to_string(values.size()) + " were given");
  }
  for (Eigen::Index k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k])) {
      throw InputError(path(model, param) + ": value " + std::to_string(k) + " is not finite");
    }
    if (k > 0 && !(values[k] > values[k - 1])) {
      throw InputError(path(model, param) + ": values must be strictly increasing, but value " +
                       std::to_string(k) + " (" + formatNumber(values[k]) + ") follows " +
                       formatNumber(values[k - 1]));
    }
  }
}

double interpolateCurve(const Eigen::Ref<const Eigen::VectorXd>& xy, double x) {
  const Eigen::Index n = xy.size() / 2;
  if (x <= xy[0]) return xy[1];
  if (x >= xy[2 * n - 2]) return xy[2 * n - 1];
  Eigen::Index i = 1;
  while (xy[2 * i] < x) ++i;  // x lies in [x_{i-1}, x_i]
  const double w = (x - xy[2 * i - 2]) / (xy[2 * i] - xy[2 * i - 2]);
  return (1.0 - w) * xy[2 * i - 1] + w * xy[2 * i + 1];
}

std::pair<Eigen::Index, double> segmentOf(const Eigen::Ref<const Eigen::VectorXd>& x,
                                          double value) {
  Eigen::Index i = 0;
  while (i + 2 < x.size() && value > x[i + 1]) ++i;
  return {i, (value - x[i]) / (x[i + 1] - x[i])};
}

}  // namespace hopsim::models::detail
