"""Managed databases from the keyboard, against the sandbox: the create wizard refusing bad input
with the field named, users × databases privileges edited in place, a backup exported and restored
(refused until the users exist), a read replica promoted, and the metrics chart."""

from __future__ import annotations

import pytest

from helpers import (
    action,
    demo_settings,
    later,
    loaded,
    make_app,
    open_view,
    pick,
    row_named,
    screen_named,
    select,
    text_of,
    wait_for,
)

pytestmark = pytest.mark.anyio
PW = "Str0ng-pass!"


def rdb_app(sandbox, **kw):
    return make_app(sandbox, settings=demo_settings(region="fr-par"), **kw)


def writes(sandbox, prefix="/rdb/"):
    return [(m, p) for m, p in sandbox.requests if m != "GET" and p.startswith(prefix)]


async def form_ready(pilot, app):
    screen = await screen_named(pilot, app, "FormScreen")
    await wait_for(pilot, lambda: screen.ready, what="form choices")
    return screen


async def type_into(pilot, form, field, text):
    form.query_one(f"#f-{field}").focus()
    await pilot.press(*text)


async def choose_in(pilot, form, field, text):
    form.query_one(f"#f-{field}").focus()
    await pilot.press("enter", *text, "enter")


def inst(sandbox, name, region="fr-par"):
    return next(i for i in sandbox.rdb.instances[region].values() if i["name"] == name)


async def test_create_wizard_creates_an_ha_postgresql_15_on_a_block_volume(sandbox, clock):
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.instances")
        assert view.table.border_title == "Database instances · fr-par · 4/4"
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await type_into(pilot, form, "name", "shop-db")
        await choose_in(pilot, form, "engine", "PostgreSQL-15")
        await choose_in(pilot, form, "node_type", "DB-PRO2-M")  # HA required
        await choose_in(pilot, form, "volume_type", "bssd")
        await type_into(pilot, form, "volume_size", "50")
        await type_into(pilot, form, "user_name", "admin")
        await type_into(pilot, form, "password", "weakpass")
        hint = str(form.query_one("#h-password").render())
        assert "too weak" in hint and "weakpass" not in hint  # the strength hint never echoes the password
        form.query_one("#f-is_ha_cluster").focus()
        await pilot.press("space")  # DB-PRO2-M runs only as HA (the rule: tests/unit/test_form_rules.py)
        form.query_one("#f-password").value = PW
        form.query_one("#a-password").value = PW
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "main", what="created")
        made = inst(sandbox, "shop-db")
        assert (
            made["engine"] == "PostgreSQL-15"
            and made["is_ha_cluster"]
            and made["volume"] == {"type": "bssd", "size": 50_000_000_000, "class": "bssd"}
        )
        assert made["_users"]["admin"]["_password"] == PW
        row = next(r for r in view.table.resources() if r.name == "shop-db")
        assert row.state == "provisioning"
        clock.advance(30)
        view.follow(row)
        await wait_for(
            pilot, lambda: next(r for r in view.table.resources() if r.name == "shop-db").state == "ready", what="ready"
        )


async def test_privileges_grid_sets_readwrite_and_refuses_unmanaged_databases(sandbox, clock):
    clock.advance(10)  # the demo's backup under way settles
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.instances")
        await select(pilot, view, "orders-db")
        await action(pilot, app, "Privileges (users × databases)…")
        grid = await screen_named(pilot, app, "MatrixScreen")
        assert grid.rows == ["admin", "app", "reporting"] and grid.columns == ["analytics", "orders", "rdb"]
        assert "analytics" in grid.locked
        await pilot.press("space")  # admin × analytics: locked
        assert "unmanaged" in str(grid.query_one("#matrix-status").render())
        await pilot.press("j", "l")  # app × orders: readwrite → all
        await pilot.press("space")
        await pilot.press("l", "space", "space", "space")  # app × rdb: none → readonly → readwrite → all
        await pilot.press("backspace")  # back to readwrite
        assert grid.changes() == {("app", "orders"): "all", ("app", "rdb"): "readwrite"}
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "main", what="saved")
        privs = inst(sandbox, "orders-db")["_privs"]
        assert privs[("app", "orders")] == "all" and privs[("app", "rdb")] == "readwrite"
        assert [m for m, p in writes(sandbox)] == ["PUT", "PUT"]


async def test_backup_export_then_restore_refused_until_the_users_exist(sandbox, clock):
    clock.advance(10)
    staging = inst(sandbox, "staging-pg")
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.backups")
        await select(pilot, view, "orders-nightly")
        await action(pilot, app, "Export (make a download URL)")
        await wait_for(pilot, lambda: any(p.endswith("/export") for _, p in writes(sandbox)), what="export sent")
        clock.advance(6)
        row = next(r for r in view.table.resources() if r.name == "orders-nightly")
        view.follow(row)
        await wait_for(
            pilot,
            lambda: bool(next(r for r in view.table.resources() if r.name == "orders-nightly").get("download_url")),
            what="URL",
        )
        result = await screen_named(pilot, app, "ResultScreen")  # shown once made: no second trip to the menu
        assert "https://" in result.text
        await pilot.press("escape")
        await action(pilot, app, "Restore to an instance…")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda label: label.startswith("staging-pg"))
        form = await form_ready(pilot, app)
        assert form.form.values()["database_name"] == "orders"  # staging has none of that name: nothing is overwritten
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "reporting" in str(form.query_one("#form-status").render()), what="refusal shown")
        assert app.screen is form  # what was typed stays
        staging["_users"]["reporting"] = {"name": "reporting", "is_admin": False, "_password": PW}
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "main", what="restoring")
        assert "orders" in staging["_dbs"]


async def test_restoring_over_a_database_takes_its_name_typed_and_never_another_engine(sandbox, clock):
    clock.advance(10)
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.backups")
        await select(pilot, view, "orders-nightly")  # a backup of orders-db's database "orders"
        await action(pilot, app, "Restore to an instance…")
        picker = await screen_named(pilot, app, "PickerScreen")
        mysql = next(c for c in picker.choices if c[0].startswith("legacy-mysql"))
        assert "a PostgreSQL backup restores only to PostgreSQL" in mysql[2]  # greyed, with why
        assert picker.current is None  # no target is chosen for the operator
        await pick(pilot, app, lambda label: label.startswith("orders-db"))
        form = await form_ready(pilot, app)
        assert form.form.values()["database_name"] == "orders_restored"  # the default overwrites nothing
        form.query_one("#f-database_name").focus()
        await pilot.press("ctrl+u", *"orders", "ctrl+s")
        dialog = await screen_named(pilot, app, "ConfirmScreen")
        assert (
            "replaces everything in database orders of orders-db" in dialog.message and dialog.require_text == "orders"
        )
        await pilot.press("escape")  # not confirmed: nothing sent, the form stays
        await wait_for(pilot, lambda: app.screen is form, what="back to the form")
        assert not any(p.endswith("/restore") for _, p in writes(sandbox))
        await pilot.press("ctrl+s")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press(*"orders", "enter")
        await wait_for(pilot, lambda: app.screen.id == "main", what="restoring")
        assert [p for _, p in writes(sandbox) if p.endswith("/restore")] != []


async def test_read_replica_promoted_and_the_cpu_chart_of_the_last_hour(sandbox, clock):
    from helpers import FIXED_WALL
    from tui.sandbox import ManualClock, Sandbox

    sb = Sandbox(clock=ManualClock(FIXED_WALL))
    sb.clock.advance(10)
    app = rdb_app(sb, clock=lambda: sb.clock.now())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.instances")
        await select(pilot, view, "orders-db")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("v", "v")  # Fields → JSON → Metrics
        chart = detail.query_one("MetricsChart")
        await wait_for(pilot, lambda: chart.loaded, what="chart loaded")
        head = str(chart.query_one("#chart-head").render())
        assert head.startswith("CPU · last 1 h") and "main" in head and "standby" in head
        assert len(chart.series) == 2 and all(59 <= len(s["points"]) <= 61 for s in chart.series)  # a point a minute
        await pilot.press("w")  # 6 h
        await wait_for(
            pilot, lambda: chart.loaded and "last 6 h" in str(chart.query_one("#chart-head").render()), what="6 h"
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="menu")
        await pick(pilot, app, lambda text: text == "Read replicas ›")
        replicas = (await screen_named(pilot, app, "ChildScreen")).view
        await wait_for(
            pilot,
            lambda: replicas.model.last_attempt is not None and not replicas.model.listing,
            what="replicas listed",
        )
        assert str(replicas.table.border_title).startswith("orders-db › Read replicas · fr-par · 1/1")
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="menu")
        await pick(pilot, app, lambda text: text == "Promote to a standalone instance")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")
        del confirm
        await wait_for(pilot, lambda: any(p.endswith("/promote") for _, p in writes(sb)), what="promote sent")
        assert any(i["name"] == "orders-db-promoted" for i in sb.rdb.instances["fr-par"].values())


async def test_read_only_sends_nothing_but_gets(sandbox, clock):
    clock.advance(10)  # orders-db's backup is over: it is ready
    app = make_app(sandbox, settings=demo_settings(region="fr-par", read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.instances")
        await select(pilot, view, "orders-db")  # (no write offered: tests/ui/test_read_only.py)
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="menu")
        labels = [c[0] for c in app.screen.choices]
        assert "Download the TLS certificate…" in labels and "Restart" not in labels
        await pick(pilot, app, lambda label: label.startswith("Privileges"))  # a read: it opens, read-only
        grid = await screen_named(pilot, app, "MatrixScreen")
        keys = text_of(grid.query_one("#matrix-keys"))
        assert "read-only mode" in keys and "esc closes" in keys and "ctrl+s" not in keys  # says so, offers no save
        assert keys.count("not changed") == 1  # (it said "shown, not changed: … shown, not changed")
        offered = {b.binding.action for b in grid.active_bindings.values() if b.binding.show}
        assert not offered & {"cycle(1)", "save"}, offered  # the key bar offers neither (walk: "^s Save")
        before = grid.changes()
        await pilot.press("space", "ctrl+s")
        assert grid.changes() == before == {} and app.screen is grid
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="grid closed")
        await action(pilot, app, "Log files: sizes, purge…")  # the sizes are shown; purge is not offered
        sizes = await screen_named(pilot, app, "ResultScreen")
        assert "B" in sizes.text and "Purge" not in sizes.text
        await pilot.press("escape")
    assert writes(sandbox) == []


async def test_a_disk_full_instance_shows_what_it_cannot_do_and_why(sandbox, clock):
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.instances")
        await select(pilot, view, "legacy-mysql")  # disk_full
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="menu")
        greyed = {c[0]: c[2] for c in app.screen.choices if len(c) > 2 and c[2]}
        for label in (
            "Restart",
            "Clone…",
            "Create a read replica…",
            "Renew the TLS certificate",
            "Snapshot the volume…",
        ):
            assert label in greyed, label
        assert "disk_full" in greyed["Restart"] and "free space" in greyed["Restart"]
        await pilot.press("escape")
        # on the cursor row its status stays readable without colour: underlined, not reversed into the cursor
        table = view.table
        await wait_for(pilot, lambda: app.screen.id == "main", what="menu closed")
        line = table.render_line(table.cursor_row - table.scroll_offset.y + 1)
        status = next(seg for seg in line if "DISK_FULL" in seg.text)
        assert status.style.underline and not status.style.reverse


async def test_an_upgrade_to_a_smaller_node_type_is_said_first_and_cancelling_sends_nothing(sandbox, clock):
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.instances")
        await later(
            pilot, clock, 60, lambda: row_named(view, "orders-db").state == "ready", "ready"
        )  # its morning backup over
        await select(pilot, view, "orders-db")
        await action(pilot, app, "Upgrade (node type, HA, volume, version)…")
        await wait_for(
            pilot, lambda: getattr(app.screen, "title_text", "").startswith("Upgrade orders-db"), what="the changes"
        )
        await pick(pilot, app, lambda t: t.startswith("Node type"))
        form = await form_ready(pilot, app)
        labels = [label for label, _ in form.form.choices["node_type"]]
        assert any(
            label.startswith("DB-GP-XS ") and label.endswith("(current)") for label in labels
        )  # the current one, in words
        form.query_one("#f-node_type").value = "DB-DEV-S"
        await pilot.press("ctrl+s")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        assert "DB-DEV-S is smaller than DB-GP-XS" in confirm.message and app.focused.id == "cancel"
        await pilot.press("enter")  # Cancel: back on the form, nothing sent
        await wait_for(pilot, lambda: app.screen is form, what="the form again")
        assert writes(sandbox) == [] and inst(sandbox, "orders-db")["node_type"] == "DB-GP-XS"


async def test_a_nameless_row_is_named_once_by_its_id_in_its_menu_and_its_delete(sandbox):
    """A read replica has no name: its delete said 'id (id) in fr-par will be deleted'."""
    from helpers import child_list

    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.instances")
        await select(pilot, view, "orders-db")
        replicas = await child_list(pilot, app, "Read replicas ›")
        replica = next(iter(replicas.table.resources()))
        assert replica.name == ""
        await pilot.press("a")
        menu = await screen_named(pilot, app, "PickerScreen")
        assert text_of(menu.query_one("#dialog-title")).strip() == f"{replica.id}: actions"
        await pilot.press("escape")
        await pilot.press("d")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        said = f"{confirm.title_text}\n{confirm.message}"
        assert f"({replica.id})" not in said and said.count(replica.id) == 2  # the title, and the message once
