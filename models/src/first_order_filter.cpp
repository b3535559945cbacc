#include "hopsim/models/first_order_filter.h"

namespace hopsim::models {

FirstOrderFilter::Declaration::Declaration()
    : ModelSpec("FirstOrderFilter", ModelKind::Continuous,
                "Continuous first-order lag on a vector: tau y' = u - y, element by element; "
                "the output is the state y (no feed-through).") {}

const FirstOrderFilter::Declaration& FirstOrderFilter::declaration() {
  static const Declaration declaration;
  return declaration;
}

void FirstOrderFilter::updateFlowOuts(double /*t*/) { out(d_.y) = state(d_.state); }

void FirstOrderFilter::postDeriv(double /*t*/) {
  derivative(d_.state) = (in(d_.u) - state(d_.state)) / param(d_.tau);
}

}  // namespace hopsim::models
