"""What a product says of a state, where the words carry a rule of the spec: a load balancer is
"highly available" only while both its instances are ready and it is itself ready (spec 3 §3)."""

from __future__ import annotations

import pytest

from tui.products.lb.kinds import availability


def lb(status, *instances):
    return {
        "status": status,
        "instances": [{"status": s, "ip_address": f"10.0.0.{n}"} for n, s in enumerate(instances, 1)],
    }


@pytest.mark.parametrize(
    "data, tone, words",
    [
        (lb("ready", "ready", "ready"), "good", "highly available"),
        (lb("ready", "ready", "error"), "bad", "no: #2 error"),
        (lb("pending", "pending", "pending"), "busy", "no: both pending"),
        (lb("deleting", "ready", "ready"), "busy", "no: the load balancer is deleting"),
        (lb("ready", "ready"), "bad", "one instance only (ready)"),
        (lb("ready"), "other", "no instance"),
    ],
)
def test_a_load_balancer_is_highly_available_only_while_it_and_both_instances_are_ready(data, tone, words):
    assert availability(data) == (tone, words)


@pytest.mark.parametrize(
    "counts, said",
    [
        ({"frontend_count": 0, "backend_count": 0}, ""),
        ({"frontend_count": 1, "backend_count": 0}, "Its 1 frontend is deleted with it."),
        ({"frontend_count": 2, "backend_count": 1}, "Its 2 frontends and 1 backend are deleted with it."),
        ({}, ""),
    ],
)
def test_a_load_balancers_delete_says_what_goes_with_it_in_words(counts, said):
    from tui.products.lb.kinds import goes_with

    assert goes_with(counts) == said


def test_no_view_is_named_inside_another_views_name_so_the_palette_finds_each_by_its_own_words():
    """Typing "Flexible IPs" opened Instance's list: its name was a part of "Bare-metal flexible IPs"."""
    from tui.products import manifest

    names = {e.id: (e.title or e.label).lower() for e in manifest.entries()}
    inside = [(a, b) for a, name in names.items() for b, other in names.items() if a != b and name in other]
    assert inside == []


def test_silicon_stock_reads_high_low_and_none_with_three_marks():
    from tui.products.silicon.catalogue import STOCK

    assert [STOCK.text(s).plain for s in ("high_stock", "low_stock", "no_stock")] == [
        "● high_stock",
        "◐ low_stock",
        "✖ no_stock",
    ]


@pytest.mark.parametrize(
    "left, said",
    [(24 * 3600 - 5, "in 24 h"), (3 * 3600 + 60, "in 4 h"), (3600, "in 60 min"), (250, "in 5 min"), (0, "yes")],
)
def test_a_silicon_servers_wait_before_delete_is_rounded_up_so_a_new_one_reads_24_h(left, said):
    """Right after a create the column read 'in 23 h' for a 24-hour lease (23 h 59 min, cut down)."""
    from tui.products.kit.rows import Row
    from tui.products.silicon.servers import SERVERS
    from tui.products.kit.times import from_now

    column = next(c for c in SERVERS.columns if c.key == "deletable")
    assert str(column.value(Row({"id": "s", "name": "n", "deletable_at": from_now(left)}))) == said


def test_a_bare_metal_event_shows_its_whole_time_to_the_second_within_its_column():
    """The Events tab cut the time: '2026-11-26T23:04:32.8…' in a 22-column cell."""
    from tui.products.baremetal.servers import EVENTS
    from tui.products.kit.rows import Row

    column = next(c for c in EVENTS.columns if c.key == "at")
    shown = str(column.value(Row({"key": "k", "action": "order", "created_at": "2026-11-26T23:04:32.795000+00:00"})))
    assert shown == "2026-11-26 23:04:32 UTC" and column.width is not None and len(shown) <= column.width


def test_a_cache_scaled_to_five_nodes_shows_its_five_addresses_in_the_detail():
    """Scaled from 3 to 5 nodes, the detail still listed 3 addresses (the list cell's cut)."""
    from tui.products.kvcache.clusters import CLUSTERS
    from tui.products.kit.models import Resource

    ips = [f"10.12.0.{n}" for n in range(10, 15)]
    cluster = Resource.model_validate(
        {
            "id": "c",
            "name": "sessions",
            "cluster_size": 5,
            "endpoints": [
                {"ips": ips, "port": 6379, "private_network": {"id": "pn", "service_ips": [f"{ip}/22" for ip in ips]}}
            ],
        }
    )
    shown = str(dict(CLUSTERS.detail_fields)["Endpoints"](cluster))
    assert all(ip in shown for ip in ips) and "…" not in shown


def test_a_silicon_servers_runner_token_never_reaches_its_row():
    from tui.products.silicon.servers import SERVERS

    row = SERVERS.make_row({"id": "s1", "name": "m1", "runner_configuration": {"name": "ci", "token": "glrt-secret"}})
    assert "glrt-secret" not in repr(row.data)


def test_a_detail_says_block_only_storage_and_an_address_family_in_the_words_used_elsewhere():
    from tui.products.baremetal.servers import SERVERS
    from tui.products.instance.types import TYPES
    from tui.products.kit.models import Resource

    block_only = Resource.model_validate({"name": "PLAY2-NANO", "volumes_constraint": {"min_size": 0, "max_size": 0}})
    assert dict(((t, get(block_only)) for t, get in TYPES.detail_fields))["Local storage (total)"] == (
        "none: block storage only"
    )
    server = Resource.model_validate({"id": "s", "ips": [{"address": "51.15.1.2", "version": "Ipv4"}]})
    ips = next(get(server) for t, get in SERVERS.detail_fields if t.startswith("IP"))
    assert "51.15.1.2 (IPv4)" in ips


def test_a_count_of_a_kind_says_its_noun_as_english_does():
    from tui.products.baremetal.servers import SERVERS
    from tui.products.instance.network import IPS

    assert (SERVERS.counted(1), SERVERS.counted(2)) == ("1 bare-metal server", "2 bare-metal servers")
    assert IPS.counted(1_000) == "1,000 flexible IPs"
