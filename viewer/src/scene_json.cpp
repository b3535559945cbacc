// The scene as the page's JSON (docs/viewer.md, "The page's data").

#include <span>

#include "hopsim/viewer/replay_page.h"
#include "json_writer.h"

namespace hopsim::viewer {

namespace {

using namespace json;

void appendPose(std::string& out, const RigidTransform& X) {
  out += "\"position\":";
  appendVector(out, X.translation());
  out += ",\"orientation\":";
  appendQuaternion(out, X.rotation());
}

const char* typeName(Shape::Type type) {
  switch (type) {
    case Shape::Type::Box:
      return "box";
    case Shape::Type::Sphere:
      return "sphere";
    case Shape::Type::Cylinder:
      return "cylinder";
    case Shape::Type::Capsule:
      return "capsule";
    case Shape::Type::Mesh:
      return "mesh";
  }
  return "box";
}

void appendShape(std::string& out, const Shape& s) {
  out += "{\"type\":\"";
  out += typeName(s.type);
  out += "\",";
  appendPose(out, s.X_BS);
  out += ",\"color\":";
  appendVector(out, s.color);
  switch (s.type) {
    case Shape::Type::Box:
      out += ",\"size\":";
      appendVector(out, s.size);
      break;
    case Shape::Type::Sphere:
      out += ",\"radius\":";
      appendNumber(out, s.radius);
      break;
    case Shape::Type::Cylinder:
    case Shape::Type::Capsule:
      out += ",\"radius\":";
      appendNumber(out, s.radius);
      out += ",\"length\":";
      appendNumber(out, s.length);
      break;
    case Shape::Type::Mesh:
      out += ",\"scale\":1,\"vertices\":";
      appendNumbers(out, s.vertices);
      out += ",\"indices\":[";
      for (std::size_t i = 0; i < s.indices.size(); ++i) {
        if (i > 0) out += ',';
        out += std::to_string(s.indices[i]);
      }
      out += ']';
      break;
  }
  out += '}';
}

void appendBody(std::string& out, const BodyView& b) {
  out += "{\"name\":";
  appendString(out, b.name);
  if (b.pose) {
    out += ",\"pose\":{\"position\":";
    appendStrings(out, b.pose->position);
    out += ",\"orientation\":";
    appendStrings(out, b.pose->orientation);
    out += '}';
  }
  if (b.fixedPose) {
    out += ",\"fixedPose\":{";
    appendPose(out, *b.fixedPose);
    out += '}';
  }
  out += ",\"mass\":";
  appendNumber(out, b.mass);
  out += b.defaultShape ? ",\"defaultShape\":true" : ",\"defaultShape\":false";
  out += ",\"shapes\":[";
  for (std::size_t i = 0; i < b.shapes.size(); ++i) {
    if (i > 0) out += ',';
    appendShape(out, b.shapes[i]);
  }
  out += "],\"frames\":[";
  for (std::size_t i = 0; i < b.frames.size(); ++i) {
    if (i > 0) out += ',';
    out += "{\"name\":";
    appendString(out, b.frames[i].name);
    out += ',';
    appendPose(out, b.frames[i].X_BF);
    out += '}';
  }
  out += "],\"hinges\":[";
  for (std::size_t i = 0; i < b.hinges.size(); ++i) {
    const HingeMarker& h = b.hinges[i];
    if (i > 0) out += ',';
    out += "{\"name\":";
    appendString(out, h.name);
    out += ",\"type\":";
    appendString(out, h.name);
    out += ",\"position\":";
    appendVector(out, h.position);
    out += ",\"axes\":[";
    for (std::size_t k = 0; k < h.axes.size(); ++k) {
      if (k > 0) out += ',';
      appendVector(out, h.axes[k]);
    }
    out += "],\"kinds\":[";
    for (std::size_t k = 0; k < h.translation.size(); ++k) {
      if (k > 0) out += ',';
      out += h.translation[k] ? "\"translation\"" : "\"rotation\"";
    }
    out += "]}";
  }
  out += "]}";
}

void appendBodyName(std::string& out, const std::string& body) {
  if (body.empty()) {
    out += "null";
  } else {
    appendString(out, body);
  }
}

}  // namespace

std::string sceneJson(const Scene& scene) {
  std::string out = "{\"title\":";
  appendString(out, scene.title);
  out += ",\"source\":";
  appendString(out, scene.source);
  out += ",\"up\":";
  appendVector(out, scene.up);
  out += ",\"lengthScale\":";
  appendNumber(out, scene.lengthScale);
  out += ",\"camera\":";
  if (scene.camera) {
    out += "{\"location\":";
    appendVector(out, scene.camera->location);
    out += ",\"target\":";
    appendVector(out, scene.camera->target);
    out += '}';
  } else {
    out += "null";
  }
  out += ",\"bodies\":[";
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    if (i > 0) out += ',';
    appendBody(out, scene.bodies[i]);
  }
  out += "],\"springs\":[";
  for (std::size_t i = 0; i < scene.springs.size(); ++i) {
    const SpringView& s = scene.springs[i];
    if (i > 0) out += ',';
    out += "{\"name\":";
    appendString(out, s.name);
    out += ",\"body1\":";
    appendBodyName(out, s.body1);
    out += ",\"point1\":";
    appendVector(out, s.point1);
    out += ",\"body2\":";
    appendBodyName(out, s.body2);
    out += ",\"point2\":";
    appendVector(out, s.point2);
    out += s.coil ? ",\"style\":\"spring\"" : ",\"style\":\"segment\"";
    // Absent, not 0, when the model leaves the size to the page.
    if (s.radius > 0.0) {
      out += ",\"radius\":";
      appendNumber(out, s.radius);
    }
    if (s.turns > 0) out += ",\"turns\":" + std::to_string(s.turns);
    out += ",\"color\":";
    appendVector(out, s.color);
    out += '}';
  }
  out += "],\"arrows\":[";
  for (std::size_t i = 0; i < scene.arrows.size(); ++i) {
    const ArrowView& a = scene.arrows[i];
    if (i > 0) out += ',';
    out += "{\"name\":";
    appendString(out, a.name);
    out += ",\"kind\":\"force\",\"point\":";
    appendStrings(out, a.point);
    out += ",\"vector\":";
    appendStrings(out, a.vector);
    out += ",\"color\":";
    appendVector(out, a.color);
    out += '}';
  }
  out += "],\"plots\":";
  appendStrings(out, scene.plots);
  out += '}';
  return out;
}

}  // namespace hopsim::viewer
