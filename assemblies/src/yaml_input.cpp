/// @file
/// YAML to InputNode with yaml-cpp 0.7.
///
/// What yaml-cpp 0.7 gives us (checked with a test program against Debian's 0.7.0):
/// - Node::Tag() is "?" for a plain scalar and "!" for a non-plain one: single- or
///   double-quoted, and also literal (`|`) and folded (`>`) block scalars. An explicit tag
///   is kept verbatim (`!!str x` has Tag() "tag:yaml.org,2002:str").
/// - A plain `~`, `null` or empty value is already a Null node (Tag() "").
/// - Marks are 0-based. An alias shares the anchored node, so its mark is the anchor's, and an
///   empty value (`key:` then a newline) is marked where the next token starts.
/// - Repeated keys are all kept, each with its own mark. yaml-cpp leaves YAML 1.1 merge keys
///   to its users (`<<` is an ordinary key to it): this file implements them. An anchor may be used
///   inside itself (`&a [*a]`), giving a cyclic graph, and aliases make it a DAG whose expansion
///   can be exponential. Hence the limits on depth and node count below.
/// - The parser stops with DeepRecursion at a recursion depth of 2000 (about 500 nested flow
///   collections); its message is "bad file" and its mark 0:0, so it gets a message of its
///   own here.

#include "hopsim/assemblies/yaml_input.h"

#include <yaml-cpp/depthguard.h>  // DeepRecursion, which yaml.h does not declare
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hopsim/signals/error.h"
#include "hopsim/signals/input_file.h"

namespace hopsim {
namespace {

/// Far deeper than any real scenario, and shallow enough that converting cannot overflow
/// the stack.
constexpr int kMaxDepth = 200;
/// Stops alias expansion ("billion laughs") long before memory runs out: a million nodes is
/// a few hundred megabytes of InputNodes, and real input files are far smaller.
constexpr std::size_t kMaxNodes = 1'000'000;

const std::string kPlainTag = "?";
const std::string kNonPlainTag = "!";
const std::string kStrTag = "tag:yaml.org,2002:str";
const std::string kNullTag = "tag:yaml.org,2002:null";
/// The YAML 1.1 merge key; only a plain `<<` is one (a quoted "<<" is an ordinary key).
const std::string kMergeKey = "<<";

/// yaml-cpp's 0-based mark as a 1-based location; a null mark knows only the file.
SourceLocation locate(const std::string& source, const YAML::Mark& mark) {
  if (mark.is_null()) return {source, 0, 0};
  return {source, mark.line + 1, mark.column + 1};
}

/// Converts one parsed document, keeping count of the nodes made so far.
class Converter {
 public:
  explicit Converter(const std::string& source) : source_(source) {}

  /// `node` and everything under it; `depth` is the number of enclosing collections.
  InputNode convert(const YAML::Node& node, int depth) {
    admit(node, depth);
    switch (node.Type()) {
      case YAML::NodeType::Scalar:
        return scalar(node);
      case YAML::NodeType::Sequence:
        return sequence(node, depth);
      case YAML::NodeType::Map:
        return mapping(node, depth);
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        break;
    }
    return InputNode().at(where(node));
  }

  SourceLocation where(const YAML::Node& node) const { return locate(source_, node.Mark()); }

 private:
  using Entries = std::vector<InputNode::Entry>;
  /// Key -> where it was written, to report repeated keys and to let explicit keys win over
  /// merged ones.
  using KeyIndex = std::unordered_map<std::string, SourceLocation>;

  /// Enforces the limits before a node is made, naming where the offending node is.
  void admit(const YAML::Node& node, int depth) {
    if (depth > kMaxDepth) {
      fail(node, "YAML nesting deeper than " + std::to_string(kMaxDepth) +
                     " levels (a recursive alias?)");
    }
    if (++nodes_ > kMaxNodes) {
      fail(node, "YAML document has more than " + std::to_string(kMaxNodes) +
                     " nodes (aliases expanding exponentially?)");
    }
  }

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    throw InputError(where(node).toString() + ": " + message);
  }

  InputNode scalar(const YAML::Node& node) const {
    const std::string& tag = node.Tag();
    if (tag == kNullTag) return InputNode().at(where(node));
    // An explicit !!str asks for text exactly as a quoted scalar does.
    const bool quoted = tag == kNonPlainTag || tag == kStrTag;
    return InputNode::text(node.Scalar(), where(node), quoted);
  }

  InputNode sequence(const YAML::Node& node, int depth) {
    std::vector<InputNode> items;
    items.reserve(node.size());
    for (const YAML::Node& item : node) items.push_back(convert(item, depth + 1));
    return InputNode::sequence(std::move(items), where(node));
  }

  /// Explicit keys in the order written, then the merged keys they do not override.
  InputNode mapping(const YAML::Node& node, int depth) {
    Entries entries;
    KeyIndex seen;
    std::vector<YAML::Node> merges;
    for (const auto& pair : node) {
      const YAML::Node& key = pair.first;
      remember(seen, key);  // a second `<<` too is a repeated key
      if (isMergeKey(key)) {
        appendMergeSources(pair.second, key, merges);
      } else {
        entries.emplace_back(key.Scalar(), convert(pair.second, depth + 1));
      }
    }
    for (const YAML::Node& source : merges) mergeInto(entries, seen, source, depth);
    // The keys are known to be distinct (`seen`); InputNode::mapping would check again in
    // quadratic time, which a mapping with many keys cannot afford.
    InputNode result = InputNode::mapping({}, where(node));
    result.entries() = std::move(entries);
    return result;
  }

  static bool isMergeKey(const YAML::Node& key) {
    return key.Tag() == kPlainTag && key.Scalar() == kMergeKey;
  }

  /// Records a key, rejecting one that is not a scalar or was already written.
  void remember(KeyIndex& seen, const YAML::Node& key) const {
    if (!key.IsScalar()) {
      fail(key, std::string("a mapping key must be a scalar, not a ") + kindName(key));
    }
    auto [it, inserted] = seen.emplace(key.Scalar(), where(key));
    if (!inserted) {
      fail(key,
           "duplicate key '" + key.Scalar() + "' (first written at " + it->second.toString() + ")");
    }
  }

  /// The mappings a `<<` value names, in order: one mapping or a sequence of them.
  void appendMergeSources(const YAML::Node& value, const YAML::Node& key,
                          std::vector<YAML::Node>& merges) const {
    if (value.IsMap()) {
      merges.push_back(value);
      return;
    }
    if (!value.IsSequence()) {
      fail(key, std::string("merge key '<<' needs a mapping or a sequence of mappings, not a ") +
                    kindName(value));
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      const YAML::Node& item = value[i];
      if (!item.IsMap()) {
        fail(key, "merge key '<<' needs a sequence of mappings, but item " + std::to_string(i + 1) +
                      " is a " + kindName(item));
      }
      merges.push_back(item);
    }
  }

  /// Adds the entries of `source` whose keys are not there yet, so explicit keys and earlier
  /// merged mappings win. Merged values keep the locations where they were written.
  void mergeInto(Entries& entries, KeyIndex& seen, const YAML::Node& source, int depth) {
    // One level deeper, so a mapping that merges itself (`&a {<<: *a}`) hits the depth limit.
    InputNode merged = convert(source, depth + 1);
    for (InputNode::Entry& entry : merged.entries()) {
      if (seen.emplace(entry.first, entry.second.location()).second) {
        entries.push_back(std::move(entry));
      }
    }
  }

  static const char* kindName(const YAML::Node& node) {
    switch (node.Type()) {
      case YAML::NodeType::Scalar:
        return "scalar";
      case YAML::NodeType::Sequence:
        return "sequence";
      case YAML::NodeType::Map:
        return "mapping";
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        break;
    }
    return "null";
  }

  const std::string& source_;
  std::size_t nodes_ = 0;
};

/// The first document of `text`; yaml-cpp's exceptions become InputErrors naming `sourceName`.
/// (YAML::LoadAll would let us reject a second document, but in 0.7 it loops forever on a
/// stray top-level ',', so later documents are ignored as YAML::Load does.)
YAML::Node loadDocument(std::string_view text, const std::string& sourceName) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::DeepRecursion&) {
    throw InputError(sourceName + ": YAML nesting too deep for the parser");
  } catch (const YAML::ParserException& e) {
    throw InputError(locate(sourceName, e.mark).toString() + ": YAML syntax error: " + e.msg);
  }
}

}  // namespace

InputNode parseYaml(std::string_view text, const std::string& sourceName) {
  return Converter(sourceName).convert(loadDocument(text, sourceName), 0);
}

InputNode loadYamlFile(const std::string& path) { return parseYaml(readInputFile(path), path); }

}  // namespace hopsim
