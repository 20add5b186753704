"""SVG snapshots of the network-facing products (container registry, DNS, load balancers):
each list, and each form as it opens. Seeded sandbox on a manual clock.
Update after an intended visual change with `uv run pytest tests/snapshot --snapshot-update`."""

import pytest

from helpers import (
    FIXED_WALL,
    act,
    child_list,
    form_ready,
    loaded,
    make_app,
    open_view,
    screen_named,
    tab_to,
    to_named_row,
    wait_for,
)
from tui.sandbox import ManualClock, Sandbox


def app_for_snapshot():
    sandbox = Sandbox(clock=ManualClock(FIXED_WALL))
    sandbox.clock.advance(10)
    return make_app(sandbox, clock=sandbox.clock.now)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_registry_namespaces(snap_compare, size):
    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        await open_view(pilot, app, "registry.namespaces")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=ready)


REGISTRY = {  # (list, row, what opens)
    "images": ("registry.images", None, None),
    "tags": ("registry.namespaces", "web", "frontend"),
    "namespace-create": ("registry.namespaces", None, "c"),
    "namespace-edit": ("registry.namespaces", "web", "e"),
    "image-edit": ("registry.images", "frontend", "e"),
    "pull-command": ("registry.namespaces", "web", "pull"),
}


@pytest.mark.parametrize("what", list(REGISTRY))
def test_registry(snap_compare, what):
    app = app_for_snapshot()
    kind, row, how = REGISTRY[what]

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, kind)
        if row:
            await to_named_row(pilot, view, row)
        if how in ("c", "e"):
            await pilot.press(how)
            await form_ready(pilot, app)
        elif how is not None:  # down to an image's tags
            images = await child_list(pilot, app, "Images")
            await to_named_row(pilot, images, "frontend")
            tags = await child_list(pilot, app, "Tags")
            if how == "pull":
                await to_named_row(pilot, tags, "latest")
                await act(pilot, app, "Pull command")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 28), run_before=ready)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_dns_zones(snap_compare, size):
    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        await open_view(pilot, app, "dns.zones")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=ready)


DNS = ["domains", "records", "record-create", "review", "versions", "validation"]


@pytest.mark.parametrize("what", DNS)
def test_dns(snap_compare, what):
    from helpers import screen_named, tab_to, wait_for

    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        if what in ("domains", "validation"):
            view = await open_view(pilot, app, "dns.domains")
            if what == "validation":
                await to_named_row(pilot, view, "xn--bcher-kva.example")
                await act(pilot, app, "Validation TXT record")
                await screen_named(pilot, app, "ResultScreen")
            await pilot.pause()
            return
        zones = await open_view(pilot, app, "dns.zones")
        await to_named_row(pilot, zones, "example.com")
        if what == "versions":
            await child_list(pilot, app, "Versions")
            await pilot.pause()
            return
        records = await child_list(pilot, app, "Records")
        if what == "record-create":
            await pilot.press("c")
            await form_ready(pilot, app)
        elif what == "review":  # two staged deletes and an edit, reviewed
            await pilot.press("home", "d", "down", "down", "d")
            await pilot.press("e")
            await form_ready(pilot, app)
            await tab_to(pilot, app, "f-ttl")
            await pilot.press("ctrl+u", *"600", "ctrl+s")
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="staged")
            await pilot.press("w")
            await screen_named(pilot, app, "DiffScreen")
        assert records is not None
        app.clear_notifications()  # a toast's time on screen is the clock's: on a busy machine it was still there
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 28), run_before=ready)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_load_balancers(snap_compare, size):
    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        await open_view(pilot, app, "lb.lbs")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=ready)


LB = {  # what opens on web-lb
    "backends": "Backends",
    "frontends": "Frontends",
    "topology": "topology",
    "create": "c",
    "backend-form": "backend-form",
}


@pytest.mark.parametrize("what", list(LB))
def test_load_balancer(snap_compare, what):
    app = app_for_snapshot()
    how = LB[what]

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, "lb.lbs")
        await to_named_row(pilot, view, "web-lb")
        if how == "c":
            await pilot.press("c")
            await form_ready(pilot, app)
        elif how == "topology":
            await pilot.press("enter")
            detail = await screen_named(pilot, app, "DetailScreen")
            await pilot.press("v", "v")
            await wait_for(pilot, lambda: detail.query_one("TreePanel").loaded, what="tree")
        elif how == "backend-form":  # web-servers' edit form, down at its HTTP health check
            backends = await child_list(pilot, app, "Backends")
            await to_named_row(pilot, backends, "web-servers")
            await pilot.press("e")
            await form_ready(pilot, app)
            await tab_to(pilot, app, "f-health_check--check--http--code")
        else:
            await child_list(pilot, app, how)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 28), run_before=ready)
