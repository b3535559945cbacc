#include <algorithm>
#include <iomanip>

#include "commands.h"
#include "hopsim/core/model_reference.h"
#include "hopsim/models/standard_models.h"

namespace hopsim::apps {

int listModels(std::ostream& out, const std::optional<std::string>& className, bool doc) {
  const ModelRegistry& registry = models::standardRegistry();
  if (className) {
    writeModelReference(out, registry.spec(*className));  // throws with suggestions
    return 0;
  }
  if (doc) {
    writeModelReference(out, registry);
    return 0;
  }
  // Columns as wide as their longest entry, plus two spaces.
  std::size_t nameWidth = 0;
  for (const std::string& name : registry.classNames())
    nameWidth = std::max(nameWidth, name.size());
  for (const std::string& name : registry.classNames()) {
    const ModelSpec& spec = registry.spec(name);
    out << std::left << std::setw(static_cast<int>(nameWidth + 2)) << name << std::setw(17)
        << toString(spec.kind()) << spec.doc() << "\n";
  }
  return 0;
}

}  // namespace hopsim::apps
