#!/usr/bin/env python3
"""Writes docs/reference/python-api.md, the Python API reference, from the package's docstrings.

Every public name of ``hopsim`` (its ``__all__``) is documented from what the package says about
itself: pybind11 signatures and docstrings for the classes and functions bound in C++,
``inspect`` signatures and docstrings for the pure-Python ones; then the module ``hopsim.plot``.
The output is deterministic (sorted, memory addresses scrubbed), so a test compares the committed
file with a fresh rendering.

Usage, from anywhere (the repository's build tree, build/python, is imported by default)::

    /usr/bin/python3 scripts/python_api_reference.py            # rewrite the file
    /usr/bin/python3 scripts/python_api_reference.py --check    # exit 1 if it is out of date
    /usr/bin/python3 scripts/python_api_reference.py --build other-build
"""

import argparse
import enum
import importlib
import inspect
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "reference" / "python-api.md"
COMMAND = "/usr/bin/python3 scripts/python_api_reference.py"

#: Special methods worth documenting when a hopsim class defines them (the rest, __repr__,
#: __eq__, pickling, are plumbing).
SPECIAL = ("__init__", "__call__", "__len__", "__iter__", "__getitem__", "__setitem__",
           "__contains__", "__enter__", "__exit__")


# ---- text clean-up -----------------------------------------------------------------------------


def clean_type_names(text):
    """Signatures as a user writes them: hopsim.X for hopsim._hopsim.X, object for handle, and
    no memory addresses (which would make the output change from run to run)."""
    text = text.replace("hopsim._hopsim.", "hopsim.")
    text = re.sub(r"\bhandle\b", "object", text)
    text = re.sub(r"<class '([\w.]+)'>", r"\1", text)
    return re.sub(r" at 0x[0-9a-fA-F]+", "", text)


def markdown(doc):
    """A docstring in Markdown: reST roles and double backquotes as code, ``::`` blocks fenced."""
    if not doc:
        return ""
    doc = re.sub(r":(?:class|meth|func|attr|mod|data|exc|obj):`~?([^`]+)`", r"`\1`", doc)
    doc = re.sub(r"``([^`]+)``", r"`\1`", doc)
    out = []
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.rstrip().endswith("::"):
            # A literal block follows: the indented lines after the (optional) blank line.
            stem = line.rstrip()[:-2].rstrip()
            if stem:
                out.append(stem + ":")
            i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            while block and not block[0].strip():
                block.pop(0)
            indent = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
            out += ["", "```python"] + [b[indent:] for b in block] + ["```", ""]
            continue
        out.append(line)
        i += 1
    text = "\n".join(out).strip()
    return re.sub(r"\n{3,}", "\n\n", clean_type_names(text))


# ---- signatures --------------------------------------------------------------------------------


def pybind_overloads(name, doc):
    """[(signature, doc)] from a pybind11 docstring: 'name(args) -> r\\n\\ndoc', or the numbered
    overloads under 'Overloaded function.'."""
    doc = doc or ""
    if "\nOverloaded function.\n" in doc:
        parts = re.split(r"\n\d+\. (?=" + re.escape(name) + r"\()", doc)
        return [split_signature(part) for part in parts[1:]]
    return [split_signature(doc)]


def split_signature(text):
    """('name(args) -> r', rest) from a pybind11 docstring's first line and the rest."""
    first, _, rest = text.strip("\n").partition("\n")
    return first.strip(), rest.strip()


def without_self(signature):
    """'f(self: X, a: int) -> r' as 'f(a: int) -> r'."""
    return re.sub(r"\(self(?:: [^,()]+(?:\[[^\]]*\])?)?(?:, )?", "(", signature, count=1)


def is_pybind(obj):
    """True for functions and methods bound by pybind11 (builtins with a signature line)."""
    return type(obj).__name__ in ("builtin_function_or_method", "instancemethod")


def function_entries(qualname, name, func):
    """[(heading, doc)] for a function or method, one per pybind11 overload."""
    if is_pybind(func):
        entries = []
        for signature, doc in pybind_overloads(name, func.__doc__):
            signature = without_self(signature)
            entries.append((qualname + signature[len(name):], doc))
        return entries
    try:
        signature = str(inspect.signature(func))
    except (TypeError, ValueError):
        signature = "(...)"
    signature = re.sub(r"^\((?:self|cls)(, )?", "(", signature)
    return [(qualname + signature, own_doc(func))]


def own_doc(obj):
    """obj's own docstring, cleaned; not one inherited (inspect.getdoc would give a method
    without a docstring object.__init__'s 'Initialize self...')."""
    doc = obj.__dict__.get("__doc__") if isinstance(obj, type) else getattr(obj, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) else ""


def property_entry(qualname, prop):
    """(heading, doc) for a property: its type from the getter's signature, read-only or not."""
    getter = prop.fget
    kind = "property" if prop.fset is not None else "read-only property"
    type_name = ""
    doc = prop.__doc__ or ""
    if getter is not None and is_pybind(getter):
        signature, getter_doc = split_signature(getter.__doc__ or "")
        match = re.search(r"\) -> (.+)$", signature)
        type_name = match.group(1) if match else ""
        if not doc.strip() or doc.strip() == (getter.__doc__ or "").strip():
            doc = getter_doc
    elif getter is not None:
        annotation = inspect.signature(getter).return_annotation
        if annotation is not inspect.Signature.empty:
            type_name = getattr(annotation, "__name__", str(annotation))
        doc = own_doc(prop) or own_doc(getter)
    heading = qualname + (": " + type_name if type_name else "") + " (" + kind + ")"
    return heading, inspect.cleandoc(doc) if doc else ""


# ---- kinds of public names ---------------------------------------------------------------------


def is_enum(obj):
    return isinstance(obj, type) and (isinstance(obj, enum.EnumMeta) or (
        hasattr(obj, "__members__") and "__entries" in obj.__dict__))


def is_exception(obj):
    return isinstance(obj, type) and issubclass(obj, BaseException)


def enum_section(name, cls):
    """An enumeration: its description and a table of members, values and member docs."""
    doc = cls.__doc__ or ""
    text, _, members_text = doc.partition("\n\nMembers:\n")
    member_docs = {}
    for line in members_text.splitlines():
        key, sep, value = line.strip().partition(" : ")
        if sep:
            member_docs[key] = value.strip()
    rows = ["| member | value | meaning |", "|---|---|---|"]
    members = list(cls.__members__.items())
    for member_name, member in members:
        value = member.value if isinstance(member, enum.Enum) else int(member)
        rows.append("| `" + member_name + "` | " + repr(value) + " | "
                    + member_docs.get(member_name, "") + " |")
    return [heading(3, "hopsim." + name), markdown(inspect.cleandoc(text)), "\n".join(rows)]


def exception_section(name, cls):
    bases = ", ".join("`" + qualified(b) + "`" for b in cls.__bases__)
    return [heading(3, "hopsim." + name), "Bases: " + bases, markdown(own_doc(cls))]


def qualified(cls):
    """'hopsim.X' for hopsim classes, the plain name for builtins."""
    module = getattr(cls, "__module__", "")
    if module == "builtins":
        return cls.__name__
    if module.startswith("hopsim"):
        return "hopsim." + cls.__name__
    return module + "." + cls.__name__


def class_members(cls, public):
    """The members to document for `cls`: those defined by it and by hopsim base classes that
    are not themselves documented (private helper bases), in name order, __init__ first."""
    owners = [c for c in cls.__mro__
              if c is cls or (getattr(c, "__module__", "").startswith("hopsim") and c not in public)]
    members = {}
    for owner in reversed(owners):  # the most derived definition wins
        for key, value in vars(owner).items():
            if key.startswith("_") and key not in SPECIAL:
                continue
            # A constructor documented only when written for the class (a pybind11 init or a
            # Python __init__), not object's slot wrapper of a class made by factories.
            if key == "__init__" and not (is_pybind(value) or inspect.isfunction(value)):
                continue
            members[key] = value
    order = sorted(members, key=lambda k: (k != "__init__", k.lower(), k))
    return [(key, members[key]) for key in order]


def class_section(name, cls, public):
    out = [heading(3, "hopsim." + name)]
    bases = [b for b in cls.__bases__ if b in public]
    if bases:
        out.append("Bases: " + ", ".join("`" + qualified(b) + "`" for b in bases))
    out.append(markdown(own_doc(cls)))
    for key, value in class_members(cls, public):
        qualname = name + "." + key
        if isinstance(value, type):
            if value in public:  # an alias of a documented class, such as Assembly.Config
                out.append(heading(4, "`" + qualname + "` = `" + qualified(value) + "`"))
            else:
                out += [heading(4, "`" + qualname + "` (class)"), markdown(own_doc(value))]
            continue
        if isinstance(value, property):
            entries = [property_entry(qualname, value)]
        elif isinstance(value, (staticmethod, classmethod)):
            kind = "static method" if isinstance(value, staticmethod) else "class method"
            entries = [(h + " (" + kind + ")", d)
                       for h, d in function_entries(qualname, key, value.__func__)]
        elif callable(value):
            call_name = name if key == "__init__" else qualname
            entries = function_entries(call_name, key, value)
        else:
            continue  # class-level constants and descriptors document themselves in the class
        for title, doc in entries:
            out += [heading(4, "`" + clean_type_names(title) + "`"), markdown(doc)]
    return out


def heading(level, text):
    return "#" * level + " " + text


def functions_section(prefix, names, module):
    out = []
    for name in names:
        func = getattr(module, name)
        for title, doc in function_entries(prefix + name, name, func):
            out += [heading(3, "`" + clean_type_names(title) + "`"), markdown(doc)]
    return out


# ---- the document ------------------------------------------------------------------------------


def render(hopsim):
    """The reference as one Markdown string, from the imported package `hopsim`."""
    plot = importlib.import_module("hopsim.plot")
    names = sorted(set(hopsim.__all__), key=lambda n: (n.lower(), n))
    objects = {n: getattr(hopsim, n) for n in names}
    public = {o for o in objects.values() if isinstance(o, type)}
    enums = [n for n, o in objects.items() if is_enum(o)]
    exceptions = [n for n, o in objects.items() if is_exception(o)]
    classes = [n for n, o in objects.items()
               if isinstance(o, type) and n not in enums and n not in exceptions]
    functions = [n for n, o in objects.items() if callable(o) and not isinstance(o, type)]
    constants = [n for n in names if n not in enums + exceptions + classes + functions]

    out = [
        "# Python API reference",
        "<!-- Generated by scripts/python_api_reference.py from the docstrings; do not edit. -->",
        "Generated from the docstrings of the package `hopsim` (every name in `hopsim.__all__`, "
        "then the module `hopsim.plot`); do not edit by hand. After changing a docstring or a "
        "public name, regenerate it from the repository root with\n\n"
        "```\n" + COMMAND + "\n```\n\n"
        "(it imports the build tree `build/python`; build the module first with `cmake --build "
        "build --target hopsim_python`). `tests/python/test_api_reference.py` fails while this "
        "file is out of date. The tutorial is [python.md](../python.md).",
        "Contents: [the package](#the-package), [classes](#classes), "
        "[enumerations](#enumerations), [exceptions](#exceptions), [functions](#functions), "
        "[constants](#constants), [hopsim.plot](#hopsimplot).",
        heading(2, "The package"),
        markdown(inspect.getdoc(hopsim)),
        heading(2, "Classes"),
    ]
    for name in classes:
        out += class_section(name, objects[name], public)
    out.append(heading(2, "Enumerations"))
    for name in enums:
        out += enum_section(name, objects[name])
    out.append(heading(2, "Exceptions"))
    for name in exceptions:
        out += exception_section(name, objects[name])
    out.append(heading(2, "Functions"))
    out += functions_section("hopsim.", functions, hopsim)
    out.append(heading(2, "Constants"))
    for name in constants:
        out.append("- `hopsim." + name + "` = `" + repr(objects[name]) + "`")
    out += [heading(2, "hopsim.plot"), markdown(inspect.getdoc(plot))]
    out += functions_section("hopsim.plot.", sorted(plot.__all__), plot)
    text = "\n\n".join(part for part in out if part)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=str(ROOT / "build"),
                        help="the build directory whose python/ is imported (default: build)")
    parser.add_argument("--output", default=str(OUTPUT), help="the file to write")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the file differs from a fresh rendering")
    args = parser.parse_args(argv)
    # The build tree first, so the reference describes this checkout, not an installed copy.
    sys.path.insert(0, str(pathlib.Path(args.build).resolve() / "python"))
    hopsim = importlib.import_module("hopsim")
    text = render(hopsim)
    output = pathlib.Path(args.output)
    if args.check:
        if not output.exists() or output.read_text(encoding="utf-8") != text:
            print(f"{output} is out of date; regenerate with: {COMMAND}", file=sys.stderr)
            return 1
        return 0
    output.parent.mkdir(parents=True, exist_ok=True)
    if not output.exists() or output.read_text(encoding="utf-8") != text:
        output.write_text(text, encoding="utf-8")
        print(f"wrote {output} ({len(text.splitlines())} lines, from {hopsim.__file__})")
    else:
        print(f"{output} is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
