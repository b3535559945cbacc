#pragma once
// Shared by the two-node force models (Tsda, Rsda, Bushing, SpringDamper): resolving their node
// pair, naming their laws, and the piecewise-linear tables of the Chrono force laws.

#include <Eigen/Core>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "hopsim/core/model.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::models::detail {

/// The node indices of `node1` and `node2`, the values of the params named `param1` and
/// `param2` (for the messages).
/// @throws ModelError naming the model when a node does not exist (with a suggestion) or when
/// both nodes are on the same body, where the element would act on nothing.
std::pair<multibody::NodeIndex, multibody::NodeIndex> resolveNodePair(
    const Model& model, const multibody::MultibodyModel& tree, const std::string& node1,
    const std::string& node2, const char* param1 = "node1", const char* param2 = "node2");

/// The index of `name` in `names`, ignoring ASCII case.
/// @throws InputError naming the model, the param and the accepted names.
int parseLaw(const Model& model, std::string_view param, std::string_view name,
             std::span<const std::string_view> names);

/// Checks a curve given as [x0, y0, x1, y1, ...]: at least one point, an even number of finite
/// values, x strictly increasing.
/// @throws InputError naming the model, the param and the offending entry.
void checkCurve(const Model& model, std::string_view param,
                const Eigen::Ref<const Eigen::VectorXd>& xy);

/// Checks that `values` are finite and strictly increasing, with at least `minimum` entries.
/// @throws InputError naming the model, the param and the offending entry.
void checkAscending(const Model& model, std::string_view param,
                    const Eigen::Ref<const Eigen::VectorXd>& values, Eigen::Index minimum);

/// The piecewise-linear curve [x0, y0, x1, y1, ...] (at least one point) at x, clamped to the
/// end values outside [x0, xn]. Does not allocate.
double interpolateCurve(const Eigen::Ref<const Eigen::VectorXd>& xy, double x);

/// The segment i of the ascending breakpoints `x` (at least two) that `value` falls in or,
/// outside the range, the end segment, with the weight w of its upper point x[i + 1]: w leaves
/// [0, 1] outside the range, which makes interpolation with it a linear extrapolation there.
std::pair<Eigen::Index, double> segmentOf(const Eigen::Ref<const Eigen::VectorXd>& x, double value);

}  // namespace hopsim::models::detail
