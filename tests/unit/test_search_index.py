"""Finding any resource the console holds: by name, ID, address or tag, each row once, the best first."""

from __future__ import annotations

from tui.products.kit.base import kinds_of
from tui.products.kit.declared import ID, Field
from tui.products.kit.rows import Row
from tui.products.kit.search_index import SearchIndex, part_of

kind = kinds_of(product="G", api="g/v1", scope_type="zone")
SERVERS = kind(
    id="g.servers",
    singular="server",
    fields=(
        ID,
        Field("name", "Name", "name", width=10),
        Field("public_ips.address", "Public IPs", "ip"),
        Field("tags", "Tags", "tags"),
        Field("state", "State", "state"),  # not searched
    ),
    columns=("name",),
)


def rows(*objects):
    return [Row(o, "state", "id") for o in objects]


def index():
    found = SearchIndex()
    found.put(
        part_of(
            SERVERS,
            "fr-par-1",
            rows(
                {"id": "a1", "name": "web-1", "public_ips": [{"address": "51.15.40.70"}], "tags": ["prod"]},
                {"id": "b2", "name": "web-10", "public_ips": [{"address": "51.15.40.7"}], "state": "web"},
                {"id": "c3", "name": "db\x1b[31m", "zone": "nl-ams-1", "tags": ["web-tier", "prod"]},
                {"id": "d4"},  # nothing but its id
            ),
        )
    )
    return found


def test_a_resource_is_found_by_its_address_name_id_or_tag_and_where_it_is():
    found = index()
    assert [(h.row_id, h.scope) for h in found.search("51.15.40.70")] == [("a1", "fr-par-1")]
    assert [h.row_id for h in found.search("D4")] == ["d4"]  # case does not matter
    assert {h.row_id for h in found.search("prod")} == {"a1", "c3"}
    assert [h.scope for h in found.search("db")] == ["nl-ams-1"]  # the row's own zone
    assert found.search("running") == [] and found.search("  ") == []  # a state is not searched


def test_each_row_is_found_once_the_whole_value_first_then_the_start_of_one():
    found = index()
    assert [h.row_id for h in found.search("51.15.40.7")] == ["b2", "a1"]  # typed whole, then the start
    hits = found.search("web")
    assert [h.row_id for h in hits] == ["a1", "b2", "c3"]  # names first; c3 by its tag
    assert hits[2].matched == "web-tier"
    assert len(found.search("e")) == len({h.row_id for h in found.search("e")})


def test_a_list_read_again_replaces_its_part_and_control_characters_are_not_searched():
    found = index()
    assert [h.row_id for h in found.search("db[31m")] == ["c3"]  # the escape itself is dropped
    found.put(part_of(SERVERS, "fr-par-1", rows({"id": "e5", "name": "api"})))
    assert found.search("web") == [] and [h.name for h in found.search("api")] == ["api"]
    assert len(found) == 1
    found.forget("g.servers", "fr-par-1")
    assert len(found) == 0
    found.put(part_of(SERVERS, "all", rows({"id": "e5", "name": "api", "zone": "fr-par-1"})))
    found.put(part_of(SERVERS, "fr-par-1", rows({"id": "e5", "name": "api"})))
    assert [h.row_id for h in found.search("api")] == ["e5"]  # listed in every zone and in its own: once


def test_a_search_among_many_stops_at_what_it_shows():
    many = SearchIndex()
    many.put(part_of(SERVERS, "fr-par-1", rows(*({"id": f"i{n}", "name": f"node-{n}"} for n in range(5000)))))
    assert len(many.search("node", most=10)) == 10


def test_a_child_named_under_a_dns_named_parent_is_found_by_its_full_name():
    from tui.products.kit.location import ParentRef

    found = SearchIndex()
    zone = ParentRef("z1", "Example.com.", "global")
    records = rows({"id": "r1", "name": "www"}, {"id": "r2", "name": "@"}, {"id": "r3", "name": "mail.example.org."})
    found.put(part_of(SERVERS, "global", records, parent=zone))
    assert [h.row_id for h in found.search("www.example.com")] == ["r1"]
    assert [h.row_id for h in found.search("example.com")] == ["r2", "r1"]  # the apex is the zone's own name
    assert found.search("mail.example.org.example.com") == []  # a name given whole is not put under it
    found.put(part_of(SERVERS, "fr-par-1", rows({"id": "n1", "name": "www"}), parent=ParentRef("p", "web-lb", "")))
    assert [h.row_id for h in found.search("www.web-lb")] == []  # a parent not named as a DNS name
