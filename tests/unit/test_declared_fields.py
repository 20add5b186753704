"""Fields declared with their meaning (`tui.products.kit.declared`): how each role reads in a column, in
the detail and when sorted, leniently; the kinds' columns and details made from them; and the
manifest's declarations checked whole (every reference names a kind that exists)."""

from __future__ import annotations

import pytest

from tui.products.kit.base import Column, kinds_of
from tui.products.kit.declared import Field
from tui.products.kit.rows import Row

ROW = Row(
    {
        "id": "11111111-2222",
        "name": "web-1",
        "state": "running",
        "public_ips": [{"address": "51.15.40.70"}, {"address": "2001:db8::1"}, "odd"],
        "tags": ["prod", "eu"],
        "size": 20_000_000_000,
        "created_at": "2026-01-02T03:04:05Z",
        "server_id": "abcdef12-3456",
        "server_name": "db-1",
        "protected": False,
        "image": {"id": "i-1", "name": "debian"},
    }
)


def test_a_path_reads_nested_objects_and_each_item_of_a_list_leniently():
    ips = Field("public_ips.address", "Public IPs", "ip")
    assert ips.values(ROW) == ["51.15.40.70", "2001:db8::1"]  # the item of another shape is skipped
    assert ips.cell(ROW) == ips.shown(ROW) == "51.15.40.70, 2001:db8::1"
    assert Field("image.name", "Image").shown(ROW) == "debian"
    assert Field("state.deep", "Odd").shown(ROW) == "none"  # a string where an object was expected
    assert Field("missing", "Missing").cell(ROW) == "" and Field("missing", "Missing", blank="—").cell(ROW) == "—"


def test_each_role_reads_its_own_way_in_a_column_in_the_detail_and_sorted(monkeypatch):
    from tui.products.kit import times

    monkeypatch.setattr(times, "NOW", lambda: 1_768_478_400.0)  # 2026-01-15T12:00:00Z
    created = Field("created_at", "Created", "time")
    read = (created.cell(ROW), created.shown(ROW), created.sort_value(ROW))  # an age; the local time, its zone, age
    assert read == ("13 d", "2026-01-02 03:04:05 UTC, 13 d 8 h ago", "2026-01-02T03:04:05Z")
    size = Field("size", "Size", "size")
    assert (size.cell(ROW), size.sort_value(ROW)) == ("20 GB", 20_000_000_000)
    tags = Field("tags", "Tags", "tags")
    assert (tags.cell(ROW), tags.shown(ROW)) == ("prod,eu", "prod, eu")
    assert Field("none", "Tags", "tags").shown(ROW) == "none"
    assert Field("protected", "Protected", "flag").shown(ROW) == "no"
    assert Field("image", "Image").shown(ROW) == "debian (i-1)"
    state = Field("state", "State", "state")
    assert state.cell(ROW).plain == "● running" and state.sort_value(ROW) == "running"


def test_a_reference_says_the_name_looked_up_and_the_id_and_sorts_those_pointing_nowhere_last():
    server = Field(
        "server_id", "Server", "ref", ref="baremetal.servers", named="server_name", blank="—", empty="not attached"
    )
    assert (server.cell(ROW), server.shown(ROW)) == ("db-1", "db-1 (abcdef12-3456)")
    unnamed = Row({"id": "x", "name": "b", "server_id": "abcdef12-3456"})
    assert (server.cell(unnamed), server.shown(unnamed)) == ("abcdef12", "abcdef12-3456")
    alone = Row({"id": "y", "name": "a"})
    assert (server.cell(alone), server.shown(alone)) == ("—", "not attached")
    assert [server.sort_value(r) for r in (unnamed, ROW, alone)] == ["abcdef12-3456\tb", "db-1\tweb-1", ""]


def test_a_reference_named_beside_its_id_a_map_read_value_by_value_and_a_list_counted():
    volume = Row(
        {
            "id": "v",
            "name": "data",
            "server": {"id": "abcdef12-3456", "name": "web-1"},
            "volumes": {"0": {"id": "v-0"}, "1": {"id": "v-1"}, "2": "odd"},
            "servers": [{"id": "a"}, {"id": "b"}],
        }
    )
    server = Field("server.id", "Server", "ref", ref="instance.servers", named="server.name", blank="—")
    assert (server.cell(volume), server.shown(volume)) == ("web-1", "web-1 (abcdef12-3456)")
    assert (server.cell(ROW), server.shown(ROW)) == ("—", "none")  # ROW has no server object
    assert Field("volumes.*.id", "Volumes", "ref", ref="instance.volumes").values(volume) == ["v-0", "v-1"]
    servers = Field("servers", "Servers", "count")
    assert (servers.cell(volume), servers.sort_value(volume), servers.shown(Row({"servers": []}))) == ("2", 2, "0")
    assert Field("servers.id", "Servers", "count").cell(volume) == "2"


def test_a_flag_read_as_words_and_a_reference_to_several_read_as_them_all():
    ha = Field("is_ha_cluster", "HA", "flag", words=("HA", "—"))
    on, off, unsent = Row({"is_ha_cluster": True}), Row({"is_ha_cluster": False}), Row({})
    assert (ha.cell(on), ha.cell(off), ha.cell(unsent)) == ("HA", "—", "—")
    assert (ha.shown(on), ha.shown(unsent)) == ("HA", "—")
    assert (ha.sort_value(on), ha.sort_value(off)) == ("HA", "—")  # sorted as they read
    types = Field("compatible_server_types", "Server types", "ref", ref="silicon.types")
    os = Row({"id": "o", "name": "Sonoma", "compatible_server_types": ["M2-L", "M2-MINI-XL"]})
    assert (types.cell(os), types.shown(os), types.values(os)) == (
        "M2-L, M2-MINI-XL",
        "M2-L, M2-MINI-XL",
        [["M2-L", "M2-MINI-XL"]],
    )
    assert (types.cell(ROW), types.shown(ROW)) == ("", "none")
    assert (types.sort_value(os), types.sort_value(ROW)) == ("M2-L, M2-MINI-XL\tSonoma", "")  # none: "" (last)
    with pytest.raises(ValueError, match="only a flag reads as words"):
        Field("status", "Status", "state", words=("up", "down"))


def test_a_field_is_refused_when_declared_wrong():
    with pytest.raises(ValueError, match="no role"):
        Field("x", "X", "address")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="names the kind it points at"):
        Field("server_id", "Server", "ref")
    with pytest.raises(ValueError, match="names the kind it points at"):
        Field("server_id", "Server", "id", ref="baremetal.servers")
    with pytest.raises(ValueError, match="a path, or a computed value"):
        Field("", "Stored")
    both = Field("ip_address", "Address", ("name", "ip"))
    assert both.has("name") and both.has("ip") and both.role == "name"


def test_a_computed_field_and_a_value_read_otherwise_in_the_detail(monkeypatch):
    from tui.products.kit import times
    from tui.products.kit.times import moment_of

    monkeypatch.setattr(times, "NOW", lambda: 1_768_478_400.0)
    expires = Field("expires_at", "Expires", "time", blank="never", empty="never", as_detail=moment_of)
    row = Row({"id": "b", "expires_at": "2026-12-01T14:00:05Z"})
    assert (expires.cell(row), expires.shown(row)) == ("in 320 d", "2026-12-01 14:00:05 UTC, in 320 d 2 h")
    assert (expires.cell(ROW), expires.shown(ROW)) == ("never", "never")

    def stored(obj):
        return "here" if obj.raw.get("same_region") else "elsewhere"

    where = Field("", "Stored", show=stored)
    here = Row({"id": "c", "same_region": True})
    assert (where.key, where.shown(ROW), where.cell(here)) == ("stored", "elsewhere", "here")

    # One field, its column and its detail each reading it their own way: the value, or the object.
    short = Field("size", "Size", "size", width=4, show=lambda r: "big", as_detail=lambda v: f"{v:,} bytes")
    steps = Field("state", "State", "state", width=8, detail=stored)
    assert (short.cell(ROW), short.shown(ROW)) == ("big", "20,000,000,000 bytes")
    assert (steps.cell(ROW).plain, steps.shown(ROW), steps.shown(here)) == ("● running", "elsewhere", "here")
    assert Field("image.id", "Image", "ref", ref="instance.images").key == "image.id"  # (not "id": the ID's)


def test_a_kinds_columns_named_by_key_and_its_detail_are_made_from_its_fields():
    kind = kinds_of(product="Gadgets", api="gadgets/v1", scope_type="region", paging="page_size")
    fields = (
        Field("id", "ID", "id"),
        Field("name", "Name", "name", width=20),
        Field("size", "Size", "size", width=7, detail=_sized),
        Field("note", "Note", detail=False, width=9, head="N"),
    )
    extra = Column("odd", "Odd", lambda r: "?", width=3)
    made = kind(
        id="g.a",
        title="As",
        singular="a",
        collection="as",
        list_key="as",
        fields=fields,
        columns=("name", extra, "size", "note"),
    )
    shown = [(c.key, c.title, c.width) for c in made.columns]
    assert shown == [("name", "Name", 20), ("odd", "Odd", 3), ("size", "Size", 7), ("note", "N", 9)]
    assert made.columns[0].field is fields[1] and made.columns[1].field is None and made.columns[2].field is fields[2]
    assert [title for title, _ in made.detail_fields] == ["ID", "Name", "Size"]  # the detail's own reading of the size
    assert made.detail_fields[2][1](ROW) == "20 GB, read otherwise"
    with pytest.raises(ValueError, match="no field with a column width for id"):
        kind(
            id="g.b",
            title="As",
            singular="a",
            collection="as",
            list_key="as",
            fields=fields,
            columns=("id",),
        )
    with pytest.raises(ValueError, match="needs the kind's declared fields"):
        kind(id="g.c", title="As", singular="a", collection="as", list_key="as", columns=("name",))


def test_a_kinds_id_and_state_are_read_from_the_first_fields_of_those_roles_or_by_the_convention():
    kind = kinds_of(product="Gadgets", api="gadgets/v1", scope_type="region", paging="page_size")
    named = kind(
        id="g.n",
        singular="n",
        columns=(),
        fields=(
            Field("label", "Label", ("name", "id")),  # reached by its name
            Field("uuid", "UUID", "id"),
            Field("kind", "Kind", ("text", "state")),  # read as text, filtered as its state
            Field("phase", "Phase", "state"),
        ),
    )
    row = named.make_row({"label": "l-1", "uuid": "u-1", "kind": "A", "phase": "ready", "id": "x", "state": "y"})
    assert (named.id_field, named.state_field, row.id, row.state) == ("label", "kind", "l-1", "A")
    plain = kind(id="g.p", singular="p", columns=(), fields=(Field("name", "Name", "name"),))
    assert (plain.id_field, plain.state_field) == ("id", "state")


def _sized(obj) -> str:
    return f"{Field('size', 'Size', 'size').shown(obj)}, read otherwise"


def test_every_kind_of_the_manifest_declares_its_fields_and_names_itself_and_every_reference_names_a_kind():
    from tui.products.manifest import every_kind

    kinds = every_kind()
    ids = {k.id for k in kinds}
    for kind in kinds:
        assert kind.fields, f"{kind.id} declares no fields"
        assert any(f.has("name") for f in kind.fields), f"{kind.id} declares no name field"
        assert any(f.has("id") for f in kind.fields), f"{kind.id} declares no id field"
        for f in kind.fields:
            assert not f.ref or f.ref in ids, f"{kind.id}.{f.path} refers to {f.ref}, which no kind is"
        # A bare lambda reading a key is what a field declares: only named, computed readers remain.
        lambdas = [c.title for c in kind.columns if c.field is None and _is_lambda(c.value)]
        lambdas += [title for title, get in kind.detail_fields if _is_lambda(get)]
        assert not lambdas, f"{kind.id}: {', '.join(lambdas)} read by a lambda, not a declared field"


def _is_lambda(fn) -> bool:
    fn = getattr(fn, "__wrapped__", fn)
    return getattr(fn, "__name__", "") == "<lambda>"


def test_a_detail_shows_what_its_list_shows_an_acl_rules_port_and_a_zones_domain():
    from tui.products.dns.kinds import ZONES
    from tui.products.kit.models import Resource
    from tui.products.rdb.children import ACLS

    rule = Resource.model_validate(
        ACLS.make_row({"ip": "10.0.0.0/8", "port": 5432, "action": "allow", "direction": "inbound"}).data
    )
    assert {t: get(rule) for t, get in ACLS.detail_fields}.items() >= {
        ("Port", "5432"),
        ("Action", "allow"),
        ("Direction", "inbound"),
    }
    zone = Resource.model_validate(ZONES.make_row({"domain": "example.com", "subdomain": "shop"}).data)
    assert ("Domain", "example.com") in [(t, get(zone)) for t, get in ZONES.detail_fields]


def test_a_list_sorts_addresses_as_addresses_and_puts_what_holds_nothing_last_either_way():
    from tui.products.kit.declared import columns_of
    from tui.ui.widgets.resource_table import ResourceTable

    ip = Field("ip", "IP", "ip", width=16)
    table = ResourceTable()
    table.set_columns(list(columns_of((ip,), ("ip",))))
    table.upsert(
        [
            Row({"id": k, "ip": v})
            for k, v in (
                ("a", "51.15.40.70"),
                ("b", "163.172.10.11"),
                ("c", None),
                ("d", "2001:db8::1"),
                ("e", "51.15.9.1"),
            )
        ]
    )
    table.sort_by("ip")
    assert table.shown_keys == ["e", "a", "b", "d", "c"]  # 51.15.9.1 < 51.15.40.70 < 163.172.10.11 < IPv6, then none
    table.sort_by("ip", True)
    assert table.shown_keys == ["d", "b", "a", "e", "c"]  # reversed, the one with none still last
