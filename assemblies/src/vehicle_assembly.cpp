#include "hopsim/assemblies/vehicle_assembly.h"

#include <algorithm>

#include "hopsim/signals/name_suggestions.h"

namespace hopsim {

namespace {

const StringMap::value_type* findEdge(const StringMap& graph, std::string_view child) {
  const auto it = std::find_if(graph.begin(), graph.end(),
                               [&](const auto& edge) { return edge.first == child; });
  return it == graph.end() ? nullptr : &*it;
}

}  // namespace

VehicleAssembly::Config::Config() {
  setDoc("What VehicleAssembly builds: the base body and the body graph below it.");
}

void VehicleAssembly::Config::preCheck(InputNode& input) const {
  if (!input.isMapping()) return;
  for (auto& [key, value] : input.entries()) {
    if (key != "bodygraph" || !value.isMapping() || value.entries().size() != 1) continue;
    // A flat graph maps body names to parent names (scalars), so a mapping under the single key
    // "edges" can only be the seed's nested form.
    InputNode& edges = value.entries().front().second;
    if (value.entries().front().first == "edges" && (edges.isMapping() || edges.isNull())) {
      InputNode flat = edges.isNull() ? InputNode::mapping({}, edges.location()) : edges;
      value = std::move(flat);
    }
  }
}

VehicleAssembly::Context::Context() {
  setDoc("Where VehicleAssembly attaches its base body: the parent body's name.");
}

VehicleAssembly::Params::Params() {
  setDoc("The bodies of a vehicle and the initial position and attitude of its base body.");
}

void VehicleAssembly::Params::validate(const ParamSet& set) const {
  if (set[bodies].size() == 0) set.fail("bodies", "a vehicle needs at least one body");
  if (set.has(position) && !set.has(attitude)) {
    set.fail("attitude", "is missing: position and attitude are given together or not at all");
  }
  if (set.has(attitude) && !set.has(position)) {
    set.fail("position", "is missing: position and attitude are given together or not at all");
  }
}

std::vector<std::string> VehicleAssembly::checkedParents() const {
  const Config& c = *schemaOf<Config>();
  const RecordList& bodies = params()[schemaOf<Params>()->bodies];
  const std::string& base = config()[c.basename];
  const StringMap& graph = config()[c.bodygraph];
  const std::string bodiesPath = params().path() + ".bodies";
  const auto requireBody = [&](const char* field, const std::string& body,
                               const std::string& role) {
    if (bodies.find(body) != nullptr) return;
    config().fail(field, "body '" + body + "'" + role + " is not in " + bodiesPath +
                             didYouMean(body, bodies.names));
  };
  requireBody("basename", base, "");
  for (std::size_t i = 0; i < graph.size(); ++i) {
    const auto& [child, parent] = graph[i];
    requireBody("bodygraph", child, " (child of '" + parent + "')");
    requireBody("bodygraph", parent, " (parent of '" + child + "')");
    if (child == base) {
      config().fail("bodygraph", "the base body '" + base + "' has a parent '" + parent +
                                     "' in the body graph; the base attaches to "
                                     "context.parentBody");
    }
    if (findEdge(graph, child) != &graph[i]) {
      config().fail("bodygraph", "body '" + child + "' has two parents");
    }
  }
  std::vector<std::string> parents;
  for (const std::string& body : bodies.names) {
    if (body == base) {
      parents.emplace_back();
      continue;
    }
    const auto* edge = findEdge(graph, body);
    if (edge == nullptr) {
      params().fail("bodies", "body '" + body +
                                  "' in bodies is not connected: add it to "
                                  "bodygraph (" +
                                  config().path() + ".bodygraph)");
    }
    parents.push_back(edge->second);
  }
  // Every body but the base has one parent, so a walk up from any body ends at the base unless
  // it runs into a cycle.
  for (const auto& [child, parent] : graph) {
    std::vector<std::string> chain{child};
    for (std::string up = parent; up != base; up = findEdge(graph, up)->second) {
      chain.push_back(up);
      if (up == child) {
        std::string text;
        for (const std::string& b : chain) text += (text.empty() ? "" : " -> ") + b;
        config().fail("bodygraph", "the body graph has a cycle: " + text);
      }
      if (chain.size() > graph.size() + 1) break;  // a cycle above `child`, reported from it
    }
  }
  return parents;
}

void VehicleAssembly::addModels() {
  const RecordList& bodies = params()[schemaOf<Params>()->bodies];
  const std::vector<std::string> parents = checkedParents();
  const Params& p = *schemaOf<Params>();
  if (params().has(p.position)) {
    const std::string& base = config()[schemaOf<Config>()->basename];
    const ParamSet& hinge = (*bodies.find(base))[schemaOf<BodyParams>()->hinge];
    const multibody::HingeType type = bodyHinge(hinge).type();
    if (type != multibody::HingeType::Full6Dof && type != multibody::HingeType::Full6DofInertial) {
      params().fail("position", "sets the base body '" + base +
                                    "' free, which needs a FULL6DOF or FULL6DOF_INERTIAL hinge; "
                                    "its hinge is " +
                                    std::string(multibody::toString(type)));
    }
  }
  // Parents first; among the bodies ready to be made, the order of params.bodies.
  std::vector<bool> made(bodies.size(), false);
  const auto isMade = [&](const std::string& body) {
    const auto it = std::find(bodies.names.begin(), bodies.names.end(), body);
    return made[static_cast<std::size_t>(it - bodies.names.begin())];
  };
  for (std::size_t count = 0; count < bodies.size();) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      if (made[i] || (!parents[i].empty() && !isMade(parents[i]))) continue;
      addBody(bodies.names[i], bodies.sets[i],
              parents[i].empty() ? std::nullopt : std::optional<std::string>(parents[i]));
      made[i] = true;
      ++count;
    }
  }
}

void VehicleAssembly::bindState() {
  const RecordList& bodies = params()[schemaOf<Params>()->bodies];
  for (std::size_t i = 0; i < bodies.size(); ++i) setBodyState(bodies.names[i], bodies.sets[i]);
  const Params& p = *schemaOf<Params>();
  if (!params().has(p.position)) return;
  const std::vector<double>& position = params()[p.position];
  const std::vector<double>& attitude = params()[p.attitude];
  Eigen::Matrix<double, 7, 1> q;
  q << Eigen::Vector4d(attitude[0], attitude[1], attitude[2], attitude[3]).normalized(),
      position[0], position[1], position[2];
  MultibodySystem& mb = sim().multibody();
  mb.q(mb.model().bodyIndex(config()[schemaOf<Config>()->basename])) = q;
}

}  // namespace hopsim
