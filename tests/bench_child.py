"""The benchmark's child processes (`tests/bench.py` runs each scenario in one, so peak memory is
that scenario's): `python tests/bench_child.py MODE ARGS…` prints one JSON line of what it measured."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


# ---- child: start-up ----------------------------------------------------------------------------
def child_start_minimal() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    t0 = float(os.environ["BENCH_T0"])

    class Minimal(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("hello")

        def _display(self, screen: Any, renderable: Any) -> None:
            super()._display(screen, renderable)
            if renderable is not None and not getattr(self, "_done", False):
                self._done = True
                print(json.dumps({"seconds": time.time() - t0}), flush=True)
                self.exit()

    Minimal().run(headless=True)


def child_start_cloudtui(argv: list[str]) -> None:
    from tui.ui import collector

    collector.startup_begin()  # as tui.cli.main does first, before the app's imports
    if os.environ.get("BENCH_EXTRA_PRODUCT"):  # a second product in the manifest (the tests' own)
        sys.path.insert(0, str(ROOT / "tests"))
        import gadgets_client

        from tui.products import manifest

        manifest.register(*gadgets_client.ENTRIES)
    # The app module is patched as it is first imported, where `cloudtui` imports it (after --demo has
    # started its sandbox), not imported here first: that would start the sandbox later than a user's does.
    import importlib.abc

    class Patching(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
            if name != "tui.ui.app":
                return None
            sys.meta_path.remove(self)
            import importlib.util

            spec = importlib.util.find_spec(name)
            real = spec.loader

            class Loader(importlib.abc.Loader):
                def create_module(self, spec: Any) -> Any:
                    return real.create_module(spec)

                def exec_module(self, module: Any) -> None:
                    real.exec_module(module)
                    first_rows(module)

            spec.loader = Loader()
            return spec

    sys.meta_path.insert(0, Patching())
    from tui.cli import main

    main(argv)


def first_rows(ui_app: Any) -> None:
    """`ui_app.CloudApp` replaced by one that prints the time of its first frame with server rows, then exits."""
    t0 = float(os.environ["BENCH_T0"])

    class FirstRows(ui_app.CloudApp):
        """Exit on the first composed frame that shows server rows."""

        def _display(self, screen: Any, renderable: Any) -> None:
            super()._display(screen, renderable)
            if renderable is None or getattr(self, "_done", False) or self.main is None:
                return
            views = self.main.query("ResourceView")
            if views and views.first().table.loaded_count > 0:
                self._done = True
                print(json.dumps({"seconds": time.time() - t0}), flush=True)
                self.exit()

        def run(self, **kwargs: Any) -> Any:
            return super().run(headless=True)

    ui_app.CloudApp = FirstRows  # type: ignore[misc]


from bench_scenarios import (  # noqa: E402  (after the path it is found on)
    scenario_load,
    scenario_refresh,
    scenario_staging,
    scenario_starting,
    scenario_stream,
    scenario_watch,
)  # noqa: E402


def child_main(argv: list[str]) -> None:
    mode, rest = argv[0], argv[1:]
    if mode == "start-minimal":
        child_start_minimal()
    elif mode == "start-cloudtui":
        child_start_cloudtui(rest)
    elif mode == "load":
        print(json.dumps(asyncio.run(scenario_load(rest[0], int(rest[1]), int(rest[2]), int(rest[3]), *rest[4:5]))))
    elif mode == "staging":
        print(json.dumps(asyncio.run(scenario_staging(rest[0], int(rest[1]), int(rest[2]), rest[3]))))
    elif mode == "zone-import":
        from bench_import import scenario_zone_import

        print(json.dumps(asyncio.run(scenario_zone_import(rest[0], int(rest[1])))))
    elif mode == "stream":
        print(json.dumps(asyncio.run(scenario_stream(rest[0], int(rest[1]), float(rest[2])))))
    elif mode == "refresh":
        print(json.dumps(asyncio.run(scenario_refresh(rest[0], int(rest[1]), int(rest[2])))))
    elif mode == "watch":
        print(json.dumps(asyncio.run(scenario_watch(rest[0], int(rest[1]), float(rest[2]), int(rest[3])))))
    elif mode in ("limited", "deleted", "outage"):
        import bench_distance

        if mode == "limited":
            got = bench_distance.scenario_limited(rest[0], int(rest[1]), int(rest[2]), float(rest[3]), int(rest[4]))
        elif mode == "deleted":
            got = bench_distance.scenario_deleted(rest[0], int(rest[1]))
        else:
            got = bench_distance.scenario_outage(rest[0], int(rest[1]), float(rest[2]))
        print(json.dumps(asyncio.run(got)))
    elif mode == "reference":
        from bench_reference import scenario_reference

        print(json.dumps(asyncio.run(scenario_reference(rest[0], int(rest[1]), int(rest[2])))))
    elif mode == "terminal":
        from bench_terminal import scenario_terminal

        print(json.dumps(asyncio.run(scenario_terminal(rest[0], int(rest[1]), rest[2], float(rest[3])))))
    elif mode == "visits":
        from bench_memory import scenario_visits

        print(json.dumps(asyncio.run(scenario_visits(rest[0], int(rest[1])))))
    elif mode == "starting":
        print(json.dumps(asyncio.run(scenario_starting(rest[0], int(rest[1]), int(rest[2]), float(rest[3])))))
    elif mode in ("advice-pass", "advice-reads"):
        import bench_advice

        bench_advice.main([mode, *rest])


if __name__ == "__main__":
    child_main(sys.argv[1:])
