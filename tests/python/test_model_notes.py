"""Every registered model class has a physics note in docs/models/.

For each class in ``hopsim.model_classes()``: docs/models/<Class>.md exists, its first heading
names the class, and the index docs/models/README.md links it. Every link of the index points to
a note that exists.
"""

import pathlib
import re

import pytest

import hopsim

#: The repository root (tests/python/test_model_notes.py -> ../..).
ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTES = ROOT / "docs" / "models"
INDEX = NOTES / "README.md"

CLASSES = hopsim.model_classes()

#: Markdown links to a note in the same folder: [text](Class.md) or [text](./Class.md#anchor).
LINK = re.compile(r"\]\((?:\./)?([A-Za-z0-9_]+)\.md(?:#[^)]*)?\)")


def first_heading(path):
    """The text of the first Markdown heading of `path` (None if it has none)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#{1,6}\s+(.*\S)", line)
        if match:
            return match.group(1)
    return None


def index_links():
    return set(LINK.findall(INDEX.read_text(encoding="utf-8")))


def test_the_registry_lists_classes():
    assert CLASSES == sorted(CLASSES)
    assert "SpringDamper" in CLASSES


@pytest.mark.parametrize("class_name", CLASSES)
def test_every_model_class_has_a_note_named_after_it(class_name):
    note = NOTES / f"{class_name}.md"
    assert note.is_file(), f"{class_name} has no physics note: write docs/models/{class_name}.md"
    heading = first_heading(note)
    assert heading is not None, f"docs/models/{class_name}.md has no heading"
    assert re.search(rf"\b{re.escape(class_name)}\b", heading), (
        f"the first heading of docs/models/{class_name}.md is {heading!r}; it must name "
        f"{class_name}"
    )


@pytest.mark.parametrize("class_name", CLASSES)
def test_the_index_links_every_model_class(class_name):
    assert INDEX.is_file(), "docs/models/README.md (the index of the notes) is missing"
    assert class_name in index_links(), (
        f"docs/models/README.md does not link {class_name}.md"
    )


def test_every_link_of_the_index_has_a_note():
    missing = sorted(name for name in index_links() if not (NOTES / f"{name}.md").is_file())
    assert not missing, f"docs/models/README.md links notes that do not exist: {missing}"


def test_the_index_points_to_the_generated_reference():
    text = INDEX.read_text(encoding="utf-8")
    assert "reference/models.md" in text and "hopsim models --doc" in text
