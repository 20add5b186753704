"""Staged record changes sent as PATCHes of `changes` (spec 3 §4.1), and the look when an answer is
lost: every applied PATCH makes a zone version (all or nothing), so the versions made since the
send are read and each is asked whether it holds what was sent — not merely whether one exists,
since another client may have changed the zone meanwhile. A look that fails, or cannot tell, keeps
the changes staged and marked unknown; the next send looks at the zone first and sends only what it
does not hold (an add sent twice is refused: the zone already holds it).

The spec states no limit on `changes`; a send of more than `CHUNK` (an imported zone file's) goes as
several PATCHes of `CHUNK`, in order, each its own version and all-or-nothing. One that stops after
another was applied raises `PartlySent`: the changes applied are said and unstaged, the rest stay
staged (those of a request whose answer was lost and that no look could tell, marked unknown).
Every look reads each record once (`Held`), whatever the number of changes."""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING, Any, Callable, Iterable, cast

from ..kit.changeset import Change
from ..kit.nouns import counted
from ..kit.outcome import NotApplied, OutcomeUnclear, PartlySent, judged
from .names import shown
from .records import record_of

if TYPE_CHECKING:
    from ...api.errors import ApiError
    from ..kit.base import Row
    from ..kit.changeset import ChangeSet
    from ..kit.service import ResourceService

LOOK_AT_MOST = 10  # versions read after a lost answer; more than that since the send: cannot tell
# Changes per PATCH: 10,000 records imported over a zone of 10,000 others (20,000 changes) make 20 of the
# 100 versions a zone keeps, and a request's body stays near 150 KB.
CHUNK = 1_000
VERBS = {"add": "add", "edit": "change", "delete": "delete"}
HOSTS = ("CNAME", "ALIAS", "NS", "PTR", "MX", "DNAME")


def op_of(change: Change) -> dict[str, Any]:
    """One staged change as an element of `changes`."""
    if change.op == "add":
        return {"add": {"records": [record_of(change.after)]}}
    if change.op == "edit":
        merged = {**change.before, **change.after}
        return {"set": {"id": change.key, "records": [record_of({k: v for k, v in merged.items() if v is not None})]}}
    return {"delete": {"id": change.key}}


async def send_changes(service: ResourceService, scope: str, changes: ChangeSet, rows: list[Row]) -> str | None:
    """The staged changes as PATCHes of at most `CHUNK`, in the order staged. Changes whose outcome
    is unknown (an earlier send lost its answer) are looked for in the zone first: those it holds are
    not sent again. Returns what to say when something was applied without an answer, None when
    answered; raises `PartlySent` when the send stops after a request was applied."""
    from ...api.errors import ApiError

    assert service.parent is not None  # (records are listed under their zone: their service has it)
    zone = service.parent.id
    known = {str(r.id) for r in rows}
    staged = list(changes.changes)
    said = ""
    if changes.unknown:
        try:
            now = await service.read_all(scope, "dns-zones", zone, "records", key="records")
        except ApiError as err:
            raise type(err)(
                err.status,
                f"{err.message}. Nothing was sent: the changes marked ? may already be applied, "
                "and looking at the zone first failed",
                err.type,
                err.body,
                err.method,
                err.url,
            ) from None
        held = Held(now)
        there = {c.key for c in changes.unknown if held.holds(c, set())}  # a record the zone holds is not added twice
        staged = [c for c in staged if c.key not in there]
        if there:
            were = "was" if len(there) == 1 else "were"
            said = f"{counted(len(there), 'change')} sent before {were} found applied in {shown(zone)}: not sent again."
        if not staged:
            return said
    told, done = [said], cast(list[Any], [])
    for at in range(0, len(staged), CHUNK):
        part = staged[at : at + CHUNK]
        try:
            told.append(await _request(service, scope, zone, part, known, at, len(staged)))
        except (ApiError, NotApplied, OutcomeUnclear) as err:
            unclear = isinstance(err, OutcomeUnclear)
            if not done and (not unclear or len(part) == len(staged)):
                raise  # nothing applied, or the one request may have been: every change stays staged, as it was
            unknown = [c.key for c in part] if unclear else []
            raise PartlySent(_stopped(err, done, part, len(staged), zone), [c.key for c in done], unknown) from None
        done.extend(part)
    return "\n".join(filter(None, told)) or None


async def _request(
    service: ResourceService, scope: str, zone: str, part: list[Change], known: set[str], at: int, total: int
) -> str:
    """One PATCH of `part` (the changes from `at` of `total`): "" when answered, what the look found
    when its answer was lost and it was applied; `NotApplied`, `OutcomeUnclear` otherwise."""
    from ...api.errors import ApiError, InvalidArguments
    from ..kit.looks import Found
    from ..kit.writes import attempt

    before = await latest_version(service, scope, zone)
    several = len(part) < total  # each request its own entry in the journal, saying which changes
    what = f"Send changes {at + 1:,}–{at + len(part):,} of {total:,}"
    act = service.act.part(what, shown(zone)) if several and service.act is not None else service.act

    async def patch() -> None:
        try:
            await service.acting(act).call(
                "PATCH",
                scope,
                "dns-zones",
                zone,
                "records",
                body={"changes": [op_of(c) for c in part], "return_all_records": False},
            )
        except InvalidArguments as err:
            staged = service.kind.writing.staged
            raise named(err, part, staged.label if staged is not None else None, at, total) from None

    async def looked(_: object) -> Found:
        try:
            applied, saw = await look(service, scope, zone, part, before, known)
        except ApiError as look_err:
            return Found(
                None,
                f"looking at the versions of {shown(zone)} failed too ({look_err.summary}), so cloudtui cannot tell "
                "whether the changes were applied.",
                None,
            )
        return Found(None, saw, applied)

    try:
        done = await attempt(act, patch, looked)
    finally:
        if act is not service.act and act is not None:
            act.end()
    if done.lost is None or done.found is None:
        return ""
    return judged(done.lost, done.found)


def _stopped(err: Exception, done: list[Change], part: list[Change], total: int, zone: str) -> str:
    """What a send that stopped partway applied, and why it stopped."""
    requests = -(-len(done) // CHUNK)
    applied = (
        f"{counted(len(done), 'change')} of {total:,} {'was' if len(done) == 1 else 'were'} applied to {shown(zone)} "
        f"({counted(requests, 'request')} of up to {CHUNK:,})"
        if done
        else f"None of the {total:,} changes is known applied to {shown(zone)}"
    )
    first, last = len(done) + 1, len(done) + len(part)
    span = f"change {first:,}" if first == last else f"changes {first:,}–{last:,}"
    if isinstance(err, OutcomeUnclear):
        why = f"the answer to the request of {span} was lost, and whether it was applied cannot be told: {err}"
    elif isinstance(err, NotApplied):
        why = f"the answer to the request of {span} was lost, and it was not applied: {err}"
    else:
        why = f"the request of {span} was refused: {getattr(err, 'summary', err)}"
    return f"{applied}; then {why}"


def named(
    err: ApiError,
    staged: list[Change],
    label: Callable[[dict[str, Any]], str] | None,
    at: int = 0,
    total: int | None = None,
) -> ApiError:
    """The refusal with each `changes.N…` it names turned into the staged change sent N-th, as the
    operator knows it: "change 6 of 6 (add www CNAME …)" rather than an index into a list never seen
    (`at`: where `staged` starts among the `total` changes, when they go in several requests)."""
    details = err.body.get("details")
    if not isinstance(details, list):
        return err
    total = len(staged) if total is None else total
    out = []
    for d in details:
        m = re.match(r"^changes\.(\d+)\b", str(d.get("argument_name") or "")) if isinstance(d, dict) else None
        if m and int(m.group(1)) < len(staged):
            c = staged[int(m.group(1))]
            what = label(c.after if c.op == "add" else {**c.before, **c.after}) if label else c.key
            d = {**d, "argument_name": f"change {at + int(m.group(1)) + 1:,} of {total:,} ({VERBS[c.op]} {what}):"}
        out.append(d)
    return type(err)(err.status, err.message, err.type, {**err.body, "details": out}, err.method, err.url)


async def latest_version(service: ResourceService, scope: str, zone: str) -> str | None:
    answer = await service.call("GET", scope, "dns-zones", zone, "versions", params={"page_size": 1})
    found = answer.get("versions") or []
    return str(found[0].get("id")) if found and isinstance(found[0], dict) else None


async def look(
    service: ResourceService, scope: str, zone: str, staged: list[Change], before: str | None, known: set[str]
) -> tuple[bool | None, str]:
    """Was the PATCH of `staged` applied, and what was seen: False when no version was made since
    `before`, or none of those made holds every change sent; True when one does; None when too many
    were made to tell. Raises the ApiError of a read that failed."""
    answer = await service.call("GET", scope, "dns-zones", zone, "versions", params={"page_size": LOOK_AT_MOST})
    versions = [str(v.get("id")) for v in answer.get("versions") or [] if isinstance(v, dict)]  # newest first
    new = versions[: versions.index(before)] if before in versions else versions
    name = shown(zone)
    if not new:
        return False, f"{name} has no new version: nothing was applied."
    for vid in reversed(new):  # the oldest first: the PATCH was read soon after `before`
        held = Held(await service.read_all(scope, "dns-zones", "version", vid, key="records"))
        if all(held.holds(c, known) for c in staged):
            sent = "it was" if len(staged) == 1 else "they were"
            return True, f"a new version of {name} holds the {counted(len(staged), 'change')} sent: {sent} applied."
    if before not in versions and len(versions) >= LOOK_AT_MOST:
        return (
            None,
            f"more than {LOOK_AT_MOST} versions of {name} were made since, none holding the changes sent: cloudtui "
            "cannot tell.",
        )
    made = f"{len(new)} version{'s' if len(new) != 1 else ''}"
    return False, (
        f"{name} has {made} since, made by another client: none holds the changes sent, so they were not applied."
    )


class Held:
    """A zone's records (or a version's), indexed once: whether they hold a change is then a look-up,
    so a look over a thousand changes reads each record once rather than once per change."""

    def __init__(self, records: Iterable[Any]) -> None:
        self.by_id: dict[str, dict[str, Any]] = {}
        self.alike: dict[tuple[str, str, str], list[dict[str, Any]]] = {}  # by name, type and data as stored
        for r in records:
            if isinstance(r, dict):
                self.by_id[str(r.get("id"))] = r
                self.alike.setdefault(_content(r), []).append(r)

    def holds(self, change: Change, known: set[str]) -> bool:
        """Whether the records hold what `change` asked: a record added (one not `known` before the
        send, with the data sent), a record set (it now has each field sent), a record deleted."""
        if change.op == "delete":
            return change.key not in self.by_id
        if change.op == "add":
            sent = record_of(change.after)
            return any(
                str(r.get("id")) not in known and _same(r, sent, ("name", "type", "data", "ttl"))
                for r in self.alike.get(_content(sent), ())
            )
        sent = record_of({**change.before, **change.after})
        fields = [k for k in change.after if k in sent or change.after[k] is None]
        mine = self.by_id.get(change.key)
        if mine is not None:
            return _same(mine, {**sent, **{k: None for k, v in change.after.items() if v is None}}, fields)
        alike = self.alike.get(_content(sent), ())
        return any(_same(r, sent, ("name", "type", "data", "ttl", *fields)) for r in alike)


def _content(record: dict[str, Any]) -> tuple[str, str, str]:
    rtype = str(record.get("type") or "").upper()
    return _host(record.get("name")), rtype, _data(rtype, record.get("data"))


def _same(record: dict[str, Any], sent: dict[str, Any], fields: Iterable[str]) -> bool:
    rtype = str(sent.get("type") or record.get("type") or "").upper()
    for key in fields:
        have, want = record.get(key), sent.get(key)
        if key == "type":
            have, want = str(have or "").upper(), str(want or "").upper()
        elif key == "name":
            have, want = _host(have), _host(want)
        elif key == "data":
            have, want = _data(rtype, have), _data(rtype, want)
        elif key == "ttl" and want is None:
            continue
        if have in ("", {}, None) and want in ("", {}, None):
            continue
        if have != want:
            return False
    return True


def _host(value: object) -> str:
    return str(value or "").strip().rstrip(".").lower()


def _data(rtype: str, value: object) -> str:
    """Record data as the platform may store it: an address compressed, a host name without its dot
    and in lower case, spaces collapsed (a TXT record's text is kept as sent)."""
    text = str(value or "")
    if rtype == "TXT":
        return text
    text = " ".join(text.split())
    if rtype in ("A", "AAAA"):
        try:
            return str(ipaddress.ip_address(text))
        except ValueError:
            return text
    if rtype in HOSTS:
        return _host(text)
    parts = text.split(" ")
    if rtype == "SRV" and len(parts) == 3:
        return " ".join([*parts[:2], _host(parts[2])])
    if rtype == "CAA" and len(parts) >= 3:
        return " ".join([parts[0], parts[1].lower(), *parts[2:]])
    return text.lower() if rtype == "TLSA" else text
