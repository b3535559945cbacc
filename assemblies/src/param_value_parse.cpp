// Coercion of input nodes to field types and the per-field checks: the part of parameter
// validation that looks at one field (param_set.cpp holds the sets themselves).
#include <algorithm>
#include <cctype>
#include <cmath>

#include "hopsim/assemblies/param_set.h"
#include "hopsim/assemblies/units.h"
#include "hopsim/signals/error.h"
#include "param_internal.h"

namespace hopsim {

std::string detail::joinPath(std::string_view base, std::string_view name) {
  if (base.empty()) return std::string(name);
  return std::string(base) + "." + std::string(name);
}

const SourceLocation& detail::locationOf(const InputNode& node, const SourceLocation& fallback) {
  return node.location().known() ? node.location() : fallback;
}

/// A stored value back as input, in SI: how messages show values and how toInput() dumps them.
InputNode detail::toNode(const ParamField& field, const ParamValue& value) {
  return std::visit(
      [&field](const auto& v) -> InputNode {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<double>> ||
                      std::is_same_v<T, std::vector<std::int64_t>> ||
                      std::is_same_v<T, std::vector<std::string>>) {
          return InputNode::sequence({v.begin(), v.end()});
        } else if constexpr (std::is_same_v<T, StringMap>) {
          std::vector<InputNode::Entry> entries(v.begin(), v.end());
          return InputNode::mapping(std::move(entries));
        } else if constexpr (std::is_same_v<T, RecordList>) {
          if (field.type == ParamType::Record) return v.sets.front().toInput();
          std::vector<InputNode::Entry> entries;
          for (std::size_t i = 0; i < v.size(); ++i) {
            entries.emplace_back(v.names[i], v.sets[i].toInput());
          }
          return InputNode::mapping(std::move(entries));
        } else {
          return InputNode(v);
        }
      },
      value);
}

/// Every parameter error reads "<file:line:col>: <full.path>: <what>"; unknown parts are left
/// out rather than shown empty.
void detail::raise(const SourceLocation& where, std::string_view path, std::string_view what) {
  std::string text = where.known() ? where.toString() + ": " : "";
  if (!path.empty()) text += std::string(path) + ": ";
  throw InputError(text + std::string(what));
}

bool detail::isNumericType(ParamType type) {
  return type == ParamType::Int || type == ParamType::Double || type == ParamType::IntegerVector ||
         type == ParamType::DoubleVector;
}

namespace {
using detail::isNumericType;
using detail::joinPath;
using detail::locationOf;
using detail::raise;
using detail::toNode;

// ---- messages -------------------------------------------------------------------------------

/// A copy of `node` that carries `fallback` when it has no location of its own, so that errors
/// and sources inside a nested set still say where the value came from ("--set", "default").
InputNode withLocation(const InputNode& node, const SourceLocation& fallback) {
  InputNode copy = node;
  if (!copy.location().known()) copy.at(fallback);
  return copy;
}

/// Where a value being parsed sits: its full path and the location reported when its node
/// carries none.
struct Site {
  std::string path;
  SourceLocation where;

  [[noreturn]] void fail(const InputNode& node, std::string_view what) const {
    raise(locationOf(node, where), path, what);
  }
  /// The site of element `index` of `container`.
  Site element(std::size_t index, const InputNode& container) const {
    return {path + "[" + std::to_string(index) + "]", locationOf(container, where)};
  }
};

/// "a mapping", "a sequence [1, 2]", "\"fast\"", "null": what a type error says was given.
std::string describeGiven(const InputNode& node) {
  if (node.isMapping()) return "a mapping";
  if (node.isSequence()) return "a sequence " + node.describe();
  return node.describe();
}

[[noreturn]] void failExpected(const Site& site, std::string_view typeName, const InputNode& node) {
  site.fail(node, "expected " + std::string(typeName) + ", got " + describeGiven(node));
}

// ---- scalar text ----------------------------------------------------------------------------

std::string lowerCase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

/// The spellings YAML 1.1 and the seed read as booleans.
std::optional<bool> boolWord(std::string_view text) {
  const std::string word = lowerCase(trim(text));
  if (word == "true" || word == "yes" || word == "on") return true;
  if (word == "false" || word == "no" || word == "off") return false;
  return std::nullopt;
}

/// NaN and infinities written as text (YAML spells them .nan and .inf); whether they are
/// accepted is the finiteness check's business, not the parser's.
std::optional<double> nonFiniteWord(std::string_view text) {
  const std::string word = lowerCase(trim(text));
  if (word == "nan" || word == ".nan") return std::nan("");
  if (word == "inf" || word == ".inf" || word == "+inf" || word == "+.inf") return INFINITY;
  if (word == "-inf" || word == "-.inf") return -INFINITY;
  return std::nullopt;
}

/// A scalar read as a number with an optional unit; nullopt when it is not a number. Bools are
/// not numbers here: true for a mass is a mistake, not 1 kg.
std::optional<Quantity> numberOf(const InputNode& node) {
  if (!node.isScalar()) return std::nullopt;
  const auto& scalar = node.scalar();
  if (const auto* i = std::get_if<std::int64_t>(&scalar))
    return Quantity{static_cast<double>(*i), ""};
  if (const auto* d = std::get_if<double>(&scalar)) return Quantity{*d, ""};
  const auto* text = std::get_if<std::string>(&scalar);
  if (text == nullptr) return std::nullopt;
  if (const auto special = nonFiniteWord(*text)) return Quantity{*special, ""};
  return splitQuantity(trim(*text));
}

/// `quantity` in the field's SI unit. A number without a unit is taken as already in SI.
double toFieldUnit(const ParamField& field, const Quantity& quantity, const Site& site,
                   const InputNode& node) {
  if (quantity.unit.empty()) return quantity.value;
  const std::string given = "value " + node.describe();
  try {
    (void)parseUnit(quantity.unit);
  } catch (const InputError& error) {
    site.fail(node, given + " has an unknown unit: " + error.what());
  }
  try {
    return toSi(quantity.value, quantity.unit, field.unit);
  } catch (const InputError& error) {
    site.fail(node, given + " has the wrong dimension: " + error.what());
  }
}

/// `value` as an int64 when it is one exactly. Unlike the seed, which truncates 143.7 to 143,
/// a fractional value is an error: silently losing information is worse than asking.
std::int64_t exactInteger(double value, const Site& site, const InputNode& node) {
  // 2^63: the first double outside int64's range.
  constexpr double kLimit = 9223372036854775808.0;
  if (!std::isfinite(value) || value != std::floor(value) || value < -kLimit || value >= kLimit) {
    site.fail(node, "value " + node.describe() + " is not an integer (int fields are not rounded)");
  }
  return static_cast<std::int64_t>(value);
}

// ---- scalar coercion ------------------------------------------------------------------------

bool parseBool(const InputNode& node, const Site& site) {
  if (node.isScalar()) {
    const auto& scalar = node.scalar();
    if (const auto* b = std::get_if<bool>(&scalar)) return *b;
    if (const auto* i = std::get_if<std::int64_t>(&scalar); i != nullptr && (*i == 0 || *i == 1)) {
      return *i == 1;
    }
    // A quoted YAML scalar is a string by the writer's choice, so it is not read as a bool.
    if (const auto* text = std::get_if<std::string>(&scalar); text != nullptr && !node.quoted()) {
      if (const auto word = boolWord(*text)) return *word;
    }
  }
  failExpected(site, "bool", node);
}

std::int64_t parseInt(const ParamField& field, const InputNode& node, const Site& site) {
  if (node.isScalar()) {
    if (const auto* i = std::get_if<std::int64_t>(&node.scalar())) return *i;
  }
  const auto quantity = numberOf(node);
  if (!quantity) failExpected(site, "int", node);
  return exactInteger(toFieldUnit(field, *quantity, site, node), site, node);
}

double parseDouble(const ParamField& field, const InputNode& node, const Site& site) {
  const auto quantity = numberOf(node);
  if (!quantity) failExpected(site, "double", node);
  return toFieldUnit(field, *quantity, site, node);
}

std::string parseString(const InputNode& node, const Site& site) {
  if (!node.isScalar()) failExpected(site, "string", node);
  const auto& scalar = node.scalar();
  if (const auto* text = std::get_if<std::string>(&scalar)) return *text;
  if (const auto* d = std::get_if<double>(&scalar)) return detail::formatNumber(*d);
  return node.describe();  // a bool or an int renders as written
}

// ---- sequences and mappings -----------------------------------------------------------------

/// The elements of a vector field's value. A lone scalar is accepted only where the field holds
/// exactly one element; elsewhere it is more likely a mistake than a shorthand.
std::vector<InputNode> vectorItems(const ParamField& field, const InputNode& node,
                                   const Site& site) {
  if (node.isSequence()) return node.items();
  const bool singleElement = field.minLength == 1 && field.maxLength == 1;
  if (node.isScalar() && singleElement) return {node};
  failExpected(site, field.typeName(), node);
}

/// The unit written on the last element, which applies to all of them (["1", "2", "3 km"]).
/// A unit anywhere else is an error, since it would suggest per-element units that are not
/// supported.
std::string sharedUnit(const std::vector<InputNode>& items, const InputNode& node,
                       const Site& site) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto quantity = numberOf(items[i]);
    if (quantity && !quantity->unit.empty() && i + 1 < items.size()) {
      site.element(i, node).fail(
          items[i], "value " + items[i].describe() +
                        ": a unit may only be written on the last element, where it applies "
                        "to every element");
    }
  }
  if (items.empty()) return "";
  const auto last = numberOf(items.back());
  return last ? last->unit : "";
}

/// Element `item` as a number in the field's unit, read with the vector's shared unit.
double vectorElement(const ParamField& field, const InputNode& item, const std::string& unit,
                     const Site& site, const char* elementType) {
  const auto quantity = numberOf(item);
  if (!quantity) failExpected(site, elementType, item);
  return toFieldUnit(field, Quantity{quantity->value, unit}, site, item);
}

std::vector<double> parseDoubleVector(const ParamField& field, const InputNode& node,
                                      const Site& site) {
  const auto items = vectorItems(field, node, site);
  const std::string unit = sharedUnit(items, node, site);
  std::vector<double> values;
  values.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    values.push_back(vectorElement(field, items[i], unit, site.element(i, node), "double"));
  }
  return values;
}

std::vector<std::int64_t> parseIntVector(const ParamField& field, const InputNode& node,
                                         const Site& site) {
  const auto items = vectorItems(field, node, site);
  const std::string unit = sharedUnit(items, node, site);
  std::vector<std::int64_t> values;
  values.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Site element = site.element(i, node);
    values.push_back(unit.empty()
                         ? parseInt(field, items[i], element)
                         : exactInteger(vectorElement(field, items[i], unit, element, "int"),
                                        element, items[i]));
  }
  return values;
}

std::vector<std::string> parseStringVector(const ParamField& field, const InputNode& node,
                                           const Site& site) {
  const auto items = vectorItems(field, node, site);
  std::vector<std::string> values;
  values.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    values.push_back(parseString(items[i], site.element(i, node)));
  }
  return values;
}

/// A null map value is an empty map, as an empty YAML block is.
StringMap parseStringMap(const ParamField& field, const InputNode& node, const Site& site) {
  if (!node.isMapping() && !node.isNull()) failExpected(site, field.typeName(), node);
  StringMap values;
  for (const auto& [key, value] : node.entries()) {
    values.emplace_back(
        key, parseString(value, {joinPath(site.path, key), locationOf(node, site.where)}));
  }
  return values;
}

RecordList parseRecord(const ParamField& field, const InputNode& node, const Site& site) {
  if (!node.isMapping() && !node.isNull()) failExpected(site, field.typeName(), node);
  RecordList records;
  records.names.push_back(field.name);
  records.sets.push_back(
      ParamSet::parse(field.recordSchema, withLocation(node, site.where), site.path));
  return records;
}

RecordList parseRecordMap(const ParamField& field, const InputNode& node, const Site& site) {
  if (!node.isMapping() && !node.isNull()) failExpected(site, field.typeName(), node);
  const SourceLocation& mapWhere = locationOf(node, site.where);
  RecordList records;
  for (const auto& [name, entry] : node.entries()) {
    records.names.push_back(name);
    records.sets.push_back(ParamSet::parse(field.recordSchema, withLocation(entry, mapWhere),
                                           joinPath(site.path, name)));
  }
  return records;
}

ParamValue coerce(const ParamField& field, const InputNode& node, const Site& site) {
  switch (field.type) {
    case ParamType::Bool:
      return parseBool(node, site);
    case ParamType::Int:
      return parseInt(field, node, site);
    case ParamType::Double:
      return parseDouble(field, node, site);
    case ParamType::String:
      return parseString(node, site);
    case ParamType::DoubleVector:
      return parseDoubleVector(field, node, site);
    case ParamType::IntegerVector:
      return parseIntVector(field, node, site);
    case ParamType::StringVector:
      return parseStringVector(field, node, site);
    case ParamType::StringMap:
      return parseStringMap(field, node, site);
    case ParamType::Record:
      return parseRecord(field, node, site);
    case ParamType::RecordMap:
      return parseRecordMap(field, node, site);
  }
  failExpected(site, field.typeName(), node);
}

// ---- field checks ---------------------------------------------------------------------------

/// The elements of a value as checks see them: one per scalar, one per vector element, with the
/// path and location to report each at.
struct Element {
  Site site;
  InputNode value;
};

std::vector<Element> elementsOf(const ParamField& field, const ParamValue& value,
                                const std::vector<SourceLocation>& where, const Site& site) {
  const InputNode node = toNode(field, value);
  if (!node.isSequence()) return {{site, node}};
  std::vector<Element> elements;
  for (std::size_t i = 0; i < node.items().size(); ++i) {
    const SourceLocation& at = i < where.size() ? where[i] : site.where;
    elements.push_back({{site.path + "[" + std::to_string(i) + "]", at}, node.items()[i]});
  }
  return elements;
}

std::size_t sizeOf(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::size_t {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t> ||
                      std::is_same_v<T, double> || std::is_same_v<T, std::string>) {
          return 1;
        } else {
          return v.size();
        }
      },
      value);
}

void checkLength(const ParamField& field, const ParamValue& value, const Site& site,
                 const InputNode& node) {
  const std::size_t size = sizeOf(value);
  if ((field.minLength && size < *field.minLength) ||
      (field.maxLength && size > *field.maxLength)) {
    site.fail(node, "expected " + field.typeName() + ", got " + std::to_string(size) +
                        (size == 1 ? " element" : " elements"));
  }
}

/// The failed bound's rule ("must be > 0"), or "" when `x` is within bounds.
std::string boundViolated(const ParamField& field, double x) {
  if (field.lower && (field.lowerExclusive ? !(x > *field.lower) : !(x >= *field.lower))) {
    return std::string("must be ") + (field.lowerExclusive ? "> " : ">= ") +
           detail::formatNumber(*field.lower);
  }
  if (field.upper && (field.upperExclusive ? !(x < *field.upper) : !(x <= *field.upper))) {
    return std::string("must be ") + (field.upperExclusive ? "< " : "<= ") +
           detail::formatNumber(*field.upper);
  }
  return "";
}

void checkNumber(const ParamField& field, const Element& element) {
  const auto number = numberOf(element.value);
  if (!number || !element.value.isScalar()) return;  // not a numeric element
  if (!field.allowNonFinite && !std::isfinite(number->value)) {
    element.site.fail(element.value, "value " + element.value.describe() +
                                         " is not finite (NaN and infinity are not allowed)");
  }
  if (const std::string rule = boundViolated(field, number->value); !rule.empty()) {
    element.site.fail(element.value, "value " + element.value.describe() + " failed check: " +
                                         rule + " (bounds " + field.boundsText() + ")");
  }
}

std::string joinChoices(const std::vector<std::string>& choices) {
  std::string text;
  for (const auto& choice : choices) text += (text.empty() ? "" : ", ") + choice;
  return text;
}

void checkChoice(const ParamField& field, const Element& element) {
  const auto* text = std::get_if<std::string>(&element.value.scalar());
  if (text == nullptr) return;
  if (std::find(field.choices.begin(), field.choices.end(), *text) != field.choices.end()) return;
  element.site.fail(element.value, "value " + element.value.describe() +
                                       " failed check: must be one of " +
                                       joinChoices(field.choices));
}

void checkCustom(const ParamField& field, const ParamValue& value, const Site& site,
                 const InputNode& node) {
  for (const auto& check : field.checks) {
    if (const std::string problem = check.check(value); !problem.empty()) {
      site.fail(node, "value " + toNode(field, value).describe() + " failed check " + check.name +
                          ": " + problem);
    }
  }
}

/// The built-in checks in the seed's order (length, finiteness, bounds, choices), then the
/// custom ones. `elementWhere` locates each vector element.
void checkField(const ParamField& field, const ParamValue& value, const InputNode& node,
                const std::vector<SourceLocation>& elementWhere, const Site& site) {
  checkLength(field, value, site, node);
  const auto elements = elementsOf(field, value, elementWhere, site);
  if (isNumericType(field.type)) {
    for (const auto& element : elements) checkNumber(field, element);
  }
  if (!field.choices.empty()) {
    for (const auto& element : elements) checkChoice(field, element);
  }
  checkCustom(field, value, site, node);
}

/// The location of each element of a sequence node, for the checks' messages.
std::vector<SourceLocation> elementLocations(const InputNode& node, const SourceLocation& where) {
  std::vector<SourceLocation> locations;
  for (const auto& item : node.items()) locations.push_back(locationOf(item, where));
  return locations;
}

}  // namespace

ParamValue detail::parseFieldValue(const ParamField& field, const InputNode& node,
                                   const std::string& fieldPath, const SourceLocation& where) {
  const Site site{fieldPath, where};
  ParamValue value = coerce(field, node, site);
  const std::vector<SourceLocation> elementWhere =
      node.isSequence() ? elementLocations(node, locationOf(node, where))
                        : std::vector<SourceLocation>{locationOf(node, where)};
  checkField(field, value, node, elementWhere, site);
  return value;
}

}  // namespace hopsim
