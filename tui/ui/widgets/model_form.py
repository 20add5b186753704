"""A form built from a pydantic model: one row per field, inline errors, values back as a dict.

Field metadata comes from `Field(json_schema_extra={"label", "widget", "placeholder"})`; the
widget follows the annotation: bool → checkbox, list[str] → comma-separated input, "select" →
Select and "multiselect" → SelectionList (choices loaded by the caller), "multiline" → TextArea
(the one place a newline is typed), "keyvalue" → TextArea of `key=value` lines (a dict, parsed by
the field's type), anything else → one-line input. Validation stays in the model; this widget
only collects values and shows the messages it is given.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, ValidationError
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, Static
from .line_input import LineInput


def _is_bool(annotation: Any) -> bool:
    return annotation is bool


def _is_list(annotation: Any) -> bool:
    return typing.get_origin(annotation) is list


def _is_dict(annotation: Any) -> bool:
    return typing.get_origin(annotation) is dict or annotation is dict


def _is_int(annotation: Any) -> bool:
    return annotation is int or int in typing.get_args(annotation)


def errors_by_field(exc: ValidationError, model: type[BaseModel] | None = None) -> dict[str, str]:
    """One message per field, in the words a form shows: the rule broken ("at most 255
    characters", "from 1 to 720"), never pydantic's own sentence. A value not matching its field's
    pattern is told with the field's `rule` (its metadata), else with its example (placeholder)."""
    out: dict[str, str] = {}
    for err in exc.errors():
        name = str(err["loc"][0]) if err["loc"] else "_form"
        out.setdefault(name, _message(err, _meta(model, name)))
    return out


def _meta(model: type[BaseModel] | None, name: str) -> dict[str, Any]:
    info = model.model_fields.get(name) if model is not None else None
    extra = info.json_schema_extra if info is not None else None
    return extra if isinstance(extra, dict) else {}


_RULES = {  # pydantic error type → the rule as a form says it, from the error's context
    "string_too_long": "at most {max_length} characters",
    "string_too_short": "at least {min_length} characters",
    "too_long": "at most {max_length} items",
    "too_short": "at least {min_length} items",
    "greater_than_equal": "at least {ge}",
    "greater_than": "more than {gt}",
    "less_than_equal": "at most {le}",
    "less_than": "less than {lt}",
    "literal_error": "one of {expected}",
    "enum": "one of {expected}",
}
_PLAIN = {
    "int_parsing": "a whole number", "int_from_float": "a whole number", "int_type": "a whole number",
    "float_parsing": "a number", "float_type": "a number", "bool_parsing": "yes or no", "bool_type": "yes or no",
    "uuid_parsing": "a UUID, such as 3f2d1c0b-aaaa-4bbb-8ccc-123456789abc", "list_type": "a list, comma-separated",
    "string_type": "text", "finite_number": "a finite number",
}


def _message(err: Any, meta: dict[str, Any]) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "missing" or (kind == "string_too_short" and ctx.get("min_length") == 1):
        return "required"
    if kind == "string_pattern_mismatch":
        if meta.get("rule"):
            return str(meta["rule"])
        return f"not in the expected form, such as {meta['placeholder']}" if meta.get("placeholder") else "not in the expected form"
    if kind in _RULES:
        try:
            return _RULES[kind].format(**ctx)
        except (KeyError, IndexError, ValueError):
            pass
    if kind in _PLAIN:
        return _PLAIN[kind]
    return str(err["msg"]).removeprefix("Value error, ")


def form_values(model: type[BaseModel], raw: dict[str, Any]) -> dict[str, Any]:
    """What a form sends its model, from what its controls hold (`raw`: a checkbox's bool, a
    select's value, an input's text): lists split on commas, empty text left out (an optional
    number: None), an unticked checkbox False — so a rule on a default still runs."""
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if _is_bool(info.annotation):
            out[name] = bool(raw.get(name, info.default if isinstance(info.default, bool) else False))
        elif name not in raw:
            continue
        elif not isinstance(raw[name], str):
            out[name] = raw[name]
        else:
            text = raw[name].strip()
            if _is_dict(info.annotation):  # key=value lines: the field's type parses them
                out[name] = text
            elif _is_list(info.annotation):
                out[name] = [t.strip() for t in text.split(",") if t.strip()]
            elif text:
                out[name] = text
            elif not info.is_required() and _is_int(info.annotation):
                out[name] = None
    return out


class Tick(Checkbox):
    """A checkbox whose mark is visible without colour (NO_COLOR): X when on, blank when off."""

    @property  # type: ignore[override]
    def BUTTON_INNER(self) -> str:  # noqa: N802 - Textual's name
        return "X" if self.value else " "


class ModelForm(Vertical):
    DEFAULT_CSS = """
    ModelForm { height: auto; }
    ModelForm .form-row { height: auto; }
    ModelForm .form-label { width: 16; padding: 0 1 0 0; }
    ModelForm .form-control { width: 1fr; }
    ModelForm .form-error { color: $error; padding-left: 16; height: auto; display: none; }
    ModelForm .form-error.-shown { display: block; }
    ModelForm .form-hint { color: $text-muted; padding-left: 16; height: auto; }
    ModelForm .form-text { height: 5; }
    ModelForm SelectionList.form-control { height: auto; max-height: 8; }
    """

    TEXT_WIDGETS = ("multiline", "keyvalue")  # newlines allowed, nowhere else

    def __init__(self, model: type[BaseModel], initial: dict[str, Any] | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.initial = initial or {}
        self.touched: set[str] = set()
        self.choices: dict[str, list[tuple[str, Any]]] = {}  # each select's (label, value) as offered

    def _meta(self, name: str) -> dict[str, Any]:
        extra = self.model.model_fields[name].json_schema_extra
        return extra if isinstance(extra, dict) else {}

    def compose(self) -> ComposeResult:
        for name, info in self.model.model_fields.items():
            meta = self._meta(name)
            label = str(meta.get("label") or name.replace("_", " ").capitalize())
            value = self.initial[name] if name in self.initial else (None if info.is_required() else info.get_default(call_default_factory=True))
            control: Widget
            if _is_bool(info.annotation):
                control = Tick(label, bool(value), compact=True, id=f"f-{name}", classes="form-control")
                label = ""
            elif meta.get("widget") == "select":
                control = Select([], prompt="loading…", compact=True, id=f"f-{name}", classes="form-control")
            elif meta.get("widget") == "multiselect":  # (imported here: ~90 ms with TextArea, paid by forms that use them)
                from textual.widgets import SelectionList

                control = SelectionList[Any](id=f"f-{name}", classes="form-control", compact=True)
            elif meta.get("widget") in self.TEXT_WIDGETS:
                from textual.widgets import TextArea

                if isinstance(value, dict):
                    value = "\n".join(f"{k}={v}" for k, v in value.items())
                control = TextArea("" if value is None else str(value), soft_wrap=True, tab_behavior="focus", compact=True,
                                   placeholder=str(meta.get("placeholder", "")), id=f"f-{name}", classes="form-control form-text")
            elif meta.get("widget") == "password":  # never echoed; its strength shown as it is typed
                control = LineInput("", placeholder=str(meta.get("placeholder", "")), password=True, compact=True, id=f"f-{name}", classes="form-control")
            else:
                text = ", ".join(value) if isinstance(value, list) else ("" if value is None else str(value))
                control = LineInput(text, placeholder=str(meta.get("placeholder", "")), compact=True, id=f"f-{name}", classes="form-control")
            with Horizontal(classes="form-row"):
                yield Label(label, classes="form-label")
                yield control
            yield Static("", id=f"e-{name}", classes="form-error", markup=False)
            if meta.get("widget") == "password":
                yield Static("", id=f"h-{name}", classes="form-hint", markup=False)

    def on_input_changed(self, event: Input.Changed) -> None:
        name = self.field_of(event.input)
        if name and name in self.model.model_fields and self._meta(name).get("widget") == "password":
            from ...products.fields import password_strength

            self.query_one(f"#h-{name}", Static).update(password_strength(event.value))

    def multiline(self, name: str) -> bool:
        """Whether newlines belong in this field (a multi-line text or a key/value map)."""
        return name in self.model.model_fields and self._meta(name).get("widget") in self.TEXT_WIDGETS

    def set_choices(self, name: str, choices: list[tuple[str, Any]]) -> None:
        self.choices[name] = [(str(label), value) for label, value in choices]
        info = self.model.model_fields[name]
        wanted = self.initial[name] if name in self.initial else (None if info.is_required() else info.get_default(call_default_factory=True))
        control = self.query_one(f"#f-{name}")
        if self._meta(name).get("widget") == "multiselect":  # several values: those the form opened with are ticked
            control.clear_options()  # type: ignore[attr-defined]
            control.add_options([(label if isinstance(label, Text) else Text(str(label)), value, value in (wanted or [])) for label, value in choices])  # type: ignore[attr-defined]
            if choices:  # space ticks the highlighted one: the first, until the cursor moves
                control.highlighted = 0  # type: ignore[attr-defined]
            return
        select = control if isinstance(control, Select) else self.query_one(f"#f-{name}", Select)
        select.set_options([(label if isinstance(label, Text) else Text(str(label)), value) for label, value in choices])
        select.prompt = "choose…" if choices else "none available"
        values = [v for _, v in choices]
        if wanted in values:
            select.value = wanted
        elif wanted is None and choices and not info.is_required():
            select.value = choices[0][1]

    def values(self) -> dict[str, Any]:
        raw: dict[str, Any] = {}
        for name in self.model.model_fields:
            control = self.query_one(f"#f-{name}")
            if isinstance(control, Checkbox):
                raw[name] = control.value
            elif isinstance(control, Select):
                if not control.is_blank():
                    raw[name] = control.value
            elif self._meta(name).get("widget") == "multiselect":
                raw[name] = list(control.selected)  # type: ignore[attr-defined]
            elif self.multiline(name):
                raw[name] = control.text  # type: ignore[attr-defined]
            elif isinstance(control, Input):
                raw[name] = control.value
        return form_values(self.model, raw)

    def show_errors(self, errors: dict[str, str], only_touched: bool = False) -> None:
        for name in self.model.model_fields:
            box = self.query_one(f"#e-{name}", Static)
            msg = errors.get(name, "")
            if only_touched and name not in self.touched:
                msg = ""
            box.update(f"✖ {msg}" if msg else "")
            box.set_class(bool(msg), "-shown")

    def label_of(self, name: str) -> str:
        if name not in self.model.model_fields:
            return name
        return str(self._meta(name).get("label") or name.replace("_", " ").capitalize())

    def focus_field(self, name: str) -> None:
        try:
            self.query_one(f"#f-{name}").focus()
        except Exception:
            pass

    def field_of(self, widget: Widget) -> str | None:
        wid = widget.id or ""
        return wid[2:] if wid.startswith("f-") else None
