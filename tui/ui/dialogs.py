"""A small registry of dialogs flows can open by name, instead of one FlowUI method per product.

    await ui.dialog("secret", title=..., secrets={...})     # shown once, reveal on request, copy
    await ui.dialog("result", title=..., text=...)          # read and copy (a URL, a snippet)
    await ui.dialog("diff", title=..., entries=diff.compare(...), confirm_label="Send")   # review, then go
    await ui.dialog("json", title=..., value={...})         # any JSON, read-only
    await ui.dialog("matrix", title=..., rows=..., columns=..., values={(r, c): v}, choices=[...], save=...)
    await ui.dialog("file", title=..., mode="open" | "save", path=...)   # a Path, or None
    await ui.dialog("playground", title=..., key=..., template=..., parse=..., send=..., docs=...)
    await ui.dialog("program", title=..., argv=[...], timeout=30, run=...)   # its output as it comes; esc stops

A product that truly needs another dialog registers it (`register("grid", "module:Class")`): the
class is imported when first opened and built with the keyword arguments given.
"""

from __future__ import annotations

import importlib
import json
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from textual.app import App

    from .screens.result import ResultScreen

_DIALOGS: dict[str, str] = {
    "secret": "tui.ui.screens.secret:SecretScreen",
    "result": "tui.ui.screens.result:ResultScreen",
    "json": "tui.ui.dialogs:json_dialog",
    "matrix": "tui.ui.screens.matrix:MatrixScreen",  # rows × columns of choices, edited in place
    "diff": "tui.ui.screens.diff:DiffScreen",  # added, changed old → new, deleted (products.kit.diff)
    "file": "tui.ui.screens.files:FilePickerScreen",  # a file to load or a place to save
    "playground": "tui.ui.screens.playground:PlaygroundScreen",  # a request tried, answers kept (products.kit.views)
    "program": "tui.ui.screens.program:ProgramScreen",  # a program's output as it comes, esc stops it
}


def register(name: str, target: str) -> None:
    _DIALOGS[name] = target


def build(name: str, **kwargs: Any) -> Any:
    if name not in _DIALOGS:
        raise KeyError(f"no dialog named {name!r}; known: {', '.join(sorted(_DIALOGS))}")
    module, _, attr = _DIALOGS[name].partition(":")
    return getattr(importlib.import_module(module), attr)(**kwargs)


def open_dialog(app: App[Any], name: str, callback: Callable[[Any], None] | None = None, **kwargs: Any) -> None:
    """Push a dialog from a handler (not awaited)."""
    app.push_screen(build(name, **kwargs), callback)


async def wait_dialog(app: App[Any], name: str, **kwargs: Any) -> Any:
    """Push a dialog from a worker and wait for its answer."""
    return await app.push_screen_wait(build(name, **kwargs))


class AppAsks:
    """Dialogs and notices asked of the console itself, for a screen over it with no list behind it (the
    advisor's export): what `products.kit.files.save_bytes` needs."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app

    async def dialog(self, name: str, **kwargs: Any) -> Any:
        return await wait_dialog(self.app, name, **kwargs)

    def notify(self, message: str, severity: str = "information") -> None:
        self.app.notify(message, severity=severity)  # type: ignore[arg-type]  # (one of Textual's levels)


def json_dialog(title: str, value: object) -> ResultScreen:
    from .screens.result import ResultScreen

    return ResultScreen(title, json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False))
