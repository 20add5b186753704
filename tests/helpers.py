"""Test helpers: an app wired to the sandbox in process, waiting without sleeps, keys through Pilot."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import httpx
from tui.api.secret import Secret

from tui.api.client import RetryPolicy
from tui.config import Settings
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, Sandbox
from tui.ui.app import CloudApp
from tui.products.kit.refresh_plan import RefreshPolicy

import os

MACHINE_ENV = dict(os.environ)  # as the suite started, before a test's own (its proxies and CA bundle kept)
FIXED_WALL = 1_768_478_400.0  # 2026-01-15T12:00:00Z, shown as "last refresh" in snapshots


def demo_settings(**kw: Any) -> Settings:
    values: dict[str, Any] = dict(
        profile="demo",
        api_url="http://sandbox",
        project_id=DEMO_PROJECT_ID,
        organization_id="",
        zone="fr-par-1",
        region="fr-par",
        demo=True,
    )
    values.update(kw)
    return Settings(**values)


def make_app(
    sandbox: Sandbox, *, secret: str | None = DEMO_SECRET_KEY, policy: RefreshPolicy | None = None, **kw: Any
) -> CloudApp:
    settings = kw.pop("settings", None) or demo_settings()
    return CloudApp(
        settings,
        Secret(secret) if secret is not None else None,
        transport=kw.pop("transport", None) or httpx.ASGITransport(sandbox.app),
        policy=policy or RefreshPolicy(fast=3600, slow=3600),  # tests refresh explicitly unless they test timers
        clock=kw.pop("clock", lambda: FIXED_WALL),
        retry=kw.pop("retry", RetryPolicy(deadline=0.5, base=0.01, cap=0.05)),
        **kw,
    )


async def wait_for(pilot: Any, condition: Callable[[], bool], timeout: float = 5.0, what: str = "condition") -> None:
    """Let the app run until `condition()` holds (no fixed sleeps in assertions)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def view_of(app: CloudApp) -> Any:
    from tui.ui.widgets.resource_view import ResourceView

    return app.main.query_one(ResourceView)


async def loaded(pilot: Any, app: CloudApp) -> Any:
    await wait_for(pilot, lambda: app.main is not None and bool(app.main.query("ResourceView")), what="main screen")
    view = view_of(app)
    await wait_for(pilot, lambda: not view.model.listing and view.model.last_attempt is not None, what="list loaded")
    await pilot.pause()
    return view


def args(resp: Any) -> dict[str, str]:
    """A 400 invalid_arguments body as {argument_name: reason}."""
    return {d["argument_name"]: d["reason"] for d in resp.json()["details"]}


# ---- driving views by keyboard ------------------------------------------------------------------
def current_view(app):
    return app.main.view


async def open_view(pilot, app, kind_id, timeout: float = 5.0):
    """The view of the manifest entry `kind_id`, opened as the sidebar's enter opens it (the keys that
    reach it are tested once, in tests/ui/test_generic_screens.py), listed, its table focused."""
    app.main.open_entry(kind_id)
    await wait_for(
        pilot,
        lambda: current_view(app) is not None and current_view(app).kind.id == kind_id,
        what=kind_id,
        timeout=timeout,
    )
    view = current_view(app)
    read = getattr(view, "model", view)  # a list's model, or the panel
    await wait_for(
        pilot,
        lambda: not getattr(read, "listing", False) and read.last_attempt is not None,
        what=f"{kind_id} listed",
        timeout=timeout,
    )  # a list, or a panel
    view.focus_table()
    await pilot.pause()
    return view


async def sidebar_enter(pilot, app, kind_id):
    """The sidebar's entry `kind_id`, reached with j/k and entered."""
    from tui.ui.widgets.sidebar import Sidebar

    sidebar = app.main.query_one(Sidebar)
    sidebar.focus()
    await pilot.pause()
    ids = [kid for kid, _ in sidebar.entries]
    target = ids.index(kind_id)
    step = "j" if target > sidebar.highlighted else "k"
    for _ in range(2 * len(ids)):
        if sidebar.highlighted == target:
            break
        if app.focused is not sidebar:  # the first rows arriving may have taken the focus to the table
            sidebar.focus()
            await pilot.pause()
        await pilot.press(step)
    else:
        raise AssertionError(
            f"the sidebar never reached {kind_id}: at {sidebar.highlighted} of {ids}, screen {app.screen}"
        )
    await pilot.press("enter")


async def select(pilot, view, name):
    row = next(r for r in view.table.resources() if r.name == name)
    view.table.move_to(row.id)
    await pilot.pause()
    return row


async def action(pilot, app, label):
    """`a`, then the menu entry with this label (typed through the list with the arrow keys)."""
    await wait_for(pilot, lambda: app.screen.id == "main", what="back on the main screen")
    await pilot.press("a")
    await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions menu")
    await pick(pilot, app, lambda text: text == label)


async def pick(pilot, app, wanted):
    """In the open picker, the first entry whose label satisfies `wanted` highlighted, and enter (the
    arrow keys through a menu are tested on their own: test_generic_screens.py)."""
    choices = app.screen.choices
    target = next(i for i, c in enumerate(choices) if wanted(c[0]))
    if not (len(choices[target]) > 2 and choices[target][2]):  # greyed: reached with the keys, as before
        options = app.screen.query_one("#choices")
        options.highlighted = target
        await pilot.press("enter")
        return
    for _ in range(sum(1 for c in choices[:target] if not (len(c) > 2 and c[2]))):  # greyed choices are skipped
        await pilot.press("down")
    await pilot.press("enter")


async def screen_named(pilot, app, *names):
    """The screen in front once it is one of `names` (a class name)."""
    await wait_for(pilot, lambda: app.screen.__class__.__name__ in names, what=" or ".join(names))
    return app.screen


async def choose(pilot, text):
    await pilot.press("enter", *text, "enter")


def error_of(screen, field):
    from textual.widgets import Static

    return str(screen.query_one(f"#e-{field}", Static).render())


# ---- a user's moves, shared by the flow and walkthrough tests -----------------------------------
async def tab_to(pilot, app, widget_id):
    """Tab through the form to a field (as a user does), at most once round."""
    for _ in range(30):
        if app.focused is not None and app.focused.id == widget_id:
            return
        await pilot.press("tab")
    raise AssertionError(f"no field {widget_id}")


async def typed(pilot, app, **values):
    """Each field focused, emptied and given its text as a paste gives it (one event, not a key per
    character): `typed(..., name="web")`. Tab order and typing key by key are tested on their own
    (test_typing.py, the type-ahead tests of test_ui_dns.py)."""
    from textual import events

    for field, text in values.items():
        box = app.screen.query_one(f"#f-{field}")
        box.focus()
        if hasattr(box, "clear"):  # a one-line field, or a text area
            box.clear()
        await wait_for(pilot, lambda: app.focused is box, what=f"{field} focused")
        app.post_message(events.Paste(text))  # as the terminal gives a paste: to the app, which hands it on
        await wait_for(pilot, lambda: text in str(getattr(box, "value", None) or getattr(box, "text", "")), what=field)


async def one_time_value(pilot, app, name):
    """In the one-time dialog in front: down to `name`, copied with `y` (masked on screen all
    along); its value. The dialog stays open."""
    dialog = await screen_named(pilot, app, "SecretScreen")
    box = dialog.query_one("#secret-list")
    for _ in range(box.option_count):
        if box.get_option_at_index(box.highlighted).id == name:
            break
        await pilot.press("down")
    await pilot.press("y")
    value = app.clipboard
    assert value and value not in app.export_screenshot()
    return value


async def form_ready(pilot, app):
    screen = await screen_named(pilot, app, "FormScreen")
    await wait_for(pilot, lambda: screen.ready, what="form ready")
    return screen


async def act(pilot, app, label):
    """`a` on the list in front (main or a child list), then the entry whose label starts with `label`."""
    await wait_for(
        pilot, lambda: app.screen.id == "main" or app.screen.__class__.__name__ == "ChildScreen", what="a list"
    )
    await pilot.press("a")
    await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions menu")
    await pick(pilot, app, lambda text: text.startswith(label))


async def child_list(pilot, app, label):
    """`a` → a child list ("Users ›"), loaded."""
    await act(pilot, app, label)
    view = (await screen_named(pilot, app, "ChildScreen")).view
    await wait_for(
        pilot, lambda: view.model.last_attempt is not None and not view.model.listing, what=f"{label} listed"
    )
    return view


async def confirm_yes(pilot, app):
    """The confirmation in front, answered yes by keyboard (Cancel has the focus); its message."""
    screen = await screen_named(pilot, app, "ConfirmScreen")
    assert app.focused.id == "cancel"  # the safe answer is the default
    await pilot.press("tab", "enter")
    return screen.message


async def delete_typing(pilot, app, name):
    """`d`, then the name typed: enter does nothing until it matches. The dialog's message."""
    await pilot.press("d")
    dialog = await screen_named(pilot, app, "ConfirmScreen")
    assert dialog.require_text == name and app.focused.id == "confirm-text"
    await pilot.press(*name[:-1], "enter")
    assert app.screen is dialog and "type" in text_of(dialog.query_one("#confirm-hint"))  # and says why
    await pilot.press(name[-1], "enter")
    return dialog.message


def notified(app, text):
    """Whether a notification said `text`."""
    return any(text in n.message for n in app.notes)


async def set_select(pilot, form, field, value):
    form.query_one(f"#f-{field}").value = value
    await pilot.pause()


async def type_into(pilot, form, field, text):
    form.query_one(f"#f-{field}").focus()
    await pilot.press(*text)


def row_named(view, name):
    return next((r for r in view.table.resources() if r.name == name), None)


async def to_named_row(pilot, view, name):
    """Arrow keys to the row called `name`, or whose id it is (from the top)."""
    await pilot.press("home")
    for _ in range(view.table.visible_count):
        row = view.table.get(view.table.cursor_key)
        if row is not None and name in (row.name, row.id):
            return row
        await pilot.press("down")
    raise AssertionError(f"no row {name}")


async def later(pilot, clock, seconds, condition, what):
    """The clock moves on, `r` refreshes the list in front, until `condition`."""
    clock.advance(seconds)
    await pilot.press("r")
    await wait_for(pilot, condition, what=what)


def sent(sandbox, prefix=""):
    """The writes the sandbox received under `prefix`, as (method, path)."""
    return [(m, p) for m, p in sandbox.requests if m != "GET" and p.startswith(prefix)]


async def back_to_main(pilot, app):
    """`escape` until the main screen is in front."""
    for _ in range(6):
        if app.screen.id == "main":
            return
        if getattr(app.screen, "title_text", "") == "Drop what you typed?":  # a form held unsent input: drop it
            app.screen.query_one("#confirm").press()
        else:
            await pilot.press("escape")
        await pilot.pause()
    raise AssertionError(f"still on {app.screen}")


def text_of(widget) -> str:
    """What a Static shows, as plain text (a Rich table or syntax included)."""
    import io

    from rich.console import Console

    console = Console(width=200, file=io.StringIO(), record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


async def cluster_chart(pilot, app, name="sessions"):
    """The metrics chart of a cache cluster: its list, its detail, the chart tab, loaded."""
    view = await open_view(pilot, app, "kvcache.clusters")
    await select(pilot, view, name)
    await pilot.press("enter")
    detail = await screen_named(pilot, app, "DetailScreen")
    await pilot.press("v", "v")
    chart = detail.query_one("MetricsChart")
    await wait_for(pilot, lambda: chart.loaded, what="chart")
    return chart


def row_where(view, **fields):
    """The first row of the list whose fields equal these (a DNS record by type and data)."""
    return next(r for r in view.table.resources() if all(r.get(k) == v for k, v in fields.items()))


async def cursor_on(pilot, view, row):
    """Arrow keys to `row` (from the top)."""
    await pilot.press("home")
    for _ in range(view.table.visible_count):
        if view.table.cursor_key == row.id:
            return
        await pilot.press("down")
    raise AssertionError(f"no row {row.id}")


def tree_lines(tree):
    """A Textual Tree as the indented lines of its labels on screen (a folded branch's children are not)."""
    out = []

    def walk(node, depth):
        out.append("  " * depth + str(node.label))
        if node.is_expanded:
            for child in node.children:
                walk(child, depth + 1)

    walk(tree.root, 0)
    return out


def drawn_lines(widget) -> list[str]:
    """The lines a line-drawn widget (an answer in the chat) shows now, as plain text."""
    return [widget.render_line(y).text.rstrip() for y in range(widget.size.height)]


def drawn_text(widget) -> str:
    """What a line-drawn widget shows, its lines joined by spaces (a wrapped paragraph reads whole)."""
    return " ".join(line.strip() for line in drawn_lines(widget) if line.strip())


async def zone_records(pilot, app, zone: str):
    """A DNS zone's records, on their own screen and listed (from the loaded console): the view."""
    await loaded(pilot, app)
    zones = await open_view(pilot, app, "dns.zones")
    await select(pilot, zones, zone)
    await child_list(pilot, app, "Records")
    records = app.screen.view
    await wait_for(pilot, lambda: records.model.last_attempt is not None, what="the records")
    return records


async def rules_edited(pilot, app):
    """The security group web-public's rules editor, opened from its list with `a` (the menu entry
    picked), one rule taken out: (the group, the editor). Nothing is sent yet."""
    groups = await open_view(pilot, app, "instance.security_groups")
    group = row_named(groups, "web-public")
    groups.table.move_to(group.id)
    await act(pilot, app, "Rules")
    editor = await screen_named(pilot, app, "RecordListScreen")
    await wait_for(pilot, lambda: editor.records, what="the rules")
    editor.records.pop()
    return group, editor
