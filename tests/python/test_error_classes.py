"""Errors reach Python as the built-in exceptions scripts expect, with the C++ messages intact.

The expected messages are the ones the C++ unit tests and docs/architecture.md pin for the same
mistakes (tests/unit/signals/test_variable_tree.cpp, tests/unit/core/test_model_spec.cpp).
"""

import pytest

import hopsim


@pytest.fixture
def sim():
    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("lander.thrust")
    sim.add_signal("lander.mode", "int")
    sim.add_model("Gain", "gain", {"k": 2.0})
    return sim


def test_an_unknown_path_is_a_key_error_with_the_cpp_message(sim):
    with pytest.raises(KeyError) as raised:
        sim.get("signals.lander.thrst")
    assert isinstance(raised.value, hopsim.NotFoundError)
    assert isinstance(raised.value, hopsim.InputError)
    # str() is the message itself, without the quotes KeyError adds to its argument.
    assert str(raised.value) == "no variable 'signals.lander.thrst' (did you mean " \
                                "'signals.lander.thrust'?)"


def test_unknown_model_signal_and_class_names_are_key_errors(sim):
    with pytest.raises(KeyError, match=r"^no model 'gian' \(did you mean 'gain'\?\)$"):
        sim.model_spec("gian")
    with pytest.raises(KeyError, match=r"^no signal 'lander\.thrst'"):
        sim.tie("gain", "u", "lander.thrst")
    with pytest.raises(KeyError, match=r"^no model class 'Gian' is registered \(did you mean "
                                       r"'Gain'"):
        sim.add_model("Gian", "g2")


def test_a_value_of_the_wrong_type_is_a_type_error(sim):
    with pytest.raises(TypeError) as raised:
        sim.set("signals.lander.thrust", "full")
    assert isinstance(raised.value, hopsim.TypeMismatchError)
    assert str(raised.value) == 'signals.lander.thrust: expected double but got string "full"'


def test_a_value_out_of_bounds_or_of_the_wrong_length_is_a_value_error(sim):
    sim.add_model("MassSpringDamper", "msd")
    with pytest.raises(ValueError) as raised:
        sim.set("models.msd.params.m", -1.0)
    assert type(raised.value) is hopsim.InputError
    assert str(raised.value) == "models.msd.params.m: value -1 is below the lower bound 0 kg"
    with pytest.raises(ValueError, match=r"expected double but got double\[2\]"):
        sim.set("signals.lander.thrust", [1.0, 2.0])
    with pytest.raises(ValueError, match="not a whole number"):
        sim.set("signals.lander.mode", 1.5)


def test_hopsim_errors_are_still_caught_as_hopsim_errors(sim):
    for action in (lambda: sim.get("signals.nothing"),
                   lambda: sim.set("signals.lander.thrust", "x"),
                   lambda: sim.set("signals.lander.mode", 0.5)):
        with pytest.raises(hopsim.Error):
            action()
