"""The `changes` of a records PATCH (spec 3 §4.1, §7.3), applied all or nothing, and the diff
between two sets of records in the same change shape.

Each change has exactly one of `add` {records}, `set` {id | id_fields, records}, `delete`
{id | id_fields}, `clear` {}; they apply in order to a working copy of the zone's records, and the
copy replaces the zone's records only if every change applied: a refused change leaves the zone as
it was, and the 400 names it (`changes.2.set.id`). Semantics chosen where the spec is silent:
- `add` refuses a record equal (name, type, data) to one the zone already holds;
- `set` by `id` replaces that record, the first new record keeping its id; by `id_fields` it
  replaces every record matching name and type (and data, TTL when given), reusing their ids, and
  adds the records when none matches (an upsert of the record set); a missing name, type, data or
  TTL in the new records is the replaced record's;
- `delete` by `id` or `id_fields` must find a record (an unknown id is refused, 400 on its field);
- `clear` removes every record, the automatic NS records included;
- after all changes, a name holding a CNAME holds nothing else, and the zone's root holds no CNAME.
Records are never changed in place (a set builds a new record), so the versions of a zone share
them. A PATCH of thousands of changes costs one pass: what the zone holds is indexed once (by name,
type and data, for `add`), and a set by `id` of one record takes its place in the copy directly.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..errors import invalid_arguments
from .names import record_name
from .records import Err, check_data, check_record, content, record_type

Rec = dict[str, Any]
KINDS = ("add", "set", "delete", "clear")


def _selector(body: dict[str, Any], where: str) -> tuple[dict[str, Any] | None, list[Err]]:
    """The `id` or `id_fields` of a set or delete, normalised: {"id": ...} or {"fields": ...}."""
    has_id, has_fields = body.get("id") is not None, body.get("id_fields") is not None
    if has_id and has_fields:
        return None, [(where, "constraint", "id and id_fields are exclusive: give one of them")]
    if not has_id and not has_fields:
        return None, [(f"{where}.id", "required", "the record's id, or id_fields")]
    if has_id:
        return (
            ({"id": body["id"]}, [])
            if isinstance(body["id"], str)
            else (None, [(f"{where}.id", "format", "a record id")])
        )
    f = body["id_fields"]
    at = f"{where}.id_fields"
    if not isinstance(f, dict):
        return None, [(at, "format", "an object {name, type, data, ttl}")]
    errs: list[Err] = [
        (f"{at}.{k}", "unknown", "unknown field") for k in sorted(set(f) - {"name", "type", "data", "ttl"})
    ]
    name, rtype = record_name(f.get("name")), record_type(f.get("type"))
    if name is None:
        errs.append((f"{at}.name", "format", "a record name"))
    if rtype is None:
        errs.append((f"{at}.type", "required" if f.get("type") is None else "constraint", "a record type"))
    data = f.get("data")
    if data is not None and rtype is not None:
        data = check_data(rtype, data)[0] or data  # compared as stored when it is valid data
    if f.get("ttl") is not None and not isinstance(f["ttl"], int):
        errs.append((f"{at}.ttl", "format", "a whole number of seconds"))
    return (None if errs else {"fields": {"name": name, "type": rtype, "data": data, "ttl": f.get("ttl")}}), errs


def _records(body: dict[str, Any], where: str, inherit: Rec | None) -> tuple[list[Rec], list[Err]]:
    items = body.get("records")
    if not isinstance(items, list) or not items:
        return [], [(f"{where}.records", "required", "a non-empty list of records")]
    out, errs = [], []
    for j, raw in enumerate(items):
        rec, e = check_record(raw, f"{where}.records.{j}", inherit)
        errs += e
        if rec is not None:
            out.append(rec)
    return out, errs


def parse(changes: object) -> list[tuple[str, str, dict[str, Any]]]:
    """Every change checked for its shape, before anything applies: (kind, path, body)."""
    if not isinstance(changes, list):
        raise invalid_arguments(("changes", "required", "a list of changes, each with one of add, set, delete, clear"))
    out, errs = [], []
    for i, change in enumerate(changes):
        at = f"changes.{i}"
        if not isinstance(change, dict):
            errs.append((at, "format", "an object with one of add, set, delete, clear"))
            continue
        errs += [(f"{at}.{k}", "unknown", "unknown field") for k in sorted(set(change) - set(KINDS))]
        kinds = [k for k in KINDS if change.get(k) is not None]
        if len(kinds) != 1:
            errs.append(
                (
                    at,
                    "constraint",
                    "exactly one of add, set, delete, clear"
                    + (f"; this change has {', '.join(kinds)}" if kinds else ""),
                )
            )
            continue
        kind, body = kinds[0], change[kinds[0]]
        where = f"{at}.{kind}"
        if not isinstance(body, dict):
            errs.append((where, "format", "an object"))
            continue
        allowed = {
            "add": {"records"},
            "set": {"id", "id_fields", "records"},
            "delete": {"id", "id_fields"},
            "clear": set(),
        }[kind]
        errs += [(f"{where}.{k}", "unknown", "unknown field") for k in sorted(set(body) - allowed)]
        out.append((kind, where, body))
    if errs:
        raise invalid_arguments(*errs)
    return out


def _matches(rec: Rec, fields: dict[str, Any]) -> bool:
    return (
        rec["name"] == fields["name"]
        and rec["type"] == fields["type"]
        and (fields["data"] is None or rec["data"] == fields["data"])
        and (fields["ttl"] is None or rec["ttl"] == fields["ttl"])
    )


def apply(
    records: dict[str, Rec], changes: object, new_id: Callable[[], str], now: str
) -> tuple[dict[str, Rec], list[str]]:
    """The zone's records after `changes`, and the ids of the records they added or set (in order,
    those still there at the end); raises the 400 of the first refused change, nothing applied."""
    work = dict(records)
    touched: dict[str, str] = {}  # id -> the path of the change that wrote it
    held: Counter[tuple[str, str, str]] | None = None  # (name, type, data) -> how many, once an add asks

    def stamp(rec: Rec, rid: str) -> Rec:
        return {"id": rid, **rec, "updated_at": now}

    def same(rec: Rec) -> tuple[str, str, str]:
        return rec["name"], rec["type"], rec["data"]

    def gone(rid: str) -> Rec:
        rec = work.pop(rid)
        if held is not None:
            held[same(rec)] -= 1
        return rec

    def put(rid: str, rec: Rec) -> None:
        work[rid] = rec
        if held is not None:
            held[same(rec)] += 1

    for kind, where, body in parse(changes):
        if kind == "clear":
            work.clear()
            held = None
            continue
        if kind == "add":
            recs, errs = _records(body, where, None)
            if errs:
                raise invalid_arguments(*errs)
            if held is None:
                held = Counter(same(r) for r in work.values())
            for j, rec in enumerate(recs):
                if held[same(rec)] > 0:
                    raise invalid_arguments(
                        (
                            f"{where}.records.{j}",
                            "constraint",
                            f"the zone already holds {rec['type']} {rec['name'] or '@'} {rec['data']}",
                        )
                    )
                rid = new_id()
                put(rid, stamp(rec, rid))
                touched[rid] = f"{where}.records.{j}"
            continue
        sel, errs = _selector(body, where)
        if errs or sel is None:
            raise invalid_arguments(*errs)
        if "id" in sel:
            if sel["id"] not in work:
                raise invalid_arguments((f"{where}.id", "constraint", f"the zone has no record {sel['id']}"))
            targets = [sel["id"]]
        else:
            targets = [rid for rid, r in work.items() if _matches(r, sel["fields"])]
            if not targets and kind == "delete":
                raise invalid_arguments(
                    (f"{where}.id_fields", "constraint", "no record of the zone matches these fields")
                )
        if kind == "delete":
            for rid in targets:
                gone(rid)
            continue
        inherit = work[targets[0]] if targets else {k: v for k, v in sel.get("fields", {}).items() if v is not None}
        recs, errs = _records(body, where, inherit)
        if errs:
            raise invalid_arguments(*errs)
        if len(targets) == 1 and len(recs) == 1:  # one record for one: in its place, the copy not rebuilt
            rid = targets[0]
            if held is not None:
                held[same(work[rid])] -= 1
            put(rid, stamp(recs[0], rid))  # (a key already there keeps its place)
            touched[rid] = f"{where}.records.0"
            continue
        held = None  # rebuilt below: counted again by the next add
        reuse = list(targets)
        rebuilt: dict[str, Rec] = {}
        placed = False
        for rid, r in work.items():  # the new records take the place of the first replaced one
            if rid in targets:
                if not placed:
                    placed = True
                    for j, rec in enumerate(recs):
                        nid = reuse.pop(0) if reuse else new_id()
                        rebuilt[nid] = stamp(rec, nid)
                        touched[nid] = f"{where}.records.{j}"
                continue
            rebuilt[rid] = r
        if not placed:
            for j, rec in enumerate(recs):
                nid = new_id()
                rebuilt[nid] = stamp(rec, nid)
                touched[nid] = f"{where}.records.{j}"
        work = rebuilt
    check_cnames(work, touched)
    return work, [rid for rid in touched if rid in work]


def check_cnames(work: dict[str, Rec], touched: dict[str, str]) -> None:
    """RFC 1034 §3.6.2: a CNAME is alone at its name; the zone's root (its SOA and NS) holds none.
    The 400 names the change that broke the rule: the one that wrote the CNAME, else the last one
    that wrote a record at that name (not the first change that happened to touch the name)."""
    by_name: dict[str, list[str]] = {}
    r: Rec | None
    for rid, r in work.items():
        by_name.setdefault(r["name"], []).append(rid)
    blamed: dict[str, str] = {}  # name -> the change to name in a refusal
    wrote_cname: set[str] = set()
    for rid, where in touched.items():  # in the order the changes wrote them
        r = work.get(rid)
        if r is None or r["name"] in wrote_cname:
            continue
        blamed[r["name"]] = where
        if r["type"] == "CNAME":
            wrote_cname.add(r["name"])
    for name, where in blamed.items():
        others = [work[rid] for rid in by_name[name]]
        has_cname = any(o["type"] == "CNAME" for o in others)
        if has_cname and name == "":
            raise invalid_arguments((where, "constraint", "the zone's root cannot hold a CNAME (use an ALIAS record)"))
        if has_cname and len(others) > 1:
            raise invalid_arguments(
                (where, "constraint", f"{name!r} holds a CNAME, which cannot share its name with other records")
            )


def diff(old: list[Rec], new: list[Rec]) -> list[dict[str, Any]]:
    """The changes that turn records `old` into records `new`, matched by id: a delete per record
    gone, a set per record changed, one add of the records that are new."""
    before = {r["id"]: r for r in old}
    after = {r["id"]: r for r in new}
    out: list[dict[str, Any]] = [{"delete": {"id": rid}} for rid in before if rid not in after]
    out += [
        {"set": {"id": rid, "records": [after[rid]]}}
        for rid in before
        if rid in after and content(before[rid]) != content(after[rid])
    ]
    added = [r for rid, r in after.items() if rid not in before]
    if added:
        out.append({"add": {"records": added}})
    return out
