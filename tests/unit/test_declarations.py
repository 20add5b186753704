"""The declared mechanisms' rules, at the cheapest tier: a product's defaults for its kinds, verbs
filled from the context, what an edit sends (PATCH: what changed; PUT: the whole object), the form
vocabulary's key/value parsing, the whole-set editor's checks and its look when the answer is lost,
and the sandbox's newline rule."""

from __future__ import annotations

import httpx
import pytest
from pydantic import BaseModel, SecretStr, ValidationError

from tui.api.client import ApiClient, RetryPolicy
from tui.products.kit.base import Context, EditSpec, Lazy, kinds_of
from tui.products.baremetal.networks import PRIVATE_NETWORKS
from tui.products.kit.fields import changed, form_body, parse_pairs
from tui.products.kit.flows import Refused
from tui.products.kvcache.clusters import CLUSTERS
from tui.products.kit.location import GLOBAL, Call, FromContext
from tui.products.kit.service import ResourceService
from tui.products.kit.vocabulary import KeyValues
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox
from tui.sandbox.core import _control_at
from tui.sandbox.faults import FaultSpec
from tui.ui.widgets.model_form import errors_by_field
from tui.products.kit.kind_options import Item, Order, Reading

pytestmark = pytest.mark.anyio


def test_a_products_defaults_fill_its_kinds_and_an_argument_given_wins():
    kind = kinds_of(
        product="Gadgets",
        api="gadgets/v1",
        scope_type="region",
        paging="page_size",
        reading=Reading(page_size=100, item=Item(model=Lazy("m:M"))),
    )
    listed = dict(title="As", singular="a", collection="as", columns=())
    plain = kind(id="g.a", **listed)
    model = plain.reading.item.model.target
    assert (plain.product, plain.api, plain.scope_type, plain.paging, plain.reading.page_size, model) == (
        "Gadgets",
        "gadgets/v1",
        "region",
        "page_size",
        100,
        "m:M",
    )
    own = kind(id="g.b", **listed, scope_type="global", paging="whole", reading=Reading(page_size=None))
    assert (own.product, own.scope_type, own.paging, own.reading.page_size, own.base(GLOBAL)) == (
        "Gadgets",
        "global",
        "whole",
        None,
        "/gadgets/v1",
    )
    assert kind(id="g.c", **listed).scope_type == "region"  # what a kind gave is its own, not the next one's
    with pytest.raises(
        TypeError, match="no field 'pagesize'"
    ):  # a misspelt default is refused when the product is imported
        kinds_of(product="Gadgets", pagesize=100)
    from tui.products.instance.servers import SERVERS
    from tui.products.instance.types import TYPES

    assert (SERVERS.product, SERVERS.paging, TYPES.product, TYPES.paging) == (
        "Instance",
        "per_page",
        "Instance",
        "whole",
    )


def test_a_group_of_options_combines_with_the_products_option_by_option_and_refuses_what_it_lacks():
    kind = kinds_of(
        product="Gadgets",
        api="gadgets/v1",
        scope_type="region",
        paging="page_size",
        reading=Reading(page_size=100, item=Item(fetch=False, model=Lazy("m:M"))),
    )
    listed = dict(title="As", singular="a", collection="as", columns=())
    own = kind(id="g.a", **listed, reading=Reading(order=Order(by=("name", False)), item=Item(fetch=True)))
    assert (own.reading.page_size, own.reading.order.by, own.reading.item.fetch) == (100, ("name", False), True)
    assert own.reading.item.model.target == "m:M", "a group within a group: option by option too"
    assert kind(id="g.b", **listed).reading.item.fetch is False  # the product's, not the last kind's
    assert own.writing.refuses.delete(object()) is None  # a default function is the option, not a method of the group
    with pytest.raises(TypeError, match="Reading has no option 'pagesize'"):
        Reading(pagesize=10)


def test_a_verb_takes_the_context_where_it_says_and_is_never_sent_without_it():
    call = Call(
        "POST",
        "activate",
        {"project_id": FromContext("project_id"), "nested": {"org": FromContext("organization_id")}},
        params={"project_id": FromContext("project_id")},
    )
    ctx = Context("p-1", "fr-par", organization_id="o-1")
    assert call.body_for(None, ctx) == {"project_id": "p-1", "nested": {"org": "o-1"}}
    assert call.params_for(ctx) == {"project_id": "p-1"}
    by_row = Call("POST", "snapshots", lambda r: {"volume_id": r, "project": FromContext("project_id")})
    assert by_row.body_for("v-1", ctx) == {"volume_id": "v-1", "project": "p-1"}
    with pytest.raises(ValueError, match="organization id"):
        call.body_for(None, Context("p-1", "fr-par"))


class Edit(BaseModel):
    name: str
    description: str = ""
    password: SecretStr | None = None


class Row:
    def __init__(self, **data):
        self.data = data


def test_an_edit_sends_what_changed_by_patch_and_the_whole_object_by_put():
    opened = lambda row: {"name": row.data["name"], "description": row.data["description"]}  # noqa: E731
    row = Row(name="web", description="old")
    form = Edit(name="web", description="new")
    assert EditSpec(Edit, opened).body(form, row) == {"description": "new"}
    assert EditSpec(Edit, opened, method="PUT").body(form, row) == {"name": "web", "description": "new"}
    # a secret is sent as its value; an optional secret left empty means "unchanged"
    assert form_body(Edit(name="a", password=SecretStr("S3cret!pass"))) == {
        "name": "a",
        "description": "",
        "password": "S3cret!pass",
    }
    assert "password" not in form_body(Edit(name="a"))
    assert changed({"a": 1, "b": 2}, {"a": 1}) == {"b": 2}


def test_key_value_lines_parse_and_a_bad_line_is_named():
    assert parse_pairs("# comment\n\nretries = 3\nmode=eco=fast\n") == {"retries": "3", "mode": "eco=fast"}

    class Form(BaseModel):
        config: KeyValues = {}

    assert Form.model_validate({"config": "a=1\nb=2"}).config == {"a": "1", "b": "2"}
    for text, message in (
        ("a=1\noops", "line 2: key=value expected"),
        ("a=1\na=2", "line 2: a is given twice"),
        ("=1", "line 1: key=value expected"),
    ):
        with pytest.raises(ValidationError) as bad:
            Form.model_validate({"config": text})
        assert errors_by_field(bad.value, Form) == {"config": message}


def test_the_sandbox_takes_newlines_only_where_a_field_is_text_over_lines():
    body = {"name": "a\nb", "notes": "one\ntwo\tthree", "messages": [{"content": "hi\nthere"}]}
    assert _control_at(body, "") == "name"
    assert _control_at({"notes": "one\ntwo"}, "", ("notes",)) is None
    assert _control_at({"messages": [{"content": "hi\nthere"}]}, "", ("messages",)) is None
    assert _control_at({"notes": "bell\x07"}, "", ("notes",)) == "notes"  # other control characters stay refused


# ---- the whole-set editor: checks before sending, and a look when the answer is lost -----------------
ACLS = next(a.shape for a in CLUSTERS.actions if a.name == "acls")


def test_a_whole_set_is_checked_before_it_is_sent():
    ACLS.check([{"ip_cidr": "10.0.0.0/8"}, {"ip_cidr": "192.168.0.0/16"}])
    with pytest.raises(Refused, match="10.0.0.0/8 is listed twice"):
        ACLS.check([{"ip_cidr": "10.0.0.0/8"}, {"ip_cidr": "10.0.0.0/8"}])
    networks = next(a.shape for a in PRIVATE_NETWORKS.actions if a.name == "replace")
    with pytest.raises(Refused, match="at most 8 private networks"):
        networks.check([{"private_network_id": str(i)} for i in range(9)])
    assert networks.body([{"private_network_id": "a"}, {"private_network_id": "b"}]) == {
        "private_network_ids": ["a", "b"]
    }


class UI:
    """What a shape is given (`products.kit.flows.FlowUI`): here only what sending a set uses."""

    def __init__(self, service, scope):
        self._service, self.scope, self.notes = service, scope, []

    def service(self):
        return self._service

    def notify(self, message, severity="information"):
        self.notes.append(message)

    async def cleared(self, what):  # not a production profile: nothing asked
        return None


async def _cluster_ui(sandbox):
    async def no_sleep(_: float) -> None:
        return None

    client = ApiClient(
        "http://sb",
        DEMO_SECRET_KEY,
        transport=httpx.ASGITransport(sandbox.app),
        retry=RetryPolicy(deadline=60),
        sleep=no_sleep,
    )
    svc = ResourceService(client, CLUSTERS, context=lambda sc: Context(DEMO_PROJECT_ID, sc))
    row = next(r for r in await svc.list_rows("fr-par-1") if r.state == "ready")
    return client, UI(svc, "fr-par-1"), row


async def test_a_set_whose_answer_was_lost_is_read_again_and_said_applied():
    sandbox = Sandbox(clock=ManualClock(), faults=FaultSpec(rates={"applied": 1.0}, seed=3, applied_as="500"))
    client, ui, row = await _cluster_ui(sandbox)
    wanted = [{"ip_cidr": "198.51.100.0/24", "description": "lost answer"}]
    assert await ACLS.send_set(ui, row, wanted) == {}
    assert "may have been applied" in ui.notes[-1] and "it was applied" in ui.notes[-1]
    assert [a["ip_cidr"] for a in (await ui.service().get_row("fr-par-1", row.id)).items("acl_rules")] == [
        "198.51.100.0/24"
    ]
    await client.aclose()


async def test_a_set_whose_send_never_happened_is_said_not_applied():
    sandbox = Sandbox(clock=ManualClock())
    client, ui, row = await _cluster_ui(sandbox)
    sandbox.inject(504, "", method="PUT", times=1)  # the gateway answered; the platform never acted
    from tui.products.kit.writes import Looked

    with pytest.raises(Looked, match="it was not applied"):
        await ACLS.send_set(ui, row, [{"ip_cidr": "198.51.100.0/24"}])
    await client.aclose()


def test_a_nested_or_variant_field_is_named_by_its_path():
    import gadgets_forms

    form = gadgets_forms.ProbeForm
    with pytest.raises(ValidationError) as bad:
        form.model_validate({"timing": {"delay": 0}, "check": {"kind": "http", "uri": "x", "code": 700}})
    assert errors_by_field(bad.value, form) == {
        "timing.delay": "at least 1",
        "check.http.uri": "a path starting with /",
        "check.http.code": "at most 599",
    }
    with pytest.raises(ValidationError) as bad:
        form.model_validate({"check": {"kind": "smtp"}})
    assert list(errors_by_field(bad.value, form)) == ["check"]
    ok = form.model_validate({"check": {"kind": "http", "uri": "/up"}})
    assert gadgets_forms.probe_body(ok, None) == {"delay": 5, "retries": 3, "http_config": {"uri": "/up"}}


def test_times_read_and_say_a_time_one_way():
    from tui.products.kit import times

    assert times.rfc3339(0) == "1970-01-01T00:00:00Z" and times.stamp("1970-01-01T00:01:00Z") == 60
    assert times.left("1970-01-01T01:00:00+00:00", now=0) == 3600 and times.left("not a time") is None
    assert [times.span(s) for s in (5, 600, 3900, 90_000)] == ["5 s", "10 min", "1 h 05 min", "1 d 1 h"]
    assert times.age("1970-01-01T00:00:00Z", now=7200) == "2 h 00 min ago"
    assert (
        times.parse_duration("1m30s") == 90 and times.parse_duration("500ms") == 0.5 and times.duration(90) == "1m30s"
    )
    with pytest.raises(ValueError, match="1m30s"):
        times.parse_duration("90 seconds")


def test_a_kind_adds_its_own_state_tones_and_an_action_says_why_not():
    from tui.products.kit.format import COMMON, Tones
    from tui.products.kit.states import When

    rdb = Tones(busy={"backuping"}, alarm={"disk_full"}, base=COMMON)
    assert (rdb.of("backuping"), rdb.of("ready"), rdb.of("disk_full"), COMMON.of("disk_full")) == (
        "busy",
        "good",
        "alarm",
        "other",
    )
    assert str(rdb.text("disk_full")) == "✖ DISK_FULL"  # reads without colour
    ready = When("ready", what="the cluster")
    creating = type("R", (), {"state": "creating"})()
    assert not ready.ok(creating) and ready.why(creating) == "the cluster is creating: wait until it is ready"


def test_an_action_followed_by_another_names_one_the_kind_has():
    """`then` runs a named action once the resource settles (an export's URL shown): a name the kind
    lacks is refused when the kind is declared, not found missing after a write."""
    from tui.products.kit.base import ActionSpec, Call
    from tui.products.rdb.backups import BACKUPS
    from tui.records import replace

    export = ActionSpec("export", "Export", call=Call("POST", "{id}/export", {}), then="link")
    with pytest.raises(ValueError, match="then"):
        replace(BACKUPS, actions=(export,))
    assert (
        replace(BACKUPS, actions=(export, ActionSpec("link", "Link", call=Call("GET", "{id}", mutating=False))))
        .actions[0]
        .then
        == "link"
    )


async def test_a_replica_endpoint_is_offered_only_of_a_kind_it_lacks_and_sent_as_the_api_takes_it():
    from tui.products.kit.base import Row
    from tui.products.rdb.replica_forms import ReplicaEndpointForm, replica_endpoint_body, replica_endpoint_options

    public = Row({"id": "r1", "endpoints": [{"direct_access": {}}]})
    choices, context = await replica_endpoint_options(None, public)
    assert choices == {"kind": [("private network", "private_network")]} and context == {"has": {"direct_access"}}
    with pytest.raises(Refused, match="it has both"):
        await replica_endpoint_options(
            None, Row({"id": "r2", "endpoints": [{"direct_access": {}}, {"private_network": {}}]})
        )
    form = ReplicaEndpointForm.model_validate({"kind": "direct_access"}, context=context | {"has": set()})
    assert replica_endpoint_body(form, public) == {"endpoint_spec": [{"direct_access": {}}]}


def test_a_diff_of_two_versions_says_what_was_added_changed_and_deleted():
    from tui.products.kit.diff import as_lines, compare, counts

    before = [
        {"name": "www", "type": "A", "data": "1.2.3.4"},
        {"name": "mail", "type": "MX", "data": "10 mx"},
        {"name": "same", "type": "A", "data": "9.9.9.9"},
    ]
    after = [
        {"name": "www", "type": "A", "data": "5.6.7.8"},
        {"name": "same", "type": "A", "data": "9.9.9.9"},
        {"name": "api", "type": "CNAME", "data": ""},
    ]
    entries = compare(before, after, key=lambda r: r["name"])
    assert as_lines(entries) == [
        "~ change  www",
        "      data: 1.2.3.4 → 5.6.7.8",
        "- delete  mail",
        "+ add     api  name=api, type=CNAME, data=—",
    ]
    assert counts(entries) == "1 added, 1 changed, 1 deleted" and counts([]) == "no change"


def test_an_edit_is_said_in_its_forms_words_a_box_as_yes_or_no_a_secret_never():
    """Walk 23 F4: `protected: True → False` — the API's key and Python's words in a production question."""
    from typing import Annotated

    from tui.products.kit.diff import edited
    from tui.products.kit.vocabulary import Form, label, labels_of

    class Edit(Form):
        protected: Annotated[bool, label("Protected from deletion")] = False
        tags: list[str] = []
        password: str = ""

    said = edited(
        {"protected": True, "tags": ["web"], "password": "a"},
        {"protected": False, "tags": ["web", "edge"], "password": "b"},
        labels_of(Edit),
    )
    assert said == "Protected from deletion: yes → no; Tags: web → web, edge; Password: •••"


def test_an_instance_flexible_ips_detail_says_a_missing_date_with_a_dash_as_other_details_do():
    """It read 'Created ?' and 'Modified ?' (the Instance API gives an IP neither)."""
    from types import SimpleNamespace

    from tui.products.instance.network import IPS

    fields = dict(IPS.detail_fields)
    ip = SimpleNamespace(raw={"id": "ip-1", "address": "51.15.0.1", "zone": "fr-par-1"})
    assert fields["Created"](ip) == "—" and fields["Modified"](ip) == "—"


def test_an_install_over_one_under_way_is_greyed_with_why_not_left_out_of_the_menu():
    from tui.products.baremetal.servers import SERVERS

    install = next(a for a in SERVERS.actions if a.name == "install")
    make = SERVERS.row_maker("fr-par-1")
    busy = make({"id": "s1", "name": "db", "status": "ready", "install": {"status": "installing"}})
    assert not install.available(busy)
    assert install.why_not(busy) == "an install is under way (installing): wait until it ends"
    done = make({"id": "s2", "name": "db", "status": "ready", "install": {"status": "completed"}})
    assert install.available(done) and install.why_not(done) is None


async def test_a_stop_or_reboot_during_an_install_says_it_may_leave_it_unfinished():
    from tui.products.baremetal.servers import SERVERS

    make = SERVERS.row_maker("fr-par-1")
    busy = make({"id": "s1", "name": "db", "status": "ready", "install": {"status": "installing"}})
    done = make({"id": "s2", "name": "db", "status": "ready", "install": {"status": "completed"}})
    for name in ("stop", "reboot", "rescue"):
        said = next(a for a in SERVERS.actions if a.name == name).confirm.get()
        assert "install is under way (installing)" in await said(None, "fr-par-1", busy)
        assert await said(None, "fr-par-1", done) == ""


def test_every_state_a_kind_polls_as_moving_reads_as_busy():
    """Walk: a volume `○ resizing` (the mark of a state at rest) though its list polled it as moving."""
    from tui.products.kit.format import COMMON
    from tui.products.manifest import every_kind

    resting = [
        (kind.id, state)
        for kind in every_kind()
        for f in kind.fields
        if f.has("state")
        for state in kind.transitional
        if (f.tones or COMMON).of(state) == "other"
    ]
    assert resting == []
    volumes = next(k for k in every_kind() if k.id == "instance.volumes")
    state = next(c for c in volumes.columns if c.key == "state")
    assert str(state.value(volumes.row_maker("fr-par-1")({"id": "v", "state": "resizing"}))) == "◐ resizing"


def test_a_locked_servers_refused_delete_says_it_waits_for_the_platform_not_to_power_it_off():
    """Walk 23 F3: `Cannot delete legacy-crm: it is locked: power it off first, or terminate it` — neither can be."""
    from tui.products.instance.servers import SERVERS
    from tui.products.kit.rows import Row

    said = SERVERS.writing.refuses.delete(Row({"id": "s", "name": "legacy-crm", "state": "locked"}))
    assert "locked by the platform" in said and "power it off" not in said
    assert "power it off first" in SERVERS.writing.refuses.delete(Row({"id": "s", "state": "running"}))


def test_a_database_endpoint_is_named_by_its_address_and_its_detail_says_its_kind():
    """Walk 23 F21: an endpoint's detail left out the Kind its list shows, and its delete asked its UUID typed."""
    from tui.products.rdb.children import ENDPOINTS

    row = ENDPOINTS.make_row({"id": "54aebd1b", "ip": "51.158.0.13", "port": 5432, "load_balancer": {}})
    assert row.name == "51.158.0.13:5432" and ENDPOINTS.named(row) == "51.158.0.13:5432"
    assert dict(ENDPOINTS.detail_fields)["Kind"](row) == "load balancer" and "Name" not in dict(ENDPOINTS.detail_fields)
    from tui.products.kit.models import Resource

    read = Resource.model_validate({"id": "54aebd1b", "ip": "51.158.0.13", "port": 5432, "load_balancer": {}})
    assert dict(ENDPOINTS.detail_fields)["Kind"](read) == "load balancer", "the detail reads the object (re-walk N6)"


def test_times_in_a_database_maintenance_and_a_silicon_refusal_read_as_times_do_elsewhere():
    """Walk 23 F7: `2026-12-02T17:05:04.247017+00:00` in a detail and a refusal, where details say the second."""
    from tui.products.kit.rows import Row
    from tui.products.rdb.instances import _maintenance

    when = {"reason": "minor version update", "status": "pending"}
    said = _maintenance(Row({"maintenances": [{**when, "starts_at": "2026-12-02T17:05:04.247017+00:00"}]}))
    assert "2026-12-02 17:05:04 UTC" in said and ".247017" not in said
