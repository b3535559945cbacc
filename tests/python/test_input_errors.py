"""Messages that quote input which is not UTF-8 reach Python whole (docs/python.md, "Errors").

An input file in another encoding (Latin-1) or a path of arbitrary bytes puts bytes that are not
UTF-8 into hopsim's messages. They arrive as U+FFFD replacement characters, with the rest of the
message intact, in every exception and warning; nothing is lost to a UnicodeDecodeError or to an
exception without a message.
"""

import os
import re

import pytest

import hopsim

REPLACEMENT = "\ufffd"


def write(path, data):
    path.write_bytes(data)
    return path


def test_a_scenario_error_quoting_a_latin1_name_keeps_its_message(tmp_path):
    scenario = write(tmp_path / "latin1.yaml", b"hopsim: 1\nsimulation: {end_time: 1}\n"
                                               b"models:\n  m: {class: \"Gain\xe9\"}\n")
    with pytest.raises(hopsim.InputError) as raised:
        hopsim.load(str(scenario))
    message = str(raised.value)
    assert message.startswith(f"{scenario}:4:")
    assert f"no model class 'Gain{REPLACEMENT}' is registered (did you mean 'Gain'?)" in message


def test_a_warning_quoting_a_latin1_key_keeps_its_text(tmp_path):
    scenario = write(tmp_path / "warning.yaml",
                     b"hopsim: 1\nsimulation: {end_time: 1}\ncaf\xe9: 1\n")
    loaded = hopsim.load(str(scenario))
    assert loaded.warnings == [f"{scenario}:3:7: unknown key 'caf{REPLACEMENT}' ignored"]


def test_a_path_of_bytes_that_are_not_utf8_loads_and_is_named_in_messages(tmp_path):
    latin1 = os.fsencode(tmp_path) + b"/caf\xe9.yaml"
    expected = f"cannot read '{tmp_path}/caf{REPLACEMENT}.yaml': No such file or directory"
    for path in (latin1, os.fsdecode(latin1)):  # bytes, or str with the byte escaped
        with pytest.raises(hopsim.InputError) as raised:
            hopsim.load(path)
        assert str(raised.value) == expected
    with open(latin1, "wb") as f:
        f.write(b"hopsim: 1\nsimulation: {end_time: 1}\nsignal: {}\n")
    loaded = hopsim.load(os.fsdecode(latin1))
    assert loaded.warnings == [f"{tmp_path}/caf{REPLACEMENT}.yaml:3:9: unknown key 'signal' "
                               "ignored (did you mean 'signals'?)"]


def test_a_checkpoint_error_quoting_such_bytes_keeps_its_message(tmp_path):
    sim = hopsim.Simulation()
    sim.lock()
    checkpoint = write(tmp_path / "bad.ckpt", b"hopsim-checkpoint\xff 7\n")
    with pytest.raises(hopsim.InputError) as raised:
        sim.restore_checkpoint(checkpoint)
    # The checkpoint reader shows a byte that is not printable ASCII escaped.
    assert str(raised.value) == (f"checkpoint '{checkpoint}' line 1: expected "
                                 "'hopsim-checkpoint', found 'hopsim-checkpoint\\xff'")
    # A path given as str with the bytes escaped (os.fsdecode) names the file the same way.
    missing = os.fsdecode(os.fsencode(tmp_path) + b"/\xff.ckpt")
    with pytest.raises(hopsim.InputError, match=f"^cannot read '.*/{REPLACEMENT}\\.ckpt': No "
                                                "such file or directory$"):
        sim.restore_checkpoint(missing)


@pytest.mark.parametrize("special", ["/dev/zero", "directory"])
def test_special_files_are_refused_before_reading(tmp_path, special):
    path = str(tmp_path) if special == "directory" else special
    kind = "a directory" if special == "directory" else "a character device"
    with pytest.raises(hopsim.InputError,
                       match=f"^cannot read '{re.escape(path)}': not a regular file "
                             f"\\({kind}\\)$"):
        hopsim.load(path)
    sim = hopsim.Simulation()
    sim.lock()
    with pytest.raises(hopsim.InputError, match=f"not a regular file \\({kind}\\)$"):
        sim.restore_checkpoint(path)
