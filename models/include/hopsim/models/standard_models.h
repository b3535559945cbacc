#pragma once
/// @file
/// The standard component-model library, registered by class name.

#include "hopsim/core/model_registry.h"

namespace hopsim::models {

/// Registers every model of the standard library in `registry`.
void registerStandardModels(ModelRegistry& registry);

/// A registry holding the standard library only (built once): what `hopsim models` documents.
const ModelRegistry& standardRegistry();

/// The process-wide registry that scenarios, assemblies and Python create models from: the
/// standard library plus the classes registered at run time (Python subclasses of FlowModel and
/// ContinuousModel, hopsim.register_model).
ModelRegistry& modelRegistry();

}  // namespace hopsim::models
