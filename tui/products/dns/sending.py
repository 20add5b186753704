"""Staged record changes sent as one PATCH of `changes` (spec 3 §4.1), and the look when its answer
is lost: every applied PATCH makes a zone version (all or nothing), so the versions made since the
send are read and each is asked whether it holds what was sent — not merely whether one exists,
since another client may have changed the zone meanwhile. A look that fails, or cannot tell, keeps
the changes staged and marked unknown; the next send looks at the zone first and sends only what it
does not hold (an add sent twice is refused: the zone already holds it)."""

from __future__ import annotations

import ipaddress
import re
from typing import Any, Iterable

from ..changeset import Change
from ..nouns import counted
from ..outcome import OutcomeUnclear, judged
from .names import shown
from .records import record_of

LOOK_AT_MOST = 10  # versions read after a lost answer; more than that since the send: cannot tell
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


async def send_changes(service: Any, scope: str, changes: Any, rows: Any) -> str | None:
    """The staged changes as one PATCH, in the order staged. Changes whose outcome is unknown (an
    earlier send lost its answer) are looked for in the zone first: those it holds are not sent
    again. Returns what to say when something was applied without an answer, None when answered."""
    from ...api.errors import ApiError, InvalidArguments, OutcomeUnknown

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
        there = [c for c in changes.unknown if holds(now, c, set())]  # a record the zone holds is not added twice
        staged = [c for c in staged if c not in there]
        if there:
            were = "was" if len(there) == 1 else "were"
            said = f"{counted(len(there), 'change')} sent before {were} found applied in {shown(zone)}: not sent again."
        if not staged:
            return said
    ops = [op_of(c) for c in staged]
    before = await latest_version(service, scope, zone)
    try:
        await service.call(
            "PATCH", scope, "dns-zones", zone, "records", body={"changes": ops, "return_all_records": False}
        )
    except InvalidArguments as err:
        raise named(err, staged, service.kind.writing.label) from None
    except OutcomeUnknown as err:
        try:
            applied, saw = await look(service, scope, zone, staged, before, known)
        except ApiError as look_err:
            raise OutcomeUnclear(
                f"{err.summary}\nLooking at the versions of {shown(zone)} failed too ({look_err.summary}), "
                "so cloudtui cannot tell whether the changes were applied."
            ) from None
        return "\n".join(filter(None, [said, judged(err, applied, saw)]))
    return said or None


def named(err: Any, staged: list[Change], label: Any) -> Any:
    """The refusal with each `changes.N…` it names turned into the staged change sent N-th, as the
    operator knows it: "change 6 of 6 (add www CNAME …)" rather than an index into a list never seen."""
    details = err.body.get("details")
    if not isinstance(details, list):
        return err
    out = []
    for d in details:
        m = re.match(r"^changes\.(\d+)\b", str(d.get("argument_name") or "")) if isinstance(d, dict) else None
        if m and int(m.group(1)) < len(staged):
            c = staged[int(m.group(1))]
            what = label(c.after if c.op == "add" else {**c.before, **c.after}) if label else c.key
            d = {**d, "argument_name": f"change {int(m.group(1)) + 1} of {len(staged)} ({VERBS[c.op]} {what}):"}
        out.append(d)
    return type(err)(err.status, err.message, err.type, {**err.body, "details": out}, err.method, err.url)


async def latest_version(service: Any, scope: str, zone: str) -> str | None:
    answer = await service.call("GET", scope, "dns-zones", zone, "versions", params={"page_size": 1})
    found = answer.get("versions") or []
    return str(found[0].get("id")) if found and isinstance(found[0], dict) else None


async def look(
    service: Any, scope: str, zone: str, staged: list[Change], before: str | None, known: set[str]
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
        records = await service.read_all(scope, "dns-zones", "version", vid, key="records")
        if all(holds(records, c, known) for c in staged):
            return True, f"a new version of {name} holds the {counted(len(staged), 'change')} sent: they were applied."
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


def holds(records: Iterable[dict[str, Any]], change: Change, known: set[str]) -> bool:
    """Whether a zone's `records` hold what `change` asked: a record added (one not `known` before
    the send, with the data sent), a record set (it now has each field sent), a record deleted."""
    records = [r for r in records if isinstance(r, dict)]
    if change.op == "delete":
        return not any(str(r.get("id")) == change.key for r in records)
    if change.op == "add":
        sent = record_of(change.after)
        return any(str(r.get("id")) not in known and _same(r, sent, ("name", "type", "data", "ttl")) for r in records)
    sent = record_of({**change.before, **change.after})
    fields = [k for k in change.after if k in sent or change.after[k] is None]
    mine = [r for r in records if str(r.get("id")) == change.key]
    if mine:
        return _same(mine[0], {**sent, **{k: None for k, v in change.after.items() if v is None}}, fields)
    return any(_same(r, sent, ("name", "type", "data", "ttl", *fields)) for r in records)


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


def _host(value: Any) -> str:
    return str(value or "").strip().rstrip(".").lower()


def _data(rtype: str, value: Any) -> str:
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
