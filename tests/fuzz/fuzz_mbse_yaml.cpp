// libFuzzer target of the MBSE planar-mechanism YAML front end (docs/fuzzing.md,
// docs/mbse-yaml.md).
//
// Each input is YAML text. It goes through the file-kind detector, the MBSE reader (expressions,
// projection, bodies, joints, outputs) and the lowering plan of what it reads, and, when the
// reader accepts it, written into a scratch directory, through `hopsim run`'s runDocumentFor.
// A hopsim::Error is a rejection; any other exception, a crash, a sanitizer report, a leak or a
// hang is a finding.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "hopsim/assemblies/front_end.h"
#include "hopsim/assemblies/mbse_yaml.h"
#include "hopsim/assemblies/yaml_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hopsim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fuzz::ScratchDir& scratch = fuzz::ScratchDir::get();
  const std::string path = scratch.file("input.yaml");

  InputNode document;
  if (!fuzz::acceptOrReject([&] { document = parseYaml(text, path); })) return 0;

  fuzz::acceptOrReject([&] { (void)detectYamlFileKind(document, path); });
  (void)mbse::looksLikeMbse(document);

  // The reader runs on every document (it rejects what is not a mapping with `points` and
  // `planar_bodies` itself).
  const bool read = fuzz::acceptOrReject([&] {
    const mechanism::Mechanism mechanism = mbse::readMechanism(document, path);
    fuzz::lower(mechanism);
  });
  if (!read) return 0;

  scratch.write("input.yaml", text);
  fuzz::runPath(document, path);
  return 0;
}
