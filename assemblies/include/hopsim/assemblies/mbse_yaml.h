#pragma once
/// @file
/// The MBSE planar-mechanism YAML front end (docs/mbse-yaml.md): a file written for libmbse's
/// ModelDefinition::FromYAML becomes a mechanism::Mechanism of planar bodies in the XY plane,
/// pinned by revolute joints about Z at their shared points, with gravity (0, -9.81, 0).
#include <string>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/assemblies/mechanism.h"

namespace hopsim::mbse {

/// Reads an MBSE mechanism document. Expressions are evaluated in libmbse's order, the points
/// are projected onto the constraints (libmbse's refinePosition), then the bodies
/// (`body0`, `body1`, ... in `planar_bodies` order, then the fixed body `ground`), the revolute
/// joints, the output points (one per point, labelled by its index) and the output angles (one
/// per relative coordinate) are built. Warnings go to Mechanism::warnings.
/// @param file names the document in messages and in Mechanism::file.
/// @throws InputError "file:line:col: key.path: message" for anything libmbse rejects and for
/// the inputs it silently mishandles (docs/mbse-yaml.md lists them).
mechanism::Mechanism readMechanism(const InputNode& document, const std::string& file);

/// loadYamlFile(path), then readMechanism.
mechanism::Mechanism readMechanismFile(const std::string& path);

/// True for a mapping with both `points` and `planar_bodies` (an MBSE file).
bool looksLikeMbse(const InputNode& document);

}  // namespace hopsim::mbse
