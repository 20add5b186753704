"""Reach the machine: the SSH command of a server with a public address, built from checked values
and shell-quoted (`commands`), to copy, or run in the terminal with the console suspended until it
ends. The host key is ssh's to ask about (its own prompt): nothing here accepts one silently. A user
goes in the command only where the API says which (an install's user); otherwise ssh's own default."""

from __future__ import annotations

import ipaddress
import shlex
from typing import TYPE_CHECKING, Any, Callable

from ...api.safe import clean
from . import commands
from .base import ActionSpec
from .related import addresses

if TYPE_CHECKING:
    from .base import ResourceKind, Row
    from .flows import FlowUI


def public_address(kind: ResourceKind, row: Row) -> str:
    """The resource's first public address (IPv4 first), or ""."""
    found = []
    for text in addresses(kind, row):
        try:
            ip = ipaddress.ip_address(text.split("/")[0])
        except ValueError:
            continue
        if ip.is_global:
            found.append(ip)
    found.sort(key=lambda ip: (ip.version, str(ip)))
    return str(found[0]) if found else ""


def no_address(kind: ResourceKind, row: Row) -> str | None:
    """Why there is no SSH command: no public address, or what it holds is not a valid one (said)."""
    if public_address(kind, row):
        return None
    for text in addresses(kind, row):
        try:
            commands.ip("address", text.split("/")[0]).checked()
        except commands.CommandRefused:
            return f"its address '{clean(text[:60])}' is not a valid IP address"  # (clean already shows escapes)
    return "it has no public address"


def ssh_argv(address: str, user: str = "") -> list[str]:
    """`ssh [-l user] address`, each value checked first (CommandRefused when one fails)."""
    at = commands.ip("address", address).checked()
    return ["ssh", *(["-l", commands.user("user", user).checked()] if user else []), at]


def ssh_action(kind_of: Callable[[], Any], user_of: Callable[[Any], str] = lambda row: "") -> ActionSpec:
    """The SSH action of a kind of server: offered where the server has a public address."""

    async def flow(ui: FlowUI, row: Row) -> None:
        kind = kind_of()
        address = public_address(kind, row)
        if not address:
            ui.notify(f"{row.name}: no public address to reach it at", "warning")
            return
        try:
            argv = ssh_argv(address, user_of(row))
        except commands.CommandRefused as err:  # a value the command cannot hold safely: said, nothing built
            ui.notify(f"No SSH command for {row.name}: {err}", "warning")
            return
        line = shlex.join(argv)
        go = await ui.dialog(
            "result",
            title=f"SSH to {row.name}",
            text=line,
            confirm_label="Run it now (the console waits until ssh ends)",
        )
        if go is True:
            status = await ui.run_in_terminal(argv)
            if status is None:
                ui.notify("This console cannot give the terminal away here: copy the command (y) instead.", "warning")
            elif status != 0:
                ui.notify(f"ssh ended with status {status}.", "warning")

    return ActionSpec(
        "ssh",
        "SSH to it…",
        lambda row: bool(public_address(kind_of(), row)),
        why_not=lambda row: no_address(kind_of(), row),
        shape=_Flow(flow),
        mutating=False,
    )


class _Flow:
    """A flow as an action's shape (reads nothing, changes nothing)."""

    mutating = False

    def __init__(self, flow: Any) -> None:
        self.flow = flow

    def __call__(self, ui: FlowUI, row: Row) -> Any:
        return self.flow(ui, row)
