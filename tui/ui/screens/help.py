"""The help screen on `?`: the keys of the screen in front, read from its bindings (so it cannot
drift from what the keys do), then the keys that work anywhere, then a few words on the rest."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from .. import styles
from ..console_app import console_of, key_in_force

NOTE_KEYS = {"mark_quiet": "space", "mark_all": "M", "actions": "a", "delete": "d", "edit": "e", "secrets": "x"}
NOTES: list[tuple[str, str]] = [  # {id} is the key in force for that binding id
    ("tab / shift+tab", "move between the sidebar and the table, or between fields"),
    ("h / l, ← / → in the sidebar", "fold a product's views away / unfold them; enter on a heading too"),
    (
        "{mark_quiet} or {mark_all}, then {actions}, {delete} or {edit}",
        "mark rows (or all shown), then act on all; esc unmarks",
    ),
    ("[keymap] in config.toml", 'remaps a key by the id in the last column: delete = "x"'),
    ("v in a detail", "the next tab: fields, JSON, then the kind's own (events, metrics…)"),
    ("{secrets} in a detail", "reveal a secret: a one-time one (shown once) or a credential inside a URL; y copies"),
    ("m / w on a chart", "the next metric / the next time window"),
    ("esc", "back, cancel or clear; nothing is sent"),
]


def _words(name: str) -> str:
    """'ResourceView' -> 'resource view' (where a binding comes from)."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower().removesuffix(" screen") or name.lower()


def bindings_of(front: Screen[Any]) -> list[tuple[str, list[tuple[str, str, bool, str]]]]:
    """The described bindings active on `front`, grouped by where they come from (the focused widget
    and its parents, the screen, then the app: "anywhere"): (group, [(keys, what, enabled, id)]), the id
    being what the config's [keymap] remaps."""
    groups: dict[str, dict[tuple[int, str], list[Any]]] = {}
    rank: dict[str, int] = {}  # the console's own keys first, a Textual widget's (scrolling) next, the app's last
    app = front.app
    for key, (node, binding, enabled, tooltip) in front.active_bindings.items():
        what = binding.description or tooltip
        if not what:
            continue
        group = "anywhere" if node is app else _words(type(node).__name__)
        rank[group] = 2 if node is app else 1 if type(node).__module__.startswith("textual.") else 0
        entry = groups.setdefault(group, {}).setdefault((id(node), binding.action), [[], what, enabled, binding.id])
        shown = app.get_key_display(replace(binding, key=key, key_display=None))  # "/" for slash, "?" for question_mark
        if shown not in entry[0]:
            entry[0].append(shown)
    ordered = sorted(groups.items(), key=lambda g: rank[g[0]])  # (stable: the focused widget's before its parents')
    return [
        (group, [(" / ".join(keys), what, enabled, bid or "") for keys, what, enabled, bid in entries.values()])
        for group, entries in ordered
    ]


class HelpScreen(ModalScreen[None]):
    CSS_PATH = styles.DIALOGS
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close", id="dismiss")]

    def __init__(self, front: Screen[Any] | None = None) -> None:
        super().__init__()
        self.front = front

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        table.add_column(style="dim")  # the id the config's [keymap] remaps
        sections = bindings_of(self.front) if self.front is not None else []
        for group, keys in sections:
            table.add_row(Text(f" {group.capitalize()} ", style="reverse"), "")
            for key, what, enabled, bid in keys:
                said = Text(what + ("" if enabled else " (not now)"), style="" if enabled else "dim")
                table.add_row(Text(key), said, Text(bid))
            table.add_row("", "")
        also = Table.grid(padding=(0, 2))  # a grid of its own: its words are not wrapped to the ids' column
        also.add_column(style="bold", no_wrap=True)
        also.add_column()
        also.add_row(Text(" Also ", style="reverse"), "")
        in_force = key_in_force(self)  # the keys of [keymap]
        for note_keys, note in NOTES:
            also.add_row(Text(note_keys.format(**{i: in_force(i, k) for i, k in NOTE_KEYS.items()})), Text(note))
        console = console_of(self)
        own = console.settings.commands if console is not None else ()
        if own:  # the operator's own ([[commands]]), on the lists they name
            also.add_row("", "")
            also.add_row(Text(" Your commands ", style="reverse"), "")
            for command in own:
                also.add_row(Text(command.key), Text(f"{command.title} — on {', '.join(command.kinds)}"))
        with Vertical(id="dialog", classes="help"):
            title = "cloudtui keys: here, then anywhere (the dim word: its id for [keymap])"
            yield Label(title, id="dialog-title", markup=False)
            with VerticalScroll():
                yield Static(table)
                yield Static(also)
