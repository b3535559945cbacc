#include "hopsim/assemblies/assembly_registry.h"

#include "hopsim/assemblies/body_assembly.h"
#include "hopsim/assemblies/gravity_assembly.h"
#include "hopsim/assemblies/model_assembly.h"
#include "hopsim/assemblies/model_file_assembly.h"
#include "hopsim/assemblies/vehicle_assembly.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {

void AssemblyRegistry::add(AssemblyClass cls) {
  if (classes_.count(cls.name) != 0) {
    throw ModelError("assembly class '" + cls.name + "' is already registered");
  }
  std::string name = cls.name;
  classes_.emplace(std::move(name), std::move(cls));
}

const AssemblyClass& AssemblyRegistry::get(std::string_view className) const {
  const auto it = classes_.find(className);
  if (it == classes_.end()) {
    throw NotFoundError("unknown assembly class '" + std::string(className) + "'" +
                        didYouMean(className, classNames()));
  }
  return it->second;
}

std::vector<std::string> AssemblyRegistry::classNames() const {
  std::vector<std::string> names;
  names.reserve(classes_.size());
  for (const auto& [name, cls] : classes_) names.push_back(name);
  return names;
}

void registerStandardAssemblies(AssemblyRegistry& registry) {
  registry.add<Assembly>();
  registry.add<BodyAssembly>();
  registry.add<VehicleAssembly>();
  registry.add<GravityAssembly>();
  registry.add<ModelAssembly>();
  registry.add<ModelFileAssembly>();
}

AssemblyRegistry& assemblyRegistry() {
  static AssemblyRegistry registry = [] {
    AssemblyRegistry r;
    registerStandardAssemblies(r);
    return r;
  }();
  return registry;
}

}  // namespace hopsim
