"""The overview's counts (issue 52, item 1), below the console: every list read, by zone or region and
state, each state's tone as its kind declares it; a resource read twice counted once; catalogues and
child lists left out."""

from __future__ import annotations

from tui.products.instance.servers import SERVERS
from tui.products.instance.types import TYPES
from tui.products.kit.location import ALL, ParentRef
from tui.products.kit.overview import tally
from tui.products.kit.related import Held


def server(sid, state, zone="fr-par-1"):
    return SERVERS.make_row({"id": sid, "name": sid, "state": state, "zone": zone})


def test_every_list_is_counted_by_zone_and_state_the_most_urgent_first_each_resource_once():
    every_zone = [server("a", "running"), server("b", "stopped"), server("c", "locked", "nl-ams-1")]
    open_list = [server("a", "running"), server("d", "running")]  # its zone's list, open: `a` is in both
    counted = tally([Held(SERVERS, ALL, None, every_zone), Held(SERVERS, "fr-par-1", None, open_list)])
    by_zone = {t.scope: t for t in counted}
    assert set(by_zone) == {"fr-par-1", "nl-ams-1"}
    assert by_zone["fr-par-1"].total == 3
    assert by_zone["fr-par-1"].ordered() == [("stopped", 1, "other"), ("running", 2, "good")]
    assert by_zone["nl-ams-1"].ordered() == [("locked", 1, "bad")] and by_zone["nl-ams-1"].needing() == 1


def test_a_catalogue_and_a_child_list_are_not_the_accounts_resources():
    types = [TYPES.make_row({"name": "DEV1-S", "zone": "fr-par-1"})]
    parent = ParentRef("x", "web", "fr-par-1")
    child = Held(SERVERS, "fr-par-1", parent, [server("a", "running")])
    assert tally([Held(TYPES, "fr-par-1", None, types), child]) == []
