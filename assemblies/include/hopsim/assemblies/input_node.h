#pragma once
/// @file
/// InputNode: a document tree (scalars, sequences, mappings) with where each node was written.
///
/// Every front end (YAML files, Python dicts, the command line, C++ initializers) turns its
/// input into InputNodes; parameter parsing and validation (ParamSet) work on them alone, so a
/// value is checked the same way wherever it came from and every error can name its source.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "hopsim/signals/error_subject.h"

namespace hopsim {

/// Where a value was written: a file position (1-based line and column), or a description
/// such as "default", "C++" or "--set" when there is no file.
struct SourceLocation {
  std::string file;  ///< file path, or a description of the source
  int line = 0;      ///< 1-based; 0 when unknown
  int column = 0;    ///< 1-based; 0 when unknown

  /// "scenario.yaml:12:7", "scenario.yaml", or "" when nothing is known.
  std::string toString() const;
  bool known() const { return !file.empty(); }
};

/// An error message located at `where`: "file:line:col: context: message" (without the
/// context when it is empty). A message that already starts with a location, found more
/// precisely by an inner check, is returned as it is, so no message carries two.
std::string locateMessage(const SourceLocation& where, std::string_view context,
                          const std::string& message);

/// Runs `step`; a hopsim::Error it throws is thrown again as the same class with its message
/// located at `where` by locateMessage (unchanged when it has a location of its own).
template <class F>
decltype(auto) locatedAt(const SourceLocation& where, std::string_view context, F&& step) {
  try {
    return step();
  } catch (const Error& e) {
    const std::string message = locateMessage(where, context, e.what());
    if (message == e.what()) throw;
    rethrowAs(e, message);
  }
}

/// One node of an input document. Scalars keep the C++ type they were given with; YAML
/// scalars arrive as text (a quoted YAML scalar is marked `quoted`), and ParamSet coerces text
/// to the declared type ("12 km" to 12000 for a length, "true" to a bool).
class InputNode {
 public:
  enum class Kind : std::uint8_t { Null, Scalar, Sequence, Mapping };
  using Scalar = std::variant<bool, std::int64_t, double, std::string>;
  using Entry = std::pair<std::string, InputNode>;

  /// A null node (YAML `~` or an absent value).
  InputNode() = default;
  InputNode(bool value) : kind_(Kind::Scalar), scalar_(value) {}  // NOLINT: literal values
  InputNode(int value) : kind_(Kind::Scalar), scalar_(std::int64_t{value}) {}       // NOLINT
  InputNode(std::int64_t value) : kind_(Kind::Scalar), scalar_(value) {}            // NOLINT
  InputNode(double value) : kind_(Kind::Scalar), scalar_(value) {}                  // NOLINT
  InputNode(const char* text) : kind_(Kind::Scalar), scalar_(std::string(text)) {}  // NOLINT
  InputNode(std::string text) : kind_(Kind::Scalar), scalar_(std::move(text)) {}    // NOLINT
  /// A sequence of doubles ([0, 0, -9.81]).
  InputNode(std::initializer_list<double> values);  // NOLINT

  /// A scalar given as text (YAML), with its location.
  static InputNode text(std::string text, SourceLocation where = {}, bool quoted = false);
  /// A sequence: `InputNode::sequence({"a", "b"})`.
  static InputNode sequence(std::vector<InputNode> items, SourceLocation where = {});
  /// A mapping; keys keep their order:
  /// `InputNode::mapping({{"mass", 2.0}, {"cm", {0.0, 0.0, 0.5}}})`.
  /// @throws InputError on a repeated key.
  static InputNode mapping(std::vector<Entry> entries, SourceLocation where = {});

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::Null; }
  bool isScalar() const { return kind_ == Kind::Scalar; }
  bool isSequence() const { return kind_ == Kind::Sequence; }
  bool isMapping() const { return kind_ == Kind::Mapping; }
  /// "null", "scalar", "sequence", "mapping".
  const char* kindName() const;

  const Scalar& scalar() const { return scalar_; }
  /// True for a YAML scalar written in quotes (always text, never coerced to bool/null).
  bool quoted() const { return quoted_; }
  /// The scalar as a message shows it: 12, "abc", true.
  std::string describe() const;

  const std::vector<InputNode>& items() const { return items_; }
  const std::vector<Entry>& entries() const { return entries_; }
  std::vector<Entry>& entries() { return entries_; }
  /// The value of `key` in a mapping, or nullptr.
  const InputNode* find(std::string_view key) const;
  /// Every key of a mapping, in order.
  std::vector<std::string> keys() const;
  /// Adds or replaces `key` in a mapping (a null node becomes a mapping).
  void set(std::string key, InputNode value);

  const SourceLocation& location() const { return location_; }
  InputNode& at(SourceLocation where) &;
  InputNode&& at(SourceLocation where) &&;

 private:
  Kind kind_ = Kind::Null;
  Scalar scalar_;
  bool quoted_ = false;
  std::vector<InputNode> items_;
  std::vector<Entry> entries_;
  SourceLocation location_;
};

}  // namespace hopsim
