#include "scenario_document.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include "hopsim/assemblies/front_end.h"
#include "hopsim/assemblies/mbse_yaml.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"

namespace hopsim::scenario {

namespace {

/// Sections whose entries are named definitions: an included file adds entries.
constexpr const char* kNamedSections[] = {"assemblies", "signals", "models", "events"};

void mergeNamed(InputNode& into, const char* section, const InputNode& from) {
  const InputNode* added = from.find(section);
  if (added == nullptr || added->isNull()) return;
  if (!added->isMapping()) {
    throw InputError(at(*added) + section + ": expected a mapping of named entries, got a " +
                     added->kindName());
  }
  InputNode merged = into.find(section) != nullptr && !into.find(section)->isNull()
                         ? *into.find(section)
                         : InputNode::mapping({}, added->location());
  for (const auto& [name, value] : added->entries()) {
    if (const InputNode* existing = merged.find(name)) {
      throw InputError(at(value) + section + "." + name + ": defined twice (also at " +
                       existing->location().toString() + ")");
    }
    merged.entries().emplace_back(name, value);
  }
  into.set(section, std::move(merged));
}

/// Appends the items of sequence `key` of `from` to `into`'s.
void mergeSequence(InputNode& into, const InputNode& from, const char* key) {
  const InputNode* added = from.find(key);
  if (added == nullptr || added->isNull()) return;
  std::vector<InputNode> items;
  if (const InputNode* existing = into.find(key); existing != nullptr && existing->isSequence()) {
    items = existing->items();
  }
  if (!added->isSequence()) {
    throw InputError(at(*added) + key + ": expected a sequence, got a " + added->kindName());
  }
  for (const InputNode& item : added->items()) items.push_back(item);
  into.set(key, InputNode::sequence(std::move(items), added->location()));
}

/// The including file's keys win: an included mapping only fills keys it lacks.
void mergeDefaults(InputNode& into, const char* section, const InputNode& from) {
  const InputNode* added = from.find(section);
  if (added == nullptr || !added->isMapping()) return;
  InputNode merged = into.find(section) != nullptr && into.find(section)->isMapping()
                         ? *into.find(section)
                         : InputNode::mapping({}, added->location());
  for (const auto& [key, value] : added->entries()) {
    if (merged.find(key) == nullptr) merged.entries().emplace_back(key, value);
  }
  into.set(section, std::move(merged));
}

void checkScenario(const InputNode& document, const std::string& file) {
  if (!document.isMapping()) {
    throw InputError(file + ": a scenario file is a mapping with `hopsim: 1` at the top");
  }
  if (document.find("hopsim") == nullptr &&
      (document.find("chrono-version") != nullptr || mbse::looksLikeMbse(document))) {
    throw InputError(file + ": is a " + describe(detectYamlFileKind(document, file)) +
                     ", not a native scenario: run it with `hopsim run` (Scenario::load), or "
                     "include a model file from a scenario (`include: [model.yaml]`)");
  }
  const InputNode* version = document.find("hopsim");
  if (version == nullptr) {
    throw InputError(file + ": not a hopsim scenario: expected `hopsim: 1` at the top");
  }
  const InputNode::Scalar& v = version->scalar();
  const bool one = (std::holds_alternative<std::string>(v) && std::get<std::string>(v) == "1") ||
                   (std::holds_alternative<std::int64_t>(v) && std::get<std::int64_t>(v) == 1);
  if (!version->isScalar() || !one) {
    throw InputError(at(*version) + "hopsim: format version " + version->describe() +
                     " is not supported (this hopsim reads version 1)");
  }
}

/// A Chrono model or MBSE file included by a scenario becomes an assembly of class ModelFile,
/// named by `name` or after the file, placed by `location` and `orientation`.
void includeModelFile(InputNode& document, const InputNode& item,
                      const std::filesystem::path& path) {
  std::string name = path.stem().string();
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(c) && c != '_'; },
                  '_');
  std::vector<InputNode::Entry> definition{{"class", InputNode("ModelFile")},
                                           {"file", InputNode::text(path.string(), item.location())}};
  std::vector<InputNode::Entry> context;
  if (item.isMapping()) {
    for (const auto& [key, value] : item.entries()) {
      if (key == "file") continue;
      if (key == "name") {
        const auto* text = value.isScalar() ? std::get_if<std::string>(&value.scalar()) : nullptr;
        if (text == nullptr || text->empty()) {
          throw InputError(at(value) + "include.name: expected an assembly name, got " +
                           value.describe());
        }
        name = *text;
      } else if (key == "prefix") {
        definition.emplace_back(key, value);
      } else if (key == "location" || key == "orientation") {
        context.emplace_back(key, value);
      } else {
        throw InputError(at(value) + "include." + key +
                         ": unknown key (expected file, name, prefix, location, orientation)");
      }
    }
  }
  if (!context.empty()) {
    definition.emplace_back("context", InputNode::mapping(std::move(context), item.location()));
  }
  InputNode assemblies = InputNode::mapping(
      {{name, InputNode::mapping(std::move(definition), item.location())}}, item.location());
  mergeNamed(document, "assemblies",
             InputNode::mapping({{"assemblies", std::move(assemblies)}}, item.location()));
}

/// The path that identifies a file in the include chain; a path the file system refuses (a name
/// too long) stays as written, and loading it then reports that it cannot be read.
std::filesystem::path canonicalForCycles(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
  return error ? path.lexically_normal() : canonical;
}

void resolve(InputNode& document, const std::filesystem::path& file,
             std::vector<std::filesystem::path>& chain) {
  const InputNode* include = document.find("include");
  if (include == nullptr || include->isNull()) return;
  std::vector<InputNode> items =
      include->isSequence() ? include->items() : std::vector<InputNode>{*include};
  for (const InputNode& item : items) {
    // `file` or `{file: ..., name: ..., prefix: ..., location: ..., orientation: ...}`.
    const InputNode* fileNode = item.isMapping() ? item.find("file") : &item;
    const auto* name = fileNode != nullptr && fileNode->isScalar()
                           ? std::get_if<std::string>(&fileNode->scalar())
                           : nullptr;
    if (name == nullptr) {
      throw InputError(at(item) + "include: expected a file name, or a mapping with `file` (and "
                                  "`name`, `prefix`, `location`, `orientation` for a model "
                                  "file), got " + item.describe());
    }
    const std::filesystem::path path = canonicalForCycles(file.parent_path() / *name);
    if (std::find(chain.begin(), chain.end(), path) != chain.end()) {
      throw InputError(at(item) + "include: '" + *name + "' includes itself (through " +
                       chain.back().string() + ")");
    }
    InputNode included;
    YamlFileKind kind{};
    try {
      included = loadYamlFile(path.string());
      kind = detectYamlFileKind(included, path.string());
    } catch (const InputError& e) {
      throw InputError(locateMessage(item.location(), "include", e.what()));
    }
    if (kind == YamlFileKind::ChronoModel || kind == YamlFileKind::Mbse) {
      includeModelFile(document, item, path);
      continue;
    }
    if (item.isMapping()) {
      throw InputError(at(item) + "include: '" + *name + "' is a " + describe(kind) +
                       "; `name`, `prefix`, `location` and `orientation` place model files "
                       "(write a scenario include as a plain file name)");
    }
    checkScenario(included, path.string());
    chain.push_back(path);
    resolve(included, path, chain);
    chain.pop_back();
    for (const char* section : kNamedSections) mergeNamed(document, section, included);
    mergeSequence(document, included, "breaks");
    mergeDefaults(document, "simulation", included);
    if (const InputNode* logging = included.find("logging"); logging && logging->isMapping()) {
      InputNode merged = document.find("logging") != nullptr &&
                                 document.find("logging")->isMapping()
                             ? *document.find("logging")
                             : InputNode::mapping({}, logging->location());
      mergeSequence(merged, *logging, "variables");
      for (const auto& [key, value] : logging->entries()) {
        if (merged.find(key) == nullptr) merged.entries().emplace_back(key, value);
      }
      document.set("logging", std::move(merged));
    }
  }
  document.entries().erase(std::remove_if(document.entries().begin(), document.entries().end(),
                                          [](const auto& e) { return e.first == "include"; }),
                           document.entries().end());
}

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
    throw InputError(value.location().toString() + ": '" + keys[from - 1] +
                     "' holds a " + node.kindName() + ", not fields");
  }
  const InputNode* existing = node.find(keys[from]);
  InputNode child = existing != nullptr ? *existing : InputNode();
  setAt(child, keys, from + 1, std::move(value));
  node.set(keys[from], std::move(child));
}

/// Finds the definition an `assemblies.` override names; true when it was applied.
bool applyToAssembly(InputNode& definitions, const std::vector<std::string>& keys,
                     std::size_t from, const InputNode& value) {
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
  o.value = parseYaml(text.substr(equals + 1), "--set " + text);
  return o;
}

void resolveIncludes(InputNode& document, const std::string& file) {
  checkScenario(document, file);
  std::vector<std::filesystem::path> chain{canonicalForCycles(file)};
  resolve(document, chain.front(), chain);
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
