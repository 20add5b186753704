"""SVG snapshots of the main view and the create form at 80×24 and 120×40.

Deterministic by construction: seeded sandbox on a manual clock, fixed wall time for "last refresh".
Update after an intended visual change with `uv run pytest tests/test_snapshots.py --snapshot-update`.
"""

import pytest

from helpers import loaded, make_app, wait_for
from tui.sandbox import ManualClock, Sandbox

SIZES = [(80, 24), (120, 40)]


def app_for_snapshot():
    return make_app(Sandbox(clock=ManualClock()))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_view(snap_compare, size):
    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=ready)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_create_form(snap_compare, size):
    app = app_for_snapshot()

    async def open_form(pilot):
        await loaded(pilot, app)
        await pilot.press("c")
        await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form choices")
        await pilot.press(*"web_03")  # an invalid name, to show the inline error
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=open_form)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_detail_pane(snap_compare, size):
    """The list and the detail of the row under the cursor: beside it at 120 columns, below it at 80."""
    app = app_for_snapshot()

    async def pane(pilot):
        await loaded(pilot, app)
        await pilot.press("p", "j")
        await wait_for(
            pilot,
            lambda: app.main.query_one("#pane").shown_row is app.main.view.table.get(app.main.view.table.cursor_key),
            what="the pane on the row",
        )

    assert snap_compare(app, terminal_size=size, run_before=pane)


def test_detail_view(snap_compare):
    app = app_for_snapshot()

    async def open_detail(pilot):
        await loaded(pilot, app)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: app.screen.__class__.__name__ == "DetailScreen" and bool(app.screen.query("#fields"))
        )
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 30), run_before=open_detail)


INSTANCE_KINDS = [
    "instance.volumes",
    "instance.snapshots",
    "instance.images",
    "instance.ips",
    "instance.security_groups",
    "instance.placement_groups",
    "instance.types",
]
CREATABLE = [k for k in INSTANCE_KINDS if k not in ("instance.types",)]


@pytest.mark.parametrize("kind_id", INSTANCE_KINDS)
def test_instance_list(snap_compare, kind_id):
    from helpers import open_view

    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        await open_view(pilot, app, kind_id)

    assert snap_compare(app, terminal_size=(120, 30), run_before=ready)


@pytest.mark.parametrize("kind_id", CREATABLE)
def test_instance_create_form(snap_compare, kind_id):
    from helpers import open_view

    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        await open_view(pilot, app, kind_id)
        await pilot.press("c")
        await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form choices")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 30), run_before=ready)


def test_security_group_rule_editor(snap_compare):
    from helpers import action, open_view, select

    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.security_groups")
        await select(pilot, view, "web-public")
        await action(pilot, app, "Rules…")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "RecordListScreen")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 30), run_before=ready)


EDITABLE = {
    "instance.volumes": "archive-2025",
    "instance.snapshots": "archive-2025-initial",
    "instance.images": "gateway-golden",
    "instance.ips": "163.172.10.11",
    "instance.security_groups": "web-public",
    "instance.placement_groups": "web-spread",
}


@pytest.mark.parametrize("kind_id", list(EDITABLE))
def test_instance_edit_form(snap_compare, kind_id):
    from helpers import open_view, select

    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, kind_id)
        await select(pilot, view, EDITABLE[kind_id])
        await pilot.press("e")
        await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 30), run_before=ready)


@pytest.mark.parametrize("what", ["list", "order", "install"])
def test_baremetal(snap_compare, what):
    from helpers import action, open_view, select

    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, "baremetal.servers")
        app.main.set_scope("fr-par-2")
        await wait_for(
            pilot,
            lambda: (
                view.scope == "fr-par-2"
                and not view.model.listing
                and view.table.loaded_count == 5
                and all(r.get("zone") == "fr-par-2" for r in view.table.resources())
            ),
            what="fr-par-2",
        )
        view.focus_table()
        if what == "order":
            await pilot.press("c")
        elif what == "install":
            await select(pilot, view, "build-farm")
            await action(pilot, app, "Install an OS…")
        if what != "list":
            await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form choices")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 30), run_before=ready)


@pytest.mark.parametrize("what", ["marked", "create", "attach"])
def test_flexible_ips(snap_compare, what):
    """The list grouped by server with two rows marked; the create form; the attach confirmation
    saying a MAC group moves together."""
    from helpers import open_view, pick

    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, "flexible_ip.fips")
        app.main.set_scope("fr-par-2")
        await wait_for(
            pilot,
            lambda: view.scope == "fr-par-2" and not view.model.listing and view.table.loaded_count == 4,
            what="fr-par-2",
        )
        view.focus_table()
        await pilot.pause()
        if what == "marked":
            await pilot.press("space", "down", "space")
        elif what == "create":
            await pilot.press("c")
            await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form choices")
        else:  # one member of the MAC group marked: the other joins, and the dialog says so
            await pilot.press("space", "a")
            await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="menu")
            await pick(pilot, app, lambda t: t.startswith("Attach"))
            await wait_for(
                pilot,
                lambda: app.screen.__class__.__name__ == "PickerScreen" and app.screen.id != "actions-menu",
                what="servers",
            )
            await pick(pilot, app, lambda t: t.startswith("build-farm"))
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen", what="confirm")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 30), run_before=ready)


@pytest.mark.parametrize("what", ["instances", "create", "create-refused-80x24", "privileges", "backups", "chart"])
def test_databases(snap_compare, what):
    """Database instances (disk_full in reverse video), the create wizard, the users × databases
    grid, the region's backups in every state, and the CPU chart of the last hour (sandbox and app on
    one fixed wall clock, so the series are the same on every run)."""
    from helpers import FIXED_WALL, action, open_view, select

    sandbox = Sandbox(clock=ManualClock(FIXED_WALL))
    if what == "privileges":
        sandbox.clock.advance(10)  # the demo's backup under way (orders-db backuping) is over
    app = make_app(sandbox, clock=sandbox.clock.now)

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.backups" if what == "backups" else "rdb.instances")
        if what.startswith("create"):
            await pilot.press("c")
            await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form choices")
            if what == "create-refused-80x24":  # five fields refused: the buttons still fit whole
                await pilot.press("ctrl+s")
                await wait_for(
                    pilot, lambda: "Fix 5 fields" in str(app.screen.query_one("#form-status").render()), what="refusal"
                )
        elif what == "privileges":
            await select(pilot, view, "orders-db")
            await action(pilot, app, "Privileges (users × databases)…")
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "MatrixScreen", what="grid")
        elif what == "chart":
            await select(pilot, view, "orders-db")
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen", what="detail")
            await pilot.press("v", "v")
            chart = app.screen.query_one("MetricsChart")
            await wait_for(pilot, lambda: chart.loaded, what="chart")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24) if what.endswith("80x24") else (120, 30), run_before=ready)


@pytest.mark.parametrize("what", ["clusters", "create"])
def test_cache(snap_compare, what):
    from helpers import open_view

    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)
        await open_view(pilot, app, "kvcache.clusters")
        if what == "create":
            await pilot.press("c")
            await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form choices")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 30), run_before=ready)


DB_CHILDREN = [
    "Databases",
    "Users",
    "ACL rules",
    "Settings",
    "Read replicas",
    "Backups of this instance",
    "Snapshots of this instance",
    "Logs",
]


@pytest.mark.parametrize("child", DB_CHILDREN)
def test_database_child_lists(snap_compare, child):
    """Each list inside orders-db, as `a` → "… ›" opens it (Logs is empty until prepared)."""
    from helpers import FIXED_WALL, child_list, open_view, to_named_row

    sandbox = Sandbox(clock=ManualClock(FIXED_WALL))
    sandbox.clock.advance(10)
    app = make_app(sandbox, clock=sandbox.clock.now)

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.instances")
        await to_named_row(pilot, view, "orders-db")
        await child_list(pilot, app, f"{child} ›")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 24), run_before=ready)


DB_FORMS = {  # (list, row, how the form opens)
    "instance-edit": ("rdb.instances", "orders-db", "e"),
    "database-create": ("rdb.instances", "orders-db", "Databases ›"),
    "user-create": ("rdb.instances", "orders-db", "Users ›"),
    "acl-create": ("rdb.instances", "orders-db", "ACL rules ›"),
    "setting-create": ("rdb.instances", "orders-db", "Settings ›"),
    "replica-create": ("rdb.instances", "orders-db", "Create a read replica…"),
    "backup-create": ("rdb.backups", None, "c"),
    "snapshot-create": ("rdb.instances", "orders-db", "Snapshot the volume…"),
    "logs-prepare": ("rdb.instances", "orders-db", "Logs ›"),
    "upgrade-pick": ("rdb.instances", "orders-db", "Upgrade (node type, HA, volume, version)…"),
    "cache-edit": ("kvcache.clusters", "sessions", "e"),
    "cache-migrate-size": ("kvcache.clusters", "sessions", "Migrate: version, node type or size…"),
}


@pytest.mark.parametrize("form", list(DB_FORMS))
def test_database_and_cache_forms(snap_compare, form):
    """Each form of the two products as it opens (child-list creates: `c` in the child list)."""
    from helpers import FIXED_WALL, act, child_list, open_view, pick, to_named_row

    sandbox = Sandbox(clock=ManualClock(FIXED_WALL))
    sandbox.clock.advance(10)
    app = make_app(sandbox, clock=sandbox.clock.now)
    kind, row, how = DB_FORMS[form]

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, kind)
        if row:
            await to_named_row(pilot, view, row)
        if how.endswith("›"):
            await child_list(pilot, app, how)
            await pilot.press("c")
        elif len(how) == 1:
            await pilot.press(how)
        else:
            await act(pilot, app, how)
        if form == "cache-migrate-size":
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PickerScreen", what="what to migrate")
            await pick(pilot, app, lambda t: t.startswith("Number of nodes"))
        if form == "upgrade-pick":
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PickerScreen", what="what to upgrade")
        else:
            await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 30), run_before=ready)
