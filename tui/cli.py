"""Command line: `cloudtui [--demo] [...]` runs the console; `cloudtui sandbox` serves the sandbox."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Any

from . import __version__


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cloudtui", description="A keyboard-driven terminal console for the cloud platform."
    )
    p.add_argument("--version", action="version", version=f"cloudtui {__version__}")
    p.add_argument("--demo", action="store_true", help="run against the embedded sandbox (no account needed)")
    p.add_argument("--profile", help="profile name from the config file (env CLOUDTUI_PROFILE)")
    p.add_argument("--api-url", dest="api_url", help="API base URL (env CLOUDTUI_API_URL)")
    p.add_argument("--zone", help="the zone zonal views open in, or 'all'")
    p.add_argument("--region", help="the region regional views open in, or 'all'")
    p.add_argument(
        "--read-only",
        dest="read_only",
        action="store_true",
        help="change nothing: reads, and the few POSTs that change nothing (checks, chat, predictions)",
    )
    p.add_argument(
        "--no-mouse",
        dest="no_mouse",
        action="store_true",
        help="leave the mouse to the terminal (its own selection works, over SSH too); also `[ui] mouse = false`",
    )
    p.add_argument(
        "--debug-log",
        dest="debug_log",
        help="write a request log (secrets redacted) to this file (env CLOUDTUI_DEBUG_LOG)",
    )
    p.add_argument("--faults", help="with --demo: the sandbox misbehaves as SPEC says (see `cloudtui sandbox --help`)")
    sub = p.add_subparsers(dest="command")
    sb = sub.add_parser("sandbox", help="serve the sandbox platform over HTTP")
    sb.add_argument("--host", default="127.0.0.1")
    sb.add_argument("--port", type=int, default=8700)
    sb.add_argument("--secret-key", dest="secret_key", help="the key clients must send (default: the demo key)")
    sb.add_argument("--seed", choices=("demo", "empty"), default="demo")
    sb.add_argument(
        "--scale",
        type=int,
        default=0,
        help="add N of each product's most numerous kind to fr-par-1 (servers, flexible IPs…)",
    )
    sb.add_argument("--latency", type=float, default=0.0, help="delay every response by MS milliseconds")
    sb.add_argument(
        "--chunk-delay",
        dest="chunk_delay",
        type=float,
        default=0.0,
        help="the generative API's pause between streamed chunks, in seconds (default: none)",
    )
    sb.add_argument("--fd", type=int, help=argparse.SUPPRESS)  # --demo's child: serve this listening socket
    sb.add_argument(
        "--faults",
        help="inject faults per request, e.g. '5xx=0.05,429=0.05,slow=0.05,drop=0.02,badjson=0.02,html=0.02,"
        "redirect=0.01,hostile=0.2,applied=0.05,seed=7' (kinds: 5xx 429 slow drop badjson html redirect hostile "
        "applied)",
    )
    return p


class _FolderLog(logging.Handler):
    """cloudtui.log in the platform's log folder, opened when the first record comes or when the
    console asks after its first frame (`tui.api.errors.log_problem`): a start neither imports
    platformdirs and the rotating handler nor makes the folder (~5 ms off the first frame). A folder
    that cannot be made or written keeps nothing, and says so once: `problem`, which the status bar
    shows and the command line prints on exit. Failures are still shown."""

    def __init__(self) -> None:
        super().__init__()
        self.inner: logging.Handler | None = None
        self.problem: str | None = None

    def open(self) -> None:
        """Make the folder and open the file, once (file I/O: never on the UI thread)."""
        with self.lock:  # type: ignore[union-attr]  # the first record and the console's check may race
            if self.inner is not None or self.problem is not None:
                return
            folder = os.environ.get("CLOUDTUI_LOG_DIR") or "the log folder"
            try:
                from logging.handlers import RotatingFileHandler
                from pathlib import Path

                from platformdirs import user_log_path

                path = Path(os.environ.get("CLOUDTUI_LOG_DIR") or user_log_path("cloudtui"))
                folder = str(path)
                path.mkdir(parents=True, exist_ok=True)
                self.inner = RotatingFileHandler(
                    path / "cloudtui.log", maxBytes=1_000_000, backupCount=2, encoding="utf-8"
                )
                self.inner.setFormatter(self.formatter)
            except OSError as err:
                why = err.strerror or err
                self.problem = f"no log is kept: cannot write {folder} ({why}); set CLOUDTUI_LOG_DIR or use --debug-log"

    def emit(self, record: logging.LogRecord) -> None:
        self.open()
        if self.inner is not None:
            self.inner.handle(record)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()
        super().close()


def _logging(path: str | None) -> str | None:
    """Failures are always logged (a "this is a bug" message names the file): with --debug-log to
    that file, every request included; otherwise warnings and errors to the platform's log folder,
    when it is writable. Returns a one-line problem with the debug log, or None."""
    path = path or os.environ.get("CLOUDTUI_DEBUG_LOG")
    log = logging.getLogger("cloudtui")
    fmt = logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s")
    if path:
        try:
            handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
        except OSError as err:
            return f"cannot write the debug log {path}: {err.strerror or err}"
        log.setLevel(logging.DEBUG)
    else:
        handler = _FolderLog()
        log.setLevel(logging.WARNING)
    handler.setFormatter(fmt)
    log.addHandler(handler)
    log.propagate = False
    return None


def _child_log() -> None:
    """The demo's sandbox (a child process) writes what it logs (a fault's dropped connection, say) to
    its standard error, which the console reads into its own log: never onto the screen."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    for name in ("uvicorn", "cloudtui"):
        log = logging.getLogger(name)
        log.handlers = [handler]
        log.setLevel(logging.WARNING)
        log.propagate = False
    logging.getLogger("uvicorn.error").addFilter(_injected_fault_in_one_line)


def _injected_fault_in_one_line(record: logging.LogRecord) -> bool:
    """A connection `--faults` drops on purpose is one line in the log, not a server traceback."""
    exc = record.exc_info[1] if record.exc_info else None
    if exc is not None and "fault injection" in str(exc):
        record.msg, record.args, record.exc_info, record.exc_text = "sandbox: %s", (exc,), None, None
    return True


def _sandbox(args: argparse.Namespace) -> int:
    from .sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, Sandbox
    from .sandbox.constants import GENAI_PREFIX
    from .sandbox.serve import serve_forever

    key = args.secret_key or DEMO_SECRET_KEY

    def make() -> Sandbox:
        return Sandbox(
            secret_key=key,
            seed=args.seed,
            scale=args.scale,
            latency_ms=args.latency,
            faults=args.faults,
            options={"genai_chunk_delay": args.chunk_delay},
        )

    if args.fd is not None:  # --demo's child
        from .sandbox.serve import serve_inherited

        serve_inherited(make, args.fd)
        return 0
    sandbox = make()
    shown = key if key == DEMO_SECRET_KEY else "<the key you gave>"
    base = f"http://{args.host}:{args.port}"
    print(
        f"cloudtui sandbox on {base}\n"
        f"  project id: {DEMO_PROJECT_ID}\n  secret key: {shown}\n"
        f"  genai API:  {base}{GENAI_PREFIX}/v1 (OpenAI-compatible, Authorization: Bearer <secret key>)\n"
        f"  connect:    CLOUDTUI_SECRET_KEY={shown} CLOUDTUI_PROJECT_ID={DEMO_PROJECT_ID} "
        f"CLOUDTUI_GENAI_URL={base}{GENAI_PREFIX} cloudtui --api-url {base}",
        flush=True,
    )
    try:
        serve_forever(sandbox, args.host, args.port)
    except KeyboardInterrupt:  # ctrl+c is how it is stopped: no traceback for it
        return 130
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    finally:  # a start refused before the first frame (a bad argument) leaves the collector running
        collector = sys.modules.get("tui.ui.collector")
        if collector is not None:
            collector.startup_end()


def _main(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.faults:
        from .sandbox.faults import FaultSpec, FaultSpecError

        try:
            FaultSpec.parse(args.faults)
        except FaultSpecError as err:
            print(f"cloudtui: --faults {err}", file=sys.stderr)
            return 2
        if args.command != "sandbox" and not args.demo:
            print("cloudtui: --faults goes with --demo or `cloudtui sandbox`", file=sys.stderr)
            return 2
    if args.command == "sandbox" and args.fd is not None:
        _child_log()
        return _sandbox(args)
    problem = _logging(args.debug_log)
    if problem:
        print(f"cloudtui: {problem}", file=sys.stderr)
        return 2
    if args.command == "sandbox":
        return _sandbox(args)
    from .ui import collector

    collector.startup_begin()  # resumed after the console's first frame

    from .config import resolve

    flags = {
        "profile": args.profile,
        "api_url": args.api_url,
        "zone": args.zone,
        "region": args.region,
        "read_only": args.read_only,
        "no_mouse": args.no_mouse,
    }
    from .products.kit.location import ALL, REGIONS, ZONES

    if args.zone and args.zone not in (*ZONES, ALL):
        print(f"cloudtui: unknown zone {args.zone!r}; use one of {', '.join(ZONES)} or 'all'", file=sys.stderr)
        return 2
    if args.region and args.region not in (*REGIONS, ALL):
        print(f"cloudtui: unknown region {args.region!r}; use one of {', '.join(REGIONS)} or 'all'", file=sys.stderr)
        return 2
    from .api.secret import Secret

    background = None
    children: list[Any] = []  # the demo's other sandboxes (a second profile's), started on first use
    if args.demo and (args.profile or "demo") not in DEMO_PROFILES:  # as an unknown profile is without --demo
        print(f"cloudtui: no profile {args.profile!r} in the demo (it has {', '.join(DEMO_PROFILES)})", file=sys.stderr)
        return 2
    if args.demo:
        from .config import DEFAULT_REGION, DEFAULT_ZONE, Settings
        from .sandbox.constants import DEMO_PROJECT_ID, DEMO_SECRET_KEY, GENAI_PREFIX
        from .sandbox.serve import ChildSandbox

        own = _kept_ui(flags, "demo")  # the theme chosen last time, the mouse, [profiles.demo]'s flags
        if own["bad_flag"]:  # a safety flag that is not true or false: as without --demo, not started
            print(f"cloudtui: {own['bad_flag']}", file=sys.stderr)
            return 2
        # a chat answer streams as a person reads it
        background = ChildSandbox(["--chunk-delay", "0.02", *(["--faults", args.faults] if args.faults else [])])
        settings = Settings(
            profile="demo",
            api_url=background.url,
            project_id=DEMO_PROJECT_ID,
            organization_id="",
            genai_url=background.url + GENAI_PREFIX,
            zone=args.zone or DEFAULT_ZONE,
            region=args.region or DEFAULT_REGION,
            demo=True,
            **own,
        )
        secret: Secret | None = Secret(DEMO_SECRET_KEY)
        source: str | None = "demo"
        lookup = None
        profiles = _demo_profiles(settings, args, children)
        if args.profile == DEMO_PROFILES[1]:  # started on the second account (its sandbox started now)
            from .api.errors import ConfigError

            try:
                settings = profiles.open(args.profile).settings
            except ConfigError as err:
                print(f"cloudtui: {err.message}", file=sys.stderr)
                background.stop()
                for child in children:
                    child.stop()
                return 2
    else:
        from . import secrets

        settings = resolve(flags)
        problems = settings.problems()
        if problems:
            for problem in problems:
                print(f"cloudtui: {problem}", file=sys.stderr)
            return 2
        env_secret = os.environ.get(secrets.ENV_VAR)
        secret = Secret(env_secret) if env_secret else None
        source, lookup = ("env" if env_secret else None), secrets.lookup
        from .ui.profiles import ConfigProfiles

        profiles = ConfigProfiles(settings.profile, settings.read_only)

    from .ui.app import CloudApp

    app = CloudApp(settings, secret, secret_source=source, lookup_secret=lookup, profiles=profiles)
    try:
        app.run(mouse=settings.mouse)
    finally:
        for child in [background, *children]:
            if child is not None:
                child.stop()
        from .api.errors import log_problem

        kept = log_problem()
        if kept:  # the status bar said it while the console ran; the terminal keeps it after
            print(f"cloudtui: {kept}", file=sys.stderr)
    if app.return_code:
        return app.return_code
    return 0


DEMO_PROFILES = ("demo", "demo-staging")  # the demo's accounts: its own, and a second one started on first use


def _kept_ui(flags: dict[str, Any], profile: str) -> dict[str, Any]:
    """The config's settings for a `--demo` profile: `[ui]`, `[keymap]`, `[aliases]`, `[[commands]]`,
    `[columns]`, and the profile's own `production`, `read_only`, `journal_file` and columns
    (`[profiles.demo] production = true` tries a production profile)."""
    from .config import resolve

    kept = resolve({**flags, "profile": profile})
    return {
        "theme": kept.theme,
        "mouse": kept.mouse,
        "keymap": kept.keymap,
        "aliases": kept.aliases,
        "commands": kept.commands,
        "command_problems": kept.command_problems,
        "columns": kept.columns,
        "columns_all": kept.columns_all,
        "muted": kept.muted,
        "advisor_days": kept.advisor_days,
        "advisor_problems": kept.advisor_problems,
        "column_problems": kept.column_problems,
        "production": kept.production,
        "read_only": kept.read_only,
        "journal_file": kept.journal_file,
        "config_error": kept.config_error,  # said at start, as without --demo
        "bad_flag": kept.bad_flag,
    }


def _demo_profiles(settings: Any, args: Any, children: list[Any]) -> Any:
    """The demo's profiles: its own, and "demo-staging", a second sandbox seeded apart (a dozen of
    each product's most numerous kind), started when first switched to."""
    from .api.secret import Secret
    from .records import replace
    from .sandbox.constants import DEMO_SECRET_KEY, GENAI_PREFIX
    from .sandbox.serve import ChildSandbox
    from .ui.profiles import DemoProfiles, Opened

    def staging() -> Opened:
        child = ChildSandbox(["--seed", "empty", "--scale", "12", "--chunk-delay", "0.02"])
        children.append(child)
        url = child.url
        own = _kept_ui({"read_only": args.read_only}, "demo-staging")
        if own["bad_flag"]:  # said where it is opened (the switch, or the start), not taken as off
            from .api.errors import ConfigError

            raise ConfigError(0, own["bad_flag"])
        moved = replace(settings, profile="demo-staging", api_url=url, genai_url=url + GENAI_PREFIX)
        moved = replace(
            moved,
            production=own["production"],
            read_only=own["read_only"],
            journal_file=own["journal_file"],
            columns=own["columns"],
            columns_all=own["columns_all"],
            muted=own["muted"],
        )
        return Opened(moved, Secret(DEMO_SECRET_KEY), "demo")

    return DemoProfiles(Opened(settings, Secret(DEMO_SECRET_KEY), "demo"), staging, DEMO_PROFILES[1])


if __name__ == "__main__":
    sys.exit(main())
