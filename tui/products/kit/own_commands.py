"""Commands of the operator's own (issue 51, item 3): `[[commands]]` in config.toml, each bound to a key on
the kinds it names, run on the row under the cursor with its argv made from the row's declared fields.

    [[commands]]
    title = "SSH through the bastion"
    key = "S"
    kinds = ["instance.servers"]
    argv = ["ssh", "-J", "bastion", "root@{ip}"]

A placeholder `{key}` names a declared field of the kind by its key (the column's key); a field holding
several values gives its first, and `{key...}`, as a whole argument, gives one argument per value. The
argv is never given to a shell: each value is one argument, checked against its field's role (an
address is an address, a name holds no control character), and a value beginning with `-` is refused
where it would stand as an argument of its own — unless it follows `--` — so that no value from the
API becomes an option (`-oProxyCommand=…`). Within a larger argument (`root@{ip}`) it cannot be one.
A value refused says why (`CommandRefused`) and nothing runs. No Textual here: the console runs what
this builds (suspended, or its output shown).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
from functools import partial
from typing import TYPE_CHECKING, Callable

from ...api.safe import clean
from ...records import record
from .commands import CommandRefused

if TYPE_CHECKING:
    from .base import ActionSpec, ResourceKind
    from .declared import Field
    from .flows import FlowUI
    from .rows import Row

_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_*]+(?:\.[A-Za-z0-9_*]+)*)(\.\.\.)?\}")  # {key}, {a.b}, {key...}
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+=-]*")
_PLACE = re.compile(r"[a-z]{2}-[a-z]{3}(?:-[0-9])?")
OUTPUTS = ("terminal", "screen")  # the console suspended while it runs, or its output shown in a screen
MOST_SECONDS = 600.0


@record(frozen=True, eq=False)
class OwnCommand:
    """One `[[commands]]` entry: its `title` (in the actions menu, help and the palette), its `key`, the
    `kinds` (manifest ids) it is offered on, its `argv` template, whether it `changes` anything (not
    offered read-only; the name typed on a production profile), and its `output`: `terminal` (the
    console suspended until it ends) or `screen` (its output shown, stopped after `timeout` seconds)."""

    title: str
    key: str
    kinds: tuple[str, ...]
    argv: tuple[str, ...]
    changes: bool = True
    output: str = "terminal"
    timeout: float = 30.0


def parse(entries: object, where: str = "config.toml") -> tuple[list[OwnCommand], list[str]]:
    """The commands `[[commands]]` declares, and what is wrong with those left out (one line each)."""
    if entries is None:
        return [], []
    if not isinstance(entries, list):
        return [], [f"commands in {where} is {type(entries).__name__}, not a list of [[commands]] tables"]
    made, problems = [], []
    for i, entry in enumerate(entries, 1):
        named = f"[[commands]] #{i}" + (f" ({entry.get('title')!s:.40})" if isinstance(entry, dict) else "")
        try:
            made.append(_one(entry))
        except ValueError as err:
            problems.append(f"{named} in {where}: {err}; it is left out")
    return made, problems


def _one(entry: object) -> OwnCommand:
    if not isinstance(entry, dict):
        raise ValueError("not a table")
    unknown = sorted(set(entry) - {"title", "key", "kinds", "argv", "changes", "output", "timeout"})
    if unknown:
        raise ValueError(f"no setting {', '.join(unknown)}")
    title, key = entry.get("title"), entry.get("key")
    if not isinstance(title, str) or not title.strip() or clean(title) != title:
        raise ValueError("a title (text) is needed")
    if not isinstance(key, str) or not key.strip():
        raise ValueError('a key is needed (as in [keymap]: "S", "ctrl+o")')
    kinds, argv = entry.get("kinds"), entry.get("argv")
    if not isinstance(kinds, list) or not kinds or not all(isinstance(k, str) and k for k in kinds):
        raise ValueError('kinds is a list of the views it runs on ("instance.servers")')
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
        raise ValueError("argv is a list of strings, the program first (a shell line is not taken)")
    if _PLACEHOLDER.search(argv[0]):
        raise ValueError("the program (argv's first) is named, not read from a row")
    for arg in argv:
        if any(m.group(2) for m in _PLACEHOLDER.finditer(arg)) and not _PLACEHOLDER.fullmatch(arg):
            raise ValueError(f"{arg!r}: a placeholder of several values ({{key...}}) is a whole argument")
    changes, output = entry.get("changes", True), entry.get("output", "terminal")
    if not isinstance(changes, bool):
        raise ValueError("changes is true or false")
    if output not in OUTPUTS:
        raise ValueError(f"output is {' or '.join(OUTPUTS)}")
    timeout = entry.get("timeout", 30)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MOST_SECONDS:
        raise ValueError(f"timeout is a number of seconds, at most {MOST_SECONDS:g}")
    return OwnCommand(title, key.strip(), tuple(kinds), tuple(argv), changes, output, float(timeout))


def unknown_keys(command: OwnCommand, kind: ResourceKind) -> list[str]:
    """The placeholders of `command` that name no declared field of `kind` (said at start)."""
    keys = {f.key for f in kind.fields}
    return sorted({m.group(1) for arg in command.argv for m in _PLACEHOLDER.finditer(arg)} - keys)


def argv_for(command: OwnCommand, kind: ResourceKind, row: Row) -> list[str]:
    """The argv to run on `row`: each placeholder filled with its field's value, checked; `CommandRefused`
    (nothing runs) when a value is missing, is not what its field holds, or could be read as an option."""
    fields = {f.key: f for f in kind.fields}
    named = clean(str(row.name or row.id or "it"))
    out: list[str] = []
    after_dashes = False
    for arg in command.argv:
        whole = _PLACEHOLDER.fullmatch(arg)
        if whole is not None and whole.group(2):  # {key...}: one argument per value
            values = _values(fields, whole.group(1), row, named)
            out += [_own_argument(v, after_dashes, whole.group(1)) for v in values]
        elif whole is not None:  # {key}: the argument is the value
            out.append(_own_argument(_values(fields, whole.group(1), row, named)[0], after_dashes, whole.group(1)))
        else:  # within a larger argument, or none: it cannot be read as an option of its own
            out.append(_PLACEHOLDER.sub(lambda m: _values(fields, m.group(1), row, named)[0], arg))
        after_dashes = after_dashes or arg == "--"
    return out


def _own_argument(value: str, after_dashes: bool, key: str) -> str:
    if value.startswith("-") and not after_dashes:
        raise CommandRefused(f"{key} is {value!r:.60}: it begins with '-' and would be read as an option; nothing runs")
    return value


def _values(fields: dict[str, Field], key: str, row: Row, named: str) -> list[str]:
    field = fields.get(key)
    if field is None:
        raise CommandRefused(f"{{{key}}} names no field of this list; nothing runs")
    raw = field.values(row)
    values = [v for item in raw for v in (item if isinstance(item, list) else [item]) if v not in (None, "")]
    if not values:
        raise CommandRefused(f"{named} has no {field.title.lower()}; nothing runs")
    return [_checked(field, v, named) for v in values]


def _checked(field: Field, value: object, named: str) -> str:
    """`value` as its field's role says it must be, as text; `CommandRefused` when it is not."""
    if isinstance(value, (dict, list)) or isinstance(value, bool):
        raise CommandRefused(f"{named}'s {field.title.lower()} is not a single value; nothing runs")
    text = str(value)
    if clean(text) != text or any(c in text for c in "\n\r\t\0"):
        raise CommandRefused(f"{named}'s {field.title.lower()} holds control or invisible characters; nothing runs")
    if len(text) > 1024:
        raise CommandRefused(f"{named}'s {field.title.lower()} is over 1,024 characters; nothing runs")
    said = f"{named}'s {field.title.lower()} {text!r:.60}"
    if field.has("ip"):
        try:
            ipaddress.ip_interface(text)
        except ValueError:
            raise CommandRefused(f"{said} is not an address; nothing runs") from None
    elif field.role == "id" and not _ID.fullmatch(text):
        raise CommandRefused(f"{said} is not an id; nothing runs")
    elif field.role == "place" and not _PLACE.fullmatch(text):
        raise CommandRefused(f"{said} is not a zone or region; nothing runs")
    return text


# ---- offered as actions -----------------------------------------------------------------------------
class OwnShape:
    """A command of the operator's own as an action's shape, run by the console's one action runner: not
    offered read-only when it `changes`, and then asked with the name typed on a production profile."""

    def __init__(self, command: OwnCommand, kind: ResourceKind) -> None:
        self.command, self.kind, self.mutating = command, kind, command.changes

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from .flows import Refused

        command = self.command
        try:
            argv = argv_for(command, self.kind, row)
        except CommandRefused as err:  # a value it cannot hold safely: said (under its title), nothing runs
            refused = Refused(err.reason)
            refused.nothing = "Nothing ran."
            raise refused from None
        if command.output == "terminal":
            status = await ui.run_in_terminal(argv)
            if status is None:
                ui.notify(f"{command.title}: this console cannot give the terminal away here; nothing ran.", "warning")
            elif status != 0:
                ui.notify(f"{command.title}: {argv[0]} ended with status {status}.", "warning")
            else:  # what it wrote went to the terminal and is gone with it: said it ran (output = "screen" keeps it)
                ui.notify(f"{command.title}: {argv[0]} ended.")
            return
        title = f"{command.title} · {clean(str(row.name or row.id))}"
        await ui.dialog("program", title=title, argv=argv, timeout=command.timeout, run=stream_output)


def actions_for(
    commands: tuple[OwnCommand, ...], kind: ResourceKind, taken: frozenset[str] = frozenset()
) -> tuple[ActionSpec, ...]:
    """The commands declared on `kind`, as actions its menu offers (after the kind's own): each labelled
    with its key unless the console binds that key there (`taken`: the key stays the console's); one that
    names a field the kind has not is left out (said at start)."""
    from .base import ActionSpec

    return tuple(
        ActionSpec(
            f"own:{c.title}",
            c.title if c.key in taken else f"{c.title} ({c.key})",
            shape=OwnShape(c, kind),
            mutating=c.changes,
            shows=partial(_runs, c, kind),
        )
        for c in commands
        if kind.id in c.kinds and not unknown_keys(c, kind)
    )


def _runs(command: OwnCommand, kind: ResourceKind, row: Row) -> str:
    """The command as it will run on `row`, quoted as a shell would read it (said, never run by one)."""
    import shlex

    try:
        return "Runs: " + clean(shlex.join(argv_for(command, kind, row)))
    except CommandRefused as err:
        return f"Refused: {err.reason}"


async def stream_output(argv: list[str], timeout: float, shown: Callable[[str], None]) -> str:
    """Run `argv` with no input and no shell, giving what it writes (its output and errors, together) to
    `shown` as it comes; stopped after `timeout` seconds, and killed when cancelled (a cancel key, the
    console closing). Returns how it ended, in words ("" for a clean end). Control characters are shown
    as escapes where it is drawn (`screens/program.py`)."""
    import codecs

    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped, what it started goes with it
        )
    except OSError as err:  # no such program, not executable
        return f"{argv[0]} could not be run: {err.strerror or err}"

    async def stop() -> None:
        import os
        import signal

        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:  # gone already
            pass
        await proc.wait()  # reaped, before the loop can close under its pipes

    assert proc.stdout is not None  # (a pipe: asked for above)
    decode = codecs.getincrementaldecoder("utf-8")("replace")

    async def pump() -> None:
        while chunk := await proc.stdout.read(65536):  # type: ignore[union-attr]  # (checked above)
            shown(decode.decode(chunk))
        shown(decode.decode(b"", final=True))
        await proc.wait()

    try:
        await asyncio.wait_for(pump(), timeout)
    except asyncio.TimeoutError:
        await stop()
        return f"… stopped after {timeout:g} s"
    except asyncio.CancelledError:  # the cancel key, the console closing: the program goes with it
        await asyncio.shield(stop())
        raise
    return f"(ended with status {proc.returncode})" if proc.returncode else ""
