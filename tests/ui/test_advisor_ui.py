"""The advisor (issue 52, item 2): `A` reads every product, lists the findings by family with a monthly
estimate where a price list gives one; a finding's fix runs the action on its resource, asked as any act
is, and the next pass no longer finds it."""

from __future__ import annotations

import pytest

from helpers import loaded, make_app, screen_named, wait_for

pytestmark = pytest.mark.anyio


async def advisor_read(pilot, app):
    """The list shown, then A: the advisor once its pass over every product read is made."""
    await loaded(pilot, app)
    await pilot.press("A")
    shown = await screen_named(pilot, app, "AdvisorScreen")
    await wait_for(pilot, lambda: shown.whole, what="every product read", timeout=15)
    return shown


def on_finding(shown, rule):
    """The advisor's cursor on the first finding of `rule`, and that finding."""
    found = next(f for f in shown.findings if f.rule == rule)
    shown.query_one("#advisor-lines").highlighted = shown.shown.index(found)
    return found


async def test_a_findings_fix_runs_on_its_resource_and_the_next_pass_finds_it_no_more(sandbox, clock):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await advisor_read(pilot, app)
        rules = {f.rule for f in shown.findings}
        assert {"instance.ip-unattached", "dns.record-unheld-address", "dns.domain-expiring"} <= rules
        # a zone's certificates are read under each zone (listed by a query, not a list of their own)
        assert "dns.certificate-expiring" in rules and shown.not_run == []
        stopped = next(f for f in shown.findings if f.rule == "instance.server-stopped-in-place")
        await wait_for(pilot, lambda: stopped.key in shown.costs, what="priced")
        assert shown.costs[stopped.key], "a server's type gives its monthly price"
        shown.query_one("#advisor-lines").highlighted = shown.shown.index(stopped)
        await pilot.press("enter")
        await screen_named(pilot, app, "PickerScreen")
        await pilot.press("enter")  # "Fix: power off"
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert stopped.name in asked.message
        await pilot.press("tab", "enter")
        server = next(s for s in sandbox.instance.servers["fr-par-1"].values() if s["name"] == stopped.name)
        await wait_for(pilot, lambda: server["state"] != "stopped in place", what="powered off")
        clock.advance(60)
        app.main.view.reload()
        await wait_for(pilot, lambda: not app.main.view.model.listing, what="listed again")
        await pilot.press("A")
        again = await screen_named(pilot, app, "AdvisorScreen")
        await wait_for(pilot, lambda: again.passes >= 1, what="a pass")
        assert stopped.key not in {f.key for f in again.findings}


async def test_a_finding_muted_stays_muted_after_a_restart_and_the_findings_export_as_markdown(sandbox, tmp_path):
    from helpers import demo_settings, notified, pick

    from tui import cli

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await advisor_read(pilot, app)
        ip = on_finding(shown, "instance.ip-unattached")
        await pilot.press("m")
        await wait_for(pilot, lambda: ip not in shown.listed(), what="muted")
        assert "1 muted (M shows them)" in shown.said
        await pilot.press("E")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t.startswith("Markdown"))
        await screen_named(pilot, app, "FilePickerScreen")
        await pilot.press("ctrl+u", *str(tmp_path / "advice.md"), "enter")
        await wait_for(pilot, lambda: notified(app, f"to {tmp_path / 'advice.md'}"), what="written")
    text = (tmp_path / "advice.md").read_text()
    assert text.startswith("# What needs attention") and "## Points at nothing we hold" in text
    assert "| severity | resource | where | why | a month |" in text and ip.name not in text  # (muted: not listed)
    kept = cli._kept_ui({"read_only": False}, "demo")  # what --demo starts with, after a restart
    again = make_app(sandbox, settings=demo_settings(muted=kept["muted"]))
    async with again.run_test(size=(120, 40)) as pilot:
        shown = await advisor_read(pilot, again)
        assert ip.key in {f.key for f in shown.findings} and ip.key not in {f.key for f in shown.listed()}


async def test_read_only_a_fix_is_offered_greyed_with_why(sandbox):
    from helpers import demo_settings

    app = make_app(sandbox, settings=demo_settings(read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await advisor_read(pilot, app)
        on_finding(shown, "instance.ip-unattached")
        await pilot.press("enter")
        picker = await screen_named(pilot, app, "PickerScreen")
        assert picker.choices[0] == ("Fix: delete it", "fix", "cloudtui runs with --read-only")


async def test_a_zone_not_read_is_named_and_the_findings_that_read_its_list_say_they_may_be_wrong(sandbox):
    sandbox.inject(403, "/instance/v1/zones/nl-ams-1/servers", method="GET")  # refused: not retried
    sandbox.inject(403, "/rdb/v1/regions/fr-par/node-types", method="GET")  # a catalogue no rule reads
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await advisor_read(pilot, app)
        await wait_for(pilot, lambda: shown.passes and "not read:" in shown.said, what="said")
        assert "not read: Instance › Servers in nl-ams-1 (not read whole)" in shown.said
        assert ("rdb.node_types", "fr-par", "Databases › Database node types in fr-par") in app.finder.failed
        assert "Database node types" not in shown.said
        # an address held in the zone not read would be called held by nothing: that rule is not run
        assert not [f for f in shown.findings if f.rule == "dns.record-unheld-address"]
        assert "A record pointing at an address nothing here holds (Instance › Servers not read whole" in shown.said
        # one whose findings stand, though there may be more, says so on each
        stopped = [f for f in shown.findings if f.rule == "instance.server-stopped-in-place"]
        assert stopped and all(f.partial == "not read whole: Instance › Servers" for f in stopped)
        domains = [f for f in shown.findings if f.rule == "dns.domain-expiring"]
        assert domains and not domains[0].partial  # a rule reading no servers stands whole


async def test_an_open_list_whose_read_failed_is_no_zones_truth_every_products_read_stands(sandbox):
    sandbox.inject(403, "/instance/v1/zones/fr-par-1/servers", method="GET", times=1)  # the open list's read
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert view.model.failed and not view.table.loaded_count  # the list in front holds nothing
        shown = await advisor_read(pilot, app)
        stopped = [f for f in shown.findings if f.rule == "instance.server-stopped-in-place"]
        assert [f.name for f in stopped] == ["staging-web"]  # fr-par-1's servers, as F read them
        assert not any("instance.servers" in f.partial for f in shown.findings)
        unheld = {f.why.split()[2].rstrip(",") for f in shown.findings if f.rule == "dns.record-unheld-address"}
        held = {ip["address"] for ip in sandbox.instance.ips["fr-par-1"].values() if ip.get("server")}
        assert held and not unheld & held  # the addresses of its servers are held


async def test_a_finding_opened_behind_a_filter_that_hides_it_clears_the_filter(sandbox):
    from helpers import notified

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await advisor_read(pilot, app)
        volume = on_finding(shown, "instance.volume-unattached")
        await pilot.press("escape")
        app.main.open_entry("instance.volumes")
        await wait_for(pilot, lambda: app.main.view.kind.id == "instance.volumes", what="volumes")
        view = app.main.view
        await wait_for(pilot, lambda: not view.model.listing and view.table.loaded_count, what="listed")
        view.filter_to("nothing-is-called-this")
        from tui.ui.screens.advisor import open_finding

        open_finding(app, volume, fix=False)
        await wait_for(pilot, lambda: view.table.cursor_key == volume.row_id, what="the cursor on it")
        assert notified(app, "The filter was cleared") and not notified(app, "any more")
