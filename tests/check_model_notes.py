#!/usr/bin/env python3
"""A model's equations are written once, in its note docs/models/<Class>.md; this checks the
other places against it.

    tests/check_model_notes.py [REPOSITORY]

For every class of docs/reference/models.md (generated from the declarations by
`hopsim models --doc`, and kept equal to them by the test "apps: hopsim models --doc matches
docs/reference/models.md"):

- the note docs/models/<Class>.md has an "Equations" section;
- the note names every declared param, continuous state, input and output, so that its
  equations are written in the declaration's names and leave none of them out;
- the header that declares the class points to the note and writes no equation in its file and
  class comments (an " = " there is an equation written a second time).

Prints one line per failure and exits 1 if there is any; needs nothing built.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[1])
REFERENCE = ROOT / "docs" / "reference" / "models.md"
NOTES = ROOT / "docs" / "models"
HEADERS = ROOT / "models" / "include" / "hopsim" / "models"
EQUATION_FIELDS = ("params", "continuousStates", "flowIns", "flowOuts")


def declared_models(text):
    """{class: [names of its params, continuous states, inputs and outputs]} from the generated
    reference (discrete states and scratch are bookkeeping the equations need not name)."""
    models = {}
    for section in re.split(r"(?m)^## ", text)[1:]:
        name, body = section.split("\n", 1)
        fields, kind = [], None
        for line in body.splitlines():
            heading = re.match(r"\*\*(\w+)\*\*$", line)
            if heading:
                kind = heading.group(1)
            row = re.match(r"\| `([^`]+)` \|", line)
            if row and kind in EQUATION_FIELDS:
                fields.append(row.group(1))
        models[name.strip()] = fields
    return models


def named(name, text):
    """Whether `name` appears in `text` as a whole word (identifiers may contain '_')."""
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def equations_section(note):
    """The text of the note's "## Equations" (or "## Equation") section, or None."""
    match = re.search(r"(?ms)^## Equations?\b[^\n]*\n(.*?)(?=^## |\Z)", note)
    return match.group(1) if match else None


def class_headers():
    """{class: header path} for the headers that define a model class."""
    found = {}
    for header in sorted(HEADERS.glob("*.h")):
        for name in re.findall(r"(?m)^class (\w+)\b[^;\n]*:\s*public", header.read_text("utf-8")):
            found[name] = header
    return found


def doc_comments(header_text, name):
    """The header's @file comment and the /// block right above `class name`."""
    lines = header_text.splitlines()
    blocks = []
    for i, line in enumerate(lines):
        if line.startswith("/// @file"):
            j = i
            while j < len(lines) and lines[j].startswith("///"):
                blocks.append(lines[j])
                j += 1
        if re.match(rf"class {re.escape(name)}\b", line):
            j = i - 1
            while j >= 0 and lines[j].lstrip().startswith("///"):
                blocks.append(lines[j])
                j -= 1
    return "\n".join(blocks)


def main():
    failures = []
    models = declared_models(REFERENCE.read_text("utf-8"))
    headers = class_headers()
    for name, fields in sorted(models.items()):
        path = NOTES / f"{name}.md"
        where = f"docs/models/{name}.md"
        if not path.is_file():
            failures.append(f"{where}: missing (every model has a note with its equations)")
            continue
        note = path.read_text("utf-8")
        equations = equations_section(note)
        if equations is None:
            failures.append(f"{where}: no '## Equations' section")
            equations = ""
        for field in fields:
            if not named(field, note):
                failures.append(f"{where}: does not name the declared field '{field}'")
        header = headers.get(name)
        if header is None:
            continue  # a class declared outside the standard headers
        text = header.read_text("utf-8")
        rel = header.relative_to(ROOT)
        if where not in text:
            failures.append(f"{rel}: does not point to {where}")
        for line in doc_comments(text, name).splitlines():
            if " = " in line:
                failures.append(f"{rel}: an equation in the class's comments "
                                f"({line.strip()}); it belongs in {where}")
    for failure in failures:
        print(failure)
    print(f"{len(models)} models, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
