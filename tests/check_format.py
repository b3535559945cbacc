#!/usr/bin/env python3
"""The C++ sources are formatted as .clang-format says: clang-format finds nothing to change.

Run by ctest ("format: clang-format finds nothing to change"); by hand:

    tests/check_format.py            # report the files clang-format would change
    tests/check_format.py --fix      # format them in place

The formatting depends on clang-format's major version: the check runs with the one Debian 12
ships (clang-format 14) and reports itself skipped (exit 77) where only another version, or
none, is installed, rather than fail on a difference of versions.
"""

import os
import re
import shutil
import subprocess
import sys

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSION = 14
SKIPPED = 77
EXTENSIONS = (".h", ".hpp", ".cpp", ".cc")
# Build trees and the viewer's npm modules hold no project source.
PRUNED = re.compile(r"^(build.*|node_modules|\..*)$")


def clang_format():
    """The clang-format of VERSION, or None with the reason it is missing."""
    found = "no clang-format on PATH"
    for name in (f"clang-format-{VERSION}", "clang-format"):
        path = shutil.which(name)
        if path is None:
            continue
        banner = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
        if re.search(rf"version {VERSION}\.", banner):
            return path, None
        found = f"{path} is {banner.strip()}"
    return None, f"needs clang-format {VERSION} (Debian 12's clang-format package); {found}"


def sources():
    """Every C++ source and header of the project, sorted, relative to SOURCE."""
    found = []
    for root, directories, files in os.walk(SOURCE):
        directories[:] = sorted(d for d in directories if not PRUNED.match(d))
        found += [
            os.path.relpath(os.path.join(root, f), SOURCE) for f in files if f.endswith(EXTENSIONS)
        ]
    return sorted(found)


def main():
    fix = sys.argv[1:] == ["--fix"]
    if sys.argv[1:] not in ([], ["--fix"]):
        sys.exit("usage: check_format.py [--fix]")
    tool, why = clang_format()
    if tool is None:
        print(f"skipped: {why}")
        return SKIPPED
    files = sources()
    arguments = ["-i"] if fix else ["--dry-run", "--Werror"]
    unformatted = []
    for start in range(0, len(files), 100):
        batch = files[start : start + 100]
        result = subprocess.run(
            [tool, "--style=file", *arguments, *batch], cwd=SOURCE, capture_output=True, text=True
        )
        if fix and result.returncode != 0:
            sys.exit(result.stderr)
        unformatted += sorted(set(re.findall(r"^(\S+?):\d+:\d+: error:", result.stderr, re.M)))
    if unformatted:
        print(f"{len(unformatted)} of {len(files)} files are not formatted as .clang-format says:")
        print("\n".join("  " + f for f in unformatted))
        print("format them with: tests/check_format.py --fix")
        return 1
    print(f"{len(files)} files formatted" if fix else f"{len(files)} files are formatted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
