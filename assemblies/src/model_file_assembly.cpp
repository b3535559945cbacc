#include "hopsim/assemblies/model_file_assembly.h"

#include <cmath>
#include <filesystem>

#include "hopsim/assemblies/param_set.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"

namespace hopsim {

ModelFileAssembly::Config::Config() {
  setDoc("What ModelFile reads: the file and the prefix of the names it creates.");
}

ModelFileAssembly::Context::Context() { setDoc("Where ModelFile places the file's world frame."); }

ModelFileAssembly::ModelFileAssembly() = default;
ModelFileAssembly::~ModelFileAssembly() = default;

const mechanism::MechanismBuilder& ModelFileAssembly::builder() const {
  if (!builder_) throw ModelError("ModelFile '" + path() + "': the file is not read yet");
  return *builder_;
}

void ModelFileAssembly::addSignals() {
  const Config& C = *schemaOf<Config>();
  const Context& X = *schemaOf<Context>();
  std::filesystem::path file = config()[C.file];
  // A relative path is relative to the file the value was written in.
  const SourceLocation& written = config().source(C.file.index);
  if (file.is_relative() && written.known()) {
    file = std::filesystem::path(written.file).parent_path() / file;
  }
  mechanism_ = readMechanism(file.lexically_normal().string());
  for (const std::string& w : mechanism_->warnings) warn(w);

  const std::vector<double>& p = context()[X.location];
  const std::vector<double>& e = context()[X.orientation];
  const spatial::Quaternion q(e[0], e[1], e[2], e[3]);
  if (!(std::abs(q.norm() - 1.0) <= 1e-6)) {
    context().fail("orientation", "quaternion [" + describeValue(e[0]) + ", " +
                                      describeValue(e[1]) + ", " + describeValue(e[2]) + ", " +
                                      describeValue(e[3]) + "] is not of unit length");
  }
  mechanism::Placement placement;
  placement.prefix = config()[C.prefix];
  placement.X_WP =
      spatial::RigidTransform::fromQuaternion(q.normalized(), spatial::Vector3(p[0], p[1], p[2]));
  builder_ = std::make_unique<mechanism::MechanismBuilder>(*mechanism_, std::move(placement));
  builder_->addSignals(*this);
}

void ModelFileAssembly::addModels() { builder_->addModels(*this); }

void ModelFileAssembly::bindParams() { builder_->addConstraints(*this); }

void ModelFileAssembly::bindState() { builder_->setInitialState(*this); }

}  // namespace hopsim
