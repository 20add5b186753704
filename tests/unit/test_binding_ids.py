"""Every key of the console has an id, for the config's [keymap]; within one place each id is one
binding's (two keys of one id would fight over a remap); the same meaning has the same id everywhere."""

from __future__ import annotations

from collections import Counter

from tui.ui.keymap import _bindings, _places, problems


def test_every_binding_has_an_id_once_per_place_and_delete_is_one_id_wherever_it_deletes():
    places = _places()
    assert len(places) > 20
    for cls in places:
        own = cls.__dict__["BINDINGS"]
        assert all(b.id and b.id.replace("_", "").isalnum() for b in own), cls.__name__  # one style: page_up
        twice = [i for i, n in Counter(b.id for b in own).items() if n > 1]
        assert not twice, (cls.__name__, twice)
    deleting = {cls.__name__ for cls in places for b in _bindings(cls) if b.id == "delete"}
    assert {"ResourceView", "DetailScreen", "RecordListScreen"} <= deleting
    assert problems({}) == ""


def test_a_keymap_with_modifier_keys_is_checked_too():
    said = problems({"watch": "ctrl+t", "refresh": "c", "frobnicate": "f"})
    assert "no key has the id 'frobnicate'" in said and "refresh → c is also create (ResourceView)" in said


def test_hints_name_the_key_in_force_once_a_binding_is_moved():
    from tui.ui.keymap import moved, said_with

    keys = moved({"refresh": "ctrl+r", "delete": "d"})  # d is delete's own key: nothing moves
    assert keys == {"r": "ctrl+r"}
    assert said_with("look before trying again: refresh (r)", keys) == "look before trying again: refresh (ctrl+r)"
    assert said_with("look (r refreshes); (rb) stays", keys) == "look (ctrl+r refreshes); (rb) stays"


def test_a_keymap_id_written_with_dashes_is_the_same_id():
    from tui.config import config_path, resolve

    config_path().write_text('[keymap]\npage-up = "ctrl+b"\nmark_all = "A"\n')
    assert resolve({}).keymap == {"page_up": "ctrl+b", "mark_all": "A"}


def test_many_keymap_problems_are_one_line_with_a_count_and_each_in_the_log(caplog):
    from tui.ui.keymap import problems

    said = problems({f"nope_{i}": "x" for i in range(10_000)})
    assert said.startswith("Keymap: 10,000 problems, the first: no key has the id 'nope_0'") and len(said) < 300
    assert sum("keymap: no key has the id" in r.getMessage() for r in caplog.records) == 10_000
