#pragma once
/// @file
/// A model class's declared params as a parameter schema (the seed's ModelLinker), so that model
/// params given in scenarios and assemblies take units, and are checked with full paths, like
/// every other input.
#include <memory>

#include "hopsim/assemblies/param_set.h"
#include "hopsim/core/model_registry.h"
#include "hopsim/core/model_spec.h"

namespace hopsim {

/// The schema of a model class's params: one field per declared param, with its type, fixed
/// length, SI unit, default, bounds and description. Built once per class and kept.
std::shared_ptr<const ParamSchema> modelParamsSchema(const ModelSpec& spec);

/// The present fields of a set made with modelParamsSchema, as the model registry takes them.
ParamValues modelParamValues(const ParamSet& params);

}  // namespace hopsim
