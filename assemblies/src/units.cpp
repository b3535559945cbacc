#include "hopsim/assemblies/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <vector>

#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {
namespace {

// ---- dimensions -----------------------------------------------------------------------------

/// A dimension from its exponents, in the order of Dimension::Base.
constexpr Dimension dim(int mass, int length, int time, int current = 0, int temperature = 0,
                        int angle = 0) {
  Dimension d;
  d.twiceExponent = {
      static_cast<std::int8_t>(2 * mass),        static_cast<std::int8_t>(2 * length),
      static_cast<std::int8_t>(2 * time),        static_cast<std::int8_t>(2 * current),
      static_cast<std::int8_t>(2 * temperature), static_cast<std::int8_t>(2 * angle)};
  return d;
}

constexpr Dimension kNone = dim(0, 0, 0);
constexpr Dimension kMass = dim(1, 0, 0);
constexpr Dimension kLength = dim(0, 1, 0);
constexpr Dimension kTime = dim(0, 0, 1);
constexpr Dimension kCurrent = dim(0, 0, 0, 1);
constexpr Dimension kTemperature = dim(0, 0, 0, 0, 1);
constexpr Dimension kAngle = dim(0, 0, 0, 0, 0, 1);
constexpr Dimension kFrequency = dim(0, 0, -1);
constexpr Dimension kAngularVelocity = dim(0, 0, -1, 0, 0, 1);
constexpr Dimension kAcceleration = dim(0, 1, -2);
constexpr Dimension kVelocity = dim(0, 1, -1);
constexpr Dimension kForce = dim(1, 1, -2);
constexpr Dimension kPressure = dim(1, -1, -2);
constexpr Dimension kEnergy = dim(1, 2, -2);
constexpr Dimension kPower = dim(1, 2, -3);
constexpr Dimension kVoltage = dim(1, 2, -3, -1);
constexpr Dimension kResistance = dim(1, 2, -3, -2);
constexpr Dimension kVolume = dim(0, 3, 0);

struct NamedDimension {
  Dimension dimension;
  const char* name;
};

// Torque (N m) and energy (J) share a dimension because angle is not in either; mass flow
// rate (kg/s) and linear damping (N s/m) likewise.
constexpr NamedDimension kNamedDimensions[] = {
    {kNone, "dimensionless"},
    {kMass, "mass"},
    {kLength, "length"},
    {kTime, "time"},
    {kCurrent, "current"},
    {kTemperature, "temperature"},
    {kAngle, "angle"},
    {kVelocity, "velocity"},
    {kAngularVelocity, "angular velocity"},
    {kAcceleration, "acceleration"},
    {dim(0, 0, -2, 0, 0, 1), "angular acceleration"},
    {kFrequency, "frequency"},
    {kForce, "force"},
    {kEnergy, "torque or energy"},
    {kPressure, "pressure"},
    {kPower, "power"},
    {dim(1, 2, 0), "inertia"},
    {dim(0, 2, 0), "area"},
    {kVolume, "volume"},
    {dim(1, -3, 0), "density"},
    {dim(1, 1, -1), "momentum"},
    {dim(1, 2, -1, 0, 0, 1), "angular momentum"},
    {dim(1, 0, -2), "linear stiffness"},
    {dim(1, 0, -1), "linear damping or mass flow rate"},
    {dim(1, 2, -2, 0, 0, -1), "rotational stiffness"},
    {dim(1, 2, -1, 0, 0, -1), "rotational damping"},
    {dim(0, 3, -2), "gravitational parameter"},
    {kVoltage, "voltage"},
    {kResistance, "resistance"},
    {dim(0, 0, 1, 1), "charge"},
};

const char* knownName(const Dimension& d) {
  for (const NamedDimension& named : kNamedDimensions) {
    if (named.dimension == d) return named.name;
  }
  return nullptr;
}

/// Exponents must fit the int8 storage; "m^200" is not a unit anyone means.
/// An exponent given as twice its value: "2", "-1", "0.5", "-1.5".
std::string exponentText(int twice) {
  const std::string whole = std::to_string(std::abs(twice) / 2);
  return (twice < 0 ? "-" : "") + whole + (twice % 2 != 0 ? ".5" : "");
}

std::int8_t checkedExponent(int twice) {
  if (twice < std::numeric_limits<std::int8_t>::min() ||
      twice > std::numeric_limits<std::int8_t>::max()) {
    throw InputError("unit exponent " + exponentText(twice) + " is out of range");
  }
  return static_cast<std::int8_t>(twice);
}

/// "a length", "an angle", "a dimensionless quantity", "a quantity in kg m^2 s^-3".
std::string withArticle(const Dimension& d) {
  if (d.dimensionless()) return "a dimensionless quantity";
  const char* name = knownName(d);
  if (name == nullptr) return "a quantity in " + d.name();
  const std::string text(name);
  return (std::string_view("aeiou").find(text.front()) != std::string_view::npos ? "an " : "a ") +
         text;
}

// ---- the unit table -------------------------------------------------------------------------

/// Which prefixes a unit takes: none, the symbols ("km"), or the long names ("kilometer").
enum class Prefixes : std::uint8_t { None, Short, Long };

/// scale = mantissa * 10^power10, kept apart so that a prefix shifts the power exactly
/// ("mg" is 1e-6 kg correctly rounded, not 1e-3 * 1e-3).
struct TableUnit {
  std::string_view name;
  double mantissa;
  int power10;
  Dimension dimension;
  Prefixes prefixes;
};

constexpr double kPi = std::numbers::pi;
constexpr double kFoot = 0.3048;
constexpr double kInch = 0.0254;
constexpr double kPound = 0.45359237;
constexpr double kPoundForce = 4.4482216152605;
constexpr double kGravity = 9.80665;
constexpr double kDay = 86400.0;

using P = Prefixes;

// Temperature is in kelvin only: offset scales (degC, degF) cannot be a single factor.
constexpr TableUnit kUnits[] = {
    // SI and coherent derived units, with prefixes.
    {"m", 1, 0, kLength, P::Short},
    {"g", 1, -3, kMass, P::Short},
    {"s", 1, 0, kTime, P::Short},
    {"A", 1, 0, kCurrent, P::Short},
    {"K", 1, 0, kTemperature, P::Short},
    {"rad", 1, 0, kAngle, P::Short},
    {"N", 1, 0, kForce, P::Short},
    {"Pa", 1, 0, kPressure, P::Short},
    {"J", 1, 0, kEnergy, P::Short},
    {"W", 1, 0, kPower, P::Short},
    {"V", 1, 0, kVoltage, P::Short},
    {"Ohm", 1, 0, kResistance, P::Short},
    {"ohm", 1, 0, kResistance, P::Short},
    {"\u03a9", 1, 0, kResistance, P::Short},
    {"Hz", 1, 0, kFrequency, P::Short},
    {"bar", 1, 5, kPressure, P::Short},
    // Long names; these take long prefixes ("kilometers", "milliseconds").
    {"meter", 1, 0, kLength, P::Long},
    {"meters", 1, 0, kLength, P::Long},
    {"metre", 1, 0, kLength, P::Long},
    {"metres", 1, 0, kLength, P::Long},
    {"gram", 1, -3, kMass, P::Long},
    {"grams", 1, -3, kMass, P::Long},
    {"second", 1, 0, kTime, P::Long},
    {"seconds", 1, 0, kTime, P::Long},
    {"sec", 1, 0, kTime, P::None},
    {"newton", 1, 0, kForce, P::Long},
    {"newtons", 1, 0, kForce, P::Long},
    {"radian", 1, 0, kAngle, P::Long},
    {"radians", 1, 0, kAngle, P::Long},
    // Time.
    {"min", 60, 0, kTime, P::None},
    {"minute", 60, 0, kTime, P::None},
    {"minutes", 60, 0, kTime, P::None},
    {"h", 3600, 0, kTime, P::None},
    {"hr", 3600, 0, kTime, P::None},
    {"hour", 3600, 0, kTime, P::None},
    {"hours", 3600, 0, kTime, P::None},
    {"d", kDay, 0, kTime, P::None},
    {"day", kDay, 0, kTime, P::None},
    {"days", kDay, 0, kTime, P::None},
    {"yr", 365.25 * kDay, 0, kTime, P::None},  // Julian year
    {"year", 365.25 * kDay, 0, kTime, P::None},
    {"years", 365.25 * kDay, 0, kTime, P::None},
    // Angle and rotation rate.
    {"deg", kPi / 180, 0, kAngle, P::None},
    {"degree", kPi / 180, 0, kAngle, P::None},
    {"degrees", kPi / 180, 0, kAngle, P::None},
    {"\u00b0", kPi / 180, 0, kAngle, P::None},
    {"arcmin", kPi / 10800, 0, kAngle, P::None},
    {"arcsec", kPi / 648000, 0, kAngle, P::None},
    {"rev", 2 * kPi, 0, kAngle, P::None},
    {"rpm", 2 * kPi / 60, 0, kAngularVelocity, P::None},
    // Imperial and other lengths.
    {"ft", kFoot, 0, kLength, P::None},
    {"in", kInch, 0, kLength, P::None},
    {"yd", 3 * kFoot, 0, kLength, P::None},
    {"mi", 5280 * kFoot, 0, kLength, P::None},
    {"nmi", 1852, 0, kLength, P::None},
    {"au", 149597870700.0, 0, kLength, P::None},
    // Mass, force, pressure, acceleration.
    {"lb", kPound, 0, kMass, P::None},
    {"lbm", kPound, 0, kMass, P::None},
    {"slug", kPoundForce / kFoot, 0, kMass, P::None},
    {"lbf", kPoundForce, 0, kForce, P::None},
    {"psi", kPoundForce / (kInch * kInch), 0, kPressure, P::None},
    {"atm", 101325, 0, kPressure, P::None},
    {"g0", kGravity, 0, kAcceleration, P::None},
    // Ratios.
    {"percent", 1, -2, kNone, P::None},
    {"%", 1, -2, kNone, P::None},
};

struct Prefix {
  std::string_view symbol;
  std::string_view longName;
  int power10;
};

constexpr Prefix kPrefixes[] = {
    {"Y", "yotta", 24}, {"Z", "zetta", 21}, {"E", "exa", 18},    {"P", "peta", 15},
    {"T", "tera", 12},  {"G", "giga", 9},   {"M", "mega", 6},    {"k", "kilo", 3},
    {"h", "hecto", 2},  {"da", "deca", 1},  {"d", "deci", -1},   {"c", "centi", -2},
    {"m", "milli", -3}, {"u", "micro", -6}, {"\u00b5", "", -6},  {"\u03bc", "", -6},
    {"n", "nano", -9},  {"p", "pico", -12}, {"f", "femto", -15}, {"a", "atto", -18},
};

double powerOfTen(int power10) {
  // Powers of ten up to 1e22 are exact doubles; dividing by one rounds once.
  return std::pow(10.0, std::abs(power10));
}

Unit makeUnit(const TableUnit& entry, int power10) {
  const double scale =
      power10 >= 0 ? entry.mantissa * powerOfTen(power10) : entry.mantissa / powerOfTen(power10);
  return {scale, entry.dimension};
}

const TableUnit* findExact(std::string_view name) {
  for (const TableUnit& entry : kUnits) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

/// A table name, else a prefix and a table name that takes it. Exact names win, so "h" is
/// the hour, "min" the minute and "d" the day, while "hPa", "mm" and "dm" are prefixed.
std::optional<Unit> lookup(std::string_view name) {
  if (const TableUnit* entry = findExact(name)) return makeUnit(*entry, entry->power10);
  for (const Prefix& prefix : kPrefixes) {
    for (auto [text, kind] :
         {std::pair{prefix.symbol, P::Short}, std::pair{prefix.longName, P::Long}}) {
      if (text.empty() || !name.starts_with(text)) continue;
      const TableUnit* entry = findExact(name.substr(text.size()));
      if (entry != nullptr && entry->prefixes == kind) {
        return makeUnit(*entry, entry->power10 + prefix.power10);
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> tableNames() {
  std::vector<std::string> names;
  for (const TableUnit& entry : kUnits) names.emplace_back(entry.name);
  for (const char* common : {"kg", "km", "mm", "ms", "kN", "kPa", "mrad"})
    names.emplace_back(common);
  return names;
}

Unit product(const Unit& a, const Unit& b) {
  return {a.scale * b.scale, a.dimension * b.dimension};
}

Unit power(const Unit& u, int n) { return {std::pow(u.scale, n), u.dimension.power(n)}; }
Unit root(const Unit& u) { return {std::sqrt(u.scale), u.dimension.root()}; }

// ---- the expression parser ------------------------------------------------------------------

/// Recursive descent over a unit expression:
///   group  := factor { separator factor }         (after a '/', factors divide)
///   factor := ( name | "1" | '(' group ')' | "sqrt(" group ')' ) [ '^' int | "**" int ]
/// where a name may end in an integer exponent ("m2", "s-2") when the name without it is a
/// unit and the name with it is not (so "g0" stays standard gravity).
class UnitParser {
 public:
  explicit UnitParser(std::string_view text) : text_(text) {}

  Unit parse() {
    Unit result = group();
    if (pos_ < text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return result;
  }

 private:
  static bool isSpace(char c) { return c == ' ' || c == '\t'; }
  static bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
  static bool isNameChar(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '%' ||
           static_cast<unsigned char>(c) >= 0x80;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("malformed unit '" + std::string(text_) + "': " + what);
  }

  void skipSpaces() {
    while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
  }
  bool atMiddleDot() const { return text_.substr(pos_).starts_with("\u00b7"); }

  /// Consumes an explicit separator, if any: true for '/', false for '*', '.' and '·'.
  std::optional<bool> explicitSeparator() {
    if (text_[pos_] == '/' || text_[pos_] == '*' || text_[pos_] == '.') {
      return text_[pos_++] == '/';
    }
    if (atMiddleDot()) {
      pos_ += std::string_view("\u00b7").size();
      return false;
    }
    return std::nullopt;  // a space alone separates two factors
  }

  bool atGroupEnd() const { return pos_ >= text_.size() || text_[pos_] == ')'; }

  Unit group() {
    skipSpaces();
    if (atGroupEnd()) fail("expected a unit");
    Unit result = factor();
    bool dividing = false;
    for (;;) {
      skipSpaces();
      if (atGroupEnd()) return result;
      const std::size_t at = pos_;
      if (const std::optional<bool> slash = explicitSeparator()) {
        dividing = dividing || *slash;
        skipSpaces();
        if (atGroupEnd())
          fail("expected a unit after '" + std::string(text_.substr(at, pos_ - at)) + "'");
      }
      const Unit next = factor();
      result = product(result, dividing ? power(next, -1) : next);
    }
  }

  Unit factor() {
    Unit base;
    if (text_[pos_] == '(') {
      ++pos_;
      base = parenthesized();
    } else if (text_.substr(pos_).starts_with("sqrt(")) {
      pos_ += std::string_view("sqrt(").size();
      base = root(parenthesized());
    } else if (text_[pos_] == '1' && (pos_ + 1 == text_.size() || !isDigit(text_[pos_ + 1]))) {
      ++pos_;  // the "1" of "1/s"
    } else if (isNameChar(text_[pos_]) && !atMiddleDot()) {
      base = name();
    } else {
      fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    }
    return power(base, exponent());
  }

  /// The group after a '(' and its ')'.
  Unit parenthesized() {
    Unit inner = group();
    if (pos_ >= text_.size()) fail("missing ')'");
    ++pos_;
    return inner;
  }

  /// "^n" or "**n" (spaces allowed before the operator), else 1.
  int exponent() {
    const std::size_t start = pos_;
    skipSpaces();
    if (text_.substr(pos_).starts_with("**")) {
      pos_ += 2;
    } else if (pos_ < text_.size() && text_[pos_] == '^') {
      ++pos_;
    } else {
      pos_ = start;
      return 1;
    }
    skipSpaces();
    const std::optional<int> n = integer();
    if (!n) fail("expected an integer exponent");
    return *n;
  }

  /// An optionally signed integer at pos_.
  std::optional<int> integer() {
    std::size_t end = pos_;
    if (end < text_.size() && (text_[end] == '-' || text_[end] == '+')) ++end;
    const std::size_t digits = end;
    while (end < text_.size() && isDigit(text_[end])) ++end;
    if (end == digits) return std::nullopt;
    int value = 0;
    const char* first = text_.data() + (text_[pos_] == '+' ? pos_ + 1 : pos_);
    const auto [ptr, ec] = std::from_chars(first, text_.data() + end, value);
    if (ec != std::errc() || ptr != text_.data() + end) fail("exponent out of range");
    pos_ = end;
    return value;
  }

  Unit name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (isNameChar(text_[pos_]) || isDigit(text_[pos_])) &&
           !atMiddleDot()) {
      ++pos_;
    }
    // A trailing signed integer ("s-2") belongs to the name token too.
    if (pos_ + 1 < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+') &&
        isDigit(text_[pos_ + 1])) {
      ++pos_;
      while (pos_ < text_.size() && isDigit(text_[pos_])) ++pos_;
    }
    const std::string_view token = text_.substr(start, pos_ - start);
    if (std::optional<Unit> unit = lookup(token)) return *unit;
    const std::size_t digits = token.find_last_not_of("0123456789");
    std::size_t split = digits + 1;
    if (split < token.size() && (token[digits] == '-' || token[digits] == '+')) --split;
    if (split > 0 && split < token.size()) {
      if (std::optional<Unit> unit = lookup(token.substr(0, split))) {
        int n = 0;
        const std::string_view suffix = token.substr(token[split] == '+' ? split + 1 : split);
        std::from_chars(suffix.data(), suffix.data() + suffix.size(), n);
        return power(*unit, n);
      }
    }
    throw InputError("unknown unit '" + std::string(token) + "' in '" + std::string(text_) + "'" +
                     didYouMean(token, tableNames()));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

/// The shortest text that reads back as `value` ("0.1", not "0.10000000000000001").
std::string shortest(double value) {
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

std::string_view trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/// The length of the number at the start of `text`: sign, digits, decimal point, exponent.
/// "inf" and "nan" are not numbers here (a parameter is never meant to be one).
std::size_t numberLength(std::string_view text) {
  auto digitsFrom = [&](std::size_t i) {
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) ++i;
    return i;
  };
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  const std::size_t intEnd = digitsFrom(i);
  std::size_t end = intEnd;
  if (end < text.size() && text[end] == '.') end = digitsFrom(end + 1);
  if (end - i == 0 || (end - i == 1 && text[i] == '.')) return 0;
  if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
    std::size_t e = end + 1;
    if (e < text.size() && (text[e] == '+' || text[e] == '-')) ++e;
    const std::size_t expEnd = digitsFrom(e);
    if (expEnd > e) end = expEnd;  // "3 eV"-like text keeps its 'e' for the unit
  }
  return end;
}

/// What may follow a number directly (without a space) and start its unit: "30deg", "5%",
/// "2(m/s)", "10/s", "20°".
bool startsUnit(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '%' || c == '(' || c == '/' ||
         static_cast<unsigned char>(c) >= 0x80;
}

}  // namespace

// ---- public API -----------------------------------------------------------------------------

Dimension Dimension::operator*(const Dimension& other) const {
  Dimension result;
  for (std::size_t i = 0; i < kCount; ++i) {
    result.twiceExponent[i] = checkedExponent(twiceExponent[i] + other.twiceExponent[i]);
  }
  return result;
}

Dimension Dimension::operator/(const Dimension& other) const { return *this * other.power(-1); }

Dimension Dimension::power(int n) const {
  Dimension result;
  for (std::size_t i = 0; i < kCount; ++i) {
    result.twiceExponent[i] = checkedExponent(twiceExponent[i] * n);
  }
  return result;
}

Dimension Dimension::root() const {
  Dimension result;
  for (std::size_t i = 0; i < kCount; ++i) {
    if (twiceExponent[i] % 2 != 0) {
      throw InputError("the square root of " + name() + " has a quarter-integer exponent");
    }
    result.twiceExponent[i] = static_cast<std::int8_t>(twiceExponent[i] / 2);
  }
  return result;
}

std::string Dimension::name() const {
  if (const char* known = knownName(*this)) return known;
  static constexpr const char* kSymbols[kCount] = {"kg", "m", "s", "A", "K", "rad"};
  std::string text;
  for (std::size_t i = 0; i < kCount; ++i) {
    const int twice = twiceExponent[i];
    if (twice == 0) continue;
    if (!text.empty()) text += ' ';
    text += kSymbols[i];
    if (twice != 2) text += '^' + exponentText(twice);
  }
  return text;
}

Unit parseUnit(std::string_view unit) {
  const std::string_view text = trim(unit);
  if (text.empty()) return {};
  return UnitParser(text).parse();
}

std::optional<Quantity> splitQuantity(std::string_view text) {
  const std::string_view trimmed = trim(text);
  const std::size_t length = numberLength(trimmed);
  if (length == 0) return std::nullopt;
  if (length < trimmed.size() && trimmed[length] != ' ' && trimmed[length] != '\t' &&
      !startsUnit(trimmed[length])) {
    return std::nullopt;  // "1.2.3", "3-4": not a number followed by a unit
  }
  // from_chars does not take a leading '+'.
  const std::size_t skip = trimmed.front() == '+' ? 1 : 0;
  Quantity quantity;
  const auto [ptr, ec] =
      std::from_chars(trimmed.data() + skip, trimmed.data() + length, quantity.value);
  // Out of range ("1e400") is not a number a parameter can hold.
  if (ec != std::errc() || ptr != trimmed.data() + length) return std::nullopt;
  quantity.unit = std::string(trim(trimmed.substr(length)));
  return quantity;
}

double toSi(double value, std::string_view unit, std::string_view siUnit) {
  if (trim(unit).empty()) return value;
  Unit si;
  try {
    si = parseUnit(siUnit);
  } catch (const InputError& e) {
    throw ModelError(std::string("declared SI unit: ") + e.what());
  }
  // A declared unit with a scale would make "no unit means SI" false.
  if (si.scale != 1.0) {
    throw ModelError("declared unit '" + std::string(siUnit) + "' is not an SI unit (it is " +
                     shortest(si.scale) + " " + si.dimension.name() + " in SI)");
  }
  const Unit given = parseUnit(unit);
  if (given.dimension != si.dimension) {
    const std::string expected = trim(siUnit).empty() ? "" : " (" + std::string(siUnit) + ")";
    throw InputError("'" + shortest(value) + " " + std::string(unit) + "' is " +
                     withArticle(given.dimension) + ", expected " + withArticle(si.dimension) +
                     expected);
  }
  return value * given.scale;
}

}  // namespace hopsim
