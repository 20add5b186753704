"""Keys of your own (issue 36, item 3): every binding has an id, named from what it does and shared
by every screen where it means the same (`delete` in a list and in a detail is one id); the config's
`[keymap]` table remaps ids to keys through Textual's keymap (`App.set_keymap`), so the key bar and
help show the keys in force. What cannot be is said at start, in one line: an id no binding has, or a
key given to an id that another binding of the same place (or the console's own keys) already uses.
The check imports every screen's module: it runs in a thread, and only when a keymap is given."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.dom import DOMNode

from ..products import manifest

if TYPE_CHECKING:
    from ..products.kit.base import ResourceKind
    from .app import CloudApp


def _places() -> list[type[DOMNode]]:
    """Every screen and widget of the console that has keys of its own."""
    found: dict[type, None] = {}
    # (walked as modules, not files: the single file holds no source files)
    here = sys.modules[__name__.rpartition(".")[0]]  # tui.ui
    for name in sorted(m.name for m in pkgutil.walk_packages(here.__path__, "tui.ui.")):
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, DOMNode) and cls.__module__.startswith("tui.") and "BINDINGS" in cls.__dict__:
                found[cls] = None
    return list(found)


def _bindings(cls: type) -> list[Binding]:
    out: list[Binding] = []
    for base in reversed(cls.__mro__):
        out += [b for b in base.__dict__.get("BINDINGS", []) if isinstance(b, Binding)]
    return out


def _keys(binding: Binding, keymap: dict[str, str]) -> set[str]:
    keys = keymap.get(binding.id or "", binding.key)
    return {k.strip() for k in keys.split(",") if k.strip()}


SAID = 3  # a keymap's problems said on screen; more are counted, and each is logged


def problems(keymap: dict[str, str]) -> str:
    """What in `keymap` cannot be, in one line ("" when all can)."""
    from textual.keys import _character_to_key

    def named(key: str) -> str:  # "?" as Textual names it ("question_mark"); "ctrl+t" is a name already
        key = key.strip()
        return _character_to_key(key) if len(key) == 1 else key

    keymap = {i: ",".join(named(k) for k in keys.split(",")) for i, keys in keymap.items()}
    places = _places()
    app_bindings = [b for cls in places if cls.__name__ == "CloudApp" for b in _bindings(cls)]
    known = {b.id for cls in places for b in _bindings(cls) if b.id}
    said = [f"no key has the id {i!r}" for i in sorted(set(keymap) - known)]
    for cls in places:
        own = _bindings(cls)
        chain = own + ([] if cls.__name__ == "CloudApp" else app_bindings)
        for moved in (b for b in chain if b.id in keymap):
            for key in _keys(moved, keymap):
                others = (b for b in chain if b.action != moved.action and b.id != moved.id)
                other = next((b for b in others if key in _keys(b, keymap)), None)
                if other is not None:
                    clash = f"{moved.id} → {key} is also {other.id}"
                    if not any(s.startswith(clash) for s in said):
                        said.append(clash + f" ({cls.__name__})")
    if not said:
        return ""
    clashes = any(" is also " in s for s in said)
    fix = ": give one of each pair another key in [keymap]" if clashes else ""
    if len(said) <= SAID:
        return "Keymap: " + "; ".join(said) + fix
    import logging

    log = logging.getLogger("cloudtui.ui")
    for problem in said:  # every one in the log; the console says a few and how many
        log.warning("keymap: %s", problem)
    return f"Keymap: {len(said):,} problems, the first: " + "; ".join(said[:SAID]) + f" (all in the log){fix}"


def moved(keymap: dict[str, str]) -> dict[str, str]:
    """The default key of each binding `keymap` moves → the key in force, for hints' words ("refresh (r)")."""
    out: dict[str, str] = {}
    for cls in _places():
        for b in _bindings(cls):
            if b.id in keymap and b.key.split(",")[0] not in out:
                out[b.key.split(",")[0].strip()] = keymap[b.id].split(",")[0].strip()
    return {old: new for old, new in out.items() if old != new}


def said_with(text: str, keys: dict[str, str]) -> str:
    """`text` with each hint "(K)" or "(K does …)" of a moved key K naming the key in force instead."""
    for old, new in keys.items():
        text = re.sub(r"\(" + re.escape(old) + r"(?=[ )])", "(" + new.replace("\\", "\\\\"), text)
    return text


def own_clashes(app: CloudApp) -> str:
    """The operator's own commands (`[[commands]]`) whose key a list or the console binds already: that key
    stays the console's, the command runs from the actions menu (said at start, in one line)."""
    keymap = app.settings.keymap
    lists = [c for c in _places() if c.__name__ == "ResourceView"]
    taken = {
        k: b.description or b.action for cls in (*lists, type(app)) for b in _bindings(cls) for k in _keys(b, keymap)
    }
    clashes = [f"{c.title} ({c.key}: {taken[c.key]})" for c in app.settings.commands if c.key in taken]
    said = [f"Commands whose key a list already uses (run from the actions menu, a): {'; '.join(clashes)}"]
    return "\n".join(s for s in (said[0] if clashes else "", _own_unknown(app), _columns_unknown(app)) if s)


def _own_unknown(app: CloudApp) -> str:
    """The views and fields the operator's own commands name that the console does not have."""
    from ..products.kit.own_commands import unknown_keys

    wrong = []
    for command in app.settings.commands:
        for kind_id in command.kinds:
            kind = _list_named(kind_id)
            if kind is None:
                wrong.append(f"{command.title}: no list {kind_id!r}")
            elif unknown_keys(command, kind):
                wrong.append(f"{command.title}: {kind_id} has no field {', '.join(unknown_keys(command, kind))}")
    return f"Commands that name what is not here: {'; '.join(wrong)}" if wrong else ""


def _list_named(kind_id: str) -> ResourceKind | None:
    """The list a view's id names: a product's, or a child list's (a zone's records: `dns.records`)."""
    from ..products.kit.base import ResourceKind

    entry = manifest.by_id(kind_id)
    kind = entry.load() if entry is not None else None
    if isinstance(kind, ResourceKind):
        return kind
    return next((k for k in manifest.every_kind() if k.id == kind_id), None)


def _columns_unknown(app: CloudApp) -> str:
    """The lists and fields the operator's own columns (`[columns]`) name that the console does not have."""
    from ..products.kit import own_columns

    wrong = []
    for kind_id, chosen in app.settings.columns.items():
        kind = _list_named(kind_id)
        if kind is None:
            wrong.append(f"no list {kind_id!r}")
        elif own_columns.unknown(kind, chosen):
            wrong.append(f"{kind_id} has no field {', '.join(own_columns.unknown(kind, chosen))}")
    return f"Columns that name what is not here: {'; '.join(wrong)}" if wrong else ""


def check(app: CloudApp, keymap: dict[str, str]) -> None:
    """The keymap's problems said once the console is up, and hints' keys made the ones in force
    (worked out in a thread)."""

    def run() -> None:
        said = "\n".join(s for s in (problems(keymap) if keymap else "", own_clashes(app)) if s)
        app.notices.hint_keys = moved(keymap)
        if said:
            app.call_from_thread(app.notify, said, title="Configuration", severity="warning", timeout=8)

    app.run_worker(run, thread=True, group="keymap", exit_on_error=False)


def view_named(target: str) -> Any:
    """The view an alias names: by its id ("instance.servers") or its title ("Servers"); None if none."""
    return manifest.by_id(target) or next(
        (e for e in manifest.entries() if (e.title or e.label).lower() == target.lower()), None
    )


def unknown_aliases(aliases: dict[str, str]) -> str:
    """The config's aliases that name no view, in one line ("" when all do)."""
    bad = [f"{alias} → {target!r}" for alias, target in aliases.items() if view_named(str(target)) is None]
    return f"Aliases that name no view (a view's id or title): {'; '.join(bad)}" if bad else ""
