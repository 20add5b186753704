"""The benchmark's scenarios, each run in a child process of `tests/bench.py`: the real app, headless,
against a sandbox at `url` (first rows, refresh, watching, servers starting). Not a test module."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable

from tui.sandbox.constants import DEMO_PROJECT_ID as PROJECT, DEMO_SECRET_KEY as KEY


# ---- child: scenarios in process ----------------------------------------------------------------
class Frames:
    """Counts composed frames of the app (and when each was composed), so a scenario can wait for
    'the next frame' or for 'the first frame after frame n'."""

    def __init__(self) -> None:
        self.started = 0  # frames begun (a key that arrives while one is being drawn waits for the next)
        self.count = 0
        self.times: list[float] = []
        self.event = asyncio.Event()

    def tick(self) -> None:
        self.count += 1
        self.times.append(time.perf_counter())
        self.event.set()

    async def after(self, n: int, timeout: float = 30.0) -> float:
        """The time the first frame after frame `n` was composed (waiting for it if need be)."""
        deadline = time.monotonic() + timeout
        while self.count <= n:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), max(0.001, deadline - time.monotonic()))
        return self.times[n]

    async def next(self, timeout: float = 30.0) -> None:
        self.event.clear()
        await asyncio.wait_for(self.event.wait(), timeout)

    async def settle(self, timeout: float = 0.2) -> None:
        """The frame a change causes, if it causes one (a change out of sight draws nothing)."""
        try:
            await self.next(timeout)
        except asyncio.TimeoutError:
            pass


SANDBOX = [0.0]  # seconds the sandbox spent answering, from its Server-Timing headers (its own process)


def _count_sandbox_time() -> None:
    """Every answer's `Server-Timing: app;dur=…` added up in SANDBOX (the bench's own process only)."""
    import httpx

    send = httpx.AsyncClient.send

    async def timed_send(self: Any, request: Any, **kwargs: Any) -> Any:
        response = await send(self, request, **kwargs)
        timing = response.headers.get("server-timing", "")
        if timing.startswith("app;dur="):
            try:
                SANDBOX[0] += float(timing.removeprefix("app;dur=")) / 1000
            except ValueError:
                pass
        return response

    httpx.AsyncClient.send = timed_send  # type: ignore[method-assign]


def bench_app(url: str, frames: Frames, transport: Any = None, **policy: float) -> Any:
    from tui.ui import collector

    _count_sandbox_time()
    collector.startup_begin()  # as the entry point does: start-up is frozen after the first frame
    from tui.api.secret import Secret

    from tui.config import Settings
    from tui.ui.app import CloudApp
    from tui.products.kit.refresh_plan import RefreshPolicy

    from textual.screen import Screen

    begin = Screen._on_timer_update

    def counted(screen: Any) -> None:
        frames.started += 1
        begin(screen)

    Screen._on_timer_update = counted  # type: ignore[method-assign]  # the bench's own process only

    class Measured(CloudApp):
        def _display(self, screen: Any, renderable: Any) -> None:
            super()._display(screen, renderable)
            if renderable is not None:
                frames.tick()

    settings = Settings(
        profile="bench",
        api_url=url,
        project_id=PROJECT,
        organization_id="",
        zone="fr-par-1",
        region="fr-par",
        genai_url=url + "/genai",
    )
    return Measured(
        settings,
        Secret(KEY),
        secret_source="env",
        policy=RefreshPolicy(**{"fast": 3600, "slow": 3600, **policy}),
        transport=transport,
    )


async def until(condition: Callable[[], bool], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.001)


async def loaded_view(app: Any) -> Any:
    await until(lambda: app.main is not None and bool(app.main.query("ResourceView")))
    view = app.main.query_one("ResourceView")
    await until(lambda: not view.model.listing and view.model.last_attempt is not None)
    return view


async def open_list(app: Any, entry: str) -> Any:
    """The list a manifest entry opens, or with "entry>Child@row" the child list of one of its rows
    (a registry image's tags, a DNS zone's records), loaded and focused."""
    await loaded_view(app)
    entry, _, child = entry.partition(">")
    app.main.open_entry(entry)
    await until(lambda: app.main.view is not None and app.main.view.kind.id == entry)
    view = app.main.view
    await until(lambda: not view.model.listing and view.model.last_attempt is not None)
    if child:
        label, _, name = child.partition("@")
        from tui.products.kit.base import ParentRef

        row = next(r for r in view.table.resources() if name in (r.name, r.id))
        kind = next(c for c in view.kind.children if c.label == label).get()
        app.open_child(kind, ParentRef.of(row, view.scope))
        await until(lambda: getattr(app.screen, "view", None) is not None and app.screen.view.kind is kind)
        view = app.screen.view
        await until(lambda: not view.model.listing and view.model.last_attempt is not None)
    view.focus_table()
    return view


async def scenario_staging(url: str, expect: int, changes: int, entry: str) -> dict[str, Any]:
    """Stage `changes` deletes in a list edited as a change set (`d`, then down), each key to the
    frame showing it; then `w`, to the frame showing the review of them all."""
    frames = Frames()
    app = bench_app(url, frames)
    out: dict[str, Any] = {"key": [], "review": [], "review_again": []}
    async with app.run_test(size=(120, 40)):
        view = await open_list(app, entry)
        assert view.table.loaded_count == expect, (view.table.loaded_count, expect)
        view.table.move_to(view.table.shown_keys[expect // 2])
        await frames.next()
        for _ in range(changes):
            staged, drawn = len(view.model.changes), frames.count
            t0 = time.perf_counter()
            app.simulate_key("d")
            await until(lambda: len(view.model.changes) > staged)
            out["key"].append(await frames.after(drawn) - t0)
            moved, drawn = view.table.cursor_key, frames.count
            app.simulate_key("down")
            await until(lambda: view.table.cursor_key != moved)
            await frames.after(drawn)  # the frame showing it (it may be composed before the cursor is seen moved)
        for again in (False, True):  # the first review of a session also loads the dialogs' styles
            drawn = frames.count
            t0 = time.perf_counter()
            app.simulate_key("w")
            await until(lambda: type(app.screen).__name__ == "DiffScreen")
            out["review_again" if again else "review"].append(await frames.after(drawn) - t0)
            app.simulate_key("escape")
            await until(lambda: type(app.screen).__name__ != "DiffScreen")
            await frames.settle()
    return out


async def scenario_load(url: str, expect: int, repeat: int, keys: int, entry: str = "") -> dict[str, Any]:
    """List `expect` resources into an empty table: request → all rows shown → a key moves the
    cursor. Instance servers, or the list `entry` opens (a product's most numerous kind) in fr-par-1."""
    import resource

    frames = Frames()
    app = bench_app(url, frames)
    from tui import stages

    out: dict[str, Any] = {"load": [], "key": [], "decode": [], "rows": [], "table": [], "transport": [], "sandbox": []}
    async with app.run_test(size=(120, 40)):
        view = await open_list(app, entry) if entry else await loaded_view(app)
        assert view.table.loaded_count == expect, (view.table.loaded_count, expect)
        moves: list[int] = []  # the frame count when the cursor moved: the next frame shows it
        set_cursor = view.table._set_cursor

        def watched_set_cursor(index: int) -> None:
            set_cursor(index)
            moves.append(frames.count)

        view.table._set_cursor = watched_set_cursor  # type: ignore[method-assign]

        async def key_frame(key: str) -> float:
            """Press `key` once the app is idle; the time the frame showing the moved cursor was composed."""
            before, moves_before = view.table.cursor_key, len(moves)
            app.simulate_key(key)
            await until(lambda: view.table.cursor_key != before and len(moves) > moves_before)
            return await frames.after(moves[-1])

        for _ in range(repeat):
            view.model.clear()  # (its table told)
            view.model.totals = {}
            await frames.next()
            stages.reset()
            SANDBOX[0] = 0.0
            t0 = time.perf_counter()
            view.reload()
            await until(
                lambda: (
                    not view.model.listing and view.table.loaded_count == expect and view.model.last_refresh is not None
                )
            )
            # all rows are in; the frame after the key's cursor move shows them and the cursor
            load = await key_frame("down") - t0
            out["load"].append(load)
            for stage, spent in stages.SPENT.items():
                out[stage].append(spent)
            out["transport"].append(load - sum(stages.SPENT.values()))  # requests, answers, the wait, the rest
            out["sandbox"].append(SANDBOX[0])  # within transport: the sandbox's own work (another process)
        view.table.move_to(view.table.shown_keys[expect // 2])
        await frames.next()
        # Keys come at any moment, not just after a frame: Textual draws on a fixed 60 Hz grid, so a
        # key pressed as a frame ends waits a whole period (16.7 ms) for the next one whatever the
        # console does. Each key waits a random part of a period (seeded) after the last frame.
        import random

        phase = random.Random(7)
        for i in range(keys):
            await asyncio.sleep(phase.uniform(0, 1 / 60))
            t0 = time.perf_counter()
            out["key"].append(await key_frame("down" if i % 2 == 0 else "up") - t0)
        if keys:
            from bench_palette import palettes

            await palettes(app, frames, view, expect, keys, out)
        out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        out["loaded"] = view.table.loaded_count
    return out


async def scenario_refresh(url: str, repeat: int, changed: int) -> dict[str, Any]:
    """`changed` servers are modified on the platform; the view's scheduled refresh picks them up.
    Measures CPU time of the UI thread (the event loop's thread) from the tick to the frame."""
    import httpx

    frames = Frames()
    app = bench_app(url, frames)
    out: dict[str, Any] = {"ui_cpu": [], "requests": [], "wall": []}
    async with app.run_test(size=(120, 40)), httpx.AsyncClient(base_url=url, headers={"X-Auth-Token": KEY}) as http:
        view = await loaded_view(app)
        ids = view.table.shown_keys
        for rep in range(repeat):
            targets = ids[rep * changed : (rep + 1) * changed]
            for sid in targets:
                r = await http.patch(f"/instance/v1/zones/fr-par-1/servers/{sid}", json={"tags": ["bench", f"r{rep}"]})
                r.raise_for_status()
            await asyncio.sleep(0.2)  # settle: nothing on screen has changed yet
            requests0 = app.client.stats.requests
            cpu0, wall0 = time.thread_time(), time.perf_counter()
            refreshed = view.model.last_refresh
            view._tick()  # what the slow timer does
            await until(lambda: view.model.last_refresh != refreshed and not view.model.listing)
            await frames.settle()
            out["ui_cpu"].append(time.thread_time() - cpu0)
            out["wall"].append(time.perf_counter() - wall0)
            out["requests"].append(app.client.stats.requests - requests0)
            assert all(view.table.get(s).items("tags") == ["bench", f"r{rep}"] for s in targets), "changes not seen"
    return out


async def scenario_watch(url: str, repeat: int, interval: float, ticks: int) -> dict[str, Any]:
    """Requests while watching stable servers, per re-list interval."""
    frames = Frames()
    app = bench_app(url, frames, fast=interval, slow=interval, paused=interval)
    out: dict[str, Any] = {"per_interval": []}
    async with app.run_test(size=(120, 40)):
        await loaded_view(app)
        await asyncio.sleep(interval)  # let the first scheduled tick settle the marks
        for _ in range(repeat):
            requests0 = app.client.stats.requests
            await asyncio.sleep(interval * ticks)
            out["per_interval"].append((app.client.stats.requests - requests0) / ticks)
    return out


async def scenario_starting(url: str, repeat: int, count: int, interval: float) -> dict[str, Any]:
    """`count` servers starting: requests per fast tick; then the same with a modal open."""
    import httpx

    frames = Frames()
    app = bench_app(url, frames, fast=interval, slow=3600, paused=interval)
    out: dict[str, Any] = {"per_tick": [], "modal": []}
    async with (
        app.run_test(size=(120, 40)) as pilot,
        httpx.AsyncClient(base_url=url, headers={"X-Auth-Token": KEY}) as http,
    ):
        view = await loaded_view(app)
        ticks = {"n": 0}
        original = view.refresher._tick_fn

        def counted() -> None:
            ticks["n"] += 1
            original()

        view.refresher._tick_fn = counted  # the view's Refresher calls this on every unpaused tick
        ids = view.table.shown_keys
        for rep in range(repeat):
            targets = ids[100 + rep * count : 100 + (rep + 1) * count]
            await _cycle(http, targets, "poweroff")
            await asyncio.sleep(3.5)  # stopping → stopped
            await _cycle(http, targets, "poweron")  # starting for 4 s
            view.reload()
            await until(lambda: not view.model.listing and len(view.model.moving) == count)
            ticks["n"], requests0 = 0, app.client.stats.requests
            await asyncio.sleep(interval * 4.5)
            if ticks["n"]:
                out["per_tick"].append((app.client.stats.requests - requests0) / ticks["n"])
            await until(lambda: not view.model.moving, timeout=20)
            # now a modal is open while others start
            targets2 = ids[5000 + rep * count : 5000 + (rep + 1) * count]
            await _cycle(http, targets2, "poweroff")
            await asyncio.sleep(3.5)
            await _cycle(http, targets2, "poweron")
            view.reload()
            await until(lambda: not view.model.listing and len(view.model.moving) == count)
            await pilot.press("question_mark")
            await until(lambda: app.screen.__class__.__name__ == "HelpScreen")
            await asyncio.sleep(interval)  # a request already under way may finish
            requests0 = app.client.stats.requests
            await asyncio.sleep(interval * 4)
            out["modal"].append(app.client.stats.requests - requests0)
            await pilot.press("escape")
            await until(lambda: not view.model.moving, timeout=20)
    return out


async def _cycle(http: Any, ids: list[str], action: str) -> None:
    for sid in ids:
        r = await http.post(f"/instance/v1/zones/fr-par-1/servers/{sid}/action", json={"action": action})
        r.raise_for_status()


async def scenario_stream(url: str, tokens: int, every: float) -> dict[str, Any]:
    """A streamed chat answer of `tokens` tokens, sent as fast as the sandbox can: while it arrives,
    a key typed every `every` seconds, each to the frame showing it (the message field grows), and
    how many frames were drawn between the key and that frame (without it: the key waited)."""
    frames = Frames()
    app = bench_app(url, frames)
    out: dict[str, Any] = {"key": [], "skipped": [], "stream": [], "tokens": []}
    async with app.run_test(size=(120, 40)):
        await loaded_view(app)
        app.main.open_entry("genai.chat")
        await until(lambda: type(app.screen).__name__ == "ChatScreen")
        chat = app.screen
        await until(lambda: bool(chat.query("#chat-model")) and isinstance(chat.query_one("#chat-model").value, str))
        field = chat.query_one("#chat-input")
        field.value = f"Write {tokens} words about load balancers"
        changed: list[tuple[int, int]] = []
        chat.watch(field, "value", lambda _: changed.append((frames.count, frames.started)), init=False)
        started = time.perf_counter()
        app.simulate_key("enter")
        await until(lambda: chat.streaming)
        while not chat.query(".usage"):  # until the answer is over and drawn, its last block made Markdown
            typed, begun = len(field.value), frames.started
            t0 = time.perf_counter()
            app.simulate_key("x")
            await until(lambda: len(field.value) > typed)
            drawn, begun_then = changed[-1]  # frames drawn and begun when the key changed the field
            out["key"].append(await frames.after(drawn) - t0)
            out["skipped"].append(begun_then - begun)  # frames begun after the key yet drawn without it
            await asyncio.sleep(every)
        out["stream"].append(time.perf_counter() - started)
        await until(lambda: bool(chat.query(".usage")))
        note = str(chat.query(".usage")[-1].render())
        out["tokens"].append(
            int(note.split(" out")[0].split("·")[-1].replace(",", "").strip() or 0) if " out" in note else 0
        )
    return out
