// Units: the table (SI prefixes, hour versus hecto, imperial units), the expression syntax,
// dimension names, splitting quantities and the errors of a wrong or unknown unit. References
// are the unit definitions (SI brochure; NIST SP 811 for the imperial ones).

#include <doctest/doctest.h>

#include <numbers>
#include <string>

#include "hopsim/assemblies/units.h"
#include "hopsim/core/model_spec.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

constexpr double kPi = std::numbers::pi;

double scale(std::string_view unit) { return parseUnit(unit).scale; }
std::string dimensionName(std::string_view unit) { return parseUnit(unit).dimension.name(); }

}  // namespace

TEST_CASE("toSi converts a value given in a unit of the field's dimension") {
  CHECK(toSi(12.0, "km", "m") == 12000.0);
  CHECK(toSi(30.0, "deg", "rad") == doctest::Approx(kPi / 6).epsilon(1e-15));
  CHECK(toSi(1.0, "rpm", "rad/s") == doctest::Approx(2 * kPi / 60).epsilon(1e-15));
  CHECK(toSi(3.0, "km/h", "m/s") == doctest::Approx(3000.0 / 3600.0).epsilon(1e-15));
  CHECK(toSi(1.0, "psi", "Pa") == doctest::Approx(6894.757293168361).epsilon(1e-9));
  CHECK(toSi(1.0, "lbf", "N") == 4.4482216152605);
  CHECK(toSi(2.0, "lb", "kg") == 2 * 0.45359237);
  CHECK(toSi(1.0, "g0", "m/s^2") == 9.80665);
  CHECK(toSi(3.0, "g*cm^2", "kg*m^2") == doctest::Approx(3e-7).epsilon(1e-15));
  CHECK(toSi(5.0, "mN*m/deg", "N*m/rad") == doctest::Approx(5e-3 * 180 / kPi).epsilon(1e-15));
  CHECK(toSi(50.0, "%", "1") == 0.5);
  CHECK(toSi(1.0, "yr", "s") == 365.25 * 86400);
}

TEST_CASE("toSi takes a value without a unit as already in SI") {
  CHECK(toSi(7.5, "", "m") == 7.5);
  CHECK(toSi(7.5, "  ", "rad/s") == 7.5);
}

TEST_CASE("toSi rejects a unit of another dimension, naming both quantities") {
  CHECK_THROWS_WITH_AS(toSi(3.0, "kg", "m"), "'3 kg' is a mass, expected a length (m)", InputError);
  // Angle is a base dimension: a length is never an angle.
  CHECK_THROWS_WITH_AS(toSi(2.0, "m", "rad"), "'2 m' is a length, expected an angle (rad)",
                       InputError);
  CHECK_THROWS_WITH_AS(toSi(0.1, "rpm", "Hz"),
                       "'0.1 rpm' is an angular velocity, expected a frequency (Hz)", InputError);
  CHECK_THROWS_WITH_AS(toSi(1.0, "m", ""), "'1 m' is a length, expected a dimensionless quantity",
                       InputError);
  CHECK_THROWS_WITH_AS(toSi(1.0, "kg m^2 s^-4", "W"),
                       "'1 kg m^2 s^-4' is a quantity in kg m^2 s^-4, expected a power (W)",
                       InputError);
}

TEST_CASE("toSi refuses a declared unit that is not SI: a declaration bug") {
  CHECK_THROWS_WITH_AS(toSi(1.0, "m", "km"),
                       "declared unit 'km' is not an SI unit (it is 1000 length in SI)",
                       ModelError);
  CHECK_THROWS_AS(toSi(1.0, "m", "furlong"), ModelError);
}

TEST_CASE("every standard model declares units the loaders can convert to, all SI") {
  // A scenario converts "200 N*m/rad" to a field's declared unit; a declared unit the parser
  // cannot read, or one that is not SI, fails every file that gives the field a unit.
  const ModelRegistry& registry = models::standardRegistry();
  for (const std::string& name : registry.classNames()) {
    const ModelSpec& spec = registry.spec(name);
    for (int role = 0; role < kFieldRoleCount; ++role) {
      for (const FieldSpec& field : spec.fields(static_cast<FieldRole>(role))) {
        if (field.unit.empty()) continue;
        INFO(name, ".", field.name, " declares '", field.unit, "'");
        double scale = 0.0;
        CHECK_NOTHROW(scale = parseUnit(field.unit).scale);
        CHECK(scale == 1.0);
      }
    }
  }
}

TEST_CASE("SI prefixes apply to SI units, exact table names come first") {
  CHECK(scale("mm") == 1e-3);
  CHECK(scale("mg") == 1e-6);
  CHECK(scale("kg") == 1.0);
  CHECK(scale("us") == 1e-6);
  CHECK(scale("\u00b5s") == 1e-6);
  CHECK(scale("ns") == 1e-9);
  CHECK(scale("GPa") == 1e9);
  CHECK(scale("mbar") == 100.0);
  CHECK(scale("mrad") == 1e-3);
  CHECK(scale("kHz") == 1e3);
  CHECK(scale("MJ") == 1e6);
  // "h" is the hour and "d" the day; with a unit after them they are hecto and deci.
  CHECK(scale("h") == 3600.0);
  CHECK(scale("hPa") == 100.0);
  CHECK(scale("d") == 86400.0);
  CHECK(scale("dm") == 0.1);
  CHECK(scale("dam") == 10.0);
  CHECK(scale("min") == 60.0);
  CHECK(scale("mi") == 1609.344);
  CHECK(scale("nm") == 1e-9);  // nanometre; the nautical mile is "nmi"
  CHECK(scale("nmi") == 1852.0);
  // Units outside SI take no prefix.
  CHECK_THROWS_AS(parseUnit("kft"), InputError);
  CHECK_THROWS_AS(parseUnit("mdeg"), InputError);
}

TEST_CASE("long unit names take long prefixes") {
  CHECK(scale("kilometers") == 1000.0);
  CHECK(scale("metre") == 1.0);
  CHECK(scale("milliseconds") == 1e-3);
  CHECK(scale("kilogram") == 1.0);
  CHECK(scale("degrees") == kPi / 180);
  CHECK(scale("hours") == 3600.0);
  CHECK(dimensionName("newtons") == "force");
  CHECK_THROWS_AS(parseUnit("kmeter"), InputError);
}

TEST_CASE("square roots: noise densities such as rad/sqrt(s) and deg/sqrt(h)") {
  // An angle random walk of 1 deg/sqrt(h) is (pi/180) rad / sqrt(3600 s) = pi/10800 rad/sqrt(s).
  CHECK(toSi(1.0, "deg/sqrt(h)", "rad/sqrt(s)") == doctest::Approx(kPi / 10800.0).epsilon(1e-15));
  CHECK(toSi(2.0, "m/s/sqrt(Hz)", "m/sqrt(s)") == doctest::Approx(2.0).epsilon(1e-15));
  CHECK(parseUnit("sqrt(s)^2").dimension == parseUnit("s").dimension);
  CHECK(parseUnit("sqrt(m^2)").dimension == parseUnit("m").dimension);
  CHECK(dimensionName("rad/sqrt(s)") == "s^-0.5 rad");
  CHECK(dimensionName("m/s^2/sqrt(s)") == "m s^-2.5");
  CHECK_THROWS_WITH_AS(parseUnit("sqrt(sqrt(s))"),
                       doctest::Contains("has a quarter-integer exponent"), InputError);
  CHECK_THROWS_WITH_AS(parseUnit("sqrt(s"), doctest::Contains("missing ')'"), InputError);
}

TEST_CASE("resistance: ohm, Ohm and the Greek capital omega, with prefixes, is V/A") {
  for (const char* same : {"ohm", "Ohm", "\u03a9"}) {
    CHECK(parseUnit(same).dimension == parseUnit("V/A").dimension);
  }
  CHECK(scale("kOhm") == 1000.0);
  CHECK(dimensionName("Ohm") == "resistance");
}

TEST_CASE("unit expressions: products, quotients, exponents and parentheses") {
  const Unit acceleration = parseUnit("m/s^2");
  for (const char* same : {"m s^-2", "m/s/s", "m*s**-2", "m.s^-2", "m\u00b7s^-2", "m s-2", "m/s2",
                           "m/(s*s)", "(m/s)/s", " m / s ^ 2 "}) {
    CAPTURE(std::string(same));
    const Unit u = parseUnit(same);
    CHECK(u.scale == acceleration.scale);
    CHECK(u.dimension == acceleration.dimension);
  }
  // Every factor after a '/' divides.
  CHECK(parseUnit("kg/m/s").dimension == parseUnit("kg m^-1 s^-1").dimension);
  CHECK(parseUnit("kg/m s").dimension == parseUnit("kg/(m*s)").dimension);
  CHECK(parseUnit("1/s").dimension == parseUnit("Hz").dimension);
  CHECK(parseUnit("m2").dimension == parseUnit("m^2").dimension);
  CHECK(scale("km^2") == 1e6);
  CHECK(scale("(km/h)^-1") == doctest::Approx(3.6).epsilon(1e-15));
  CHECK(parseUnit("").dimension.dimensionless());
  CHECK(parseUnit("1").dimension.dimensionless());
  CHECK(scale("1") == 1.0);
}

TEST_CASE("malformed unit expressions are rejected with the expression") {
  CHECK_THROWS_WITH_AS(parseUnit("m/"), "malformed unit 'm/': expected a unit after '/'",
                       InputError);
  CHECK_THROWS_WITH_AS(parseUnit("m^"), "malformed unit 'm^': expected an integer exponent",
                       InputError);
  CHECK_THROWS_WITH_AS(parseUnit("(m/s"), "malformed unit '(m/s': missing ')'", InputError);
  CHECK_THROWS_WITH_AS(parseUnit("m)"), "malformed unit 'm)': unexpected ')'", InputError);
  CHECK_THROWS_WITH_AS(parseUnit("m^x"), "malformed unit 'm^x': expected an integer exponent",
                       InputError);
  CHECK_THROWS_WITH_AS(parseUnit("10/s"), "malformed unit '10/s': unexpected '1'", InputError);
  CHECK_THROWS_AS(parseUnit("()"), InputError);
}

TEST_CASE("an unknown unit is named with the expression and the nearest known units") {
  CHECK_THROWS_WITH_AS(parseUnit("kmph/s"), doctest::Contains("unknown unit 'kmph' in 'kmph/s'"),
                       InputError);
  CHECK_THROWS_WITH_AS(
      parseUnit("N*metr"),
      "unknown unit 'metr' in 'N*metr' (did you mean 'meter', 'metre' or 'meters'?)", InputError);
  CHECK_THROWS_WITH_AS(parseUnit("degC"), doctest::Contains("unknown unit 'degC'"), InputError);
}

TEST_CASE("dimensions are named where the quantity is known, else in SI base units") {
  CHECK(dimensionName("m") == "length");
  CHECK(dimensionName("deg") == "angle");
  CHECK(dimensionName("km/h") == "velocity");
  CHECK(dimensionName("rpm") == "angular velocity");
  CHECK(dimensionName("g0") == "acceleration");
  CHECK(dimensionName("deg/s^2") == "angular acceleration");
  CHECK(dimensionName("Hz") == "frequency");
  CHECK(dimensionName("lbf") == "force");
  CHECK(dimensionName("N*m") == "torque or energy");
  CHECK(dimensionName("J") == "torque or energy");
  CHECK(dimensionName("psi") == "pressure");
  CHECK(dimensionName("W") == "power");
  CHECK(dimensionName("kg*m^2") == "inertia");
  CHECK(dimensionName("kg/m^3") == "density");
  CHECK(dimensionName("N/m") == "linear stiffness");
  CHECK(dimensionName("N*s/m") == "linear damping or mass flow rate");
  CHECK(dimensionName("N*m/rad") == "rotational stiffness");
  CHECK(dimensionName("N*m*s/rad") == "rotational damping");
  CHECK(dimensionName("kg*m/s") == "momentum");
  CHECK(dimensionName("%") == "dimensionless");
  CHECK(dimensionName("K") == "temperature");
  CHECK(dimensionName("mA") == "current");
  CHECK(dimensionName("kg m^2 s^-4") == "kg m^2 s^-4");
  CHECK(dimensionName("m/rad") == "m rad^-1");
}

TEST_CASE("Dimension arithmetic adds and scales exponents") {
  const Dimension length = parseUnit("m").dimension;
  const Dimension time = parseUnit("s").dimension;
  CHECK(length / time / time == parseUnit("m/s^2").dimension);
  CHECK(length.power(3) == parseUnit("m^3").dimension);
  CHECK((length / length).dimensionless());
}

TEST_CASE("splitQuantity separates the leading number from the unit") {
  struct Case {
    const char* text;
    double value;
    const char* unit;
  };
  for (const Case& c :
       {Case{"12 km", 12.0, "km"}, Case{"120m/s", 120.0, "m/s"}, Case{"-1.5e-3 m", -1.5e-3, "m"},
        Case{"30deg", 30.0, "deg"}, Case{"7", 7.0, ""}, Case{"1e3", 1000.0, ""},
        Case{"1 e3", 1.0, "e3"}, Case{"+.5 kg", 0.5, "kg"}, Case{"  2.  N*m  ", 2.0, "N*m"},
        Case{"5%", 5.0, "%"}, Case{"3 eV", 3.0, "eV"}}) {
    CAPTURE(std::string(c.text));
    const std::optional<Quantity> q = splitQuantity(c.text);
    REQUIRE(q.has_value());
    CHECK(q->value == c.value);
    CHECK(q->unit == c.unit);
  }
  for (const char* notAQuantity :
       {"", "km", "inf", "nan m", "-", ".", "e3", "1.2.3", "3-4 m", "1e400 m"}) {
    CAPTURE(std::string(notAQuantity));
    CHECK_FALSE(splitQuantity(notAQuantity).has_value());
  }
}

}  // namespace hopsim
