#include "scenario_document.h"

#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"

namespace hopsim::scenario {

namespace {

std::vector<std::string> split(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t dot; (dot = path.find('.', start)) != std::string_view::npos; start = dot + 1) {
    parts.emplace_back(path.substr(start, dot - start));
  }
  parts.emplace_back(path.substr(start));
  return parts;
}

/// Sets `value` at `keys` below `node`, creating mappings on the way.
void setAt(InputNode& node, const std::vector<std::string>& keys, std::size_t from,
           InputNode value) {
  if (from == keys.size()) {
    node = std::move(value);
    return;
  }
  if (node.isNull()) node = InputNode::mapping({});
  if (!node.isMapping()) {
    throw InputError(value.location().toString() + ": '" + keys[from - 1] + "' holds a " +
                     node.kindName() + ", not fields");
  }
  const InputNode* existing = node.find(keys[from]);
  InputNode child = existing != nullptr ? *existing : InputNode();
  setAt(child, keys, from + 1, std::move(value));
  node.set(keys[from], std::move(child));
}

/// Finds the definition an `assemblies.` override names; true when it was applied.
bool applyToAssembly(InputNode& definitions, const std::vector<std::string>& keys, std::size_t from,
                     const InputNode& value) {
  if (from + 1 >= keys.size() || !definitions.isMapping()) return false;
  const InputNode* found = definitions.find(keys[from]);
  if (found == nullptr) return false;
  InputNode definition = *found;
  const std::string& group = keys[from + 1];
  bool applied = false;
  if (group == "config" && from + 2 < keys.size()) {
    setAt(definition, keys, from + 2, value);  // config fields sit at the definition's level
    applied = true;
  } else if ((group == "context" || group == "params") && from + 2 < keys.size()) {
    InputNode section = definition.find(group) != nullptr ? *definition.find(group) : InputNode();
    setAt(section, keys, from + 2, value);
    definition.set(group, std::move(section));
    applied = true;
  } else if (definition.find("assemblies") != nullptr) {
    InputNode nested = *definition.find("assemblies");
    applied = applyToAssembly(nested, keys, from + 1, value);
    if (applied) definition.set("assemblies", std::move(nested));
  }
  if (applied) definitions.set(keys[from], std::move(definition));
  return applied;
}

}  // namespace

Override parseOverride(const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw InputError("override '" + text + "': expected PATH=VALUE");
  }
  Override o;
  o.path = text.substr(0, equals);
  o.value = parseYaml(text.substr(equals + 1), "override " + text);
  return o;
}

std::vector<Override> applyToDocument(InputNode& document, std::vector<Override> overrides) {
  std::vector<Override> rest;
  for (Override& o : overrides) {
    const std::vector<std::string> keys = split(o.path);
    bool applied = false;
    if (keys.size() == 2 && (keys[0] == "simulation" || keys[0] == "logging")) {
      setAt(document, keys, 0, o.value);
      applied = true;
    } else if (keys.size() >= 4 && keys[0] == "assemblies" && document.find("assemblies")) {
      InputNode definitions = *document.find("assemblies");
      applied = applyToAssembly(definitions, keys, 1, o.value);
      if (applied) document.set("assemblies", std::move(definitions));
    } else if (keys.size() >= 4 && keys[0] == "models" && keys[2] == "params" &&
               document.find("models") && document.find("models")->find(keys[1])) {
      setAt(document, keys, 0, o.value);
      applied = true;
    }
    if (!applied) rest.push_back(std::move(o));
  }
  return rest;
}

}  // namespace hopsim::scenario
