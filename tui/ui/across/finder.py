"""Jump anywhere: the console's index of every resource its lists hold (`products.kit.search_index`), kept
current as each list is read again, searched from the palette, and a jump to what was found: its
product's view, in its scope, the cursor on it (a child kind's list opened under its parent).

Nothing here names a product: what a row is found by is what its kind declares."""

from __future__ import annotations

import asyncio
import time
import weakref
from functools import partial
from typing import TYPE_CHECKING, Callable, Container

from ...api.safe import clean, cut
from ...records import replace
from ...products import manifest
from ...products.kit.location import ALL, ParentRef
from ...products.kit.related import Held, Link, related, unread
from ...products.kit.search_index import Hit, SearchIndex, part_of
from ..errors import guarded

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.worker import Worker

    from ...products.kit.base import ResourceKind, Row
    from ..app import CloudApp
    from ..widgets.resource_view import ResourceView


IN_FLIGHT = 4  # lists read at once when every product is indexed, each at most 2 requests at a time
QUIET = 1.0  # seconds a long list rests after being read before its part is made (listing again: later)
SMALL = 2_000  # rows of a list indexed as soon as it is read
# A child list (a server's private NICs) is read under each parent only when there are at most this many
# parents: under 50,000 servers it would be 50,000 requests in one pass. Said as not read.
CHILD_PARENTS_MOST = 500


def _rest() -> None:
    time.sleep(0.002)  # the interpreter to the UI thread for a moment: a frame may be drawn


class Finder:
    def __init__(self, app: CloudApp) -> None:
        self.app = app
        self.index = SearchIndex()
        self.filling: Worker[None] | None = None  # the worker indexing every product, while it runs
        self.filled = False  # every product was indexed once (a search that finds nothing then says no more)
        # the lists the last `F` could not read whole: (kind id, where: a zone or region, or a parent's id,
        # said: "DNS › Records of example.com", "Cache › Cache clusters in fr-par-1"), until a list read since
        # holds it
        self.failed: list[tuple[str, str, str]] = []
        self.skipped: list[tuple[str, str]] = []  # child lists left under too many parents (`CHILD_PARENTS_MOST`)
        self.progress = ""  # how far the reading of every product is, while it runs ("indexing 40/249 lists")
        self.kinds: dict[str, ResourceKind] = {}  # the kinds indexed, by id: their titles, a child's list to open
        # The lists indexed: an open one by its view (its rows read from it when asked, never held
        # here: a list read again would hold two copies of every row), one read by `F` by its rows.
        self._views: dict[tuple[str, str, str], weakref.ref[ResourceView]] = {}
        self._read: dict[tuple[str, str, str], Held] = {}
        self._indexed: dict[tuple[str, str, str], int] = {}  # the table's change count each part was made at
        self._due: dict[tuple[str, str, str], Timer] = {}  # a list's part waiting for the list to be quiet

    def listed(self, view: ResourceView) -> None:
        """A list was read: its rows replace what the index held of it, once the list is quiet (a
        second of no listing) and only when they changed; made off the UI thread."""
        if not view.is_attached:  # closed before its message came (a child list left at once)
            return
        key = (view.kind.id, view.scope, str(getattr(view.service.parent, "id", "")))
        self.kinds[view.kind.id] = view.kind
        self._views[key] = weakref.ref(view)
        if self.failed and not view.model.failed and view.model.last_refresh is not None:  # read whole since
            whose = str(getattr(view.service.parent, "id", "")) or None
            self.failed = [
                f
                for f in self.failed
                if not (f[0] == view.kind.id and (f[1] == whose or (whose is None and view.scope in (ALL, f[1]))))
            ]
        if self._indexed.get(key) == view.table.rows_changed:
            return  # a refresh that changed nothing: the part stands
        if key in self._due:
            self._due.pop(key).stop()
        if view.table.loaded_count <= SMALL:  # a few rows: at once (a child list may close at any moment)
            self._index_view(key)
            return
        self._due[key] = self.app.set_timer(QUIET, partial(self._index_view, key))

    def _index_view(self, key: tuple[str, str, str]) -> None:
        self._due.pop(key, None)
        view = self._views[key]()
        if view is None or not view.is_attached or view.model.listing:
            return  # closed, or listing again: its next `listed` says when
        rows = list(view.table.resources())  # a snapshot: the table goes on changing meanwhile
        self._indexed[key] = view.table.rows_changed
        if len(rows) <= SMALL:  # kept: its screen may close (a child list), and what points where stays known
            self._read[key] = Held(view.kind, view.scope, view.service.parent, rows)
        else:
            self._read.pop(key, None)  # a long list's rows are read from its view, never held twice
        work = partial(self._index, view.kind, view.scope, rows, view.service.parent)
        self.app.run_worker(work, thread=True, group="index", exit_on_error=False)

    def _index(self, kind: ResourceKind, scope: str, rows: list[Row], parent: ParentRef | None) -> None:
        """One list's part (in a thread, resting every 1,000 rows so that frames are drawn meanwhile)."""
        # one assignment: a search sees old or new
        self.index.put(part_of(kind, scope, rows, parent, pause=_rest))

    def held(self) -> list[Held]:
        """The rows of every list indexed (`reads().held()`, at once: for a caller off the UI thread)."""
        return self.reads().held()

    def reads(self) -> Reads:
        """What every list indexed holds, taken now (on the UI thread: an open list's rows as its table
        holds them, else as last read); `Reads.held` then narrows them, off it."""
        live: dict[tuple[str, str, str], Held] = {}
        for key, ref in list(self._views.items()):
            view = ref()
            # (a view since switched to another zone holds that zone's rows, not this key's; one whose last
            # read failed, or that was never read whole, is no zone's truth: `F`'s read of it stands)
            if (
                view is not None
                and view.is_attached
                and view.model.released is None
                and view.scope == key[1]
                and not view.model.failed
                and view.model.last_refresh is not None
            ):
                live[key] = Held(view.kind, view.scope, view.service.parent, list(view.table.resources()))
        return Reads(dict(self._read), live)

    # ---- every product at once ----------------------------------------------------------------------
    @guarded("Indexing every product")
    def fill(self, then: Callable[[], None] | None = None, say: bool = True) -> None:
        """List every product's lists, in every zone and region, for the index (again: stop); `then`
        runs once it is done (what points here, shown again with what was read); `say`: what was read is
        said in a notification (not where the screen that asked says it: the overview)."""
        if self.filling is not None and self.filling.is_running:
            self.filling.cancel()
            self._doing("")
            self.app.notify(f"Indexing stopped: {len(self.index):,} resources found so far.", timeout=5)
            return
        self.filling = self.app.run_worker(self._fill(then, say), group="fill-index", exit_on_error=False)

    async def _fill(self, then: Callable[[], None] | None = None, say: bool = True) -> None:
        kinds = [e.load() for e in manifest.entries() if e.opens == "list"]
        listed = {(k.api, k.collection) for k in kinds}
        gate, done, lists = asyncio.Semaphore(IN_FLIGHT), [0], [len(kinds)]
        failed: list[tuple[str, str, str]] = []
        skipped: list[tuple[str, str]] = []
        self._doing(f"indexing 0/{len(kinds)} lists (F stops)")

        async def one(kind: ResourceKind, parent: ParentRef | None = None) -> None:
            async with gate:
                scope = "global" if kind.scope_type == "global" else parent.scope if parent else ALL
                rows: list[Row] = []
                async for chunk in self.app.service(kind, parent).iter_list(scope, concurrency=2):
                    rows.extend(chunk.items)
                    where = f" in {chunk.scope}" if scope == ALL else ""
                    where = f" of {clean(cut(parent.name or parent.id, 40))}" if parent else where  # (the API's)
                    unread = (kind.id, parent.id if parent else chunk.scope, f"{kind.product} › {kind.title}{where}")
                    if chunk.error is not None and unread not in failed:
                        failed.append(unread)
                self.kinds[kind.id] = kind
                key = (kind.id, scope, str(getattr(parent, "id", "")))
                self._read[key] = Held(kind, scope, parent, rows)  # an open list's own rows win (`held`)
                await asyncio.to_thread(self._index, kind, scope, rows, parent)
            done[0] += 1
            self._doing(f"indexing {done[0]}/{lists[0]} lists · {len(self.index):,} found (F stops)")
            if parent is None:  # under each resource, its lists that hold addresses or references
                children = [c.get() for c in kind.children if _relatable(c.get(), listed)]
                if len(rows) > CHILD_PARENTS_MOST:  # a request under each of thousands: not in one pass
                    skipped.extend((c.id, f"{c.title} of {len(rows):,} {kind.title_in_text}") for c in children)
                    children = []
                subs = [(c, ParentRef.of(r, kind.scope_of(r) or scope)) for r in rows for c in children]
                lists[0] += len(subs)
                await asyncio.gather(*(one(c, p) for c, p in subs))

        try:
            await asyncio.gather(*(one(k) for k in kinds))
            self.filled = True
            self.failed, self.skipped = failed, skipped
        finally:
            self._doing("")
        said = [w for *_, w in failed + skipped]
        unread = f"; not read: {', '.join(said)}" if said else ""
        if not say:
            if then is not None:
                then()
            return
        self.app.notify(
            f"Indexed {len(self.index):,} resources of {lists[0]} lists{unread}: type any name, ID, address "
            "or tag in the palette (:).",
            severity="warning" if failed else "information",
            timeout=8,
        )
        if then is not None:
            then()

    def _doing(self, text: str) -> None:
        self.progress = text.removesuffix(" (F stops)")  # (what a screen over the console says meanwhile)
        main = self.app.main
        if main is not None and main.is_attached:
            main.doing(text)

    def search(self, typed: str, most: int = 40) -> list[Hit]:
        return self.index.search(typed, most)

    def unread_kinds(self) -> set[str]:
        """The kinds the last `F` could not read whole, or left under too many parents."""
        return {k for k, *_ in self.failed + self.skipped}

    def unread(self, kinds: Container[str] | None = None) -> list[str]:
        """Each list the last `F` could not read whole, or left under too many parents, said with where
        (only those of `kinds`, when given)."""
        return [w for k, *_, w in self.failed + self.skipped if kinds is None or k in kinds]

    def unsearched(self, kinds: Container[str] | None = None) -> str:
        """What a search does not look in, said in a few words ("" when it looks everywhere): the lists
        not read yet (until `F` read every product), by product, those of no list read first; or the lists
        the last `F` could not read whole, each with where. `kinds`: only those (what a screen reads)."""
        if self.filled:
            failed = _few([w for k, _, w in self.failed if kinds is None or k in kinds])
            skipped = _few([w for k, w in self.skipped if kinds is None or k in kinds])
            said = ", ".join(failed) + " (not read whole)" if failed else ""
            if skipped:  # child lists under thousands of parents: one request each, left to their parent
                said += ("; " if said else "") + ", ".join(skipped) + " (a request under each: open one there)"
            return said
        left = [
            e
            for e in manifest.entries()
            if e.opens == "list" and e.id not in self.kinds and (kinds is None or e.id in kinds)
        ]
        if not left:
            return ""
        some = {e.group for e in manifest.entries() if e.id in self.kinds}  # products of which a list was read
        groups = list(dict.fromkeys(e.group for e in left))
        words = [g for g in groups if g not in some]
        words += [
            f"{g}'s other {n} list{'s' if n > 1 else ''}"
            for g in groups
            if g in some
            for n in [sum(1 for e in left if e.group == g)]
        ]
        return f"{len(left)} list{'s' if len(left) > 1 else ''} — " + ", ".join(words)

    @guarded("Opening what was found")
    def jump(self, hit: Hit) -> None:
        """Open what was found, the cursor on it: its product's view (its scope switched to the row's
        when the view shows another), or a child kind's list under its parent."""
        main = self.app.main
        entry = manifest.by_id(hit.kind_id)
        if entry is not None and entry.opens == "list" and main is not None:
            if main.bring_to_front():
                main.open_entry(entry.id)
                self._land(hit, entry.scope_type, tries=20)
            return
        if hit.parent is not None:
            kind = self.kinds.get(hit.kind_id)
            if kind is not None:
                self.app.open_child(kind, hit.parent).reveal(hit.row_id)
                return
        self.app.notify(f"{clean(hit.name)} cannot be opened from here.", severity="warning")

    @guarded("Opening what was found")
    def _land(self, hit: Hit, scope_type: str, tries: int) -> None:
        """The view opened for a hit, once mounted (a view made just now is not yet): its scope, the cursor."""
        main = self.app.main
        if main is None:  # a profile switched meanwhile: its console is gone, and the hit with it
            return
        # (the view of a list's entry, which `jump` opened, is a list)
        view: ResourceView | None = main.view  # type: ignore[assignment]
        if view is None or view.kind.id != hit.kind_id or not view.is_mounted:  # not in front yet
            if tries > 0:
                self.app.call_after_refresh(self._land, hit, scope_type, tries - 1)
            return
        if scope_type != "global" and view.scope not in (ALL, hit.scope):
            main.set_scope(hit.scope, scope_type)
            view.reveal(hit.row_id)  # once that scope is read
            return
        view.reveal(hit.row_id)
        if not view.model.listing and view.model.last_attempt is not None and view.table.get(hit.row_id) is None:
            self.app.notify(
                f"{clean(hit.name)} is not in its list any more (deleted since it was found?): "
                f"{self.app.key_for('refresh', 'r')} reads the list again.",
                severity="warning",
                timeout=8,
            )

    def said(self, hit: Hit) -> str:
        """A hit as the palette lists it, on one line: the resource, its kind and where; what matched,
        when not its name."""
        kind = self.kinds.get(hit.kind_id)
        title = kind.title if kind is not None else hit.kind_id
        if hit.parent is not None:  # a child says whose (the zone of a record, the load balancer of a backend)
            title += f" of {hit.parent.name}"
        where = "" if hit.scope in ("", "global", ALL) else f" · {hit.scope}"
        matched = f" — {hit.matched}" if hit.matched and hit.matched != hit.name.lower() else ""
        return clean(f"{hit.name} · {title}{where}{matched}")

    # ---- what points here ---------------------------------------------------------------------------
    @guarded("What points here")
    def show_related(self, kind: ResourceKind, row: Row) -> None:
        """What `row` points at and what points at it, among every list read (worked out off the UI
        thread), to open one of them; the lists that could say more and were not read, to read them."""
        reads = self.reads()
        self.app.run_worker(
            partial(self._related, kind, row, reads), thread=True, group="related", exclusive=True, exit_on_error=False
        )

    def _related(self, kind: ResourceKind, row: Row, reads: Reads) -> None:
        held = reads.held()
        listed = [e.load() for e in manifest.entries() if e.opens == "list"]  # what `F` reads (not children)
        links = related(kind, row, held, {k.id: k.title for k in manifest.every_kind()})
        missing = unread(kind, row, listed, {h.kind.id for h in held})
        self.app.call_from_thread(self._show_links, kind, row, links, missing)

    def _show_links(self, kind: ResourceKind, row: Row, links: list[Link], missing: list[ResourceKind]) -> None:
        from ..screens.picker import PickerScreen

        name = clean(str(row.name or row.id))
        choices: list[tuple[str, Link | str, str | None]] = [(_link_words(link), link, None) for link in links]
        if missing:
            lists = ", ".join(k.title for k in missing[:4]) + (
                f" and {len(missing) - 4} more" if len(missing) > 4 else ""
            )
            key = self.app.key_for("fill_index", "F")
            said = f"⟳ Not read yet: {lists} — read every product to look there too ({key})"
            choices.append((said, "fill", None))
        if not links and not missing:
            self.app.notify(f"Nothing the console has read points at {name}, and it points at nothing.", timeout=6)
            return
        title = f"{name}: → what it points at · ← what points at it · ↔ what shares its address"
        fill_key = self.app.key_for("fill_index", "F")

        def picked(choice: object) -> None:
            if choice == "fill":
                self.app.notify(
                    f"Reading every product's lists for what points at {name} ({fill_key} stops); what they "
                    "hold is shown here once they are read.",
                    title="What points here",
                    timeout=6,
                )
                self.fill(then=lambda: self._related_again(kind, row))
            elif isinstance(choice, Link):
                self.jump(Hit(choice.kind_id, choice.scope, choice.row_id, choice.name, "", 0, choice.parent))

        keys = {fill_key: "fill"} if missing else {}
        self.app.push_screen(PickerScreen(title, choices, id="related", keys=keys, most=240), picked)

    def _related_again(self, kind: ResourceKind, row: Row) -> None:
        """What points here, shown again once every product was read for it, unless a dialog is in front."""
        from textual.screen import ModalScreen

        if self.app.main is not None and not isinstance(self.app.screen, ModalScreen):
            self.show_related(kind, row)


class Reads:
    """What the index holds, taken on the UI thread: every list as last read, and the lists open now."""

    def __init__(self, read: dict[tuple[str, str, str], Held], live: dict[tuple[str, str, str], Held]) -> None:
        self.read, self.live = read, live

    def held(self) -> list[Held]:
        """Every list, an open one as its zone's truth: another read of that kind (every zone's, read earlier)
        keeps only the other zones' rows (a resource deleted since is gone, none is counted twice). Linear
        in the rows: run off the UI thread."""
        out, live = dict(self.read), self.live
        covered: dict[str, set[str]] = {}
        for h in live.values():
            if h.parent is None:
                covered.setdefault(h.kind.id, set()).add(h.scope)
        for key, h in list(out.items()):
            scopes = covered.get(h.kind.id)
            if not scopes or h.parent is not None or key in live:
                continue
            if ALL in scopes:
                del out[key]
            else:
                out[key] = replace(h, rows=[r for r in h.rows if (h.kind.scope_of(r) or h.scope) not in scopes])
        out.update(live)
        return list(out.values())


def _few(said: list[str], most: int = 8) -> list[str]:
    """At most `most` of what is said, and how many more (a hundred zones failing: a line, not a page)."""
    return said if len(said) <= most else [*said[:most], f"{len(said) - most} more"]


def _relatable(kind: ResourceKind, listed: set[tuple[str, str]]) -> bool:
    """A child list worth reading for what points where: it holds addresses or references (a zone's
    certificates too, by the zone they name). One that is the project's list filtered by its parent is
    read under each parent only when `F` does not read that list whole already (`listed`: the product's
    API and collection of each list read: an instance's backups are the region's backups)."""
    if kind.singleton is not None:
        return False  # a panel
    if kind.parent is not None and kind.parent.query and (kind.api, kind.collection) in listed:
        return False
    return any((f.has("ip") or f.has("ref")) and f.path for f in kind.fields)


def _link_words(link: Link) -> str:
    arrow = {"at": "→", "here": "←"}.get(link.points, "↔")  # ↔: an address both hold
    where = f" · {link.scope}" if link.scope and link.scope not in ("global", ALL) else ""
    unread_note = " (its list not read yet)" if not link.read else ""
    under = f" of {link.parent.name or link.parent.id}" if link.parent is not None else ""
    return clean(f"{arrow} {link.title}{under}: {link.name}{where} — {link.via}{unread_note}")
