"""Docs that cannot drift: every output a page of README.md or docs/ shows is what the build prints.

A page marks each shown output with an HTML comment just before its fenced block (the
convention, with every option, is in docs/README.md, "Outputs the docs show"):

    <!-- doc-test -->
    ```
    examples/pendulum_pd.yaml: ok (1 body, 3 models, 3 signals, 0 constraint equations)
    ```

The command is the marker's ``run:`` option, else the block's own ``$``/``>>>`` prompt lines,
else the nearest fenced ``sh`` or ``python`` block above it in the same section. It runs in a
temporary directory holding a copy of examples/ and a build/ whose apps/, examples/ and python/
are this build's, with this build's ``hopsim`` first on PATH and its package on PYTHONPATH, as
the docs assume. The shown text must equal the output except for numbers, which match to the
marker's relative tolerance (1e-9 unless it says ``rtol:`` and ``why:``), and wall-clock figures
(the wall time, the real-time factor, the loading time, rates, ETAs, progress lines off a
terminal), which are ignored by rule. ``...`` in the shown text stands for any text (a line of
its own: any lines).

test_every_shown_output_of_a_command_is_marked fails for an output block that follows a fenced
block with a ``hopsim`` command, or a block with prompts and output, without a marker: a new
one must be run or skipped with a reason.
"""

import dataclasses
import difflib
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys

import hopsim
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: This build's tree (build/python/hopsim/__init__.py -> build).
BUILD = pathlib.Path(hopsim.__file__).resolve().parents[2]

#: The tolerance of a block that states none: numbers printed to full precision agree to about
#: 1e-15 run to run; 1e-9 leaves room only for the last of 10 shown digits.
DEFAULT_RTOL = 1e-12
#: A run of a shown command may take this long; a longer one should be shortened in the doc.
TIMEOUT_S = 120
OPTIONS = {"run", "skip", "rtol", "atol", "why", "select", "ignore", "replace", "wrapped",
           "part", "stream", "status"}

FENCE = re.compile(r"^( *)(```+|~~~+)\s*([\w+-]*)[^\n]*$")
MARKER = re.compile(r"<!--\s*doc-test\b(.*?)-->", re.S)
HEADING = re.compile(r"^#{1,6} ")
COMMAND_LINE = re.compile(r"^\s*(\$ )?(\./)?(build/apps/)?hopsim (?!-)\S")
PROMPT = re.compile(r"^(\$|>>>) ")
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")

#: Wall-clock figures, which no two runs share: each pattern's groups are replaced by "<wall>"
#: in both texts. Progress lines of a run off a terminal (a terminal's is rewritten in place and
#: cleared, so no doc shows it) are dropped.
WALL_CLOCK = [
    re.compile(r"in (\S+) s wall time \((\S+)x real time"),
    re.compile(r"loading (\S+) s\b"),
    re.compile(r"(\S+) runs/s, ETA (\S+) s"),
    re.compile(r"wall (\S+) s  rate (\S+)x  ETA (\S+) s"),
]
PROGRESS_LINE = re.compile(r"^(t = \S+ / \S+ s  wall |\[[#.]*\] \d+/\d+ runs, )")


@dataclasses.dataclass
class Block:
    """A fenced block of a page: its language, body and the line of its opening fence."""

    language: str
    text: str
    line: int
    section: int  # the index of the heading it is under
    marker: dict | None  # the options of the doc-test marker just before it, if any


def parse_marker(body, where):
    """The options of a marker's body: one ``key: value`` a line, the first on its first line."""
    options = {}
    for line in body.strip().splitlines():
        line = line.strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep or key not in OPTIONS:
            raise ValueError(f"{where}: doc-test marker: '{line}' is not 'key: value' with a key "
                             f"of {sorted(OPTIONS)}")
        if key in ("ignore", "replace"):
            options.setdefault(key, []).append(value.strip())
        else:
            options[key] = value.strip()
    if "rtol" in options and float(options["rtol"]) > DEFAULT_RTOL and "why" not in options:
        raise ValueError(f"{where}: doc-test marker: rtol {options['rtol']} is looser than "
                         f"{DEFAULT_RTOL} without a 'why:'")
    return options


def page_name(page):
    """A page's path as messages give it: from the repository root."""
    return page.relative_to(ROOT) if page.is_relative_to(ROOT) else page


def page_blocks(page):
    """The fenced blocks of a page, in order, each with the doc-test marker before it."""
    lines = page.read_text().splitlines()
    name = page_name(page)
    blocks, section, pending, marker_line, index = [], 0, None, 0, 0
    while index < len(lines):
        line = lines[index]
        fence = FENCE.match(line)
        if HEADING.match(line):
            section += 1
            pending = None
        elif line.lstrip().startswith("<!--") and "doc-test" in line:
            end = index
            while "-->" not in lines[end]:
                end += 1
            body = MARKER.search("\n".join(lines[index:end + 1]))
            if body is None:
                raise ValueError(f"{name}:{index + 1}: a doc-test marker must be "
                                 "'<!-- doc-test ... -->'")
            pending = parse_marker(body.group(1), f"{name}:{index + 1}")
            marker_line, index = index + 1, end
        elif fence:
            indent, ticks, language = fence.groups()
            close = index + 1
            while close < len(lines) and lines[close].strip() != ticks:
                close += 1
            body = "\n".join(l[len(indent):] for l in lines[index + 1:close])
            blocks.append(Block(language, body, index + 1, section, pending))
            pending, index = None, close
        elif line.strip() and pending is not None:
            # A marker belongs to the block right after it (blank lines between are fine).
            raise ValueError(f"{name}:{marker_line}: a doc-test marker must come right before "
                             "the fenced block it marks")
        index += 1
    return blocks


def is_output(block):
    """A block that shows what something printed (or a file it wrote): no language, or one
    of the languages of program output."""
    return block.language in ("", "text", "console", "pycon", "json")


def has_prompts(block):
    """A block of ``$``/``>>>`` prompt lines and the output they printed."""
    lines = block.text.splitlines()
    return (any(PROMPT.match(l) for l in lines)
            and any(l.strip() and not PROMPT.match(l) for l in lines))


def command_of(blocks, index):
    """The command of the marked output block blocks[index]: (language, text)."""
    block = blocks[index]
    if "run" in block.marker:
        return "sh", block.marker["run"]
    if has_prompts(block):
        return "prompts", block.text
    for earlier in reversed(blocks[:index]):
        if earlier.section != block.section:
            break
        if earlier.language in ("sh", "bash", "python"):
            return earlier.language, earlier.text
    raise ValueError(f"no command for the doc-test block at line {block.line}: give 'run:'")


def marked_blocks():
    found = []
    for page in PAGES:
        blocks = page_blocks(page)
        for index, block in enumerate(blocks):
            if block.marker is not None:
                found.append(pytest.param(page, blocks, index,
                                          id=f"{page_name(page)}:{block.line}"))
    return found


def workspace(tmp_path):
    """The directory a doc's command runs in, as the repository root looks to a reader."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "build").mkdir()
    for part in ("apps", "examples", "python"):
        if (BUILD / part).is_dir():
            (tmp_path / "build" / part).symlink_to(BUILD / part)
    env = dict(os.environ)
    env["PATH"] = f"{BUILD / 'apps'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(BUILD / "python")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("COLUMNS", None)
    return env


def run(language, command, cwd, env, stream, status):
    """Runs a doc's command the way its reader would; returns what it printed."""
    if language == "python":
        script = cwd / "doc_snippet.py"
        script.write_text(command)
        argv = [sys.executable, str(script)]
    else:
        argv = ["bash", "-e", "-o", "pipefail", "-c", command]
    result = subprocess.run(argv, cwd=cwd, env=env, timeout=TIMEOUT_S, text=True,
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT if stream == "both" else subprocess.PIPE)
    printed = result.stdout + (result.stderr or "")
    assert result.returncode == status, (
        f"exit status {result.returncode}, expected {status}:\n{printed}")
    return result.stderr if stream == "stderr" else result.stdout


def run_prompts(text, cwd, env):
    """Runs each ``$`` line of a prompt block; returns the block as it would read."""
    out = []
    for line in text.splitlines():
        if line.startswith("$ "):
            out.append(line + "\n" + run("sh", line[2:], cwd, env, "both", 0))
        elif line.startswith(">>> "):
            # Only shell prompts run as they stand (docs/README.md, "Outputs the docs show").
            pytest.fail("a '>>> ' prompt is not run as it stands: give the marker a 'run:' "
                        "line, or show the snippet as a python block above the output")
    return "".join(out)


def normalized(text, options):
    """The text compared: wall-clock figures and ignored lines out, trailing blanks off."""
    lines = []
    for line in text.splitlines():
        if PROGRESS_LINE.match(line):
            continue
        if any(re.search(pattern, line) for pattern in options.get("ignore", [])):
            continue
        if "select" in options and not re.search(options["select"], line):
            continue
        for pattern in WALL_CLOCK:
            line = pattern.sub(lambda m: _blank_groups(m), line)
        lines.append(line.rstrip())
    text = "\n".join(lines).strip("\n")
    if options.get("wrapped") == "yes":
        text = re.sub(r"\s+", " ", text)
    return text


def _blank_groups(match):
    text, start = "", match.start()
    for group in range(1, (match.re.groups or 0) + 1):
        text += match.string[start:match.start(group)] + "<wall>"
        start = match.end(group)
    return text + match.string[start:match.end()]


def pattern_of(shown, part):
    """A regex for the shown text: its numbers captured, '...' any text, the rest literal."""
    pieces = []
    for chunk in re.split(r"(^[ \t]*\.\.\.\n|\.\.\.|" + NUMBER.pattern + ")", shown, flags=re.M):
        if not chunk:
            continue
        if chunk.endswith("...\n"):  # a line of its own (indented or not): any lines, or none
            pieces.append(r"(?:.*?\n)?")
        elif chunk == "...":
            pieces.append(r".*?")
        elif NUMBER.fullmatch(chunk):
            pieces.append("(" + NUMBER.pattern + ")")
        else:
            pieces.append(re.escape(chunk))
    body = "".join(pieces)
    return re.compile(r"(?:[^\n]*\n)*?" + body + r"(?:\n[^\n]*)*" if part else body, re.S)


def compare(shown, actual, options, where, checkout=None):
    """Fails with a diff unless actual reads as shown, numbers to the stated tolerance.

    The directory the command ran in (checkout) reads as ``<checkout>``: the reader's own.
    """
    rtol = float(options.get("rtol", DEFAULT_RTOL))
    atol = float(options.get("atol", 0.0))
    if checkout is not None:
        actual = actual.replace(str(checkout), "<checkout>")
    for rule in options.get("replace", []):
        pattern, _, replacement = rule.partition(" => ")
        actual = re.sub(pattern, replacement, actual)
    shown_text = normalized(shown, options)
    actual_text = normalized(actual, options)
    diff = "\n".join(difflib.unified_diff(shown_text.splitlines(), actual_text.splitlines(),
                                          "shown in " + where, "printed by this build",
                                          lineterm=""))
    match = pattern_of(shown_text, options.get("part") == "yes").fullmatch(actual_text)
    assert match, f"the output differs from the text shown:\n{diff}"
    wanted = [c for c in re.split(r"(\.\.\.|" + NUMBER.pattern + ")", shown_text)
              if c and NUMBER.fullmatch(c)]
    off = [(w, g) for w, g in zip(wanted, match.groups())
           if not math.isclose(float(w), float(g), rel_tol=rtol, abs_tol=atol)]
    assert not off, (f"numbers differ beyond rtol {rtol}"
                     + (f", atol {atol}" if atol else "") + ": "
                     + ", ".join(f"shown {w}, printed {g}" for w, g in off) + f"\n{diff}")


@pytest.mark.parametrize("page, blocks, index", marked_blocks())
def test_a_shown_output_is_what_this_build_prints(page, blocks, index, tmp_path):
    block = blocks[index]
    options = block.marker
    if "skip" in options:
        pytest.skip(options["skip"])
    language, command = command_of(blocks, index)
    env = workspace(tmp_path)
    if language == "prompts":
        actual = run_prompts(command, tmp_path, env)
    else:
        actual = run(language, command, tmp_path, env, options.get("stream", "both"),
                     int(options.get("status", 0)))
    compare(block.text, actual, options, f"{page_name(page)}:{block.line}", tmp_path)


def unmarked_outputs(page):
    """The output blocks of a page that a marker should mark and none does."""
    unmarked = []
    blocks = page_blocks(page)
    for index, block in enumerate(blocks):
        name = f"{page_name(page)}:{block.line}"
        if block.marker is not None:
            continue
        if has_prompts(block):
            unmarked.append(name + " (prompts and output)")
        elif index > 0 and is_output(block):
            before = blocks[index - 1]
            if (before.section == block.section and not is_output(before)
                    and any(COMMAND_LINE.match(l) for l in before.text.splitlines())):
                unmarked.append(name + f" (after the hopsim command at line {before.line})")
    return unmarked


def test_every_shown_output_of_a_command_is_marked():
    unmarked = [name for page in PAGES for name in unmarked_outputs(page)]
    assert not unmarked, (
        "output blocks without a doc-test marker (docs/README.md, 'Outputs the docs show': "
        "mark each to be run, or with 'skip:' and the reason):\n  " + "\n  ".join(unmarked))


def test_an_unmarked_output_and_a_misplaced_or_loose_marker_are_refused(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```sh\nhopsim check a.yaml\n```\n\n```\na.yaml: ok\n```\n\n"
                    "```\n$ hopsim --version\nhopsim 0.1.0\n```\n")
    assert unmarked_outputs(page) == [f"{page}:5 (after the hopsim command at line 1)",
                                      f"{page}:9 (prompts and output)"]
    page.write_text("<!-- doc-test\nrtol: 1e-6\n-->\n```\n1\n```\n")
    with pytest.raises(ValueError, match=r"page.md:1: .*rtol 1e-6 is looser .* without a 'why:'"):
        page_blocks(page)
    page.write_text("<!-- doc-test -->\nA paragraph.\n```\n1\n```\n")
    with pytest.raises(ValueError, match="page.md:1: a doc-test marker must come right before"):
        page_blocks(page)
    page.write_text("<!-- doc-test\nrum: hopsim check a.yaml\n-->\n```\n1\n```\n")
    with pytest.raises(ValueError, match="'rum: hopsim check a.yaml' is not 'key: value'"):
        page_blocks(page)


def test_markers_are_well_formed():
    """Every marker parses, and every looser tolerance says why (parse_marker raises)."""
    count = sum(1 for page in PAGES for block in page_blocks(page) if block.marker is not None)
    assert count > 0


def test_the_comparison_fails_on_drift_and_ignores_wall_clock_figures():
    summary = ("simulated 40.5254 s in 0.0079 s wall time (5116x real time; loading 0.001 s); "
               "407 hops, {} integration steps")
    compare(summary.format(412), summary.format(412).replace("0.0079", "0.31"), {}, "t")
    with pytest.raises(AssertionError, match="shown 1225, printed 412"):
        compare(summary.format(1225), summary.format(412), {}, "t")
    compare("x = 1.00000000000001", "x = 1.00000000000002", {}, "t")
    with pytest.raises(AssertionError, match="beyond rtol"):
        compare("x = -31.61898958545732", "x = -31.61898958645732", {}, "t")
    with pytest.raises(AssertionError, match="differs from the text"):
        compare("ok (1 body)", "ok (1 bodies)", {}, "t")
    compare("a\n...\nz 3", "a\nb 1\nc 2\nz 3", {}, "t")
    compare("b 1", "a\nb 1\nc", {"part": "yes"}, "t")
