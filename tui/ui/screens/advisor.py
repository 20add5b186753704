"""The advisor (issue 52, item 2; `A` on the console, or "Advisor" in the palette): what needs attention
across products — open doors, what breaks soon, links to nothing, what is paid for nothing — each
finding with its severity, the resource, why, a monthly estimate where a price list gives one ("cost
unknown" elsewhere) and its fix: Enter offers the fix (an action of the resource's kind, confirmed as
any), or opens the resource.

The rules are the products' (`manifest.advice`), run by one evaluator (`products.kit.advice.advise`) over
what the index read, off the UI thread; opened before every product was read, it reads them first
(`Finder.fill`: F's bounded reads, through the limiter). A pass runs when asked (`F` here, or `F` on the
console), never on a timer. Nothing here names a product."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from ...api.safe import clean, cut
from ...products import manifest
from ...products.kit.advice import Finding, advise
from ...products.kit.location import ALL
from ..across.costs import euros
from ..widgets.dialog_title import DialogTitle
from .every_product import EveryProductScreen

if TYPE_CHECKING:
    from ...products.kit.related import Held
    from ..across.finder import Reads
    from ..app import CloudApp

MARKS = {"error": "✖", "warning": "▲", "review": "?"}


class AdvisorScreen(EveryProductScreen):
    BINDINGS = [
        Binding("m", "mute", "Mute", id="advisor_mute"),
        Binding("M", "show_muted", "Show muted", id="advisor_show_muted"),
        Binding("E", "export", "Export", id="advisor_export"),
    ]

    def __init__(self) -> None:
        super().__init__(id="advisor")
        self.findings: list[Finding] = []
        self.not_run: list[str] = []
        self.costs: dict[str, float | None] = {}  # a finding's key → its monthly estimate (None: unknown)
        self.shown: list[Finding | None] = []  # each line's finding (None: a family's heading)
        self.passes = 0  # evaluations made (a test waits for the next)
        self.evaluated_at = 0.0  # when the last was made (wall time: an export says it)
        self.whole = False  # the last pass was made once every product was read
        self.muted: set[str] = set()  # the findings muted on this profile (`Finding.key`), kept in the config
        self.showing_muted = False
        self.said = ""  # what was read and found, as the line above the findings says it
        self.summary = ""  # the findings counted and muted, without this screen's keys (an export says it)
        self.read_titles: list[str] = []  # the lists the last pass read, by title (an export names them)
        self.read_by_rules: set[str] = set()  # the kinds the rules read (what "not read" names)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="advisor"):
            yield DialogTitle(f"Advisor · profile {self.console.settings.profile}" + self._production())
            yield Label("", id="advisor-read", markup=False)
            yield OptionList(id="advisor-lines", markup=False)
            yield Label(
                "enter fixes or opens · m mutes · M shows muted · E exports · F reads again · esc", id="advisor-keys"
            )

    def on_mount(self) -> None:
        self.muted = set(self.console.settings.muted)
        super().on_mount()
        self.set_interval(1.0, self._while_reading)

    # ---- a pass -------------------------------------------------------------------------------
    def look(self) -> None:
        """Every rule over what was read (in a thread), then the findings priced."""
        finder = self.console.finder
        reads, whole = finder.reads(), finder.filled
        read, incomplete = set(finder.kinds), finder.unread_kinds()
        self.read_titles = sorted({f"{k.product} › {k.title}" for k in finder.kinds.values()})  # (two Flexible IPs)

        async def work() -> None:
            await self._evaluate(reads, read, whole, incomplete)

        # (a coroutine function, made when the worker starts; Textual types one returning None as Never)
        self.run_worker(work, group="advisor", exclusive=True, exit_on_error=False)  # type: ignore[arg-type]

    async def _evaluate(self, reads: Reads, read: set[str], whole: bool, incomplete: set[str]) -> None:
        held = await asyncio.to_thread(reads.held)
        rules = await asyncio.to_thread(manifest.advice)
        self.read_by_rules = {k for r in rules for k in r.kinds}
        days = self.console.settings.advisor_days
        titles = {k.id: f"{k.product} › {k.title}" for k in manifest.every_kind()}
        self.findings, self.not_run = await asyncio.to_thread(
            advise, rules, held, read, time.time, days, incomplete, titles
        )
        self.passes += 1
        self.whole = whole  # made over every product read (not only the lists open when it opened)
        self.evaluated_at = time.time()
        self._draw()
        await self._price(held)
        self._draw()

    async def _price(self, held: list[Held]) -> None:
        """The monthly estimate of each finding whose kind a price list prices (`across.costs`)."""
        from ..across.costs import estimates

        wanted = {(f.kind_id, f.row_id): f for f in self.findings}
        for part in held:
            if part.parent is not None or part.kind.rows.cost is None:
                continue
            rows = [r for r in part.rows if (part.kind.id, str(r.id)) in wanted]
            if not rows:
                continue
            try:
                found = await estimates(self.console, part.kind, rows, part.scope)
            except Exception:  # a price list that cannot be read: "cost unknown"
                continue
            for row, _, monthly in found:
                self.costs[wanted[(part.kind.id, str(row.id))].key] = monthly

    # ---- drawing ------------------------------------------------------------------------------
    def _draw(self) -> None:
        if not self.is_attached:
            return
        self._header()
        self._lines()

    def _while_reading(self) -> None:
        finder = self.console.finder
        if finder.filling is not None and finder.filling.is_running:
            self._header()  # (how far the reading is)

    def _header(self) -> None:
        """The line above the findings: how many, muted, what was not read and not run (or how far the
        reading is); and the same for an export, without this screen's keys."""
        finder = self.console.finder
        reading = finder.filling is not None and finder.filling.is_running
        listed = self.listed()
        counts = {s: sum(1 for f in listed if f.severity == s) for s in MARKS}
        said = f"{len(listed)} finding{'s' if len(listed) != 1 else ''}: " + ", ".join(
            f"{MARKS[s]} {n} {s}" for s, n in counts.items() if n
        )
        if not listed:
            said = "Nothing found yet." if reading else "Nothing found in what was read."
        muted = sum(1 for f in self.findings if f.key in self.muted)
        unread = finder.unsearched(self.read_by_rules)
        self.summary = said + (f" · {muted} muted" if muted else "")
        if muted:
            said += f" · {muted} muted" + (" (shown)" if self.showing_muted else " (M shows them)")
        if reading:
            said += f" · reading every product: {finder.progress or 'starting'}… (F stops)"
        elif unread:
            said += f" · not read: {unread}"
        if self.not_run and not reading:  # (while reading, every rule waits on a list not read yet)
            said += f" · not run: {'; '.join(self.not_run)}"
        if said != self.said:  # (nothing drawn while nothing changes)
            self.said = said
            self.query_one("#advisor-read", Label).update(said)

    def _lines(self) -> None:
        listed = self.listed()
        lines: list[Option] = []
        self.shown = []
        family = title = ""
        for f in listed:  # (sorted by severity, then family: a rule's findings together)
            if f.family != family:
                family, title = f.family, ""
                lines.append(Option(Text(family.upper(), style="bold"), disabled=True))
                self.shown.append(None)
            if f.title != title:
                title = f.title
                head = Text(title, style="bold")
                lines.append(Option(_hanging(f" {MARKS.get(f.severity, '?')} ", head), disabled=True))
                self.shown.append(None)
            lines.append(Option(self._line(f)))
            self.shown.append(f)
        options = self.query_one(OptionList)
        at = options.highlighted
        options.clear_options()
        options.add_options(lines)
        if lines:
            first = next((i for i, f in enumerate(self.shown) if f is not None), 0)
            options.highlighted = max(first, min(at or first, len(lines) - 1))
            if options.highlighted == first:  # (its family's and rule's headings above it shown too)
                self.call_after_refresh(options.scroll_home, animate=False)

    def _line(self, f: Finding) -> Table:
        """A finding, its wrapped lines indented under its first (not at the edge, like a heading)."""
        return _hanging("     ", self._words(f))

    def _words(self, f: Finding) -> Text:
        kind = self.console.finder.kinds.get(f.kind_id)
        title = kind.title if kind is not None else f.kind_id
        where = f" of {f.parent.name}" if f.parent is not None else ""
        where += "" if f.scope in ("", "global", ALL) else f" · {f.scope}"
        if f.key in self.costs:
            monthly = self.costs[f.key]
            cost = f" · {euros(monthly)} a month" if monthly is not None else " · cost unknown"
        else:
            cost = "" if kind is not None and kind.rows.cost is not None else " · cost unknown"
        line = Text()
        line.append(cut(clean(f.name), 40), style="bold")
        line.append(cut(clean(f"{where} ({title}) — {f.why}"), 240) + cost)  # (the API's words cut, never the cost)
        if f.partial:
            line.append(f" [partial read: {clean(f.partial)}]", style="italic")
        if f.key in self.muted:
            line.append(" (muted)", style="italic")
        return line

    def listed(self) -> list[Finding]:
        """The findings shown: those not muted, or every one while the muted are shown."""
        return [f for f in self.findings if self.showing_muted or f.key not in self.muted]

    # ---- keys ---------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        found = self.shown[event.option_index]
        if found is None:
            return
        from .picker import PickerScreen

        fix = _fix_label(self.console, found)
        choices: list[tuple[str, str] | tuple[str, str, str]] = [("Open it", "open")]
        if fix and self.console.settings.read_only:  # every fix changes something: said why not, greyed
            choices.insert(0, (fix, "fix", "cloudtui runs with --read-only"))
        elif fix and found.refused:  # (a locked backup is not deleted)
            choices.insert(0, (fix, "fix", clean(found.refused)))
        elif fix:
            choices.insert(0, (fix, "fix"))

        def picked(choice: object) -> None:
            if choice in ("fix", "open"):
                self.dismiss(None)
                open_finding(self.console, found, fix=choice == "fix")

        title = f"{found.title}: {clean(found.name)}{self._production()}"
        self.app.push_screen(PickerScreen(title, choices), picked)

    def _under_cursor(self) -> Finding | None:
        at = self.query_one(OptionList).highlighted
        return self.shown[at] if at is not None and 0 <= at < len(self.shown) else None

    def action_mute(self) -> None:
        """Mute the finding under the cursor (or bring a muted one back), kept for this profile."""
        found = self._under_cursor()
        if found is None:
            return
        self.muted ^= {found.key}
        muted, profile = sorted(self.muted), self.console.settings.profile
        self.console.settings.muted = tuple(muted)
        word = "muted" if found.key in self.muted else "no longer muted"
        self.notify(f"{found.title}: {clean(found.name)} {word} on profile {profile}.", timeout=4)
        self.run_worker(self._save_muted(profile, muted), group="advisor-mute", exit_on_error=False)
        self._draw()

    async def _save_muted(self, profile: str, muted: list[str]) -> None:
        from ...config import ConfigNotSaved, save_muted

        try:
            await asyncio.to_thread(save_muted, profile, muted)
        except (ConfigNotSaved, OSError) as err:
            self.notify(f"{err} It is muted until the console closes.", title="Mute not kept", severity="error")

    def action_show_muted(self) -> None:
        self.showing_muted = not self.showing_muted
        self._draw()

    def action_export(self) -> None:
        self.run_worker(self._export(), group="advisor-export", exclusive=True, exit_on_error=False)

    async def _export(self) -> None:
        """The findings shown, to a file: CSV, JSON, or Markdown for a ticket."""
        from ...products.kit import advice_files, files
        from ..dialogs import AppAsks
        from .picker import PickerScreen

        ways = [("Markdown (for a ticket)", "md"), ("CSV (a spreadsheet)", "csv"), ("JSON", "json")]
        how = await self.app.push_screen_wait(PickerScreen(f"Export {len(self.listed())} findings", ways))
        if how is None:
            return
        from datetime import datetime

        s, finder = self.console.settings, self.console.finder
        looked = advice_files.Looked(
            at=datetime.fromtimestamp(self.evaluated_at).astimezone().isoformat(timespec="seconds"),
            profile=f"{s.profile}{' (production)' if s.production else ''}, project {s.project_id}",
            summary=self.summary,
            read=tuple(self.read_titles),
            not_read=tuple(finder.unread(self.read_by_rules)),
            not_run=tuple(self.not_run),
        )
        found, muted = self.listed(), set(self.muted)
        write = {"md": advice_files.as_markdown, "csv": advice_files.as_csv, "json": advice_files.as_json}[how]
        content = await asyncio.to_thread(write, found, self.costs, muted, looked)
        name = f"advisor-{self.console.settings.profile}.{how}"
        await files.save_bytes(AppAsks(self.app), f"Export the findings as {how.upper()}", content, name)



def _hanging(lead: str, text: Text) -> Table:
    """`lead`, then `text` wrapped beside it: its second line under its first word, not under `lead`."""
    grid = Table.grid()
    grid.add_column(width=len(lead), no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(Text(lead, style="bold"), text)
    return grid


def _fix_label(app: CloudApp, f: Finding) -> str:
    """The fix offered, as the resource's kind words it ("" when it offers none)."""
    kind = app.finder.kinds.get(f.kind_id)
    if not f.fix or kind is None:
        return ""
    if f.fix == "delete":
        return "Fix: delete it" if kind.delete is not None or kind.writing.deleting.flow is not None else ""
    if f.fix == "edit":
        return "Fix: edit it" if kind.edit is not None else ""
    spec = next((a for a in kind.actions if a.name == f.fix), None)
    return f"Fix: {spec.label.rstrip('…').lower()}" if spec is not None else ""


def open_finding(app: CloudApp, f: Finding, fix: bool, tries: int = 40) -> None:
    """The finding's resource in its list, the cursor on it; with `fix`, its fix then run on it (asked
    as any act is: Cancel focused, the name typed where data is lost or the profile is production)."""
    from ...products.kit.search_index import Hit

    app.finder.jump(Hit(f.kind_id, f.scope, f.row_id, f.name, "", 0, f.parent))
    if fix:
        app.call_after_refresh(_fix_when_shown, app, f, tries)


def _fix_when_shown(app: CloudApp, f: Finding, tries: int) -> None:
    from ..widgets.resource_view import ResourceView

    views = [v for v in app.screen.query(ResourceView) if v.kind.id == f.kind_id and v.is_mounted]
    main = app.main
    front = main.view if main is not None and app.screen is main else None
    view = front if front in views else (views[0] if views else None)
    row = view.table.get(f.row_id) if isinstance(view, ResourceView) else None
    if row is None or not isinstance(view, ResourceView):
        if tries > 0:  # (the list opened, read, the cursor put on it: a few refreshes)
            app.call_after_refresh(_fix_when_shown, app, f, tries - 1)
        else:
            app.notify(f"{clean(f.name)} is not in its list any more: nothing to fix.", severity="warning")
        return
    if f.fix in ("delete", "edit"):  # the kind's own delete, its edit form
        view.act_on(f.fix, row)
        return
    spec = next((a for a in view.all_actions() if a.name == f.fix), None)
    if spec is not None:
        view.run_action(row, spec)
