#include "hopsim/core/model_registry.h"

#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {

void ModelRegistry::add(const ModelSpec& spec, Factory factory) {
  if (!entries_.emplace(spec.className(), Entry{&spec, std::move(factory)}).second) {
    throw ModelError("model class '" + spec.className() + "' is registered twice");
  }
}

const ModelRegistry::Entry& ModelRegistry::entry(std::string_view className) const {
  auto it = entries_.find(className);
  if (it == entries_.end()) {
    throw NotFoundError("no model class '" + std::string(className) + "' is registered" +
                        didYouMean(className, classNames()));
  }
  return it->second;
}

std::unique_ptr<Model> ModelRegistry::create(std::string_view className, std::string name,
                                             const ParamValues& params) const {
  std::unique_ptr<Model> model = entry(className).factory(std::move(name));
  for (const auto& [param, value] : params) model->setParam(param, value);
  return model;
}

const ModelSpec& ModelRegistry::spec(std::string_view className) const {
  return *entry(className).spec;
}

std::vector<std::string> ModelRegistry::classNames() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : entries_) names.push_back(name);
  return names;
}

}  // namespace hopsim
