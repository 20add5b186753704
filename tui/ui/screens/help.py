"""The help screen on `?`: every key, grouped by where it works."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

KEYS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Anywhere", [
        (": or ctrl+p", "command palette: jump to a view, a zone, a region or an action"),
        ("?", "this help"),
        ("z", "the zone (zonal views) or region (regional views), or all of them"),
        ("tab / shift+tab", "move between the sidebar and the table"),
        ("h / l in the sidebar", "fold a product's views away / unfold them"),
        ("ctrl+l", "log in / change credentials"),
        ("q", "quit"),
    ]),
    ("Resource list", [
        ("j / k, ↑ / ↓", "move the cursor; g / G top and bottom"),
        ("enter", "open the detail (fields and raw JSON)"),
        ("/", "filter rows; esc clears"),
        ("s / S", "sort by the next column / reverse the order"),
        ("r", "refresh now"),
        ("c", "create"),
        ("e", "edit the selected resource"),
        ("a", "actions allowed now (power on, reboot, …) and child lists (Private NICs ›)"),
        ("d", "delete (asks first; Cancel is focused)"),
        ("y", "copy the id to the clipboard (OSC 52)"),
        ("w / u", "batch-edited lists: review and send the staged changes / undo one"),
        ("esc", "on a child list: back to its parent"),
    ]),
    ("Detail", [
        ("v", "next tab: fields, JSON, then the kind's own (events…)"),
        ("x", "reveal a one-time secret (shown once; y copies it)"),
        ("a / e / d / y / r", "actions, edit, delete, copy id, refresh"),
        ("esc", "back to the list"),
    ]),
    ("Forms and dialogs", [
        ("tab / shift+tab", "next / previous field"),
        ("ctrl+s or enter", "submit"),
        ("esc", "cancel; nothing is sent"),
    ]),
    ("Record lists", [
        ("a / e / d", "add, edit, delete a record (rules, user data, volumes, members)"),
        ("K / J", "move it up / down where order matters (rule positions, volume keys)"),
        ("ctrl+s", "send the whole list; esc asks before dropping changes"),
    ]),
]


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for section, keys in KEYS:
            table.add_row(f"[reverse] {section} [/]", "")
            for key, what in keys:
                table.add_row(key, what)
            table.add_row("", "")
        with Vertical(id="dialog", classes="help"):
            yield Label("cloudtui keys", id="dialog-title")
            with VerticalScroll():
                yield Static(table)
