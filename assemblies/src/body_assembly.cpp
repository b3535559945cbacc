#include "hopsim/assemblies/body_assembly.h"

namespace hopsim {

BodyAssembly::Config::Config() { setDoc("What BodyAssembly builds: the name of its body."); }

BodyAssembly::Context::Context() {
  setDoc("Where BodyAssembly attaches its body: the parent body's name.");
}

std::string BodyAssembly::bodyName() const {
  const Config& keys = *schemaOf<Config>();
  return config().has(keys.body) ? config()[keys.body] : name();
}

void BodyAssembly::addModels() {
  // The parent comes from the scoping rule of Assembly::addBody, which reads context.parentBody.
  addBody(bodyName(), params());
}

void BodyAssembly::bindState() { setBodyState(bodyName(), params()); }

}  // namespace hopsim
