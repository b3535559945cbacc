#include "linear_system_file.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "hopsim/core/json_text.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim::apps {

namespace {

using Names = std::vector<std::string>;

/// The system's arrays by name, the same in every format.
std::vector<std::pair<std::string, Eigen::MatrixXd>> numericArrays(const LinearSystem& s) {
  return {{"A", s.A},
          {"B", s.B},
          {"C", s.C},
          {"D", s.D},
          {"x0", s.x0},
          {"u0", s.u0},
          {"y0", s.y0},
          {"xdot0", s.xdot0},
          {"operating_state", s.operatingState},
          {"state_steps", s.stateSteps},
          {"input_steps", s.inputSteps},
          {"state_column_error", s.stateColumnError},
          {"input_column_error", s.inputColumnError}};
}

std::vector<std::pair<std::string, Names>> nameLists(const LinearSystem& s) {
  return {{"state_names", s.stateNames},
          {"input_names", s.inputNames},
          {"output_names", s.outputNames},
          {"state_units", s.stateUnits},
          {"input_units", s.inputUnits},
          {"output_units", s.outputUnits},
          {"operating_state_names", s.operatingStateNames}};
}

std::vector<std::pair<std::string, double>> scalars(const LinearSystem& s) {
  return {{"time", s.time}, {"step", s.step}, {"sample_period", s.samplePeriod}};
}

// ---- .npz: a zip archive (stored, not compressed) of .npy arrays --------------------------

std::uint32_t crc32(const std::string& data) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1u) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char byte : data) c = table[(c ^ byte) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void putLittle(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFFu);
}

/// An .npy file (format 1.0): `descr` and `shape` in the header, padded to 64 bytes.
std::string npy(const std::string& descr, const std::string& shape, const std::string& data) {
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  putLittle(out, header.size(), 2);
  return out + header + data;
}

std::string npyMatrix(const Eigen::MatrixXd& m, bool vector) {
  std::string data;
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const double v = m(r, c);
      std::uint64_t bits = 0;
      std::memcpy(&bits, &v, sizeof v);
      putLittle(data, bits, 8);
    }
  }
  const std::string shape =
      vector ? "(" + std::to_string(m.size()) + ",)"
             : "(" + std::to_string(m.rows()) + ", " + std::to_string(m.cols()) + ")";
  return npy("<f8", shape, data);
}

/// Names as a NumPy unicode array ('<U n', UTF-32 little-endian; the names are ASCII).
std::string npyNames(const Names& names) {
  std::size_t width = 1;
  for (const std::string& n : names) width = std::max(width, n.size());
  std::string data;
  for (const std::string& n : names) {
    for (std::size_t i = 0; i < width; ++i)
      putLittle(data, i < n.size() ? static_cast<unsigned char>(n[i]) : 0, 4);
  }
  return npy("<U" + std::to_string(width), "(" + std::to_string(names.size()) + ",)", data);
}

std::string zip(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string out, directory;
  for (const auto& [name, data] : files) {
    const std::uint32_t crc = crc32(data);
    const std::size_t offset = out.size();
    const auto common = [&](std::string& s) {
      putLittle(s, 20, 2);  // version needed: 2.0
      putLittle(s, 0, 2);   // flags
      putLittle(s, 0, 2);   // stored
      putLittle(s, 0, 4);   // time and date
      putLittle(s, crc, 4);
      putLittle(s, data.size(), 4);
      putLittle(s, data.size(), 4);
      putLittle(s, name.size(), 2);
      putLittle(s, 0, 2);  // extra field
    };
    putLittle(out, 0x04034b50u, 4);
    common(out);
    out += name + data;
    putLittle(directory, 0x02014b50u, 4);
    putLittle(directory, 20, 2);  // made by
    common(directory);
    putLittle(directory, 0, 2);  // comment
    putLittle(directory, 0, 2);  // disk
    putLittle(directory, 0, 2);  // internal attributes
    putLittle(directory, 0, 4);  // external attributes
    putLittle(directory, offset, 4);
    directory += name;
  }
  const std::size_t directoryOffset = out.size();
  out += directory;
  putLittle(out, 0x06054b50u, 4);
  putLittle(out, 0, 4);  // disks
  putLittle(out, files.size(), 2);
  putLittle(out, files.size(), 2);
  putLittle(out, directory.size(), 4);
  putLittle(out, directoryOffset, 4);
  putLittle(out, 0, 2);  // comment
  return out;
}

std::string npzText(const LinearSystem& s) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& [name, m] : numericArrays(s)) {
    files.emplace_back(name + ".npy", npyMatrix(m, name.size() > 1));
  }
  for (const auto& [name, names] : nameLists(s)) files.emplace_back(name + ".npy", npyNames(names));
  for (const auto& [name, value] : scalars(s)) {
    files.emplace_back(name + ".npy", npyMatrix(Eigen::MatrixXd::Constant(1, 1, value), true));
  }
  files.emplace_back("scheme.npy", npyNames({std::string(toString(s.scheme))}));
  return zip(files);
}

// ---- CSV: one row per entry ----------------------------------------------------------------

std::string csvText(const LinearSystem& s) {
  std::string out = "array,row,column,value\n";
  const auto label = [](const Names& names, Eigen::Index i) {
    return i < static_cast<Eigen::Index>(names.size()) ? names[static_cast<std::size_t>(i)] : "";
  };
  const std::vector<std::pair<Names, Names>> labels = {{s.stateNames, s.stateNames},
                                                       {s.stateNames, s.inputNames},
                                                       {s.outputNames, s.stateNames},
                                                       {s.outputNames, s.inputNames}};
  const auto arrays = numericArrays(s);
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    const auto& [name, m] = arrays[k];
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      for (Eigen::Index c = 0; c < m.cols(); ++c) {
        const std::string row = k < 4 ? label(labels[k].first, r) : std::to_string(r);
        const std::string column = k < 4 ? label(labels[k].second, c) : "";
        out += name + "," + row + "," + column + "," + formatNumber(m(r, c)) + "\n";
      }
    }
  }
  for (const auto& [name, value] : scalars(s)) out += name + ",,," + formatNumber(value) + "\n";
  return out;
}

// ---- JSON ------------------------------------------------------------------------------------

std::string jsonText(const LinearSystem& s) {
  std::string out = "{\n  \"scheme\": ";
  json::appendString(out, toString(s.scheme));
  for (const auto& [name, value] : scalars(s)) {
    out += ",\n  \"" + name + "\": ";
    json::appendNumber(out, value);
  }
  for (const auto& [name, names] : nameLists(s)) {
    out += ",\n  \"" + name + "\": [";
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0) out += ", ";
      json::appendString(out, names[i]);
    }
    out += "]";
  }
  for (const auto& [name, m] : numericArrays(s)) {
    const bool vector = name.size() > 1;
    out += ",\n  \"" + name + "\": [";
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      if (r > 0) out += ", ";
      if (!vector) out += "[";
      for (Eigen::Index c = 0; c < m.cols(); ++c) {
        if (c > 0) out += ", ";
        json::appendNumber(out, m(r, c));
      }
      if (!vector) out += "]";
    }
    out += "]";
  }
  return out + "\n}\n";
}

}  // namespace

void checkLinearSystemFile(const std::string& file) {
  const std::string extension = std::filesystem::path(file).extension().string();
  if (extension != ".npz" && extension != ".csv" && extension != ".json") {
    throw InputError("linearize -o '" + file + "': " +
                     (extension.empty() ? std::string("no extension")
                                        : "unknown extension '" + extension + "'") +
                     " (expected FILE.npz, FILE.csv or FILE.json)");
  }
}

void writeLinearSystem(const LinearSystem& system, const std::string& file) {
  checkLinearSystemFile(file);
  const std::string extension = std::filesystem::path(file).extension().string();
  const std::string text = extension == ".npz"   ? npzText(system)
                           : extension == ".csv" ? csvText(system)
                                                 : jsonText(system);
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out.flush()) throw InputError("linearize -o '" + file + "': cannot write the file");
}

}  // namespace hopsim::apps
