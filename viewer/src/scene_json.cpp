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
      out += ",\"indices\":";
      appendArray(out, s.indices, [](std::string& o, int i) { o += std::to_string(i); });
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
  out += ",\"shapes\":";
  appendArray(out, b.shapes, appendShape);
  out += ",\"frames\":";
  appendArray(out, b.frames, [](std::string& o, const Frame& f) {
    o += "{\"name\":";
    appendString(o, f.name);
    o += ',';
    appendPose(o, f.X_BF);
    o += '}';
  });
  out += ",\"hinges\":";
  appendArray(out, b.hinges, [](std::string& o, const HingeMarker& h) {
    o += "{\"name\":";
    appendString(o, h.name);
    o += ",\"type\":";
    appendString(o, h.name);
    o += ",\"position\":";
    appendVector(o, h.position);
    o += ",\"axes\":";
    appendArray(o, h.axes, appendVector);
    o += ",\"kinds\":";
    appendArray(o, h.translation, [](std::string& k, bool translation) {
      k += translation ? "\"translation\"" : "\"rotation\"";
    });
    o += '}';
  });
  out += '}';
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
  out += ",\"bodies\":";
  appendArray(out, scene.bodies, appendBody);
  out += ",\"springs\":";
  appendArray(out, scene.springs, [](std::string& o, const SpringView& s) {
    o += "{\"name\":";
    appendString(o, s.name);
    o += ",\"body1\":";
    appendBodyName(o, s.body1);
    o += ",\"point1\":";
    appendVector(o, s.point1);
    o += ",\"body2\":";
    appendBodyName(o, s.body2);
    o += ",\"point2\":";
    appendVector(o, s.point2);
    o += s.coil ? ",\"style\":\"spring\"" : ",\"style\":\"segment\"";
    // Absent, not 0, when the model leaves the size to the page.
    if (s.radius > 0.0) {
      o += ",\"radius\":";
      appendNumber(o, s.radius);
    }
    if (s.turns > 0) o += ",\"turns\":" + std::to_string(s.turns);
    o += ",\"color\":";
    appendVector(o, s.color);
    o += '}';
  });
  out += ",\"arrows\":";
  appendArray(out, scene.arrows, [](std::string& o, const ArrowView& a) {
    o += "{\"name\":";
    appendString(o, a.name);
    o += ",\"kind\":\"force\",\"point\":";
    appendStrings(o, a.point);
    o += ",\"vector\":";
    appendStrings(o, a.vector);
    o += ",\"color\":";
    appendVector(o, a.color);
    o += '}';
  });
  out += ",\"plots\":";
  appendStrings(out, scene.plots);
  out += '}';
  return out;
}

}  // namespace hopsim::viewer
