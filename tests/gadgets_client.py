"""The test product's console side, in one module: "Gadgets", declared only through the shared
mechanisms (kinds, children, a panel, a secret field, an endpoint of its own, the manifest, verbs
with the context, a PUT edit, action shapes, a panel absent until activated, and the generic
screens: a chat, a playground, a topology tree and a version diff).
Nothing in `tui/ui` or the shared service knows it. Its sandbox side is `gadgets_sandbox.py`.
"""

from __future__ import annotations

from typing import Any

from tui.products.kit.base import (
    ActionSpec,
    Call,
    Child,
    Column,
    DetailPanel,
    Lazy,
    ListParams,
    Parent,
    kinds_of,
)
from tui.products.kit.format import state_text
from tui.products.kit.location import Endpoint, FromContext
from tui.products.kit.set_editor import SetEditor
from tui.products.kit.shapes import FormCall, ShowValue
from tui.products.manifest import Entry
from tui.products.kit.views import ChatSpec, CompareVersions, Gauge, Node, Playground
from tui.products.kit.declared import Field
from tui.products.kit.kind_options import Item, Order, Reading, Secrets, Singleton, Staged, Writing

HERE = "gadgets_client:"
FORMS = "gadgets_forms:"  # its forms, loaded on first use (pydantic off the start path, as a product's)
PROJECT = {"project_id": FromContext("project_id")}  # a body the context fills
LABEL_COLUMNS = (
    Column("key", "Key", lambda r: str(r.get("key", "")), width=12),
    Column("value", "Value", lambda r: str(r.get("value", "")), width=16),
)
KEYS_API = Endpoint("gadget-keys", "genai_url", "Bearer")  # an API of its own, reached with a bearer token
# What every Gadgets kind shares; a kind says only what differs (the account, station and keys are global).
gadget_kind = kinds_of(product="Gadgets", api="gadgets/v1", scope_type="region", paging="page_size")

GADGETS = gadget_kind(
    id="gadgets.gadgets",
    title="Gadgets",
    singular="gadget",
    collection="gadgets",
    reading=Reading(page_size=2, list_params=ListParams({"project_id": "project_id"})),
    columns=(
        Column("name", "Name", lambda r: r.name, width=12),
        Column("state", "State", lambda r: state_text(r.state), width=14),
        Column("region", "Region", lambda r: r.text("region"), width=8),
    ),
    fields=(Field("name", "Name", "name"), Field("state", "State", "state")),
    transitional=frozenset({"building", "restarting"}),
    delete=Call("DELETE", "{id}"),
    actions=(
        ActionSpec("check", "Check (changes nothing)", call=Call("POST", "{id}/check", mutating=False)),
        ActionSpec("restart", "Restart", lambda r: r.state == "ready", confirm=True, call=Call("POST", "{id}/restart")),
        ActionSpec(
            "tune",
            "Tune…",
            shape=FormCall(
                "Tune {name}",
                Lazy(FORMS + "TuneForm"),
                Call("POST", "{id}/tune", PROJECT),
                done="{name}: tuned",
                initial=lambda r: {"level": r.get("level") or 1},
                then="upsert",
            ),
        ),
        ActionSpec(
            "labels",
            "Labels (replace the set)…",
            shape=SetEditor(
                "Labels of {name}",
                Lazy(FORMS + "LabelRecord"),
                LABEL_COLUMNS,
                Call("PUT", "{id}/labels"),
                "labels",
                ("key", "value"),
                "label",
                read="labels",
                unique="key",
                max_count=3,
                empty="A gadget without labels is listed as unlabelled.",
            ),
        ),
        ActionSpec("address", "Address (copy)…", shape=ShowValue("Address of {name}", "{address}")),
        ActionSpec(
            "probe",
            "Health probe…",
            shape=FormCall(
                "Health probe of {name}",
                Lazy(FORMS + "ProbeForm"),
                Call("PUT", "{id}/probe"),
                body=Lazy(FORMS + "probe_body"),
                done="{name}: probe set",
            ),
        ),
        ActionSpec(
            "try",
            "Try a prediction…",
            shape=Playground(
                "Predictions of {name}",
                Call("POST", "{id}/predict", mutating=False),
                template='{"inputs": [1, 2]}',
                docs=Call("GET", "{id}/predict", mutating=False),
            ),
        ),
        ActionSpec(
            "versions",
            "Compare with a version…",
            shape=CompareVersions(
                "Parts of {name}",
                Call("GET", "{id}/versions", mutating=False),
                "versions",
                lambda v: f"version {v['id']} ({v.get('parts_count')} parts)",
                Call("GET", "{id}/versions/{version}", mutating=False),
                Call("GET", "{id}/parts", mutating=False),
                "parts",
                lambda p: str(p.get("name")),
            ),
        ),
        ActionSpec(
            "configure",
            "Configure…",
            shape=FormCall(
                "Configure {name}",
                Lazy(FORMS + "ConfigureForm"),
                Call("PUT", "{id}/config"),
                done="{name}: configured",
                choices={"modes": [("Quiet", "quiet"), ("Fast", "fast"), ("Safe", "safe")]},
            ),
        ),
    ),
    edit=Lazy(FORMS + "GADGET_EDIT"),
    children=(Child("Parts", HERE + "PARTS"),),
    panels=(DetailPanel("Events", kind=HERE + "EVENTS"), DetailPanel("Topology", tree=HERE + "topology")),
)


async def topology(service: Any, scope: str, row: Any) -> Node:
    """The gadget, its parts grouped by kind (a tree the detail draws and reads again)."""
    found = await service.call("GET", scope, "gadgets", row.id, "parts")
    kinds: dict[str, list[Node]] = {}
    for p in found.get("parts") or []:
        kinds.setdefault(str(p.get("kind")), []).append(Node(f"{p.get('name')} ×{p.get('count')}"))
    return Node(row.name, tuple(Node(f"{kind}s", tuple(parts)) for kind, parts in sorted(kinds.items())))


CHAT = ChatSpec(
    "Gadget chat",
    KEYS_API,
    "/gadget-keys/v1/models",
    "/gadget-keys/v1/chat/completions",
    gauges=(
        Gauge("Requests", "x-ratelimit-remaining-requests", "x-ratelimit-limit-requests", "x-ratelimit-reset-requests"),
        Gauge("Tokens", "x-ratelimit-remaining-tokens", "x-ratelimit-limit-tokens", "x-ratelimit-reset-tokens"),
    ),
)

EVENTS = gadget_kind(  # a detail tab: the gadget's timeline, newest first
    id="gadgets.events",
    title="Events",
    singular="event",
    collection="events",
    reading=Reading(item=Item(fetch=False), order=Order(by=("at", True))),
    parent=Parent("gadgets.gadgets", list_path="gadgets/{parent}/events"),
    columns=(
        Column("at", "At", lambda r: r.text("at"), width=22),
        Column("what", "What", lambda r: r.text("what"), width=20),
    ),
)

PARTS = gadget_kind(
    id="gadgets.parts",
    title="Parts",
    singular="part",
    collection="parts",
    parent=Parent("gadgets.gadgets", list_path="gadgets/{parent}/parts", item_path="parts/{id}"),
    columns=(
        Column("name", "Name", lambda r: r.name, width=18),
        Column("kind", "Kind", lambda r: r.text("kind"), width=6),
        Column("count", "Count", lambda r: r.text("count"), width=6),
    ),
    fields=(Field("name", "Name", ("name", "id")), Field("kind", "Kind")),  # a part is reached by its name
    delete=Call("DELETE", "{id}"),
    # Parts are edited as a batch: staged, reviewed, sent in one PATCH of the gadget's parts.
    create=Lazy(FORMS + "PART_CREATE"),
    edit=Lazy(FORMS + "PART_EDIT"),
    writing=Writing(staged=Staged(Lazy(HERE + "send_parts"))),
    children=(Child("Notes", HERE + "NOTES"),),
)

NOTES = gadget_kind(  # a child of a child: its path names its grandparent (the gadget)
    id="gadgets.notes",
    title="Notes",
    singular="note",
    collection="notes",
    reading=Reading(item=Item(fetch=False)),
    parent=Parent("gadgets.parts", list_path="gadgets/{grandparent}/parts/{parent}/notes"),
    columns=(Column("text", "Note", lambda r: r.text("text"), width=30),),
    actions=(
        ActionSpec(
            "where",
            "Where (copy)…",
            shape=ShowValue("Where {name} is", "{text}: on part {parent} of gadget {grandparent}"),
        ),
    ),
)


async def send_parts(service: Any, scope: str, changes: Any, rows: Any) -> None:
    ops = []
    for c in changes.changes:
        if c.op == "add":
            ops.append({"add": c.after})
        elif c.op == "edit":
            ops.append({"set": {"name": c.key, **c.after}})
        else:
            ops.append({"delete": {"name": c.key}})
    await service.call("PATCH", scope, "gadgets", service.parent.id, "parts", body={"changes": ops})


ACCOUNT = gadget_kind(
    id="gadgets.account",
    title="Account",
    singular="account",
    collection="account",
    list_key=None,
    reading=Reading(item=Item(envelope="account")),
    scope_type="global",
    paging="whole",
    singleton=Singleton(),
    columns=(),
    fields=(Field("plan", "Plan"), Field("state", "State", "state"), Field("quota", "Quota")),
    transitional=frozenset({"upgrading"}),
    actions=(
        ActionSpec("upgrade", "Upgrade to pro", lambda r: r.get("plan") != "pro", call=Call("POST", "account/upgrade")),
    ),
)


KEYS = gadget_kind(
    id="gadgets.keys",
    title="Keys",
    singular="key",
    collection="keys",
    api="gadget-keys/v1",
    reading=Reading(endpoint=KEYS_API, item=Item(envelope="key")),
    scope_type="global",
    columns=(
        Column("name", "Name", lambda r: r.name, width=16),
        Column("created", "Created", lambda r: r.text("created_at"), width=22),
    ),
    fields=(Field("name", "Name", "name"),),
    secrets=Secrets(fields=("secret_key",)),
    create=Lazy(FORMS + "KEY_CREATE"),
    delete=Call("DELETE", "{id}"),
)

STATION = gadget_kind(  # one per project, absent until activated (monitoring's shape)
    id="gadgets.station",
    title="Station",
    singular="station",
    collection="station",
    list_key=None,
    scope_type="global",
    paging="whole",
    singleton=Singleton(
        absent="This project has no station yet: activating one starts it (its password is shown once).",
        absent_actions=(ActionSpec("activate", "Activate", call=Call("POST", "station/activate", PROJECT)),),
    ),
    reading=Reading(list_params=ListParams({"project_id": "project_id"})),
    columns=(),
    fields=(Field("project_id", "Project", "id"), Field("state", "State", "state")),  # one per project
    transitional=frozenset({"creating"}),
    secrets=Secrets(fields=("password",)),
    actions=(
        ActionSpec(
            "deactivate",
            "Deactivate",
            lambda r: r.state == "ready",
            confirm="Its beacons stop at once.",
            call=Call("POST", "station/deactivate", PROJECT),
        ),
    ),
    children=(Child("Beacons", HERE + "BEACONS"),),
)

BEACONS = gadget_kind(
    id="gadgets.beacons",
    title="Beacons",
    singular="beacon",
    collection="beacons",
    scope_type="global",
    reading=Reading(item=Item(fetch=False), list_params=ListParams({"project_id": "project_id"})),
    parent=Parent("gadgets.station", list_path="station/beacons"),
    columns=(Column("name", "Name", lambda r: r.name, width=16),),
)

ENTRIES = (
    Entry("gadgets.gadgets", "Gadgets", "Gadgets", "region", "list", HERE + "GADGETS"),
    Entry("gadgets.account", "Account", "Gadgets", "global", "panel", HERE + "ACCOUNT"),
    Entry("gadgets.keys", "Keys", "Gadgets", "global", "list", HERE + "KEYS"),
    Entry("gadgets.station", "Station", "Gadgets", "global", "panel", HERE + "STATION"),
    Entry("gadgets.chat", "Chat", "Gadgets", "global", "chat", HERE + "CHAT"),
)
