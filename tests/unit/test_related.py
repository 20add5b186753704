"""What points here and what this points at, across kinds, from their declared references and addresses."""

from __future__ import annotations

from tui.products.kit.base import kinds_of
from tui.products.kit.declared import ID, Field
from tui.products.kit.related import Held, addresses, related, unread
from tui.products.kit.rows import Row

kind = kinds_of(product="G", api="g/v1", scope_type="zone")
SERVERS = kind(
    id="g.servers",
    singular="server",
    fields=(ID, Field("name", "Name", "name", width=10), Field("public_ips.address", "Public IPs", "ip")),
    columns=("name",),
)
VOLUMES = kind(
    id="g.volumes",
    singular="volume",
    fields=(ID, Field("name", "Name", "name", width=10), Field("server_id", "Server", "ref", ref="g.servers")),
    columns=("name",),
)
BACKENDS = kind(
    id="g.backends",
    singular="backend",
    fields=(ID, Field("name", "Name", "name", width=10), Field("pool", "Server IPs", "ip")),
    columns=("name",),
)
RECORDS = kind(
    id="g.records",
    singular="record",
    fields=(ID, Field("name", "Name", "name", width=10), Field("data", "Data", ("text", "ip"))),
    columns=("name",),
)


def row(**data):
    return Row(data, "state", "id")


WEB = row(id="s1", name="web", public_ips=[{"address": "51.15.0.7"}], zone="fr-par-1")
HELD = [
    Held(SERVERS, "fr-par-1", None, [WEB, row(id="s2", name="db", public_ips=[{"address": "51.15.0.8"}])]),
    Held(
        VOLUMES,
        "fr-par-1",
        None,
        [row(id="v1", name="web-data", server_id="s1"), row(id="v2", name="x", server_id="s2")],
    ),
    Held(BACKENDS, "fr-par", None, [row(id="b1", name="http", pool=["51.15.0.8", "51.15.0.7"])]),
    Held(RECORDS, "global", None, [row(id="r1", name="www", data="51.15.0.7"), row(id="r2", name="mx", data="mail")]),
]


def test_what_points_at_a_server_its_volume_a_backend_on_its_address_and_a_dns_record_naming_it():
    links = related(SERVERS, WEB, HELD)
    assert [(link.points, link.kind_id, link.name, link.via) for link in links] == [
        ("here", "g.volumes", "web-data", "Server"),  # its reference names the server
        ("same", "g.backends", "http", "Server IPs"),  # an address both hold: neither names the other
        ("same", "g.records", "www", "Data"),
    ]
    assert addresses(SERVERS, WEB) == {"51.15.0.7"}


def test_what_a_volume_points_at_named_when_read_and_its_id_when_not():
    volume = HELD[1].rows[0]
    assert [(link.points, link.name, link.scope, link.read) for link in related(VOLUMES, volume, HELD)] == [
        ("at", "web", "fr-par-1", True)
    ]
    assert [(link.name, link.read) for link in related(VOLUMES, volume, HELD[1:])] == [("s1", False)]


def test_the_kinds_that_could_point_here_and_were_not_read_are_named():
    names = [k.id for k in unread(SERVERS, WEB, [SERVERS, VOLUMES, BACKENDS, RECORDS], {"g.servers", "g.volumes"})]
    assert names == ["g.backends", "g.records"]  # by address: the server has one
    assert unread(VOLUMES, HELD[1].rows[0], [SERVERS, VOLUMES, BACKENDS, RECORDS], set()) == []
