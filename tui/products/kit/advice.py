"""The advisor's rules and their one evaluator (issue 52, item 2): what needs attention across products —
waste, open doors, what breaks soon, links to nothing — found in what the console has read.

A rule is data a product declares (its package's `advice.py`, named by its manifest's `ADVICE`): its id,
title, family and severity, the kinds it reads (its findings are rows of the first), the field roles it
reads, and the fix it offers (an action of the kind, by name; none: the finding opens the resource). The
few shapes below say what it looks for, by the kinds' declared fields:

- `Unattached`: a reference field that holds nothing (an IP attached to no server: billed for nothing);
- `InState`: rows in some states (a server stopped in place: still billed);
- `Expiring`: a time field within some days, or a state that says so (a domain expiring);
- `UnheldAddress`: an address field holding an address no resource of the lists that hold addresses
  holds (a DNS record pointing at a released address: one someone else can be given);
- `Flagged`: a flag that is true (a registry namespace public);
- `PointsAtState`: an address field naming an address a resource holds while in some states (a record or
  a backend sending to a stopped server);
- `OpenToWorld`: a network field open to every address, on some ports (SSH from 0.0.0.0/0);
- `Outlived`: a version a resource runs whose end of life, as the product's catalogue says, is past or near
  (a database engine, a cache version);
- `OlderThan`: a time field older than an age the operator sets in the config (`[advisor]`), or a
  default (a backup kept for months);
- `Tested`: what no shape says, the product's own test of a row (a load balancer not highly available).

`advise` runs every rule over the rows read (the index's `Held` lists), in one pass each, off the UI
thread; a rule whose kinds were not all read says so on its findings (`partial`), or, when its own kind
was not read, is named as not run. No Textual and no product named here.
"""

from __future__ import annotations

import functools
import logging
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Iterator, Literal, Mapping

from ...records import record
from .location import ALL
from .times import span

log = logging.getLogger("cloudtui.advice")

if TYPE_CHECKING:
    from ipaddress import IPv4Network, IPv6Network

    from .base import ParentRef, ResourceKind, Row
    from .declared import Field
    from .related import Held

Severity = Literal["error", "warning", "review"]
SEVERITIES: tuple[str, ...] = ("error", "warning", "review")
FAMILIES = ("Open doors", "Soon broken", "Broken links", "Paid for nothing", "Points at nothing we hold")


@record(frozen=True)
class Finding:
    """One resource a rule found: which rule, the resource (its kind, zone, id, name, and the parent a
    child was listed under), why, in words, and the fix offered (an action of its kind; "" opens it)."""

    rule: str
    title: str
    family: str
    severity: str
    kind_id: str
    scope: str
    row_id: str
    name: str
    why: str
    fix: str = ""
    parent: ParentRef | None = None
    partial: str = ""  # what the rule needed that was not read ("" when it read everything it reads)
    refused: str = ""  # why its fix cannot be made on the resource as read (a locked backup: not deleted)

    @property
    def key(self) -> str:
        """What a mute names: the rule and the resource."""
        return f"{self.rule}:{self.kind_id}:{self.row_id}"


class Reading:
    """What was read, as a rule asks for it: a kind's rows (with the list each came from), the addresses
    every list holds, and what was not read."""

    def __init__(
        self, held: Iterable[Held], kinds_read: set[str], now: float, days: Mapping[str, int] | None = None
    ) -> None:
        self.now = now
        self.read = kinds_read
        self.days: Mapping[str, int] = days or {}  # ages the operator set (`[advisor]`), by name
        self._rows: dict[str, list[tuple[Row, Held]]] = {}
        for part in held:  # (a resource in two reads is told once by `rows`)
            self._rows.setdefault(part.kind.id, []).extend((r, part) for r in part.rows)
        self._by_address: dict[str, list[tuple[Row, Held, set[str]]]] = {}
        self._once: dict[str, list[tuple[Row, Held]]] = {}
        # what a rule works out once a pass for another to use: the addresses of resources in some states
        # (`PointsAtState`), by (the kinds, the states)
        self.kept: dict[tuple[tuple[str, ...], frozenset[str]], dict[str, tuple[Row, Held]]] = {}

    def kinds(self) -> list[str]:
        """The kinds whose rows were read."""
        return list(self._rows)

    def rows(self, kind_id: str) -> list[tuple[Row, Held]]:
        """The rows of a kind read, each once (an open list's and `F`'s read of the same resource: once)."""
        out = self._once.get(kind_id)
        if out is None:
            out, ids = [], set()
            for row, part in self._rows.get(kind_id, ()):
                if row.id not in ids:
                    ids.add(row.id)
                    out.append((row, part))
            self._once[kind_id] = out
        return out

    def addresses_of(self, kind_id: str) -> list[tuple[Row, Held, set[str]]]:
        """The rows of a kind read, each with the addresses it holds (worked out once a pass)."""
        out = self._by_address.get(kind_id)
        if out is None:
            from .related import addresses

            out = self._by_address[kind_id] = [(r, p, addresses(p.kind, r)) for r, p in self.rows(kind_id)]
        return out

    def addresses_held(self, kinds: Iterable[str]) -> dict[str, set[str]]:
        """Every address each of `kinds` read holds (its `ip` fields)."""
        out: dict[str, set[str]] = {}
        for kind_id in kinds:
            found = set().union(*(a for _, _, a in self.addresses_of(kind_id)))
            if found:
                out[kind_id] = found
        return out


@record(frozen=True, eq=False)
class Rule:
    """What every rule declares (see the shapes below for what each looks for)."""

    id: str
    title: str
    family: str
    severity: Severity
    kind: str  # the kind of its findings' rows (a child kind's id for a child list's rows)
    fix: str = ""  # an action of that kind offered as the fix, by name ("delete": its delete)
    also: tuple[str, ...] = ()  # other kinds it reads

    def unsure(self, incomplete: Collection[str]) -> list[str]:
        """The kinds read but not whole without which its findings could be false (not merely short): it
        is then not run. None for most: a resource found in what was read stands."""
        return []

    @property
    def kinds(self) -> tuple[str, ...]:
        return (self.kind, *self.also)

    @property
    def roles(self) -> tuple[str, ...]:
        """The field roles it reads (what the index keeps for it)."""
        return ()

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        """(row, the list it came from, why) for each resource it finds."""
        raise NotImplementedError


@functools.lru_cache(maxsize=None)
def _field(kind: ResourceKind, key: str) -> Field:
    found = next((f for f in kind.fields if f.key == key and f.path), None)
    if found is None:
        raise ValueError(f"{kind.id} has no field {key!r} with a path")
    return found


@record(frozen=True, eq=False)
class Unattached(Rule):
    """A reference field (`field`, by key) that names nothing: the resource is attached to nothing."""

    field: str = ""
    what: str = "attached to nothing"

    @property
    def roles(self) -> tuple[str, ...]:
        return ("ref",)

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        for row, part in reading.rows(self.kind):
            f = _field(part.kind, self.field)
            if not f.values(row):
                yield row, part, self.what


@record(frozen=True, eq=False)
class InState(Rule):
    """Rows in one of `states`, said as `what`."""

    states: frozenset[str] = frozenset()
    what: str = ""

    @property
    def roles(self) -> tuple[str, ...]:
        return ("state",)

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        for row, part in reading.rows(self.kind):
            if str(row.state or "") in self.states:
                yield row, part, self.what or f"it is {row.state}"


@record(frozen=True, eq=False)
class Expiring(Rule):
    """A time field (`field`) within `days` from now, or past; or a state in `states` that says so."""

    field: str = ""
    days: int = 30
    states: frozenset[str] = frozenset()

    @property
    def roles(self) -> tuple[str, ...]:
        return ("time", "state")

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        for row, part in reading.rows(self.kind):
            at = _when(_field(part.kind, self.field).value(row))
            if at is not None and at - reading.now <= self.days * 86400:
                left = at - reading.now  # as the detail says it ("in 14 d 23 h"): never a day short
                said = f"expired {span(-left)} ago" if left < 0 else f"expires in {span(left)}"
                yield row, part, f"{said} ({datetime.fromtimestamp(at).strftime('%Y-%m-%d')})"
            elif str(row.state or "") in self.states:
                yield row, part, f"its status is {row.state}"


def _when(value: Any) -> float | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


@record(frozen=True, eq=False)
class UnheldAddress(Rule):
    """An address field (`field`) of rows whose `type_field` is one of `types`, holding an address no
    resource of the kinds in `also` (the kinds that hold addresses; default: every other list read) holds."""

    field: str = ""
    type_field: str = ""
    types: frozenset[str] = frozenset()

    @property
    def roles(self) -> tuple[str, ...]:
        return ("ip",)

    def unsure(self, incomplete: Collection[str]) -> list[str]:
        # (an address held in a zone not read would be called held by nothing)
        return [k for k in incomplete if k != self.kind and (not self.also or k in self.also)]

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        # the kinds that hold addresses (not those that point at them: records, backends); else every other
        holders = self.also or tuple(k for k in reading.kinds() if k != self.kind)
        held = reading.addresses_held(holders)
        every = set().union(*held.values()) if held else set()
        for row, part in reading.rows(self.kind):
            if self.type_field and str(_field(part.kind, self.type_field).value(row) or "") not in self.types:
                continue
            for address in _addresses(_field(part.kind, self.field).values(row)):
                if address not in every and _takeable(address):
                    said = f"points at {address}, held by nothing read (of {len(held)} kinds holding addresses)"
                    yield row, part, f"{said}: released, it can be someone else's — or it is hosted elsewhere"
                    break


def _addresses(values: Iterable[Any]) -> Iterator[str]:
    """The addresses a field holds, one by one (a backend's pool is a list)."""
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _addresses(v)
        elif v is not None and v != "":
            yield str(v)


_INTERNAL = (
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "fc00::/7",
    "fe80::/10",
    "::1/128",
)


def _takeable(address: str) -> bool:
    """An address someone else could be given: an address (not text sent where one belongs), and not of a
    private network (no one outside can be given one of those: not worth a finding)."""
    import ipaddress

    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not any(ip in n for n in _networks() if n.version == ip.version)


@functools.lru_cache(maxsize=1)
def _networks() -> tuple[IPv4Network | IPv6Network, ...]:
    import ipaddress

    return tuple(ipaddress.ip_network(n) for n in _INTERNAL)


@record(frozen=True, eq=False)
class Flagged(Rule):
    """A flag field (`field`) that is true, said as `what` (a registry namespace public)."""

    field: str = ""
    what: str = ""

    @property
    def roles(self) -> tuple[str, ...]:
        return ("flag",)

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        for row, part in reading.rows(self.kind):
            if _field(part.kind, self.field).value(row) is True:
                yield row, part, self.what


@record(frozen=True, eq=False)
class PointsAtState(Rule):
    """An address field (`field`) naming an address a resource of the kinds in `also` holds while in one
    of `states` (a DNS record, a backend, sending to a stopped server)."""

    field: str = ""
    type_field: str = ""
    types: frozenset[str] = frozenset()
    states: frozenset[str] = frozenset()

    @property
    def roles(self) -> tuple[str, ...]:
        return ("ip", "state")

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        targets: dict[str, tuple[Row, Held]] | None = reading.kept.get((self.also, self.states))
        if targets is None:  # (two rules asking the same: worked out once)
            targets = reading.kept[(self.also, self.states)] = {}
            for kind_id in self.also:
                for row, part, held in reading.addresses_of(kind_id):
                    if str(row.state or "") in self.states:
                        targets.update(dict.fromkeys(held, (row, part)))
        if not targets:
            return
        for row, part in reading.rows(self.kind):
            if self.type_field and str(_field(part.kind, self.type_field).value(row) or "") not in self.types:
                continue
            for address in _addresses(_field(part.kind, self.field).values(row)):
                if address in targets:
                    target, where = targets[address]
                    said = f"{where.kind.singular} {target.name or target.id}"
                    yield row, part, f"sends to {address}, held by {said}, which is {target.state}"
                    break


WORLD = frozenset({"0.0.0.0/0", "::/0", "0.0.0.0", "::"})
PORT_NAMES = {22: "SSH", 3389: "RDP", 3306: "MySQL", 5432: "PostgreSQL", 6379: "Redis", 27017: "MongoDB"}


@record(frozen=True, eq=False)
class OpenToWorld(Rule):
    """A network field (`field`: an address or a range) open to every address (0.0.0.0/0, ::/0); where
    `ports` are given, on one of them (the `port_from`..`port_to` fields' range; no port: every one); where
    `where` names fields, only rows whose field holds one of the values given (inbound, accept)."""

    field: str = ""
    ports: frozenset[int] = frozenset()
    port_from: str = ""
    port_to: str = ""
    where: tuple[tuple[str, frozenset[str]], ...] = ()
    what: str = "open to every address"

    @property
    def roles(self) -> tuple[str, ...]:
        return ("ip", "count")

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        for row, part in reading.rows(self.kind):
            kind = part.kind
            if not WORLD.intersection(_addresses(_field(kind, self.field).values(row))):
                continue
            if any(str(_field(kind, key).value(row) or "").lower() not in allowed for key, allowed in self.where):
                continue
            if not self.ports:
                yield row, part, self.what
                continue
            low = _port(_field(kind, self.port_from).value(row)) if self.port_from else None
            high = _port(_field(kind, self.port_to).value(row)) if self.port_to else None
            high = high if high is not None else low
            open_on = sorted(p for p in self.ports if low is None or (high is not None and low <= p <= high))
            if open_on:
                named = ", ".join(f"{PORT_NAMES.get(p, 'port')} ({p})" for p in open_on)
                yield row, part, f"{named} {self.what}"


def _port(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@record(frozen=True, eq=False)
class Outlived(Rule):
    """A version a row runs (`field`: its name as the catalogue names it) whose end of life is past or
    within `days`, as the catalogue kinds in `also` say: each of their rows is a version (`versions` ""),
    or holds a list of them under `versions`; a version is named by its `name` key, its end of life at `end`."""

    field: str = ""
    versions: str = ""
    name: str = "name"
    end: str = "end_of_life"
    days: int = 90

    @property
    def roles(self) -> tuple[str, ...]:
        return ("ref",)

    def ends(self, reading: Reading) -> dict[str, float]:
        """Each version's end of life (the earliest, where scopes differ), by its name."""
        out: dict[str, float] = {}
        for kind_id in self.also:
            for row, _ in reading.rows(kind_id):
                for v in row.items(self.versions) if self.versions else [row.raw]:
                    at = _when(v.get(self.end)) if isinstance(v, dict) else None
                    if at is not None and v.get(self.name):
                        name = str(v[self.name])
                        out[name] = min(at, out.get(name, at))
        return out

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        ends = self.ends(reading)
        if not ends:
            return
        for row, part in reading.rows(self.kind):
            runs = str(_field(part.kind, self.field).value(row) or "")
            at = ends.get(runs)
            if at is None or at - reading.now > self.days * 86400:
                continue
            left, date = (at - reading.now) / 86400, datetime.fromtimestamp(at).strftime("%Y-%m-%d")
            if left < 0:
                yield row, part, f"runs {runs}, past its end of life since {date} ({int(-left)} days)"
            else:
                yield row, part, f"runs {runs}, whose end of life is in {int(left)} days ({date})"


@record(frozen=True, eq=False)
class OlderThan(Rule):
    """A time field (`field`) older than the days the operator set under `setting` (`[advisor]` in the
    config), else `days`."""

    field: str = ""
    setting: str = ""
    days: int = 60
    unless: frozenset[str] = frozenset()  # states it leaves out (a backup locked by the platform: a hold)

    @property
    def roles(self) -> tuple[str, ...]:
        return ("time",)

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        days = reading.days.get(self.setting, self.days)
        whose = (
            f"the {days} days set in [advisor] {self.setting}"
            if self.setting in reading.days
            else f"{days} days (by default: [advisor] {self.setting} sets it)"
        )
        for row, part in reading.rows(self.kind):
            if str(row.state or "") in self.unless:
                continue
            at = _when(_field(part.kind, self.field).value(row))
            if at is not None and reading.now - at > days * 86400:
                yield row, part, f"made {int((reading.now - at) / 86400)} days ago: older than {whose}"


def _no_finding(row: Row) -> str | None:
    return None


@record(frozen=True, eq=False)
class Tested(Rule):
    """Rows the product's own `test` finds (a row → why, or None): what no shape above says (a load
    balancer whose two instances are not both ready); `reads`: the field roles the test reads."""

    test: Callable[[Row], str | None] = _no_finding
    reads: tuple[str, ...] = ("state",)

    @property
    def roles(self) -> tuple[str, ...]:
        return self.reads

    def check(self, reading: Reading) -> Iterator[tuple[Row, Held, str]]:
        for row, part in reading.rows(self.kind):
            why = self.test(row)
            if why:
                yield row, part, why


def _refused(kind: ResourceKind, fix: str, row: Row) -> str:
    """Why the fix cannot be made on `row` as read ("" when it can, or there is none): the kind's own
    refusal of a delete or an edit, or an action's state."""
    if not fix:
        return ""
    refuses = kind.writing.refuses
    if fix in ("delete", "edit"):
        return (refuses.delete if fix == "delete" else refuses.edit)(row) or ""
    spec = next((a for a in kind.actions if a.name == fix), None)
    if spec is None or spec.available(row):
        return ""
    return spec.why_not(row) or f"not while it is {row.state}"


def advise(
    rules: Iterable[Rule],
    held: Iterable[Held],
    kinds_read: set[str] | None = None,
    now: Callable[[], float] = time.time,
    days: Mapping[str, int] | None = None,
    incomplete: Collection[str] = (),
    titles: Mapping[str, str] | None = None,
) -> tuple[list[Finding], list[str]]:
    """Every finding of every rule over what was read, the most severe first; and the rules not run,
    said (their kind was not read). `kinds_read`: the kinds whose lists were read (default: those held);
    `days`: the ages the operator set (`[advisor]` in the config: `OlderThan`); `incomplete`: the kinds
    read but not whole (a zone failed): a rule reading one says its findings may be short, and one whose
    findings could be false is not run; `titles`: how a kind is said (its id by default)."""
    said_as = titles or {}

    def named(kinds: Iterable[str]) -> str:
        return ", ".join(said_as.get(k, k) for k in kinds)

    held = list(held)
    read = kinds_read if kinds_read is not None else {h.kind.id for h in held}
    reading = Reading(held, read, now(), days)
    found: list[Finding] = []
    not_run: list[str] = []
    for rule in rules:
        if rule.kind not in read:
            not_run.append(f"{rule.title} ({named([rule.kind])} not read)")
            continue
        unsure = rule.unsure(incomplete)
        if unsure:
            not_run.append(f"{rule.title} ({named(unsure)} not read whole: what is held there is not known)")
            continue
        missing = [k for k in rule.also if k not in read]
        short = [k for k in rule.kinds if k in incomplete and k not in missing]
        said = (("not read", missing), ("not read whole", short))
        partial = "; ".join(f"{words}: {named(kinds)}" for words, kinds in said if kinds)
        try:
            found.extend(_found(rule, reading, partial))
        except Exception as err:  # (what the API returned, read leniently, may still surprise a rule)
            log.warning("advisor rule %s failed: %r", rule.id, err)
            not_run.append(f"{rule.title} (failed on what was read: {type(err).__name__}, logged)")
    # by family (each once), the most severe first within it, a rule's findings together, in the same
    # order every pass (where, then name)
    found.sort(
        key=lambda f: (
            FAMILIES.index(f.family) if f.family in FAMILIES else 9,
            SEVERITIES.index(f.severity),
            f.rule,
            f.parent.name if f.parent is not None else "",
            f.scope,
            f.name,
        )
    )
    return found, not_run


def _found(rule: Rule, reading: Reading, partial: str) -> list[Finding]:
    """A rule's findings: each resource it finds, where, why, and its fix's refusal."""
    out = []
    for row, part, why in rule.check(reading):
        scope = (part.kind.scope_of(row) if part.scope == ALL else "") or part.scope
        named, refused = part.kind.named(row), _refused(part.kind, rule.fix, row)
        out.append(
            Finding(
                rule.id,
                rule.title,
                rule.family,
                rule.severity,
                part.kind.id,
                scope,
                str(row.id),
                named,
                why,
                rule.fix,
                part.parent,
                partial,
                refused,
            )
        )
    return out
