"""The rest of the database flows from the keyboard, against the sandbox: what lives in an instance
(users, databases, ACL rules, settings) changed and removed; a snapshot renamed, the maintenance
applied; logs prepared and their URL copied; a backup and a replica. The conversations (endpoints,
log files, upgrade, clone, snapshots) are checked as such in tests/unit/test_rdb_flows.py."""

from __future__ import annotations

import pytest

from helpers import (
    act,
    child_list,
    choose,
    confirm_yes,
    delete_typing,
    demo_settings,
    form_ready,
    later,
    loaded,
    make_app,
    open_view,
    row_named,
    screen_named,
    sent,
    tab_to,
    to_named_row,
    wait_for,
)

pytestmark = pytest.mark.anyio
R = "/rdb/v1/regions/fr-par"
PW = "Str0ng-pass!"


def rdb_app(sandbox):
    return make_app(sandbox, settings=demo_settings(region="fr-par"))


def inst(sandbox, name):
    return next(i for i in sandbox.rdb.instances["fr-par"].values() if i["name"] == name)


async def instances_at(pilot, app, name):
    view = await open_view(pilot, app, "rdb.instances")
    await to_named_row(pilot, view, name)
    return view


async def test_users_databases_acl_rules_and_settings_changed_and_removed(sandbox, clock):
    staging = inst(sandbox, "staging-pg")
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await instances_at(pilot, app, "staging-pg")

        # users: toggle admin, a new password, deleted
        users = await child_list(pilot, app, "Users ›")
        await to_named_row(pilot, users, "app")
        await act(pilot, app, "Toggle admin")
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: staging["_users"]["app"]["is_admin"], what="admin")
        await act(pilot, app, "Change the password")
        await form_ready(pilot, app)
        await pilot.press(*PW, "tab", *PW, "ctrl+s")
        await wait_for(pilot, lambda: staging["_users"]["app"]["_password"] == PW, what="password changed")
        await to_named_row(pilot, users, "app")
        await pilot.press("d")
        message = await confirm_yes(pilot, app)
        assert "restoring a backup that needs this user will fail" in message
        await wait_for(pilot, lambda: "app" not in staging["_users"], what="user deleted")
        await pilot.press("escape")

        # databases: created, then deleted with the name typed
        dbs = await child_list(pilot, app, "Databases ›")
        await pilot.press("c")
        await form_ready(pilot, app)
        await pilot.press(*"scratch", "ctrl+s")
        await wait_for(pilot, lambda: dbs.table.get("scratch") is not None, what="database")
        await to_named_row(pilot, dbs, "scratch")
        assert "data are lost" in await delete_typing(pilot, app, "scratch")
        await wait_for(pilot, lambda: "scratch" not in staging["_dbs"], what="database deleted")
        await pilot.press("escape")

        # ACL rules: one added; the whole set replaced in the record editor; one removed
        acls = await child_list(pilot, app, "ACL rules ›")
        await pilot.press("c")
        await form_ready(pilot, app)
        await pilot.press(*"10.1.0.0/16", "ctrl+s")
        await wait_for(pilot, lambda: acls.table.get("10.1.0.0/16") is not None, what="rule added")
        await act(pilot, app, "Replace the whole set")
        records = await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("c")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-ip")
        await pilot.press(*"192.0.2.0/24")
        await pilot.press("ctrl+s")
        await screen_named(pilot, app, "RecordListScreen")
        assert len(records.records) == 2
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: {a["ip"] for a in staging["_acls"]} == {"10.1.0.0/16", "192.0.2.0/24"}, what="set replaced"
        )
        await wait_for(pilot, lambda: acls.table.get("192.0.2.0/24") is not None, what="listed")
        await to_named_row(pilot, acls, "192.0.2.0/24")
        await pilot.press("d")
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: [a["ip"] for a in staging["_acls"]] == ["10.1.0.0/16"], what="rule removed")
        await pilot.press("escape")

        # settings: set, changed, back to default
        settings = await child_list(pilot, app, "Settings ›")
        await pilot.press("c")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-name")
        await choose(pilot, "autovacuum")
        await tab_to(pilot, app, "f-value")
        await pilot.press(*"false", "ctrl+s")
        await wait_for(pilot, lambda: settings.table.get("autovacuum") is not None, what="set")
        await to_named_row(pilot, settings, "autovacuum")
        await act(pilot, app, "Change the value")
        await form_ready(pilot, app)
        await pilot.press("ctrl+u", *"true", "ctrl+s")
        await wait_for(pilot, lambda: {"name": "autovacuum", "value": "true"} in staging["settings"], what="changed")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="back")
        await to_named_row(pilot, settings, "autovacuum")
        await pilot.press("d")
        assert "default" in await confirm_yes(pilot, app)
        await wait_for(
            pilot, lambda: not any(s["name"] == "autovacuum" for s in staging["settings"]), what="back to default"
        )


async def test_a_snapshot_renamed_and_the_pending_maintenance_applied(sandbox, clock):
    """(Taking a snapshot, an instance made from one, upgrade and clone are conversations: their logic is
    checked in tests/unit/test_rdb_flows.py; here what the keyboard adds: an edit form, a confirmation.)"""
    clock.advance(10)  # the demo's backup under way settles
    orders = inst(sandbox, "orders-db")
    sandbox.rdb.create_snapshot(orders, "before-launch", None, status="ready")
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        snapshots = await open_view(pilot, app, "rdb.snapshots")
        await to_named_row(pilot, snapshots, "before-launch")
        await pilot.press("e")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-name")
        await pilot.press("ctrl+u", *"launch-day", "ctrl+s")
        await wait_for(pilot, lambda: row_named(snapshots, "launch-day") is not None, what="renamed")

        await instances_at(pilot, app, "orders-db")
        await act(pilot, app, "Apply the pending maintenance")
        await confirm_yes(pilot, app)
        await wait_for(
            pilot,
            lambda: any(p.endswith("/apply-maintenance") for _, p in sent(sandbox, R)),
            what="maintenance applied",
        )


async def test_logs_prepared_and_their_download_url_copied(sandbox, clock):
    """(Endpoints and log files are conversations: tests/unit/test_rdb_flows.py.)"""
    clock.advance(10)
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await instances_at(pilot, app, "orders-db")
        logs = await child_list(pilot, app, "Logs ›")
        await pilot.press("c")
        await form_ready(pilot, app)
        await pilot.press("ctrl+u", *"2", "ctrl+s")
        await wait_for(pilot, lambda: any(p.endswith("/prepare-logs") for _, p in sent(sandbox, R)), what="prepared")
        await later(
            pilot,
            clock,
            6,
            lambda: logs.table.loaded_count >= 2 and all(r.state == "ready" for r in logs.table.resources()),
            "logs ready",
        )
        await act(pilot, app, "Download URL")
        url = await screen_named(pilot, app, "ResultScreen")
        await pilot.press("y")
        assert app.clipboard == url.text and url.text.startswith("https://")


async def test_region_wide_backup_created_edited_deleted_and_a_replica_reset_then_deleted(sandbox, clock):
    clock.advance(10)
    app = rdb_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)

        # a backup from the region's list, of a database picked by instance
        backups = await open_view(pilot, app, "rdb.backups")
        await pilot.press("c")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-instance_id")
        await choose(pilot, "orders-db")
        await tab_to(pilot, app, "f-database_name")
        await pilot.press(*"orders")
        await tab_to(pilot, app, "f-name")
        await pilot.press(*"orders-adhoc", "ctrl+s")
        await wait_for(pilot, lambda: row_named(backups, "orders-adhoc") is not None, what="backup listed")
        await later(pilot, clock, 9, lambda: row_named(backups, "orders-adhoc").state == "ready", "ready")

        # renamed and given an expiry; then deleted
        await to_named_row(pilot, backups, "orders-adhoc")
        await pilot.press("e")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-name")
        await pilot.press("ctrl+u", *"orders-keep")
        await tab_to(pilot, app, "f-expires_in_days")
        await pilot.press(*"14", "ctrl+s")
        await wait_for(pilot, lambda: row_named(backups, "orders-keep") is not None, what="renamed")
        kept = next(b for b in sandbox.rdb.backups["fr-par"].values() if b["name"] == "orders-keep")
        assert kept["expires_at"] is not None
        await to_named_row(pilot, backups, "orders-keep")
        assert "gone for good" in await delete_typing(pilot, app, "orders-keep")  # data lost: its name typed
        await wait_for(pilot, lambda: ("DELETE", f"{R}/backups/{kept['id']}") in sent(sandbox, R), what="deleted")

        # orders-db's read replica: reset (re-sync), then deleted
        await open_view(pilot, app, "rdb.instances")
        await to_named_row(pilot, app.main.view, "orders-db")
        replicas = await child_list(pilot, app, "Read replicas ›")
        rid = replicas.table.cursor_key
        await act(pilot, app, "Reset")
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: sandbox.rdb.replicas["fr-par"][rid]["status"] == "configuring", what="resetting")
        await later(pilot, clock, 11, lambda: replicas.table.get(rid).state == "ready", "re-synced")
        await pilot.press("d")
        assert "lose their connection" in await confirm_yes(pilot, app)
        await wait_for(
            pilot, lambda: ("DELETE", f"{R}/read-replicas/{rid}") in sent(sandbox, R), what="replica deleted"
        )
