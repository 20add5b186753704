"""Managed databases and the key-value cache as a new user drives them in --demo, every step from the
keyboard (issue 11's "done when"): create a PostgreSQL-15 HA instance on a block volume; add a
database, a user with readwrite on it, an ACL rule and a setting; add a read replica with a
private-network endpoint and promote it; back up the database, export the backup and copy its URL,
restore it to another instance; read the CPU chart of the last hour; create a three-node TLS cache
cluster on a private network, migrate it to five nodes, download its certificate; delete both,
typing their names. The rules each form refuses are checked on its model with the same context in
tests/unit/test_form_rules.py; here, the happy path.

Sandbox and app share one manual clock, so "later" is a key press away and the chart's hour is the
sandbox's hour."""

from __future__ import annotations

import pytest

from helpers import (
    FIXED_WALL,
    act,
    back_to_main,
    child_list,
    choose,
    confirm_yes,
    delete_typing,
    demo_settings,
    error_of,
    form_ready,
    later,
    loaded,
    make_app,
    notified,
    open_view,
    pick,
    row_named,
    screen_named,
    sent,
    tab_to,
    to_named_row,
    wait_for,
)
from tui.sandbox import ManualClock, Sandbox

pytestmark = pytest.mark.anyio
REGION, ZONE = "fr-par", "fr-par-1"
PN = "5b2b0d1e-7c1a-4f8e-9d3b-1a2b3c4d5e6f"
PW = "Str0ng-pass!"


@pytest.fixture
def clock():
    return ManualClock(FIXED_WALL)


@pytest.fixture
def sandbox(clock):
    return Sandbox(clock=clock)


async def test_a_new_user_runs_databases_from_the_keyboard(sandbox, clock, tmp_path):
    rdb = sandbox.rdb
    app = make_app(sandbox, settings=demo_settings(region=REGION, zone=ZONE), clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)

        # 1. a PostgreSQL-15 HA instance on a block volume (every form rule: tests/unit/test_form_rules.py)
        instances = await open_view(pilot, app, "rdb.instances")
        await pilot.press("c")
        create = await form_ready(pilot, app)
        await tab_to(pilot, app, "f-name")
        await pilot.press(*"shop-db")
        await tab_to(pilot, app, "f-engine")
        await choose(pilot, "PostgreSQL-15")
        await tab_to(pilot, app, "f-node_type")
        await choose(pilot, "DB-DEV-M")
        await tab_to(pilot, app, "f-is_ha_cluster")
        await pilot.press("space")
        await tab_to(pilot, app, "f-volume_type")
        await choose(pilot, "bssd")
        await tab_to(pilot, app, "f-volume_size")
        await pilot.press(*"20")
        await tab_to(pilot, app, "f-user_name")
        await pilot.press(*"admin")
        await tab_to(pilot, app, "f-password")
        await pilot.press(*PW)
        assert PW not in str(create.query_one("#h-password").render())
        await pilot.press("ctrl+s")  # typed once: refused under the second entry, which takes the focus
        assert "type the same password again" in str(create.query_one("#ea-password").render()) and not error_of(
            create, "password"
        )
        assert app.focused.id == "a-password"
        await pilot.press(*PW, "ctrl+s")
        await wait_for(pilot, lambda: row_named(instances, "shop-db") is not None, what="created")
        made = next(i for i in rdb.instances[REGION].values() if i["name"] == "shop-db")
        assert made["engine"] == "PostgreSQL-15" and made["is_ha_cluster"] and made["volume"]["type"] == "bssd"
        assert made["volume"]["size"] == 20_000_000_000
        await to_named_row(pilot, instances, "shop-db")
        await later(pilot, clock, 31, lambda: row_named(instances, "shop-db").state == "ready", "ready")

        # 2. a database
        dbs = await child_list(pilot, app, "Databases ›")
        await pilot.press("c")
        await form_ready(pilot, app)
        await pilot.press(*"shop", "ctrl+s")
        await wait_for(pilot, lambda: dbs.table.get("shop") is not None, what="database")
        assert made["_dbs"]["shop"]["managed"]
        await back_to_main(pilot, app)

        # 3. a user
        users = await child_list(pilot, app, "Users ›")
        await pilot.press("c")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-name")
        await pilot.press(*"shopper")
        await tab_to(pilot, app, "f-password")
        await pilot.press(*PW, "tab", *PW, "ctrl+s")
        await wait_for(pilot, lambda: users.table.get("shopper") is not None, what="user")
        await back_to_main(pilot, app)

        # 4. readwrite for shopper on shop, in the users × databases grid
        await act(pilot, app, "Privileges (users × databases)")
        grid = await screen_named(pilot, app, "MatrixScreen")
        for _ in range(grid.rows.index("shopper")):
            await pilot.press("j")
        for _ in range(grid.columns.index("shop")):
            await pilot.press("l")
        await pilot.press("space", "space")  # none → readonly → readwrite
        assert grid.changes() == {("shopper", "shop"): "readwrite"}
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "main", what="privileges saved")
        assert made["_privs"][("shopper", "shop")] == "readwrite"

        # 5. an ACL rule
        acls = await child_list(pilot, app, "ACL rules ›")
        await pilot.press("c")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-ip")
        await pilot.press(*"203.0.113.7/32")
        await tab_to(pilot, app, "f-description")
        await pilot.press(*"jump host", "ctrl+s")
        await wait_for(pilot, lambda: acls.table.get("203.0.113.7/32") is not None, what="ACL rule")
        await back_to_main(pilot, app)

        # 6. a setting, chosen from the engine version's own
        settings = await child_list(pilot, app, "Settings ›")
        await pilot.press("c")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-name")
        await choose(pilot, "work_mem")
        await tab_to(pilot, app, "f-value")
        await pilot.press(*"64", "ctrl+s")
        await wait_for(pilot, lambda: settings.table.get("work_mem") is not None, what="setting")
        assert {"name": "work_mem", "value": "64"} in made["settings"]
        await back_to_main(pilot, app)

        # 7. a read replica with a private-network endpoint only, promoted
        instances.focus_table()
        await to_named_row(pilot, instances, "shop-db")
        await wait_for(pilot, lambda: row_named(instances, "shop-db").state == "ready", what="ready again")
        await act(pilot, app, "Create a read replica")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-direct_access")
        await pilot.press("space")
        await tab_to(pilot, app, "f-private_network_id")
        await pilot.press(*PN, "ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "main", what="replica created")
        replica = next(r for r in rdb.replicas[REGION].values() if r["instance_id"] == made["id"])
        replicas = await child_list(pilot, app, "Read replicas ›")
        await later(
            pilot,
            clock,
            31,
            lambda: (
                replicas.table.get(replica["id"]) is not None and replicas.table.get(replica["id"]).state == "ready"
            ),
            "replica ready",
        )
        endpoints = replicas.table.get(replica["id"]).items("endpoints")
        assert len(endpoints) == 1 and endpoints[0]["private_network"]["private_network_id"] == PN
        await act(pilot, app, "Promote to a standalone instance")
        assert "cannot be undone" in await confirm_yes(pilot, app)
        await wait_for(
            pilot, lambda: any(i["name"] == "shop-db-promoted" for i in rdb.instances[REGION].values()), what="promoted"
        )
        await back_to_main(pilot, app)

        # 8. a backup of shop; exported; its URL copied; restored to the promoted instance
        await to_named_row(pilot, instances, "shop-db")
        await act(pilot, app, "Back up a database")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-database_name")
        await choose(pilot, "shop")
        await tab_to(pilot, app, "f-name")
        await pilot.press(*"shop-before-launch")
        await tab_to(pilot, app, "f-expires_in_days")
        await pilot.press(*"30", "ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "main", what="backup started")
        backups = await open_view(pilot, app, "rdb.backups")
        await later(
            pilot,
            clock,
            12,
            lambda: (
                row_named(backups, "shop-before-launch") is not None
                and row_named(backups, "shop-before-launch").state == "ready"
            ),
            "backup ready",
        )
        await to_named_row(pilot, backups, "shop-before-launch")
        await act(pilot, app, "Export")
        await later(
            pilot, clock, 7, lambda: bool(row_named(backups, "shop-before-launch").get("download_url")), "exported"
        )
        result = await screen_named(pilot, app, "ResultScreen")
        await pilot.press("y")
        assert app.clipboard.startswith("https://") and app.clipboard in result.text and "\n" not in app.clipboard
        await pilot.press("escape")
        await act(pilot, app, "Restore to an instance")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda label: label.startswith("shop-db-promoted"))
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-database_name")
        await pilot.press("ctrl+u", *"shop_restored", "ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "main", what="restoring")
        promoted = next(i for i in rdb.instances[REGION].values() if i["name"] == "shop-db-promoted")
        assert "shop_restored" in promoted["_dbs"]

        # 9. the CPU chart of the last hour, in the instance's detail
        instances = await open_view(pilot, app, "rdb.instances")
        await to_named_row(pilot, instances, "shop-db")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("v", "v")
        chart = detail.query_one("MetricsChart")
        await wait_for(pilot, lambda: chart.loaded, what="chart")
        head = str(chart.query_one("#chart-head").render())
        assert head.startswith("CPU · last 1 h") and len(chart.series) == 2  # main and standby: HA
        assert all(55 <= len(s["points"]) <= 61 for s in chart.series)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")

        # 10. deleted, its name typed
        instances = await open_view(pilot, app, "rdb.instances")
        await to_named_row(pilot, instances, "shop-db")
        await delete_typing(pilot, app, "shop-db")
        deleted = ("DELETE", f"/rdb/v1/regions/{REGION}/instances/{made['id']}")
        await wait_for(pilot, lambda: deleted in sent(sandbox, "/rdb/"), what="instance deleted")
        await later(pilot, clock, 6, lambda: row_named(instances, "shop-db") is None, "gone")


async def test_a_new_user_runs_a_cache_from_the_keyboard(sandbox, clock, tmp_path):
    kv = sandbox.kvcache
    app = make_app(sandbox, settings=demo_settings(region=REGION, zone=ZONE), clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)

        # 1. a three-node TLS cache cluster on a private network; a node count of 2 refused by name
        clusters = await open_view(pilot, app, "kvcache.clusters")
        await pilot.press("c")
        cache = await form_ready(pilot, app)
        await tab_to(pilot, app, "f-name")
        await pilot.press(*"carts")
        await tab_to(pilot, app, "f-version")
        await choose(pilot, "7.0")
        await tab_to(pilot, app, "f-node_type")
        await choose(pilot, "RED1-S")
        await tab_to(pilot, app, "f-cluster_size")
        await pilot.press("ctrl+u", *"3")
        await tab_to(pilot, app, "f-user_name")
        await pilot.press(*"app")
        await tab_to(pilot, app, "f-password")
        await pilot.press(*PW, "tab", *PW)
        assert cache.query_one("#f-tls_enabled").value  # TLS on unless unticked
        await tab_to(pilot, app, "f-network")
        await choose(pilot, "private")
        await tab_to(pilot, app, "f-private_network_id")
        await pilot.press(*PN)
        await tab_to(pilot, app, "f-service_ips")
        await pilot.press(*"10.20.0.10/24, 10.20.0.11/24, 10.20.0.12/24", "ctrl+s")
        await wait_for(pilot, lambda: row_named(clusters, "carts") is not None, what="cluster created")
        carts = next(c for c in kv.clusters[ZONE].values() if c["name"] == "carts")
        assert carts["tls_enabled"] and carts["cluster_size"] == 3
        assert carts["endpoints"][0]["private_network"]["service_ips"] == [
            "10.20.0.10/24",
            "10.20.0.11/24",
            "10.20.0.12/24",
        ]
        await to_named_row(pilot, clusters, "carts")
        await later(pilot, clock, 31, lambda: row_named(clusters, "carts").state == "ready", "cluster ready")

        # 2. migrated to five nodes: one field per request; configuring, then ready with 5
        await act(pilot, app, "Migrate")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t.startswith("Number of nodes"))
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-cluster_size")
        await pilot.press("ctrl+u", *"5", "ctrl+s")
        await wait_for(pilot, lambda: carts["status"] == "configuring", what="configuring")
        migrate = [p for _, p in sent(sandbox, "/kvcache/") if p.endswith("/migrate")]
        assert len(migrate) == 1
        await later(
            pilot,
            clock,
            15,
            lambda: (
                row_named(clusters, "carts").get("cluster_size") == 5 and row_named(clusters, "carts").state == "ready"
            ),
            "five nodes",
        )

        # 3. its certificate, saved as a file
        await act(pilot, app, "Download the TLS certificate")
        save = await screen_named(pilot, app, "FilePickerScreen")  # the platform's file name, in the home folder
        assert save.query_one("#file-path").value.endswith("SSL_carts.pem") and app.focused.id == "file-path"
        await pilot.press("ctrl+u", *str(tmp_path / "carts.pem"), "enter")
        await wait_for(pilot, lambda: app.screen.id == "main" and notified(app, "Saved "), what="saved")
        assert (tmp_path / "carts.pem").read_bytes().startswith(b"-----BEGIN CERTIFICATE-----")

        # 4. deleted, its name typed
        assert "lost" in await delete_typing(pilot, app, "carts")
        await wait_for(
            pilot,
            lambda: ("DELETE", f"/kvcache/v1/zones/{ZONE}/clusters/{carts['id']}") in sent(sandbox, "/kvcache/"),
            what="cluster deleted",
        )
