"""Server flows beyond power actions (pydantic; loaded on first use): backup, change type, user
data, private NICs, volumes, security group, placement group, and deleting or terminating while
keeping block volumes (spec 1 §4.2: detach a volume before the terminate call to keep it)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Awaitable

from pydantic import ValidationInfo, field_validator

from ...api.safe import clean
from ...records import record
from ..kit.base import Column, CreateSpec, Row
from ..kit.fields import not_among, uuid_of  # noqa: E402
from ..kit.flows import ForMany, Refused, asks_at_send, confirms_first, for_many
from ..kit.format import gb
from ..kit.nouns import counted
from ..kit.vocabulary import Form, label
from .common import action_call
from .fields import Name
from .volume_forms import server_volumes, set_server_volumes

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

KEY_RE = re.compile(r"^[A-Za-z0-9._-]{1,128}$")


class BackupForm(Form):
    name: Name


async def compatible_types(ui: FlowUI, server: Row) -> tuple[list[tuple[str, str]], str]:
    """The types the server may change to, cheapest first, with their size and price."""
    names = (await ui.service().call("GET", ui.scope, "servers", server.id, "compatible-types")).get(
        "compatible_types"
    ) or []
    types = (await ui.service().call("GET", ui.scope, "products", "servers")).get("servers") or {}
    return [
        (
            f"{n:<14} {types.get(n, {}).get('ncpus', '?')} vCPU {gb(types.get(n, {}).get('ram'))} GB "
            f"€{types.get(n, {}).get('hourly_price', '?')}/h",
            n,
        )
        for n in sorted(names, key=lambda n: (types.get(n, {}).get("hourly_price") or 0, n))
    ], server.text("commercial_type")


# ---- user data: a key/value store per server ---------------------------------------------------
class UserDataForm(Form):
    key: Annotated[str, label("Key", min_length=1, placeholder="e.g. cloud-init")]
    value: Annotated[str, label("Value", placeholder="#cloud-config … (\\n for a new line)")] = ""

    @field_validator("key")
    @classmethod
    def _key(cls, v: str) -> str:
        if not KEY_RE.match(v):
            raise ValueError("letters, digits, dots, dashes and underscores (at most 128)")
        return v

    @field_validator("value")
    @classmethod
    def _value(cls, v: str) -> str:
        if len(v.encode()) > 64 * 1024:
            raise ValueError("at most 64 kB")
        return v


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}


def _shown(text: str) -> str:
    """User data as one line of text: \\n, \\t, \\r and \\\\ stand for themselves and come back on
    save; any other control character is shown as a visible escape (and is not sent back as one)."""
    escaped = text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return clean(escaped)


def _unshown(text: str) -> str:
    return re.sub(r"\\(\\|n|t|r)", lambda m: _ESCAPES[m.group(1)], text)


USER_DATA_COLUMNS = (
    Column("key", "Key", lambda r: str(r.get("key")), width=20),
    Column("value", "Value", lambda r: str(r.get("value"))[:60], width=60),
)


@asks_at_send
async def user_data_flow(ui: FlowUI, server: Row) -> None:
    svc = ui.service()
    where = ("servers", server.id, "user_data")
    keys = (await svc.call("GET", ui.scope, *where)).get("user_data") or []
    before: dict[str, str] = {}
    for key in keys:
        before[key] = await svc.read_text(ui.scope, *where, key)
    original = dict(before)

    async def save(edited: list[dict[str, Any]]) -> None:
        after = {r["key"]: _unshown(r["value"]) for r in edited}
        gone, setting = sorted(before.keys() - after.keys()), [k for k, v in after.items() if before.get(k) != v]
        if gone or setting:  # on a production profile: the name typed, saying what changes, at each send
            said = [f"set {', '.join(setting)}" if setting else "", f"remove {', '.join(gone)}" if gone else ""]
            await ui.cleared(f"User data of {server.name}: {'; '.join(s for s in said if s)}")
        for key in gone:
            await _sent(svc.call("DELETE", ui.scope, *where, key), key, None)
            del before[key]  # done: a later failure does not send it again
        for key in [k for k, v in after.items() if before.get(k) != v]:
            sent = svc.call("PATCH", ui.scope, *where, key, content=after[key].encode(), content_type="text/plain")
            await _sent(sent, key, after[key])
            before[key] = after[key]

    async def _sent(sending: Awaitable[dict[str, Any]], key: str, value: str | None) -> None:
        """One request of the edit; when its answer is lost, the key read back (`outcome.checked`)."""
        from ...api.errors import NotFound
        from ..kit import outcome

        async def now() -> str | None:
            try:
                return await svc.read_text(ui.scope, *where, key)
            except NotFound:
                return None  # (the key gone)

        _, told = await outcome.checked(svc.act, sending, now, lambda held: held == value, f"user data {key}")
        if told:
            ui.notify(told, "warning")

    edited = await ui.edit_records(
        f"User data of {server.name}",
        UserDataForm,
        [{"key": k, "value": _shown(v)} for k, v in before.items()],
        USER_DATA_COLUMNS,
        describe="Served to the instance by its metadata service. In a value, \\n is a new line.",
        save=save,
        unique="key",
    )
    if edited is None:
        return
    changed = [k for k, v in before.items() if original.get(k) != v]
    removed = len(original.keys() - before.keys())
    if not changed and not removed:
        ui.notify(f"User data of {server.name}: as it was; nothing was sent.")
        return
    ui.notify(f"User data of {server.name}: {len(changed)} set, {removed} removed")


# ---- private NICs: one per private network -----------------------------------------------------
class NicForm(Form):
    """A private NIC for a server: the private network it joins (one NIC per network)."""

    private_network_id: Annotated[str, label("Private network ID", placeholder="private network UUID")]

    @field_validator("private_network_id")
    @classmethod
    def _network(cls, v: str, info: ValidationInfo) -> str:
        why = "this server already has a NIC in that network (one per network)"
        return not_among(info, "taken", uuid_of(v, "private network ID"), why)


async def nic_options(service: ResourceService, scope: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The networks the server is already in (the child service is bound to the server)."""
    rows = await service.list_rows(scope)
    return {}, {"taken": {r.get("private_network_id") for r in rows}}


NIC_CREATE = CreateSpec(NicForm, lambda form, c: {"private_network_id": form.private_network_id}, options=nic_options)


# ---- volumes ------------------------------------------------------------------------------------
class VolumeRefForm(Form):
    id: Annotated[str, label("Volume", min_length=1, widget="select")]


@asks_at_send
async def volumes_flow(ui: FlowUI, server: Row) -> None:
    from .volumes import VOLUMES

    full, current = await server_volumes(ui, server.id)
    all_vols = {v.id: v for v in await ui.service(VOLUMES).list_rows(ui.scope)}
    known = {v["id"]: v for v in current.values()}
    label = {vid: f"{v.name} · {v.text('volume_type')} · {gb(v.get('size'))} GB" for vid, v in all_vols.items()}
    columns = (
        Column("name", "Volume", lambda r: label.get(r["id"], known.get(r["id"], {}).get("name", r["id"])), width=40),
    )
    free = [(label[vid], vid) for vid, v in all_vols.items() if not v.get("server") or vid in known]
    stopped = full.get("state") == "stopped"
    patched: list[Row] = []

    async def save(edited: list[dict[str, Any]]) -> None:
        ids = list(dict.fromkeys(r["id"] for r in edited))
        changed = set(ids) ^ set(known)
        local = [
            vid for vid in changed if (all_vols.get(vid) or Row(known.get(vid, {}))).text("volume_type") == "l_ssd"
        ]
        if local and not stopped:
            raise Refused(f"{server.name} is {full.get('state')}: power it off to attach or detach l_ssd volumes")
        vols = [
            {"id": vid, "volume_type": (all_vols.get(vid) or Row(known.get(vid, {}))).text("volume_type")}
            for vid in ids
        ]
        if ids == [v["id"] for v in current.values()]:
            return  # as they were: nothing to send

        def name(vid: str) -> str:
            return label.get(vid, known.get(vid, {}).get("name") or vid).split(" · ")[0]

        attach = [name(v) for v in ids if v not in known]
        detach = [name(v) for v in known if v not in ids]
        said = [f"attach {', '.join(attach)}" if attach else "", f"detach {', '.join(detach)}" if detach else ""]
        said.append(f"then {', '.join(name(v) for v in ids) or 'none'}, in this order")
        await ui.cleared(f"Volumes of {server.name}: {'; '.join(p for p in said if p)}")
        patched.append(await _volumes_sent(ui, server, vols))

    edited = await ui.edit_records(
        f"Volumes of {server.name}",
        VolumeRefForm,
        [{"id": v["id"]} for v in current.values()],
        columns,
        ordered=True,
        choices={"id": free},
        number_from=0,
        describe=f"{server.name} is {full.get('state')}. l_ssd volumes attach and detach only while it is powered off; "
        "block volumes at any time, except the boot volume (#0) of a running server.",
        save=save,
        unique="id",
    )
    if edited is None or not patched:
        return
    ui.upsert(patched[-1])
    ui.notify(f"Volumes of {server.name}: {len(dict.fromkeys(r['id'] for r in edited))} attached")


async def _volumes_sent(ui: FlowUI, server: Row, vols: list[dict[str, Any]]) -> Row:
    """The volume map sent; when its answer is lost, the server's volumes read again and compared with
    what was sent (`outcome.checked`): applied (said), or not (the editor stays open with its edits)."""
    from ..kit import outcome

    ids = [v["id"] for v in vols]
    sending = set_server_volumes(ui, server.id, vols)
    answer, told = await outcome.checked(
        ui.service().act,
        sending,
        lambda: server_volumes(ui, server.id),
        lambda read: [v.get("id") for v in read[1].values()] == ids,
        "the volume map",
    )
    if told:  # applied after all: the server as read again
        ui.notify(told, "warning")
        return ui.service().kind.row_maker(ui.scope)(answer[0])
    return ui.service().kind.row_maker(ui.scope)(answer.get("server", answer))


# ---- security group and placement group -------------------------------------------------------
async def security_groups(ui: FlowUI, server: Row) -> tuple[list[tuple[str, str]], str | None]:
    """The zone's security groups, and the one the server is in (read again: rows are slim)."""
    from .network import SECURITY_GROUPS

    groups = await ui.service(SECURITY_GROUPS).list_rows(ui.scope)
    full = (await ui.service().call("GET", ui.scope, "servers", server.id)).get("server") or {}
    choices = [
        (
            f"{g.name}{' (default)' if g.get('project_default') else ''} · inbound {g.text('inbound_default_policy')}",
            g.id,
        )
        for g in groups
    ]
    return choices, (full.get("security_group") or {}).get("id")


async def placement_groups(ui: FlowUI, server: Row) -> tuple[list[tuple[str, str]], str | None]:
    """The zone's placement groups, and the one the server is in, if any."""
    from .network import PLACEMENT_GROUPS

    groups = await ui.service(PLACEMENT_GROUPS).list_rows(ui.scope)
    full = (await ui.service().call("GET", ui.scope, "servers", server.id)).get("server") or {}
    return [(f"{g.name} · {g.text('policy_type')} · {g.text('policy_mode')}", g.id) for g in groups], (
        full.get("placement_group") or {}
    ).get("id")


# ---- delete and terminate, keeping block volumes ----------------------------------------------
BLOCK = ("b_ssd", "sbs_volume")  # block storage: outlives its server when detached first


@record(frozen=True)
class Decided:
    """What the operator chose: keep the block volumes (detached first) or delete them all."""

    choice: str  # "keep" or "all"
    block: list[dict[str, Any]]  # the block volumes
    current: dict[str, dict[str, Any]]  # the server's volumes by slot

    async def detach_kept(self, ui: FlowUI, server: Row, verb: str) -> None:
        """The block volumes kept are detached first, journalled as such. A lost answer stops the flow
        there: what a look at the server's volumes found is said, and that the server was not `verb`d. A
        server with no block volume is sent nothing (walk 23: a PATCH of the same volumes, journalled as a detach)."""
        if self.choice != "keep" or not self.block:
            return
        from ...api.errors import ApiError
        from ..kit.looks import Found
        from ..kit.writes import Looked, Write

        stopped = f"{server.name} was not {verb.lower()}d: {verb.lower()} it again to go on"
        kept = [v for v in self.current.values() if v not in self.block]

        async def look(_: object) -> Found:
            try:
                _, now = await server_volumes(ui, server.id)
            except ApiError as again:
                return Found(None, f"reading its volumes failed too ({again.summary}); {stopped}", None)
            held = {v.get("id") for v in now.values()}
            detached = not any(v.get("id") in held for v in self.block)
            return Found(
                None, f"its block volumes are {'detached' if detached else 'still attached'}; {stopped}", detached
            )

        what = f"Detach block volumes, to {verb.lower()}"
        detach = lambda act: set_server_volumes(ui.acting(act), server.id, kept)  # noqa: E731
        done = await ui.write(Write(what, "Instance", str(server.name), detach, look=look, asked=True))
        if done.lost is not None:  # the flow stops there, the server not acted on (walk 22: it read `?` in a bulk
            # delete though the look told): what the look found of its volumes is said
            raise Looked(done.lost, done.found.says if done.found else "", False)


def _named(volumes: dict[str, dict[str, Any]]) -> str:
    """' (name type size, …)': the volumes a delete takes with the server, named where it is confirmed."""
    said = [
        clean(" ".join(str(p) for p in (v.get("name"), v.get("volume_type"), f"{gb(v.get('size'))} GB") if p))
        for v in volumes.values()
    ]
    return f" ({', '.join(said)})" if said else ""


async def _keep_choice(ui: FlowUI, server: Row, verb: str) -> Decided | None:
    full, current = await server_volumes(ui, server.id)
    block = {k: v for k, v in current.items() if v.get("volume_type") in BLOCK}
    if not block:
        ok = await ui.confirm(
            f"{verb} {server.name}?",
            f"{server.name} ({server.id}) and its volumes{_named(current)} are deleted. This cannot be undone."
            if current
            else f"{server.name} ({server.id}) is deleted (it has no volumes). This cannot be undone.",
            verb,
            require_text=server.name or server.id,
        )
        return Decided("all", [], current) if ok else None
    names = ", ".join(f"{v.get('name')} ({v.get('volume_type')})" for v in block.values())
    boot = current.get("0", {})
    running_boot = boot in block.values() and full.get("state") != "stopped"
    why_not = (
        f"its boot volume {boot.get('name')} is block storage and {server.name} is {full.get('state')}: "
        "power it off first"
        if running_boot
        else None
    )
    choice = await ui.pick(
        f"{verb} {server.name}: its block volumes {names}",
        [
            (f"Keep the block volumes (detach them first), then {verb.lower()}", "keep", why_not),
            (f"{verb} with all its volumes", "all"),
            ("Cancel", ""),
        ],
    )
    if not choice:
        return None
    what = "its block volumes are detached and kept" if choice == "keep" else "all its volumes are deleted with it"
    if not await ui.confirm(
        f"{verb} {server.name}?",
        f"{server.name} ({server.id}) is deleted; {what}. This cannot be undone.",
        verb,
        require_text=server.name or server.id,
    ):
        return None
    return Decided(choice, list(block.values()), current)


async def delete_many(ui: FlowUI, servers: list[Row]) -> ForMany | None:
    """Marked servers deleted at once: the block volumes question asked once for all; each server's
    volumes read and named before asking (one whose block boot volume cannot be detached while it
    runs is left out, with why); then each: its kept volumes detached, the server deleted. When none of them
    has a block volume, nothing is asked: their volumes go with them, and each is named."""
    import asyncio

    one = len(servers) == 1
    # (each in its own zone: marked in a list of every zone, they may be in several)
    read = await asyncio.gather(
        *(server_volumes(ui, s.id, s.text("zone") or None) for s in servers), return_exceptions=True
    )
    volumes = dict(zip((s.id for s in servers), read))
    known = [r for r in read if not isinstance(r, BaseException)]  # (one not read: asked, as before)
    if len(known) == len(read) and not any(v.get("volume_type") in BLOCK for r in known for v in r[1].values()):
        choice = "all"
    else:
        choice = await ui.pick(
            f"Delete {counted(len(servers), 'server')}: {'its' if one else 'their'} block volumes",
            [
                ("Keep the block volumes (detach them first), then delete", "keep"),
                (
                    "Delete it with all its volumes" if len(servers) == 1 else "Delete them with all their volumes",
                    "all",
                ),
                ("Cancel", ""),
            ],
        )
    if not choice:
        return None
    decided: dict[str, Decided] = {}

    async def note(ui: FlowUI, server: Row) -> str:
        got = volumes.get(server.id)  # (read again when that read failed: its failure is said for it)
        full, current = got if isinstance(got, tuple) else await server_volumes(ui, server.id)
        block = [v for v in current.values() if v.get("volume_type") in BLOCK] if choice == "keep" else []
        boot = current.get("0", {})
        if boot in block and full.get("state") != "stopped":
            raise Refused(
                f"its boot volume {boot.get('name')} is block storage and it is {full.get('state')}: "
                "power it off first, or delete it with all its volumes"
            )
        decided[server.id] = Decided(choice, block, current)
        lost = {k: v for k, v in current.items() if v not in block}
        said = [f"deleted with it:{_named(lost)}"] if lost else []
        said += [f"kept, detached first:{_named({str(n): v for n, v in enumerate(block)})}"] if block else []
        return "; ".join(said) or "it has no volumes"

    async def send(ui: FlowUI, server: Row) -> Any:
        from ..kit import outcome

        await decided[server.id].detach_kept(ui, server, "Delete")
        return await outcome.delete(ui.service(), ui.scope, server)

    said = (
        ("Its" if one else "Their") + " block volumes are detached and kept"
        if choice == "keep"
        else ("All its volumes go with it" if one else "All their volumes go with them")
    )
    return ForMany(f"{said}. This cannot be undone.", note, send)


@for_many(delete_many)
@confirms_first
async def delete_flow(ui: FlowUI, server: Row) -> None:
    decided = await _keep_choice(ui, server, "Delete")
    if decided is None:
        return
    await decided.detach_kept(ui, server, "Delete")
    await ui.service().delete(ui.scope, server)
    ui.remove(server)
    kept = f"; kept {', '.join(str(v.get('name')) for v in decided.block)}" if decided.choice == "keep" else ""
    ui.notify(f"Deleted {server.name}{kept}")


@confirms_first
async def terminate_flow(ui: FlowUI, server: Row) -> None:
    decided = await _keep_choice(ui, server, "Terminate")
    if decided is None:
        return
    boot = decided.current.get("0", {})
    if decided.choice == "keep" and boot in decided.block:
        ui.notify(
            f"The boot volume {boot.get('name')} of a running server cannot be detached: power {server.name} off, "
            "then delete it keeping its volumes.",
            "warning",
        )
        return
    await decided.detach_kept(ui, server, "Terminate")
    await ui.service().run(action_call("terminate"), ui.scope, server)
    ui.notify(f"Terminating {server.name}")
    ui.follow(server)
