"""A form built from a pydantic model: one row per field, inline errors, values back as a dict.

Field metadata comes from `Field(json_schema_extra={"label", "widget", "placeholder"})`
(`placeholder_by=(field, {value: placeholder})`: the example follows another field's choice); the
widget follows the annotation: bool → checkbox, list[str] → comma-separated input, "select" →
Select and "multiselect" → SelectionList (choices loaded by the caller), "multiline" → TextArea
(the one place a newline is typed), "keyvalue" → TextArea of `key=value` lines (a dict, parsed by
the field's type), a nested model → its fields under its label, an "exactly one of" field (a
union of models told apart by a `Literal` discriminator) → a select of the variants and the chosen
one's fields; anything else → one-line input. A field is addressed by its path (`check.http.code`:
pydantic's error location, the variant's tag included), its widgets by the path with `--` for dots.
Validation stays in the model; this widget only collects values and shows the messages it is given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, Static

from .form_fields import (  # noqa: F401  (re-exported)
    errors_by_field,
    field_meta,
    field_paths,
    form_values,
    info_at,
    is_bool,
    submodel,
    texts,
    variants,
    widget_id,
)
from .line_input import LineInput

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo

    from .form_fields import Skipped


AGAIN = "#again"  # an error of a password's second entry: `<path>#again`


PLACEHOLDER_FITS = 50  # cells of an example shown whole inside a field (a dialog's field is ~54 wide)


class Tick(Checkbox):
    """A checkbox whose mark is visible without colour (NO_COLOR): X when on, blank when off."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802 - Textual's name (a class attribute there)
        return "X" if self.value else " "


class ModelForm(Vertical):
    DEFAULT_CSS = """
    ModelForm { height: auto; }
    ModelForm .form-row { height: auto; }
    ModelForm .form-label { width: 16; padding: 0 1 0 0; }
    ModelForm .form-group { text-style: bold; padding: 0 0 0 0; }
    ModelForm .form-nested { height: auto; padding-left: 2; }
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
        self.paths = field_paths(model)  # every field shown, by path (nested: "check.http.code")
        self.examples: dict[
            str, list[tuple[str, dict[object, str], str]]
        ] = {}  # a select's path: (field, by value, else)

    def field_meta(self, name: str) -> dict[str, Any]:
        return field_meta(self.model, name)

    def _initial_at(self, path: str) -> Any:
        """The value the form opens with at `path` (a variant's tag skipped, as values are)."""
        value: object = self.initial
        model: type[BaseModel] | None = self.model
        parts = path.split(".")
        while parts:
            name = parts.pop(0)
            info = model.model_fields.get(name) if model is not None else None
            if info is None:
                return None
            value = (
                value.get(name)
                if isinstance(value, dict) and name in value
                else (None if info.is_required() else info.get_default(call_default_factory=True))
            )
            kinds = variants(info)
            model = submodel(info.annotation) or (kinds.get(parts.pop(0)) if kinds is not None and parts else None)
        return value.model_dump() if isinstance(value, BaseModel) else value

    def compose(self) -> ComposeResult:
        yield from self._rows(self.model, "")

    def _rows(self, model: type[BaseModel], prefix: str, skip: Skipped = None) -> ComposeResult:
        for name, info in model.model_fields.items():
            if name == skip:
                continue
            path = prefix + name
            meta = field_meta(model, name)
            label = str(meta.get("label") or name.replace("_", " ").capitalize())
            sub, kinds = submodel(info.annotation), variants(info)
            if sub is not None:  # a nested form: its fields under its label
                yield Label(label, classes="form-group")
                with Vertical(classes="form-nested"):
                    yield from self._rows(sub, path + ".")
                continue
            if kinds is not None:  # exactly one of: pick the variant, fill its own fields
                chosen = (self._initial_at(path) or {}).get(info.discriminator) or next(iter(kinds))
                options = [(Text(str(m.model_config.get("title") or tag)), tag) for tag, m in kinds.items()]
                with Horizontal(classes="form-row"):
                    yield Label(label, classes="form-label")
                    yield Select(
                        options,
                        value=chosen,
                        allow_blank=False,
                        compact=True,
                        id=f"f-{widget_id(path)}",
                        classes="form-control",
                    )
                yield Static("", id=f"e-{widget_id(path)}", classes="form-error", markup=False)
                for tag, member in kinds.items():
                    box = Vertical(classes="form-nested", id=f"v-{widget_id(path)}--{tag}")
                    box.display = tag == chosen
                    with box:
                        yield from self._rows(member, f"{path}.{tag}.", skip=info.discriminator)
                continue
            yield from self._leaf(path, info, meta, label)

    def _placeholder(self, path: str, meta: dict[str, Any]) -> str:
        """The field's example: its own, or the one for the value the field it follows opens with."""
        default = str(meta.get("placeholder", ""))
        if not meta.get("placeholder_by"):
            return default
        source, by = meta["placeholder_by"]
        source = path.rpartition(".")[0] + "." + source if "." in path else source
        self.examples.setdefault(source, []).append((path, by, default))
        return str(by.get(self._initial_at(source), default))

    def _leaf(self, path: str, info: FieldInfo, meta: dict[str, Any], label: str) -> ComposeResult:
        value = self._initial_at(path)
        meta = {**meta, "placeholder": self._placeholder(path, meta)}
        if len(meta["placeholder"]) > PLACEHOLDER_FITS and not meta.get("placeholder_by"):
            # cut with a mark in the field, said whole below it (a field is ~54 cells wide in a dialog)
            meta = {
                **meta,
                "hint": meta.get("hint") or meta["placeholder"],
                "placeholder": meta["placeholder"][: PLACEHOLDER_FITS - 1] + "…",
            }
        wid = f"f-{widget_id(path)}"
        control: Widget
        if is_bool(info.annotation):
            control = Tick(label, bool(value), compact=True, id=wid, classes="form-control")
            label = ""
        elif meta.get("widget") == "select":
            control = Select([], prompt="loading…", compact=True, id=wid, classes="form-control")
        elif meta.get("widget") == "multiselect":  # (imported here: ~90 ms with TextArea, paid by forms that use them)
            from .tick_list import TickList

            control = TickList(id=wid, classes="form-control", compact=True)
        elif meta.get("widget") in self.TEXT_WIDGETS:
            from .text_input import LinesInput

            if isinstance(value, dict):
                value = "\n".join(f"{k}={v}" for k, v in value.items())
            control = LinesInput(
                "" if value is None else str(value),
                soft_wrap=True,
                tab_behavior="focus",
                compact=True,
                placeholder=str(meta.get("placeholder", "")),
                id=wid,
                classes="form-control form-text",
            )
        elif meta.get("widget") in (
            "password",
            "secret",
        ):  # never echoed (a password's strength is shown as it is typed)
            control = LineInput(
                "",
                placeholder=str(meta.get("placeholder", "")),
                password=True,
                compact=True,
                id=wid,
                classes="form-control",
            )
        else:
            text = ", ".join(value) if isinstance(value, list) else ("" if value is None else str(value))
            control = LineInput(
                text, placeholder=str(meta.get("placeholder", "")), compact=True, id=wid, classes="form-control"
            )
        with Horizontal(classes="form-row"):
            yield Label(label, classes="form-label")
            yield control
        yield Static("", id=f"e-{widget_id(path)}", classes="form-error", markup=False)
        if meta.get("hint"):  # what a placeholder too long for the field would have said
            yield Static(str(meta["hint"]), classes="form-hint", markup=False)
        if meta.get("widget") == "password":
            yield Static("", id=f"h-{widget_id(path)}", classes="form-hint", markup=False)
            with Horizontal(classes="form-row"):  # typed twice: a typo would lock the operator out
                yield Label(f"{label} (again)", classes="form-label")
                yield LineInput(
                    "",
                    placeholder="the same, to be sure",
                    password=True,
                    compact=True,
                    id=f"a-{widget_id(path)}",
                    classes="form-control",
                )
            yield Static("", id=f"ea-{widget_id(path)}", classes="form-error", markup=False)

    def on_input_changed(self, event: Input.Changed) -> None:
        name = self.field_of(event.input)
        if name and self.field_meta(name).get("widget") == "password" and not (event.input.id or "").startswith("a-"):
            from ...products.kit.fields import password_strength

            self.query_one(f"#h-{widget_id(name)}", Static).update(password_strength(event.value))

    def on_select_changed(self, event: Select.Changed) -> None:
        """A variant picked: its fields shown, the others' hidden (kept, should it be picked again).
        A choice another field's example follows: that example changes with it."""
        path = self.field_of(event.select)
        for target, by, default in self.examples.get(str(path), ()):
            box: Any = self.query_one(f"#f-{widget_id(target)}")
            box.placeholder = str(by.get(event.value, default))
        info = info_at(self.model, path) if path else None
        kinds = variants(info) if info is not None else None
        if kinds:
            for tag in kinds:
                self.query_one(f"#v-{widget_id(str(path))}--{tag}").display = tag == event.value

    def multiline(self, name: str) -> bool:
        """Whether newlines belong in this field (a multi-line text or a key/value map)."""
        return self.field_meta(name).get("widget") in self.TEXT_WIDGETS

    def set_choices(self, name: str, choices: list[tuple[str, Any]]) -> None:
        self.choices[name] = [(str(label), value) for label, value in choices]
        info = info_at(self.model, name)
        wanted = self._initial_at(name)
        control = self.query_one(f"#f-{widget_id(name)}")
        if (
            self.field_meta(name).get("widget") == "multiselect"
        ):  # several values: those the form opened with are ticked (the control, queried by id, is a TickList)
            control.clear_options()  # type: ignore[attr-defined]
            control.add_options(  # type: ignore[attr-defined]
                [
                    (label if isinstance(label, Text) else Text(str(label)), value, value in (wanted or []))
                    for label, value in choices
                ]
            )
            if choices:  # space ticks the highlighted one: the first, until the cursor moves
                control.highlighted = 0  # type: ignore[attr-defined]
            return
        select = control if isinstance(control, Select) else self.query_one(f"#f-{widget_id(name)}", Select)
        select.set_options(
            [(label if isinstance(label, Text) else Text(str(label)), value) for label, value in choices]
        )
        select.prompt = "choose…" if choices else "none available"
        values = [v for _, v in choices]
        if wanted in values:
            select.value = wanted
        elif wanted is None and choices and info is not None and not info.is_required():
            select.value = choices[0][1]

    def values(self) -> dict[str, Any]:
        return form_values(self.model, self._collect(self.model, ""))

    def mismatched(self) -> list[str]:
        """The password fields whose second entry differs from the first (never sent: checked here),
        named `<path>#again`: the error is said under the second entry."""
        out = []
        for again in self.query(".form-control"):
            if again.id and again.id.startswith("a-") and isinstance(again, Input):
                first = self.query_one(f"#f-{again.id[2:]}", Input)
                if first.value != again.value:
                    out.append((self.field_of(first) or again.id[2:]) + AGAIN)
        return out

    def blank_choices(self) -> list[str]:
        """The choice fields set back to their blank ("choose…") that need a value: said as
        required, never filled by the model's default behind the operator's back."""
        out = []
        for control in self.query(Select):
            path = self.field_of(control)
            info = info_at(self.model, path) if path else None
            shown = all(
                getattr(node, "display", True) for node in control.ancestors_with_self
            )  # not a variant put aside
            if path and info is not None and shown and control.is_blank() and None not in _allowed(info):
                out.append(path)
        return out

    def _collect(self, model: type[BaseModel], prefix: str, skip: Skipped = None) -> dict[str, Any]:
        """What the controls under `prefix` hold, nested as the model is (the chosen variant only)."""
        raw: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            if name == skip:
                continue
            path = prefix + name
            sub, kinds = submodel(info.annotation), variants(info)
            if sub is not None:
                raw[name] = form_values(sub, self._collect(sub, path + "."))
                continue
            control = self.query_one(f"#f-{widget_id(path)}")  # (by id: the field's widget, told apart below)
            if kinds is not None:
                tag = str(control.value)  # type: ignore[attr-defined]  # (a Select of the variants)
                raw[name] = {
                    info.discriminator: tag,
                    **form_values(kinds[tag], self._collect(kinds[tag], f"{path}.{tag}.", info.discriminator)),
                }
            elif isinstance(control, Checkbox):
                raw[name] = control.value
            elif isinstance(control, Select):
                if not control.is_blank():
                    raw[name] = control.value
            elif self.field_meta(path).get("widget") == "multiselect":
                raw[name] = list(control.selected)  # type: ignore[attr-defined]  # (a TickList)
            elif self.multiline(path):
                raw[name] = control.text  # type: ignore[attr-defined]  # (a LinesInput)
            elif isinstance(control, Input):
                raw[name] = control.value
        return raw

    def texts(self, values: dict[str, Any]) -> list[tuple[str, str]]:
        """Every text in the form's values, with the path of the field holding it (`form_fields.texts`)."""
        return texts(self.model, values)

    def show_errors(self, errors: dict[str, str], only_touched: bool = False) -> None:
        """Each field's error under it. One walk finds the boxes (not one per field: this runs at every
        key typed), and a box is redrawn only when its message changes (each redraw is a layout)."""
        boxes = {box.id: box for box in self.query(".form-error").results(Static) if box.id}
        for name in self.paths:
            quiet = only_touched and name not in self.touched
            for box_id, key in ((f"e-{widget_id(name)}", name), (f"ea-{widget_id(name)}", name + AGAIN)):
                box = boxes.get(box_id)  # ea-: a password's second entry
                if box is not None:
                    msg = "" if quiet else errors.get(key, "")
                    if getattr(box, "said", "") != msg:  # (each box starts empty)
                        box.said = msg  # type: ignore[attr-defined]  # (the box's message, kept on it)
                        box.update(f"✖ {msg}" if msg else "")
                        box.set_class(bool(msg), "-shown")

    def label_of(self, name: str) -> str:
        """A field as the operator reads it: its label, after its parents' ("Health check › Port")."""
        if name.endswith(AGAIN):
            return self.label_of(name[: -len(AGAIN)]) + " (again)"
        model: type[BaseModel] | None
        labels, model, parts = [], self.model, name.split(".")
        while parts and model is not None:
            part = parts.pop(0)
            info = model.model_fields.get(part)
            if info is None:
                return name
            extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
            labels.append(str(extra.get("label") or part.replace("_", " ").capitalize()))
            kinds = variants(info)
            model = submodel(info.annotation) or (kinds.get(parts.pop(0)) if kinds is not None and parts else None)
        return " › ".join(labels)

    def focus_field(self, name: str) -> None:
        try:
            self.query_one(
                f"#a-{widget_id(name[: -len(AGAIN)])}" if name.endswith(AGAIN) else f"#f-{widget_id(name)}"
            ).focus()
        except Exception:
            pass

    def field_of(self, widget: Widget) -> str | None:
        wid = widget.id or ""
        return wid[2:].replace("--", ".") if wid.startswith(("f-", "a-")) else None  # a-: a password typed again


def _allowed(info: FieldInfo) -> tuple[Any, ...]:
    """The types a field takes (`str | None` → (str, NoneType) → None is allowed)."""
    import typing

    args = typing.get_args(info.annotation)
    return tuple(None if a is type(None) else a for a in args) if args else (info.annotation,)
