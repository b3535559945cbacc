#pragma once
/// @file
/// Physical units: parsing unit strings ("km", "m/s^2", "kg*m^2", "deg/s") into an SI scale
/// and a dimension, and reading quantities written with a unit ("12 km", "120m/s", "30 deg").
///
/// Parameters are stored in SI. A field declares its SI unit; a value given with another unit
/// of the same dimension is converted, a value of another dimension is rejected, and a value
/// given without a unit is taken as already in SI (docs/parameters.md, "Units").
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hopsim {

/// Exponents of the base dimensions. Plane angle is a base dimension here (rad), so that a
/// length is never accepted for an angle; solid angle and amount of substance are not needed.
struct Dimension {
  enum Base : std::uint8_t { Mass, Length, Time, Current, Temperature, Angle, kCount };
  /// Twice the exponent of each base: noise densities have half-integer exponents
  /// (rad/sqrt(s) is rad s^-0.5).
  std::array<std::int8_t, kCount> twiceExponent{};

  friend bool operator==(const Dimension&, const Dimension&) = default;
  bool dimensionless() const { return *this == Dimension{}; }
  /// The product of two dimensions (exponents add).
  Dimension operator*(const Dimension& other) const;
  Dimension operator/(const Dimension& other) const;
  Dimension power(int n) const;
  /// The square root (exponents halve). @throws InputError for an odd half-integer exponent.
  Dimension root() const;
  /// The quantity's name where one is known ("length", "angular velocity", "torque or
  /// energy"), else the SI base form ("kg m^2 s^-3").
  std::string name() const;
};

/// A unit: value_in_SI = scale * value_in_unit.
struct Unit {
  double scale = 1.0;
  Dimension dimension;
};

/// Parses a unit expression: names from the unit table (with SI prefixes where the unit takes
/// them: "km", "mN", "kPa", "ms"), combined with '*', '.', ' ' (product), '/' (quotient; all
/// factors after the first '/' divide, as in "kg/m/s"), '^' or '**' with an integer exponent
/// (possibly negative), parentheses, and sqrt(...) ("rad/sqrt(s)", "deg/sqrt(h)": noise
/// densities). "" and "1" are dimensionless.
/// The table covers at least length, mass, time, angle, velocity, angular velocity,
/// acceleration, force, torque, pressure, energy, power, inertia, frequency and current
/// (docs/parameters.md lists it).
/// @throws InputError naming the unknown unit or the malformed expression.
Unit parseUnit(std::string_view unit);

/// A number written with an optional unit.
struct Quantity {
  double value = 0.0;  ///< as written (not converted)
  std::string unit;    ///< as written, "" when there was none
};

/// Splits "12 km", "120m/s", "-1.5e-3 m", "30deg", "7" into number and unit. Returns nullopt
/// when the text does not start with a number.
std::optional<Quantity> splitQuantity(std::string_view text);

/// `value` given in `unit`, converted to the SI unit `siUnit` of the field it is for.
/// @throws InputError when the dimensions differ, naming both units and their quantities
/// ("'3 kg' is a mass, expected a length (m)").
double toSi(double value, std::string_view unit, std::string_view siUnit);

}  // namespace hopsim
