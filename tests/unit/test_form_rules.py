"""Every form's messages are the console's words, and two rules that need more than a field's message
(the per-product rules are in test_form_rules_data/compute/network.py, on tests/form_rules.py)."""

from __future__ import annotations

import importlib

import pytest
from pydantic import BaseModel

from form_rules import errors
from tui.products.kit.base import Context
from tui.sandbox import DEMO_PROJECT_ID


def _form_models() -> list[type[BaseModel]]:
    import inspect
    import pkgutil

    import tui.products as products

    found = []
    for info in pkgutil.walk_packages(products.__path__, "tui.products."):
        if ".models" in info.name or info.name.endswith((".manifest", ".catalogue")):
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, BaseModel)
                and cls.__module__ == module.__name__
                and cls.model_config.get("extra") == "forbid"
            ):
                found.append(cls)
    return found


@pytest.mark.parametrize("model", _form_models(), ids=lambda m: f"{m.__module__.split('.', 2)[2]}.{m.__name__}")
def test_every_message_states_a_rule_not_pydantic_words(model):
    """Whatever is typed in any field of any form, the message under it is in the console's words
    ("at most 255 characters", "a whole number", "required"), never pydantic's sentence."""
    for typed in ("x" * 300, "-5", "99999999999", "not a value ✖", ""):
        found = errors(model, {name: typed for name in model.model_fields if not _is_bool(model, name)}, None)
        for field, message in found.items():
            assert not any(w in message for w in ("should", "Input", "String", "Value error", "pattern")), (
                field,
                typed,
                message,
            )


def _is_bool(model: type[BaseModel], name: str) -> bool:
    return model.model_fields[name].annotation is bool


def test_a_first_port_out_of_range_is_the_one_error_of_a_port_range():
    from pydantic import ValidationError

    from tui.products.instance.network_forms import RuleForm

    with pytest.raises(ValidationError) as caught:
        RuleForm.model_validate(
            {"ip_range": "0.0.0.0/0", "protocol": "TCP", "dest_port_from": 70000, "dest_port_to": 70010}
        )
    assert [e["loc"] for e in caught.value.errors()] == [
        ("dest_port_from",),
        ("dest_port_to",),
    ]  # each out of range, said once each
    with pytest.raises(ValidationError) as caught:
        RuleForm.model_validate(
            {"ip_range": "0.0.0.0/0", "protocol": "TCP", "dest_port_from": 70000, "dest_port_to": 80}
        )
    assert [(e["loc"], e["msg"]) for e in caught.value.errors()] == [
        (("dest_port_from",), "Value error, between 1 and 65535")
    ]


def test_a_new_frontend_sends_the_protocol_chosen_and_an_edit_leaves_it():
    from tui.products.lb.forms import FRONTEND_CREATE, FRONTEND_EDIT

    form = FRONTEND_CREATE.form_model.model_validate(
        {"name": "web", "inbound_port": 80, "backend_id": "b1", "inbound_protocol": "http"}
    )
    assert (
        FRONTEND_CREATE.to_payload(form, Context(DEMO_PROJECT_ID, "fr-par"))["inbound_protocol"] == "http"
    )  # spec 3 §2.3
    assert (
        "inbound_protocol" not in FRONTEND_EDIT.form_model.model_fields
    )  # a creation field: the update does not carry it


def test_tags_of_several_resources_add_or_remove_one_at_least_and_never_both():
    from tui.products.kit.vocabulary import TagChange

    assert errors(TagChange, {"add": "web, prod", "remove": ""}, None) == {}
    assert "both added and removed" in " ".join(errors(TagChange, {"add": "web", "remove": "web, old"}, None).values())
    assert "Give a tag" in " ".join(errors(TagChange, {"add": "", "remove": ""}, None).values())
