// Force elements of a model file: functions, TSDAs (law resolution), RSDAs, motors, body loads
// and load controllers.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "chrono_yaml_read.h"
#include "hopsim/signals/error.h"

namespace hopsim::chrono::detail {
namespace {

const std::vector<std::string> kFunctionTypes = {"CONSTANT", "POLYNOMIAL", "SINE",
                                                 "RAMP",     "DATA",       "CONTROLLER"};

/// [[x, y], ...] as a curve; `sortIt`: Chrono sorts the entries (a duplicate x is an error);
/// otherwise x must be strictly increasing as written.
mechanism::Curve readPairs(Reader& r, const InputNode& node, const std::string& p, bool sortIt,
                           const char* what) {
  const auto& rows = r.sequence(node, p);
  if (rows.empty()) r.fail(node, p, std::string("expected at least one [") + what + "] pair");
  std::vector<std::pair<double, double>> pts;
  std::vector<const InputNode*> where;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const InputNode& row = rows[i];
    if (!row.isSequence() || row.items().size() != 2)
      r.fail(row, item(p, i),
             std::string("expected a pair [") + what + "], found " +
                 (row.isScalar()     ? show(row)
                  : row.isSequence() ? show(row)
                                     : std::string("a ") + row.kindName()));
    const auto v = r.numbers(row, item(p, i), 2);
    pts.emplace_back(v[0], v[1]);
    where.push_back(&row);
  }
  std::vector<std::size_t> order(pts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (sortIt)
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return pts[a].first < pts[b].first; });
  mechanism::Curve c;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    if (k > 0) {
      const double prev = pts[order[k - 1]].first;
      if (pts[i].first == prev)
        r.fail(*where[i], item(p, i),
               "duplicate abscissa " + show(where[i]->items()[0]) + "; expected distinct values");
      if (pts[i].first < prev)
        r.fail(*where[i], item(p, i),
               "abscissa " + show(where[i]->items()[0]) + " is smaller than the previous " +
                   std::to_string(prev) + "; expected strictly increasing values");
    }
    c.x.push_back(pts[i].first);
    c.y.push_back(pts[i].second);
  }
  return c;
}

}  // namespace

mechanism::Function readFunction(ModelContext& c, const InputNode& node, const std::string& p) {
  Reader& r = c.reader;
  r.expectMapping(node, p);
  mechanism::Function f;
  f.where = r.where(node);
  const int type = r.choice(r.required(node, p, "type"), at(p, "type"), kFunctionTypes);
  f.type = kFunctionTypes[type];
  auto num = [&](const char* key) { return r.number(r.required(node, p, key), at(p, key)); };
  auto opt = [&](const char* key, double fallback) {
    const InputNode* n = Reader::optional(node, key);
    return n ? r.number(*n, at(p, key)) : fallback;
  };
  std::vector<std::string> keys = {"type", "repeat"};
  switch (type) {
    case 0:
      f.coefficients = {num("value")};
      keys.push_back("value");
      break;
    case 1: {
      const InputNode& n = r.required(node, p, "coefficients");
      f.coefficients = r.numbers(n, at(p, "coefficients"), 0);
      if (f.coefficients.empty())
        r.fail(n, at(p, "coefficients"),
               "empty polynomial; expected at least one coefficient [a0, a1, ...]");
      keys.push_back("coefficients");
      break;
    }
    case 2: {
      const double a = num("amplitude");
      const double fr = num("frequency");  // Hz, never converted
      // The phase is converted by angle_degrees (A4); `shift` is read by Chrono, undocumented.
      const double phase = opt("phase", 0.0) * (c.degrees ? std::numbers::pi / 180.0 : 1.0);
      f.coefficients = {a, fr, phase, opt("shift", 0.0)};
      keys.insert(keys.end(), {"amplitude", "frequency", "phase", "shift"});
      break;
    }
    case 3:
      f.coefficients = {num("slope"), opt("intercept", 0.0)};
      keys.insert(keys.end(), {"slope", "intercept"});
      break;
    case 4: {
      const mechanism::Curve d =
          readPairs(r, r.required(node, p, "data"), at(p, "data"), false, "t, y");
      f.coefficients.clear();
      for (std::size_t i = 0; i < d.x.size(); ++i) {
        f.coefficients.push_back(d.x[i]);
        f.coefficients.push_back(d.y[i]);
      }
      keys.push_back("data");
      break;
    }
    case 5:
      f.coefficients.clear();
      break;
  }
  r.checkKeys(node, p, keys);
  if (const InputNode* rep = Reader::optional(node, "repeat")) {
    const std::string rp = at(p, "repeat");
    if (f.isController()) {
      r.warn(*rep, rp + " is ignored for a CONTROLLER function (as in Chrono)");
    } else {
      r.expectMapping(*rep, rp);
      r.checkKeys(*rep, rp, {"start", "width", "shift"});
      const double start = r.number(r.required(*rep, rp, "start"), at(rp, "start"));
      const InputNode& wn = r.required(*rep, rp, "width");
      const double width = r.number(wn, at(rp, "width"));
      if (!(width > 0.0)) r.fail(wn, at(rp, "width"), "width " + show(wn) + " must be > 0 s");
      const double shift = r.number(r.required(*rep, rp, "shift"), at(rp, "shift"));
      f.repeat = {start, width, shift};
    }
  }
  return f;
}

mechanism::Tsda readTsda(ModelContext& c, const InputNode& e, const std::string& p) {
  using mechanism::TsdaLaw;
  Reader& r = c.reader;
  r.expectMapping(e, p);
  r.checkKeys(e, p,
              {"name", "type", "body1", "body2", "point1", "point2", "free_length", "preload",
               "minimum_length", "maximum_length", "spring_coefficient", "damping_coefficient",
               "degressivity_compression", "degressivity_expansion", "spring_curve_data",
               "damping_curve_data", "deformation", "map_data", "visualization"});
  mechanism::Tsda t;
  t.where = r.where(e);
  t.name = r.text(r.required(e, p, "name"), at(p, "name"));
  if (const InputNode* ty = e.find("type")) {
    r.warn(*ty, at(p, "type") + " is not read by Chrono (ignored)");
  }
  t.body1 = c.body(e, p, "body1");
  t.body2 = c.body(e, p, "body2");
  t.point1 = r.vec3(r.required(e, p, "point1"), at(p, "point1"));
  t.point2 = r.vec3(r.required(e, p, "point2"), at(p, "point2"));
  auto given = [&](const char* key) { return Reader::optional(e, key); };
  auto num = [&](const char* key) { return r.number(*given(key), at(p, key)); };
  const InputNode* k = given("spring_coefficient");
  const InputNode* d = given("damping_coefficient");
  const InputNode* dc = given("degressivity_compression");
  const InputNode* de = given("degressivity_expansion");
  const InputNode* kc = given("spring_curve_data");
  const InputNode* dcurve = given("damping_curve_data");
  const InputNode* map = given("map_data");
  const InputNode* deformation = given("deformation");
  auto dropped = [&](const InputNode* n, const char* key, const std::string& why) {
    if (n) r.warn(*n, at(p, key) + " is ignored: " + why + " (as in Chrono)");
  };
  bool usesFreeLength = true, usesPreload = true, usesStops = true;
  if (map != nullptr || deformation != nullptr) {
    if (map == nullptr) r.fail(e, at(p, "map_data"), "'deformation' needs 'map_data'");
    if (deformation == nullptr) r.fail(e, at(p, "deformation"), "'map_data' needs 'deformation'");
    t.law = TsdaLaw::Map;
    t.mapLengths = r.numbers(*deformation, at(p, "deformation"), 2);
    for (std::size_t j = 1; j < t.mapLengths.size(); ++j)
      if (!(t.mapLengths[j] > t.mapLengths[j - 1]))
        r.fail(deformation->items()[j], item(at(p, "deformation"), j),
               "expected strictly ascending lengths");
    const auto& rows = r.sequence(*map, at(p, "map_data"));
    if (rows.size() < 2)
      r.fail(*map, at(p, "map_data"), "expected at least 2 rows [speed, f(d1), ..., f(dn)]");
    for (std::size_t j = 0; j < rows.size(); ++j) {
      const std::string rp = item(at(p, "map_data"), j);
      const auto v = r.numbers(rows[j], rp, 0);
      if (v.size() != t.mapLengths.size() + 1)
        r.fail(rows[j], rp,
               "expected " + std::to_string(t.mapLengths.size() + 1) +
                   " numbers [speed, one force per deformation], found " +
                   std::to_string(v.size()));
      if (j > 0 && !(v[0] > t.mapSpeeds.back()))
        r.fail(rows[j].items()[0], item(rp, 0), "expected strictly ascending speeds");
      t.mapSpeeds.push_back(v[0]);
      t.mapForces.emplace_back(v.begin() + 1, v.end());
    }
    const std::string why = "map_data overrides every other force key";
    dropped(k, "spring_coefficient", why), dropped(d, "damping_coefficient", why);
    dropped(kc, "spring_curve_data", why), dropped(dcurve, "damping_curve_data", why);
    dropped(dc, "degressivity_compression", why), dropped(de, "degressivity_expansion", why);
    usesFreeLength = false;
    usesStops = false;
    if (const InputNode* n = given("free_length"))
      r.warn(*n, at(p, "free_length") +
                     " is ignored with map_data: the map's 'deformation' "
                     "values are lengths (L0 = 0, as in Chrono)");
  } else if (kc != nullptr || dcurve != nullptr) {
    if (kc)
      t.springCurve = readPairs(r, *kc, at(p, "spring_curve_data"), true, "deformation, force");
    if (dcurve)
      t.dampingCurve = readPairs(r, *dcurve, at(p, "damping_curve_data"), true, "speed, force");
    if (kc && dcurve) {
      t.law = TsdaLaw::Curves;
      dropped(k, "spring_coefficient", "the curves override it");
      dropped(d, "damping_coefficient", "the curves override it");
    } else if (kc) {
      t.law = TsdaLaw::Curves;
      dropped(k, "spring_coefficient", "spring_curve_data overrides it");
      dropped(d, "damping_coefficient", "with spring_curve_data the damper is dropped");
    } else {
      t.law = TsdaLaw::DamperCurve;
      dropped(k, "spring_coefficient", "with damping_curve_data alone the spring is dropped");
      dropped(d, "damping_coefficient", "damping_curve_data overrides it");
      usesFreeLength = usesPreload = usesStops = false;
    }
    const std::string why = "degressivity applies only to a damping coefficient without curves";
    dropped(dc, "degressivity_compression", why), dropped(de, "degressivity_expansion", why);
  } else if (d != nullptr && dc != nullptr && de != nullptr) {
    t.law = TsdaLaw::Degressive;
    t.damping = num("damping_coefficient");
    t.degressivityCompression = num("degressivity_compression");
    t.degressivityExpansion = num("degressivity_expansion");
    dropped(k, "spring_coefficient", "a degressive damper has no spring");
    usesFreeLength = usesPreload = usesStops = false;
  } else if (k != nullptr || d != nullptr) {
    if (dc || de) {
      const std::string why =
          "a degressive damper needs damping_coefficient, "
          "degressivity_compression and degressivity_expansion";
      dropped(dc, "degressivity_compression", why), dropped(de, "degressivity_expansion", why);
    }
    if (k != nullptr) {
      t.law = TsdaLaw::Linear;
      t.stiffness = num("spring_coefficient");
      if (d) t.damping = num("damping_coefficient");
    } else {
      t.law = TsdaLaw::Damper;
      t.damping = num("damping_coefficient");
      usesFreeLength = usesPreload = usesStops = false;
    }
  } else {
    r.fail(e, p,
           "no force keys; expected spring_coefficient and/or damping_coefficient, "
           "spring_curve_data and/or damping_curve_data, or deformation with map_data");
  }
  // Free length, preload and stops.
  if (usesFreeLength) {
    t.freeLength = r.number(r.required(e, p, "free_length"), at(p, "free_length"));
  } else if (t.law != TsdaLaw::Map) {
    dropped(given("free_length"), "free_length", "this force law has no spring");
  }
  if (const InputNode* n = given("preload")) {
    if (usesPreload)
      t.preload = num("preload");
    else
      dropped(n, "preload", "this damper-only law has no preload");
  }
  const InputNode* lmin = given("minimum_length");
  const InputNode* lmax = given("maximum_length");
  if (lmin || lmax) {
    if (!usesStops) {
      dropped(lmin, "minimum_length", "this force law has no stops");
      dropped(lmax, "maximum_length", "this force law has no stops");
    } else if (!(lmin && lmax)) {
      const InputNode* n = lmin ? lmin : lmax;
      r.warn(*n, at(p, lmin ? "minimum_length" : "maximum_length") +
                     " is unused: the stops need both minimum_length and maximum_length (as "
                     "in Chrono)");
    } else {
      const double a = num("minimum_length"), b = num("maximum_length");
      if (!(a < b))
        r.fail(*lmax, at(p, "maximum_length"),
               "maximum_length " + show(*lmax) + " must exceed minimum_length " + show(*lmin));
      t.lengthLimits = std::array<double, 2>{a, b};
    }
  }
  if (const InputNode* v = given("visualization")) {
    r.expectMapping(*v, at(p, "visualization"));
    r.checkKeys(*v, at(p, "visualization"), {"type", "color", "radius", "resolution", "turns"});
    const std::string vp = at(p, "visualization");
    mechanism::TsdaVisualization visual;
    if (const InputNode* ty = Reader::optional(*v, "type"))
      visual.spring = r.choice(*ty, at(vp, "type"), {"SEGMENT", "SPRING"}, true) == 1;
    if (const InputNode* radius = Reader::optional(*v, "radius"))
      visual.radius = r.positive(*radius, at(vp, "radius"));
    if (const InputNode* turns = Reader::optional(*v, "turns")) {
      visual.turns = r.integer(*turns, at(vp, "turns"));
      if (visual.turns < 1) r.fail(*turns, at(vp, "turns"), "expected an integer >= 1");
    }
    if (const InputNode* color = Reader::optional(*v, "color"))
      visual.color = r.color(*color, at(vp, "color"));
    t.visualization = visual;
  }
  return t;
}

mechanism::Rsda readRsda(ModelContext& c, const InputNode& e, const std::string& p) {
  using mechanism::RsdaLaw;
  Reader& r = c.reader;
  r.expectMapping(e, p);
  r.checkKeys(
      e, p,
      {"name", "body1", "body2", "location", "axis", "free_angle", "preload", "spring_coefficient",
       "damping_coefficient", "spring_curve_data", "damping_curve_data", "visualization"});
  mechanism::Rsda s;
  s.where = r.where(e);
  s.name = r.text(r.required(e, p, "name"), at(p, "name"));
  s.body1 = c.body(e, p, "body1");
  s.body2 = c.body(e, p, "body2");
  Vector3 location = Vector3::Zero();
  if (const InputNode* l = Reader::optional(e, "location"))
    location = r.vec3(*l, at(p, "location"));
  s.X_WF =
      RigidTransform(xThenRyFrame(r.direction(r.required(e, p, "axis"), at(p, "axis"))), location);
  auto given = [&](const char* key) { return Reader::optional(e, key); };
  auto num = [&](const char* key) { return r.number(*given(key), at(p, key)); };
  auto dropped = [&](const InputNode* n, const char* key, const std::string& why) {
    if (n) r.warn(*n, at(p, key) + " is ignored: " + why + " (as in Chrono)");
  };
  const InputNode* k = given("spring_coefficient");
  const InputNode* d = given("damping_coefficient");
  const InputNode* kc = given("spring_curve_data");
  const InputNode* dcurve = given("damping_curve_data");
  bool spring = true;
  if (kc || dcurve) {
    if (kc) s.springCurve = readPairs(r, *kc, at(p, "spring_curve_data"), true, "angle, torque");
    if (dcurve)
      s.dampingCurve = readPairs(r, *dcurve, at(p, "damping_curve_data"), true, "rate, torque");
    if (kc) {
      s.law = RsdaLaw::Curves;
      dropped(k, "spring_coefficient", "spring_curve_data overrides it");
      dropped(d, "damping_coefficient",
              dcurve ? "damping_curve_data overrides it"
                     : "with spring_curve_data the damper is dropped");
    } else {
      s.law = RsdaLaw::DamperCurve;
      spring = false;
      dropped(k, "spring_coefficient", "with damping_curve_data alone the spring is dropped");
      dropped(d, "damping_coefficient", "damping_curve_data overrides it");
    }
  } else if (k) {
    s.law = RsdaLaw::Linear;
    s.stiffness = num("spring_coefficient");
    if (d) s.damping = num("damping_coefficient");
  } else if (d) {
    s.law = RsdaLaw::Damper;
    s.damping = num("damping_coefficient");
    spring = false;
  } else {
    r.fail(e, p,
           "no torque keys; expected spring_coefficient and/or damping_coefficient, or "
           "spring_curve_data and/or damping_curve_data");
  }
  if (spring) {
    // free_angle is converted by angle_degrees (A4); stiffness and curves never are.
    s.freeAngle = r.number(r.required(e, p, "free_angle"), at(p, "free_angle")) *
                  (c.degrees ? std::numbers::pi / 180.0 : 1.0);
    if (given("preload")) s.preload = num("preload");
  } else {
    dropped(given("free_angle"), "free_angle", "this torque law has no spring");
    dropped(given("preload"), "preload", "this damper-only law has no preload");
  }
  if (const InputNode* v = e.find("visualization"))
    r.warn(*v, at(p, "visualization") + " is not read by Chrono for an RSDA (ignored)");
  return s;
}

mechanism::Motor readMotor(ModelContext& c, const InputNode& e, const std::string& p) {
  using mechanism::MotorSupport;
  Reader& r = c.reader;
  r.expectMapping(e, p);
  r.checkKeys(e, p,
              {"name", "type", "body1", "body2", "location", "axis", "actuation_type",
               "actuation_function", "guide", "spindle"});
  mechanism::Motor m;
  m.where = r.where(e);
  m.name = r.text(r.required(e, p, "name"), at(p, "name"));
  const int kind = r.choice(r.required(e, p, "type"), at(p, "type"), {"ROTATION", "LINEAR"});
  m.kind = kind == 0 ? mechanism::MotorKind::Rotation : mechanism::MotorKind::Linear;
  m.body1 = c.body(e, p, "body1");
  m.body2 = c.body(e, p, "body2");
  const Vector3 location = r.vec3(r.required(e, p, "location"), at(p, "location"));
  m.X_WF =
      RigidTransform(xThenRyFrame(r.direction(r.required(e, p, "axis"), at(p, "axis"))), location);
  m.actuation = static_cast<mechanism::Actuation>(r.choice(
      r.required(e, p, "actuation_type"), at(p, "actuation_type"), {"POSITION", "SPEED", "FORCE"}));
  const InputNode& fn = r.required(e, p, "actuation_function");
  m.function = readFunction(c, fn, at(p, "actuation_function"));
  if (m.kind == mechanism::MotorKind::Rotation) {
    m.support = MotorSupport::Revolute;
    if (const InputNode* s = Reader::optional(e, "spindle")) {
      const int v = r.choice(*s, at(p, "spindle"), {"REVOLUTE", "CYLINDRICAL", "FREE"});
      m.support = v == 0   ? MotorSupport::Revolute
                  : v == 1 ? MotorSupport::Cylindrical
                           : MotorSupport::Free;
    }
    if (const InputNode* g = e.find("guide"))
      r.warn(*g, at(p, "guide") + " applies to LINEAR motors only (ignored)");
    // A rotation POSITION function is in radians even when angle_degrees is on (A4).
    if (c.degrees && m.actuation == mechanism::Actuation::Position) {
      const auto& k = m.function.coefficients;
      double peak = 0.0;
      if (m.function.type == "CONSTANT") peak = std::abs(k[0]);
      if (m.function.type == "SINE") peak = std::abs(k[0]) + std::abs(k[3]);
      if (m.function.type == "DATA")
        for (std::size_t j = 1; j < k.size(); j += 2) peak = std::max(peak, std::abs(k[j]));
      if (peak > 2.0 * std::numbers::pi)
        r.warn(fn, at(p, "actuation_function") +
                       ": a rotation POSITION function is in radians (angle_degrees does not "
                       "convert it), and this one exceeds 2*pi");
    }
  } else {
    m.support = MotorSupport::Prismatic;
    if (const InputNode* g = Reader::optional(e, "guide")) {
      const int v = r.choice(*g, at(p, "guide"), {"PRISMATIC", "SPHERICAL", "FREE"});
      m.support = v == 0   ? MotorSupport::Prismatic
                  : v == 1 ? MotorSupport::Spherical
                           : MotorSupport::Free;
    }
    if (const InputNode* s = e.find("spindle"))
      r.warn(*s, at(p, "spindle") + " applies to ROTATION motors only (ignored)");
  }
  return m;
}

mechanism::BodyLoad readLoad(ModelContext& c, const InputNode& e, const std::string& p,
                             bool controlled) {
  Reader& r = c.reader;
  r.expectMapping(e, p);
  r.checkKeys(e, p,
              {"name", "type", "body", "load", "local_load", "point", "local_point",
               "modulation_function"});
  mechanism::BodyLoad l;
  l.where = r.where(e);
  l.controlled = controlled;
  l.name = r.text(r.required(e, p, "name"), at(p, "name"));
  l.torque = r.choice(r.required(e, p, "type"), at(p, "type"), {"FORCE", "TORQUE"}) == 1;
  l.body = c.body(e, p, "body");
  if (const InputNode* n = Reader::optional(e, "local_load"))
    l.localLoad = r.boolean(*n, at(p, "local_load"));
  if (controlled) {
    for (const char* key : {"load", "modulation_function"})
      if (const InputNode* n = e.find(key))
        r.warn(*n, at(p, key) +
                       " is ignored for a load controller (the load comes from signal "
                       "controllers." +
                       l.name + ")");
  } else {
    if (const InputNode* n = Reader::optional(e, "load")) l.load = r.vec3(*n, at(p, "load"));
    if (const InputNode* n = Reader::optional(e, "modulation_function"))
      l.modulation = readFunction(c, *n, at(p, "modulation_function"));
  }
  if (!l.torque) {
    if (const InputNode* n = Reader::optional(e, "point")) {
      l.point = r.vec3(*n, at(p, "point"));
    } else {
      r.warn(e, at(p, "point") + " is missing (Chrono requires it for a FORCE); using (0, 0, 0)");
    }
    if (const InputNode* n = Reader::optional(e, "local_point")) {
      l.localPoint = r.boolean(*n, at(p, "local_point"));
    } else {
      r.warn(e, at(p, "local_point") + " is missing (Chrono requires it for a FORCE); using true");
    }
  } else {
    for (const char* key : {"point", "local_point"})
      if (const InputNode* n = e.find(key))
        r.warn(*n, at(p, key) + " is not used by a TORQUE load");
  }
  return l;
}

}  // namespace hopsim::chrono::detail
