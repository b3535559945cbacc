#include "json_writer.h"

#include "hopsim/core/spatial/rotation.h"

namespace hopsim::viewer::json {

void appendNumbers(std::string& out, std::span<const double> values) {
  appendArray(out, values, [](std::string& o, double v) { appendNumber(o, v); });
}

void appendVector(std::string& out, const spatial::Vector3& v) {
  appendNumbers(out, std::span<const double>(v.data(), 3));
}

void appendQuaternion(std::string& out, const spatial::Matrix3& R) {
  const spatial::Quaternion q = spatial::quaternionFromRotation(R);
  appendNumbers(out, std::span<const double>(q.data(), 4));
}

void appendStrings(std::string& out, std::span<const std::string> names) {
  appendArray(out, names, [](std::string& o, const std::string& n) { appendString(o, n); });
}

}  // namespace hopsim::viewer::json
