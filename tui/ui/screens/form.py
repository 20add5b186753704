"""A modal form for create and edit: choices loaded in a worker, inline validation, keeps input on failure."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from pydantic import BaseModel, ValidationError
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Select, Static

from ...api.errors import ApiError, OutcomeUnknown
from ...api.safe import has_control
from ...products.kit.base import Choices
from ...products.kit.flows import StepCancelled
from ...products.kit.writes import Looked
from .. import styles
from ..console_app import console_of
from ..errors import describe, log_shown
from ..widgets.dialog_title import DialogTitle
from ..widgets.model_form import ModelForm, errors_by_field

if TYPE_CHECKING:
    from textual.widget import Widget
    from textual.widgets import SelectionList, TextArea

Submit = Callable[[BaseModel, dict[str, Any]], Awaitable[Any]]
Loader = Callable[[], Awaitable[tuple[Choices, dict[str, Any]]]]


class FormScreen(ModalScreen[tuple[Any, BaseModel] | None]):
    """Dismisses with (result of submit, validated form) or None when cancelled."""

    CSS_PATH = styles.DIALOGS
    TYPE_AHEAD = True  # keys typed before it focuses a field wait for it (ui/typeahead.py)
    # the first field as the form is built (Textual's own pick, the scrolling body, took the keys typed ahead
    # when the form was opened by an action's worker, before `on_mount` focused the field)
    AUTO_FOCUS = ".form-control"

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="cancel"),
        Binding("ctrl+s", "submit", "Submit", id="send"),
    ]

    def __init__(
        self,
        title: str,
        model: type[BaseModel],
        submit: Submit,
        *,
        initial: dict[str, Any] | None = None,
        loader: Loader | None = None,
        submit_label: str = "Create",
        field_map: dict[str, str] | None = None,
        lost_closes: bool = False,
    ) -> None:
        super().__init__()
        self.lost_closes = lost_closes  # an answer lost closes the form with the error (a flow looks, then says)
        self.title_text = title
        self.model = model
        self.submit_fn = submit
        self.initial = initial or {}
        self.loader = loader
        self.submit_label = submit_label
        self.field_map = field_map or {}
        self.context: dict[str, Any] = {}
        self.ready = loader is None
        self.busy = False
        self._pristine: dict[str, Any] | None = None  # the values as the form opened: esc asks before dropping others
        self._fixing = False  # a submit was refused: the status follows the fields as they are fixed
        self._said_ready = False  # the status says "Ready": a field broken after it must not leave it so
        self._lost: dict[str, Any] | None = None  # the values last sent when their answer was lost (a look followed)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="form"):
            yield DialogTitle(self.title_text)
            with VerticalScroll(id="form-body"):
                yield ModelForm(self.model, self.initial, id="model-form")
            yield Static("Loading choices…" if self.loader else "", id="form-status", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(f"{self.submit_label} (ctrl+s)", id="submit", variant="primary", disabled=not self.ready)

    @property
    def form(self) -> ModelForm:
        return self.query_one(ModelForm)

    def on_mount(self) -> None:
        self.form.focus_field(self.form.paths[0])
        self._pristine = self.form.values()  # keys typed while choices load are input too
        if self.loader:
            self.holds_key = self._choice_keys_wait  # (the type-ahead asks it only while the choices load)
            self._load()

    def _choice_keys_wait(self, key: str) -> bool:
        """While the choices load, keys for a choice list wait for them: `enter down down enter` typed
        ahead picks what it picks on the loaded list (the empty one lost or shifted them)."""
        focused = self.app.focused
        if self.ready or focused is None:
            return False
        return any(isinstance(node, Select) for node in (focused, *focused.ancestors))

    def _choices_settled(self) -> None:
        self.__dict__.pop("holds_key", None)
        console = console_of(self)
        if console is not None:
            console.type_ahead.ready()  # keys held for a choice list go to it now

    @work(exclusive=True, group="form-load", exit_on_error=False)
    async def _load(self) -> None:
        assert self.loader is not None
        try:
            choices, context = await self.loader()
        except Exception as err:
            summary, hint = describe(err)
            self._status(f"✖ Could not load the choices: {summary}. {hint} Esc to close.", error=True)
            self._choices_settled()
            return
        self.context = context
        for name, options in choices.items():
            if name in self.form.paths:
                self.form.set_choices(name, options)
        self.ready = True
        self.query_one("#submit", Button).disabled = False
        self._status("")
        now, pristine = self.form.values(), copy.deepcopy(self._pristine or {})
        for name in choices:  # a choice list filled (and its default picked) is not input, nested ones too
            _as_now(pristine, now, name.split("."))
        self._pristine = pristine
        self._choices_settled()

    def _status(self, text: str, error: bool = False) -> None:
        self._said_ready = False  # (the ready line sets it again after)
        status = self.query_one("#form-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    # ---- validation ---------------------------------------------------------------------------
    def _validate(self) -> tuple[BaseModel | None, dict[str, str]]:
        values = self.form.values()
        try:
            form, errors = self.model.model_validate(values, context=self.context or None), {}
        except ValidationError as exc:
            form, errors = None, errors_by_field(exc, self.model)
        # Every form, every text field: no control characters (a pasted escape would reach the
        # platform and, from there, someone's terminal).
        for name, text in self.form.texts(values):
            lines = self.form.multiline(name)  # newlines belong here; any other control character does not
            if has_control(text.replace("\n", "") if lines else text):
                errors[name] = (
                    "control characters (escape, tab…) are not allowed"
                    if lines
                    else "control characters (escape, tab, new line…) are not allowed"
                )
                form = None
        for name in self.form.blank_choices():
            errors.setdefault(name, "required: choose one")
            form = None
        for name in self.form.mismatched():
            errors.setdefault(name, "the two entries differ: type the same password again")
            form = None
        return form, errors

    def _changed(self, widget: Widget) -> None:
        name = self.form.field_of(widget)
        if name is None or not self.ready:
            return
        self.form.touched.add(name)
        _, errors = self._validate()
        self.form.show_errors(errors, only_touched=True)
        if self._fixing or (self._said_ready and errors):  # "Ready" said, then a field broken again
            self._fixing = True
            self._fix_status(errors)

    def _fix_status(self, errors: dict[str, str]) -> None:
        if errors:
            names = ", ".join(self.form.label_of(name) for name in errors)
            self._status(f"✖ Fix {len(errors)} field{'s' if len(errors) > 1 else ''}: {names}", error=True)
        else:
            self._fixing = False
            self._status(f"Ready: ctrl+s to {self.submit_label.lower()}")  # create, save, stage…
            self._said_ready = True

    def on_input_changed(self, event: Input.Changed) -> None:
        self._changed(event.input)

    def on_select_changed(self, event: Select.Changed) -> None:
        self._changed(event.select)

    # (TextArea and SelectionList are imported by the forms that use them: handlers by name)
    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._changed(event.text_area)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[Any]) -> None:
        self._changed(event.selection_list)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self._changed(event.checkbox)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter moves on to the next field, and sends (as ctrl+s does) only from the last one: an
        Enter meant for one field of many does not create the thing half filled."""
        event.stop()
        chain = self.focus_chain
        at = chain.index(event.input) if event.input in chain else -1
        following = chain[at + 1] if 0 <= at < len(chain) - 1 else None
        if following is None or isinstance(following, Button):
            self.action_submit()
        else:
            following.focus()

    # ---- submit -------------------------------------------------------------------------------
    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "submit":
            self.action_submit()
        else:
            self.action_cancel()

    def action_submit(self) -> None:
        if not self.ready or self.busy:
            return
        form, errors = self._validate()
        self.form.touched.update(self.form.paths)
        self.form.show_errors(errors)
        if form is None:
            self._fixing = True
            self._fix_status(errors)
            self.form.focus_field(next(iter(errors)))
            return
        self._send(form)

    @work(exclusive=True, group="form-submit", exit_on_error=False)
    async def _send(self, form: BaseModel) -> None:
        self.busy = True
        button = self.query_one("#submit", Button)
        button.disabled = True
        self._status(f"{self.submit_label}…")
        sending = self.form.values()
        try:
            result = await self.submit_fn(form, self.context)
        except StepCancelled as err:
            self._status(str(err))
            button.disabled = False
            return
        except Exception as err:
            if self.lost_closes and isinstance(err, OutcomeUnknown):
                self.dismiss(err)  # type: ignore[arg-type]  # (the error for the result: the flow raises it)
                return
            self._lost = sending if isinstance(err, (OutcomeUnknown, Looked)) else None
            summary, hint = describe(err)
            log_shown(self.title_text, summary)
            if isinstance(err, ApiError):
                fields = {self.field_map.get(k, k): v for k, v in err.field_messages().items()}
                self.form.show_errors({k: v for k, v in fields.items() if k in self.form.paths})
            self._status(f"✖ {summary}\n{hint}", error=True)
            button.disabled = False
            return
        finally:
            self.busy = False
        self.dismiss((result, form))

    def typed(self) -> bool:
        """Whether it holds input not sent (leaving the console would drop it)."""
        return not self.busy and self._pristine is not None and self.form.values() != self._pristine

    def action_cancel(self) -> None:
        """Close; when something was typed that was not sent, ask first (Cancel keeps the form)."""
        from .confirm import close_or_ask

        if self.busy:  # closed now, its answer would close whatever is in front when it comes (the console)
            self.app.notify(
                f"{self.submit_label}: the request is sent and its answer awaited. The form closes with it, "
                "or says why not.",
                title=self.title_text,
                timeout=5,
            )
            return
        now = self.form.values()
        unsent = self._pristine is not None and now != self._pristine
        if unsent and self._lost is not None and now == self._lost:  # sent, and whether it took is not known
            close_or_ask(
                self,
                True,
                "Drop what you typed?",
                "This form holds what was sent when its answer was lost: it may have been applied "
                "(the form says what the look found). Drop it, or go back to it.",
            )
            return
        close_or_ask(
            self, unsent, "Drop what you typed?", "This form holds input that was not sent. Drop it, or go back to it."
        )


def _as_now(pristine: dict[str, Any], now: dict[str, Any], path: list[str]) -> None:
    """Set the value at `path` (a field's dotted path: a variant's fields go through its name, as
    `dynamic.http_service.strategy`) in `pristine` to what it is `now`, or drop it where `now` has none."""
    head, rest = path[0], path[1:]
    if not rest:
        if head in now:
            pristine[head] = now[head]
        else:
            pristine.pop(head, None)
        return
    if isinstance(now.get(head), dict) and isinstance(pristine.get(head), dict):
        _as_now(pristine[head], now[head], rest)
    elif now.get("kind") == head and pristine.get("kind") == head:  # a variant named by its discriminator
        _as_now(pristine, now, rest)
