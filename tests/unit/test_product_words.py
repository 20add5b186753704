"""What a product says of a state, where the words carry a rule of the spec: a load balancer is
"highly available" only while both its instances are ready and it is itself ready (spec 3 §3)."""

from __future__ import annotations

import pytest

from tui.products.lb.kinds import availability


def lb(status, *instances):
    return {"status": status, "instances": [{"status": s, "ip_address": f"10.0.0.{n}"} for n, s in enumerate(instances, 1)]}


@pytest.mark.parametrize("data, tone, words", [
    (lb("ready", "ready", "ready"), "good", "highly available"),
    (lb("ready", "ready", "error"), "bad", "no: #2 error"),
    (lb("pending", "pending", "pending"), "busy", "no: both pending"),
    (lb("deleting", "ready", "ready"), "busy", "no: the load balancer is deleting"),
    (lb("ready", "ready"), "bad", "one instance only (ready)"),
    (lb("ready"), "other", "no instance"),
])
def test_a_load_balancer_is_highly_available_only_while_it_and_both_instances_are_ready(data, tone, words):
    assert availability(data) == (tone, words)


@pytest.mark.parametrize("counts, said", [
    ({"frontend_count": 0, "backend_count": 0}, ""),
    ({"frontend_count": 1, "backend_count": 0}, "Its 1 frontend is deleted with it."),
    ({"frontend_count": 2, "backend_count": 1}, "Its 2 frontends and 1 backend are deleted with it."),
    ({}, ""),
])
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

    assert [STOCK.text(s).plain for s in ("high_stock", "low_stock", "no_stock")] == ["● high_stock", "◐ low_stock", "✖ no_stock"]
