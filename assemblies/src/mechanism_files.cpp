#include "hopsim/assemblies/mechanism_files.h"

#include <filesystem>

#include "hopsim/assemblies/front_end.h"

namespace hopsim {

std::string MechanismFiles::key(const std::string& path) {
  return std::filesystem::absolute(path).lexically_normal().string();
}

std::shared_ptr<const mechanism::Mechanism> MechanismFiles::read(const std::string& path) {
  const std::string k = key(path);
  if (const auto found = mechanisms_.find(k); found != mechanisms_.end()) return found->second;
  const auto document = documents_.find(k);
  auto mechanism = std::make_shared<const mechanism::Mechanism>(
      document != documents_.end() ? readMechanism(document->second, path)
                                   : readMechanismFile(path));
  if (document != documents_.end()) documents_.erase(document);
  return mechanisms_.emplace(k, std::move(mechanism)).first->second;
}

void MechanismFiles::keep(const std::string& path, mechanism::Mechanism mechanism) {
  mechanisms_[key(path)] = std::make_shared<const mechanism::Mechanism>(std::move(mechanism));
}

void MechanismFiles::keepDocument(const std::string& path, InputNode document) {
  documents_[key(path)] = std::move(document);
}

}  // namespace hopsim
