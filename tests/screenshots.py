"""Regenerate screenshots/*.svg: `uv run python tests/screenshots.py` (or only the names starting
with the arguments given: `… tests/screenshots.py registry-`).

Runs the real app headless against the seeded sandbox (manual clock, so the pictures are stable)
and saves each view as SVG.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from helpers import (  # noqa: E402  (after the path it is found on)
    FIXED_WALL as WALL,
    action,
    demo_settings,
    loaded,
    make_app,
    open_view,
    select,
    wait_for,
)
from tui.sandbox import ManualClock, Sandbox  # noqa: E402
import screenshots_console  # noqa: E402
from screenshots_console import (  # noqa: E402
    advisor,
    bulk_stop,
    costs,
    journal,
    overview,
    switched,
    two_profiles,
    watched,
)

OUT = Path(__file__).resolve().parent.parent / "screenshots"
SANDBOX: Sandbox | None = None  # the one the picture being taken runs against


async def shoot(
    name: str, size: tuple[int, int], steps, clock: float | None = None, later: float = 0, staging: bool = False
) -> None:
    """One picture; `clock` puts sandbox and app on one wall time (charts read "the last hour");
    `later` lets the seeded sandbox run on that many seconds first (the demo's backup under way ends);
    `staging` gives the console the demo's second profile, "demo-staging" (a second sandbox)."""
    if sys.argv[1:] and not name.startswith(tuple(sys.argv[1:])):
        return
    global SANDBOX
    sandbox = SANDBOX = Sandbox(clock=ManualClock(clock) if clock else ManualClock())
    screenshots_console.SANDBOX = sandbox
    sandbox.clock.advance(later)
    settings = demo_settings(genai_url="http://sandbox/genai")  # the chat's API, as --demo sets it
    extra = {"profiles": two_profiles(sandbox, settings)} if staging else {}
    app = (
        make_app(sandbox, clock=sandbox.clock.now, settings=settings, **extra)
        if clock
        else make_app(sandbox, settings=settings, **extra)
    )
    async with app.run_test(size=size) as pilot:
        await loaded(pilot, app)
        await steps(pilot, app)
        await pilot.pause()
        app.save_screenshot(str(OUT / f"{name}.svg"))
    print(f"screenshots/{name}.svg")


async def nothing(pilot, app) -> None:
    return None


async def create_form(pilot, app) -> None:
    await pilot.press("c")
    await wait_for(pilot, lambda: getattr(app.screen, "ready", False))
    await pilot.press(*"web-03", "tab", "enter", *"PRO2-XS ", "enter", "tab", "enter", *"Debian", "enter")


async def all_zones(pilot, app) -> None:
    await pilot.press("z")
    await wait_for(pilot, lambda: app.screen.id == "zone-picker")
    await pilot.press("home", "enter")
    view = app.main.query_one("ResourceView")
    await wait_for(pilot, lambda: view.scope == "all" and not view.model.listing)


async def actions(pilot, app) -> None:
    await pilot.press("a")
    await wait_for(pilot, lambda: app.screen.id == "actions-menu")


async def detail(pilot, app) -> None:
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")


def view_of_kind(kind_id: str, then=None):
    async def steps(pilot, app) -> None:
        view = await open_view(pilot, app, kind_id)
        if then is not None:
            await then(pilot, app, view)

    return steps


async def sg_rules(pilot, app, view) -> None:
    await select(pilot, view, "web-public")
    await action(pilot, app, "Rules…")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "RecordListScreen")


async def create(pilot, app, view) -> None:
    await pilot.press("c")
    await wait_for(pilot, lambda: getattr(app.screen, "ready", False))


async def server_actions(pilot, app) -> None:
    view = app.main.view
    await select(pilot, view, "web-01")
    await pilot.press("a")
    await wait_for(pilot, lambda: app.screen.id == "actions-menu")


async def server_nics(pilot, app) -> None:
    view = app.main.view
    await select(pilot, view, "api-gateway")
    await action(pilot, app, "Private NICs ›")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen")
    child = app.screen.view
    await wait_for(pilot, lambda: child.model.last_attempt is not None and not child.model.listing)


async def baremetal(pilot, app) -> None:
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
    )


async def fips_marked(pilot, app) -> None:
    view = await open_view(pilot, app, "flexible_ip.fips")
    app.main.set_scope("fr-par-2")
    await wait_for(pilot, lambda: view.scope == "fr-par-2" and not view.model.listing and view.table.loaded_count == 4)
    view.focus_table()
    await pilot.pause()
    await pilot.press("space", "down", "space")


async def db_grid(pilot, app, view) -> None:
    await select(pilot, view, "orders-db")
    await action(pilot, app, "Privileges (users × databases)…")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "MatrixScreen")


async def db_chart(pilot, app, view) -> None:
    await select(pilot, view, "orders-db")
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
    await pilot.press("v", "v")
    chart = app.screen.query_one("MetricsChart")
    await wait_for(pilot, lambda: chart.loaded)


def db_child(label: str):
    async def steps(pilot, app, view) -> None:
        await select(pilot, view, "orders-db")
        await action(pilot, app, f"{label} ›")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen")
        child = app.screen.view
        await wait_for(pilot, lambda: child.model.last_attempt is not None and not child.model.listing)

    return steps


def registry_tags(pull: bool):
    async def steps(pilot, app, view) -> None:
        from helpers import act, child_list, to_named_row

        await to_named_row(pilot, view, "web")
        images = await child_list(pilot, app, "Images")
        await to_named_row(pilot, images, "frontend")
        tags = await child_list(pilot, app, "Tags")
        if pull:
            await to_named_row(pilot, tags, "latest")
            await act(pilot, app, "Pull command")

    return steps


def dns_records(then: str = ""):
    async def steps(pilot, app, view) -> None:
        from helpers import child_list, form_ready, tab_to, to_named_row

        await to_named_row(pilot, view, "example.com")
        if then == "versions":
            await child_list(pilot, app, "Versions")
            return
        await child_list(pilot, app, "Records")
        if then == "create":
            await pilot.press("c")
            await form_ready(pilot, app)
        elif then == "review":
            await pilot.press("home", "d", "down", "down", "e")
            await form_ready(pilot, app)
            await tab_to(pilot, app, "f-ttl")
            await pilot.press("ctrl+u", *"600", "ctrl+s")
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen")
            await pilot.press("end", "d", "w")
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DiffScreen")

    return steps


def lb_steps(what: str):
    """On web-lb: its topology tab, a child list, the backend form at its health check, or the
    delete's question about the IP."""

    async def steps(pilot, app, view) -> None:
        from helpers import child_list, form_ready, screen_named, tab_to, to_named_row

        await to_named_row(pilot, view, "web-lb")
        if what == "topology":
            await pilot.press("enter")
            detail = await screen_named(pilot, app, "DetailScreen")
            await pilot.press("v", "v")
            await wait_for(pilot, lambda: detail.query_one("TreePanel").loaded)
        elif what == "backend-form":
            backends = await child_list(pilot, app, "Backends")
            await to_named_row(pilot, backends, "web-servers")
            await pilot.press("e")
            await form_ready(pilot, app)
            await tab_to(pilot, app, "f-health_check--check--http--code")
        elif what == "delete":
            await pilot.press("d")
            await screen_named(pilot, app, "PickerScreen")
        else:
            await child_list(pilot, app, what)

    return steps


def monitoring(then: str = ""):
    """The monitoring page: absent, or activated (through the API) and ready, then a child list,
    a form, or a new token's one-time dialog."""

    async def steps(pilot, app) -> None:
        from helpers import child_list, form_ready, tab_to
        from tui.sandbox import DEMO_PROJECT_ID

        if then:
            assert SANDBOX is not None
            found, _ = SANDBOX.monitoring.activate(DEMO_PROJECT_ID)
            SANDBOX.clock.advance(60)
            SANDBOX.monitoring.add_token(found, "prometheus-prod", {"write_metrics": True})
            SANDBOX.monitoring.add_token(
                found, "grafana-source", dict.fromkeys(("query_metrics", "query_logs", "setup_alerts"), True)
            )
            found.contact_points.append({"email": {"to": "ops@example.com"}})
            SANDBOX.monitoring.add_user(found, "alice", "editor")
        panel = await open_view(pilot, app, "monitoring.cockpit")
        await wait_for(pilot, lambda: panel.absent or (panel.row is not None and panel.row.state == "ready"))
        if then in ("Tokens", "Contact points", "Dashboard users"):
            await child_list(pilot, app, then)
        elif then in ("token-create", "token-secret"):
            await child_list(pilot, app, "Tokens")
            await pilot.press("c")
            await form_ready(pilot, app)
            if then == "token-secret":
                await tab_to(pilot, app, "f-name")
                await pilot.press(*"loki-shipper", "ctrl+s")
                await wait_for(pilot, lambda: app.screen.__class__.__name__ == "SecretScreen")
        elif then == "actions":
            await pilot.press("a")
            await wait_for(pilot, lambda: app.screen.id == "actions-menu")

    return steps


def models(then: str = ""):
    async def steps(pilot, app) -> None:
        from helpers import act

        view = await open_view(pilot, app, "inference.models")
        if then == "create":
            await create(pilot, app, view)
        elif then in ("detail", "playground"):
            await select(pilot, view, "fraud-detector" if then == "detail" else "image-classifier")
            if then == "detail":
                await pilot.press("enter")
                await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
            else:
                await act(pilot, app, "Try a prediction")
                play = app.screen
                await pilot.press("ctrl+s")
                await wait_for(pilot, lambda: '"predictions"' in play.answer)

    return steps


async def chat(pilot, app) -> None:
    from helpers import sidebar_enter

    await sidebar_enter(pilot, app, "genai.chat")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChatScreen")
    screen = app.screen
    await wait_for(pilot, lambda: isinstance(screen.query_one("#chat-model").value, str))
    await pilot.press(*"Write 60 words about load balancers", "enter")
    await wait_for(pilot, lambda: bool(screen.query(".usage")))


async def find_anywhere(pilot, app) -> None:
    """Every product indexed (F), then "prod" typed in the palette: what carries the tag, across products."""
    await pilot.press("F")
    await wait_for(pilot, lambda: any("Indexed" in n.message for n in app.notes))
    await pilot.press("ctrl+p", *"prod")
    await wait_for(pilot, lambda: getattr(app.screen, "_answered", None) == "prod")


async def detail_pane(pilot, app) -> None:
    await pilot.press("p", "j")
    pane = app.main.query_one("#pane")
    await wait_for(pilot, lambda: pane.shown_row is not None and pane.shown_row.name == "web-01")


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    await shoot("instance-servers", (120, 40), nothing)
    await shoot("instance-servers-80x24", (80, 24), nothing)
    await shoot("instance-servers-all-zones", (120, 40), all_zones)
    await shoot("find-anywhere", (120, 40), find_anywhere)
    await shoot("detail-pane", (120, 40), detail_pane)
    await shoot("detail-pane-80x24", (80, 24), detail_pane)
    await shoot("bulk-power-off", (120, 40), bulk_stop)
    await shoot("bulk-power-off-80x24", (80, 24), bulk_stop)
    await shoot("watched", (120, 40), watched)
    await shoot("journal", (120, 40), journal)
    await shoot("costs", (120, 40), costs)
    await shoot("overview", (120, 40), overview)
    await shoot("advisor", (120, 40), advisor)
    await shoot("profile-switched", (120, 40), switched, staging=True)
    await shoot("instance-server-create", (120, 40), create_form)
    await shoot("instance-server-actions", (120, 40), actions)
    await shoot("instance-server-detail", (120, 40), detail)
    await shoot("instance-server-all-actions", (120, 40), server_actions)
    await shoot("instance-server-private-nics", (120, 40), server_nics)
    for kind in ("volumes", "snapshots", "images", "ips", "security_groups", "placement_groups", "types"):
        await shoot(f"instance-{kind.replace('_', '-')}", (120, 40), view_of_kind(f"instance.{kind}"))
    await shoot("instance-volume-create", (120, 40), view_of_kind("instance.volumes", create))
    await shoot("baremetal-servers", (120, 40), baremetal)
    await shoot("silicon-servers", (120, 40), view_of_kind("silicon.servers"))
    await shoot("baremetal-flexible-ips", (120, 40), fips_marked)
    await shoot("instance-security-group-rules", (120, 40), view_of_kind("instance.security_groups", sg_rules))
    await shoot("rdb-instances", (120, 40), view_of_kind("rdb.instances"))
    await shoot("rdb-instance-create", (120, 40), view_of_kind("rdb.instances", create))
    await shoot("rdb-privileges", (120, 40), view_of_kind("rdb.instances", db_grid), clock=WALL, later=10)
    await shoot("rdb-cpu-chart", (120, 40), view_of_kind("rdb.instances", db_chart), clock=WALL)
    for label in ("Databases", "Users", "ACL rules", "Settings", "Read replicas"):
        await shoot(
            f"rdb-{label.lower().replace(' ', '-')}",
            (120, 40),
            view_of_kind("rdb.instances", db_child(label)),
            clock=WALL,
            later=10,
        )
    await shoot("rdb-snapshots", (120, 40), view_of_kind("rdb.snapshots"))
    await shoot("rdb-backups", (120, 40), view_of_kind("rdb.backups"))
    await shoot("kvcache-clusters", (120, 40), view_of_kind("kvcache.clusters"))
    await shoot("kvcache-cluster-create", (120, 40), view_of_kind("kvcache.clusters", create))
    await shoot("registry-namespaces", (120, 40), view_of_kind("registry.namespaces"))
    await shoot("registry-images", (120, 40), view_of_kind("registry.images"))
    await shoot("registry-tags", (120, 40), view_of_kind("registry.namespaces", registry_tags(False)))
    await shoot("registry-pull-command", (120, 40), view_of_kind("registry.namespaces", registry_tags(True)))
    await shoot("dns-zones", (120, 40), view_of_kind("dns.zones"))
    await shoot("dns-domains", (120, 40), view_of_kind("dns.domains"))
    await shoot("dns-records", (120, 40), view_of_kind("dns.zones", dns_records()))
    await shoot("dns-record-create", (120, 40), view_of_kind("dns.zones", dns_records("create")))
    await shoot("dns-review", (120, 40), view_of_kind("dns.zones", dns_records("review")))
    await shoot("dns-versions", (120, 40), view_of_kind("dns.zones", dns_records("versions")))
    await shoot("monitoring-absent", (120, 40), monitoring())
    await shoot("monitoring-page", (120, 40), monitoring("actions"))
    for child in ("Tokens", "Contact points", "Dashboard users"):
        await shoot(f"monitoring-{child.lower().replace(' ', '-')}", (120, 40), monitoring(child))
    await shoot("monitoring-token-create", (120, 40), monitoring("token-create"))
    await shoot("monitoring-token-secret", (120, 40), monitoring("token-secret"))
    await shoot("inference-models", (120, 40), models())
    await shoot("inference-model-create", (120, 40), models("create"))
    await shoot("inference-model-detail", (120, 40), models("detail"))
    await shoot("inference-playground", (120, 40), models("playground"))
    await shoot("genai-chat", (120, 40), chat)
    await shoot("lb-load-balancers", (120, 40), view_of_kind("lb.lbs"))
    await shoot("lb-create", (120, 40), view_of_kind("lb.lbs", create))
    await shoot("lb-topology", (120, 40), view_of_kind("lb.lbs", lb_steps("topology")))
    await shoot("lb-backends", (120, 40), view_of_kind("lb.lbs", lb_steps("Backends")))
    await shoot("lb-backend-form", (120, 40), view_of_kind("lb.lbs", lb_steps("backend-form")))
    await shoot("lb-frontends", (120, 40), view_of_kind("lb.lbs", lb_steps("Frontends")))
    await shoot("lb-delete-keep-ip", (120, 40), view_of_kind("lb.lbs", lb_steps("delete")))
    for kind in (
        "rdb.engines",
        "rdb.node_types",
        "kvcache.versions",
        "kvcache.node_types",
        "silicon.types",
        "silicon.os",
        "baremetal.offers",
        "baremetal.os",
    ):
        await shoot(f"catalogue-{kind.replace('.', '-').replace('_', '-')}", (120, 40), view_of_kind(kind))


if __name__ == "__main__":
    asyncio.run(main())
