// The includes of a scenario (docs/scenario-yaml.md, "Includes"): the included files are walked
// depth first and their definitions merged into the including document in one pass, in time
// linear in the number of files and definitions however deep the chain of includes.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "hopsim/assemblies/front_end.h"
#include "hopsim/assemblies/mbse_yaml.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"
#include "scenario_document.h"

namespace hopsim::scenario {

namespace {

/// Sections whose entries are named definitions: an included file adds entries.
constexpr const char* kNamedSections[] = {"assemblies", "signals", "models", "events"};

/// Checks that `document`, read from `file`, is a version-1 native scenario.
void checkScenario(const InputNode& document, const std::string& file) {
  // A whole-file problem is reported where the document starts.
  const std::string where = document.location().known() ? at(document) : file + ": ";
  if (!document.isMapping()) {
    throw InputError(where + "a scenario file is a mapping with `hopsim: 1` at the top");
  }
  if (document.find("hopsim") == nullptr &&
      (document.find("chrono-version") != nullptr || mbse::looksLikeMbse(document))) {
    throw InputError(where + "is a " + describe(detectYamlFileKind(document, file)) +
                     ", not a native scenario: run it with `hopsim run` (Scenario::load), or "
                     "include a model file from a scenario (`include: [model.yaml]`)");
  }
  const InputNode* version = document.find("hopsim");
  if (version == nullptr) {
    throw InputError(where + "not a hopsim scenario: expected `hopsim: 1` at the top");
  }
  const InputNode::Scalar& v = version->scalar();
  const bool one = (std::holds_alternative<std::string>(v) && std::get<std::string>(v) == "1") ||
                   (std::holds_alternative<std::int64_t>(v) && std::get<std::int64_t>(v) == 1);
  if (!version->isScalar() || !one) {
    throw InputError(at(*version) + "hopsim: format version " + version->describe() +
                     " is not supported (this hopsim reads version 1)");
  }
}

/// A Chrono model or MBSE file included by a scenario, as a document defining an assembly of
/// class ModelFile, named by `name` or after the file, placed by `location` and `orientation`.
InputNode modelFileDefinition(const InputNode& item, const std::filesystem::path& path) {
  std::string name = path.stem().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c) && c != '_'; }, '_');
  std::vector<InputNode::Entry> definition{
      {"class", InputNode("ModelFile")}, {"file", InputNode::text(path.string(), item.location())}};
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
  return InputNode::mapping({{"assemblies", std::move(assemblies)}}, item.location());
}

/// The path that identifies a file on the include path; a path the file system refuses (a name
/// too long) stays as written, and loading it then reports that it cannot be read.
std::filesystem::path canonicalForCycles(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
  return error ? path.lexically_normal() : canonical;
}

/// Removes `include` from `document` and returns its items (one file, or a sequence of them).
std::vector<InputNode> takeIncludes(InputNode& document) {
  std::vector<InputNode> items;
  auto& entries = document.entries();
  const auto include = std::find_if(entries.begin(), entries.end(),
                                    [](const auto& e) { return e.first == "include"; });
  if (include == entries.end()) return items;
  InputNode& value = include->second;
  if (value.isSequence()) {
    items = value.items();
  } else if (!value.isNull()) {
    items.push_back(std::move(value));
  }
  entries.erase(include);
  return items;
}

/// Every document `document` includes, directly or not, in the order their definitions come:
/// depth first, each file's own before those of the files it includes. A model file is a
/// document defining its ModelFile assembly. The walk keeps its own stack, since a chain of
/// includes may be deeper than the call stack; a file on the current path of includes is a
/// cycle (a file included twice elsewhere is not, and then defines its names twice).
std::vector<InputNode> includedDocuments(InputNode& document, const std::filesystem::path& file,
                                         MechanismFiles& files) {
  struct Including {
    std::filesystem::path path;    // canonical: relative includes are relative to it
    std::vector<InputNode> items;  // its includes
    std::size_t next = 0;          // the next item to open
  };
  std::vector<InputNode> documents;
  std::vector<Including> stack;
  std::unordered_set<std::string> onStack;
  stack.push_back({file, takeIncludes(document)});
  onStack.insert(file.string());
  while (!stack.empty()) {
    Including& including = stack.back();
    if (including.next == including.items.size()) {
      onStack.erase(including.path.string());
      stack.pop_back();
      continue;
    }
    const InputNode item = std::move(including.items[including.next++]);
    // `file` or `{file: ..., name: ..., prefix: ..., location: ..., orientation: ...}`.
    const InputNode* fileNode = item.isMapping() ? item.find("file") : &item;
    const auto* name = fileNode != nullptr && fileNode->isScalar()
                           ? std::get_if<std::string>(&fileNode->scalar())
                           : nullptr;
    if (name == nullptr) {
      throw InputError(at(item) +
                       "include: expected a file name, or a mapping with `file` (and "
                       "`name`, `prefix`, `location`, `orientation` for a model "
                       "file), got " +
                       item.describe());
    }
    const std::filesystem::path path = canonicalForCycles(including.path.parent_path() / *name);
    if (onStack.contains(path.string())) {
      throw InputError(at(item) + "include: '" + *name + "' includes itself (through " +
                       including.path.string() + ")");
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
      documents.push_back(modelFileDefinition(item, path));
      // Its ModelFile assembly reads the mechanism from the document loaded here.
      files.keepDocument(path.string(), std::move(included));
      continue;
    }
    if (item.isMapping()) {
      throw InputError(at(item) + "include: '" + *name + "' is a " + describe(kind) +
                       "; `name`, `prefix`, `location` and `orientation` place model files "
                       "(write a scenario include as a plain file name)");
    }
    checkScenario(included, path.string());
    std::vector<InputNode> items = takeIncludes(included);
    documents.push_back(std::move(included));
    onStack.insert(path.string());
    stack.push_back({path, std::move(items)});  // `including` is invalid from here
  }
  return documents;
}

/// The value `key` of `document` that additions are merged into: its own, or a new one of
/// `kind` located at `first`, the first addition. None when the document's own value is of
/// another kind: the builder reports it where it is written.
std::optional<InputNode> mergeTarget(const InputNode& document, const char* key,
                                     const InputNode& first) {
  const InputNode* own = document.find(key);
  if (own == nullptr || own->isNull()) {
    return first.isMapping() ? InputNode::mapping({}, first.location())
                             : InputNode::sequence({}, first.location());
  }
  if (own->kind() != first.kind()) return std::nullopt;
  return *own;
}

/// Adds the entries of named section `section` of every included document after the
/// document's own; a name defined twice is an error naming both places.
void mergeNamed(InputNode& document, const char* section, const std::vector<InputNode>& included) {
  std::optional<InputNode> merged;
  std::unordered_map<std::string, SourceLocation> defined;
  for (const InputNode& from : included) {
    const InputNode* added = from.find(section);
    if (added == nullptr || added->isNull()) continue;
    if (!added->isMapping()) {
      throw InputError(at(*added) + section + ": expected a mapping of named entries, got a " +
                       added->kindName());
    }
    if (!merged) {
      merged = mergeTarget(document, section, *added);
      if (!merged) return;
      for (const auto& [name, value] : merged->entries()) defined.emplace(name, value.location());
    }
    for (const auto& [name, value] : added->entries()) {
      const auto [existing, isNew] = defined.emplace(name, value.location());
      if (!isNew) {
        throw InputError(at(value) + section + "." + name + ": defined twice (also at " +
                         existing->second.toString() + ")");
      }
      merged->entries().emplace_back(name, value);
    }
  }
  if (merged) document.set(section, std::move(*merged));
}

/// Appends the items of sequence `key` of each of `sources` to `into`'s.
void mergeSequence(InputNode& into, const char* key, const std::vector<const InputNode*>& sources) {
  const InputNode* first = nullptr;
  std::vector<InputNode> items;
  for (const InputNode* source : sources) {
    const InputNode* added = source->find(key);
    if (added == nullptr || added->isNull()) continue;
    if (!added->isSequence()) {
      throw InputError(at(*added) + key + ": expected a sequence, got a " + added->kindName());
    }
    if (first == nullptr) first = added;
    items.insert(items.end(), added->items().begin(), added->items().end());
  }
  if (first == nullptr) return;
  std::optional<InputNode> merged = mergeTarget(into, key, *first);
  if (!merged) return;
  items.insert(items.begin(), merged->items().begin(), merged->items().end());
  into.set(key, InputNode::sequence(std::move(items), merged->location()));
}

/// Fills the keys `into` lacks from each of `sources` in turn: the earlier source wins.
void fillDefaults(InputNode& into, const std::vector<const InputNode*>& sources) {
  std::unordered_set<std::string> present;
  for (const auto& entry : into.entries()) present.insert(entry.first);
  for (const InputNode* source : sources) {
    for (const auto& [key, value] : source->entries()) {
      if (present.insert(key).second) into.entries().emplace_back(key, value);
    }
  }
}

/// The mappings `section` of the included documents that have one.
std::vector<const InputNode*> sections(const std::vector<InputNode>& included,
                                       const char* section) {
  std::vector<const InputNode*> found;
  for (const InputNode& document : included) {
    const InputNode* node = document.find(section);
    if (node != nullptr && node->isMapping()) found.push_back(node);
  }
  return found;
}

/// The included `simulation` keys, and the `logging` keys other than its variables, apply where
/// the document does not set them; `logging.variables` are appended.
void mergeSettings(InputNode& document, const std::vector<InputNode>& included) {
  std::vector<const InputNode*> simulations = sections(included, "simulation");
  if (!simulations.empty()) {
    if (std::optional<InputNode> simulation =
            mergeTarget(document, "simulation", *simulations[0])) {
      fillDefaults(*simulation, simulations);
      document.set("simulation", std::move(*simulation));
    }
  }
  std::vector<const InputNode*> loggings = sections(included, "logging");
  if (!loggings.empty()) {
    if (std::optional<InputNode> logging = mergeTarget(document, "logging", *loggings[0])) {
      mergeSequence(*logging, "variables", loggings);
      fillDefaults(*logging, loggings);
      document.set("logging", std::move(*logging));
    }
  }
}

}  // namespace

void resolveIncludes(InputNode& document, const std::string& file, MechanismFiles& files) {
  checkScenario(document, file);
  const std::vector<InputNode> included =
      includedDocuments(document, canonicalForCycles(file), files);
  if (included.empty()) return;
  for (const char* section : kNamedSections) mergeNamed(document, section, included);
  std::vector<const InputNode*> documents;
  for (const InputNode& d : included) documents.push_back(&d);
  mergeSequence(document, "breaks", documents);
  mergeSettings(document, included);
}

}  // namespace hopsim::scenario
