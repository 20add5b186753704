"""Named profiles in a TOML file under the platform config dir, with env and flag overrides.

Precedence for every setting: command-line flag, then environment variable, then the profile.
The file never holds the secret key (see secrets.py).
"""

from __future__ import annotations

import os
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .records import fields, record

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tomlkit import TOMLDocument

    from .products.kit.own_columns import Chosen
    from .products.kit.own_commands import OwnCommand

DEFAULT_ZONE = "fr-par-1"
DEFAULT_REGION = "fr-par"
PROFILE_KEYS = (
    "api_url",
    "project_id",
    "organization_id",
    "default_zone",
    "default_region",
    "ca_bundle",
    "genai_url",
    "journal_file",
    "production",
    "read_only",
)
UUID_RE = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"


def config_path() -> Path:
    override = os.environ.get("CLOUDTUI_CONFIG")
    if override:
        return Path(override)
    from platformdirs import user_config_path

    return user_config_path("cloudtui") / "config.toml"


@record
class Profile:
    name: str = "default"
    api_url: str = ""
    project_id: str = ""
    organization_id: str = ""
    default_zone: str = DEFAULT_ZONE
    default_region: str = DEFAULT_REGION
    ca_bundle: str = ""  # a CA file or folder to trust instead of the system store (a private CA)
    genai_url: str = ""  # the generative-model API's own base URL (default: api_url)
    allowed_origins: tuple[str, ...] = ()  # other origins the operator allowed the secret key to go to
    journal_file: str = ""  # the activity journal also written here (JSON lines, rotated)
    production: bool = False  # its own accent colour, its name in the title, every change confirmed by name
    read_only: bool = False  # as --read-only, for this profile alone


BOOLS = ("production", "read_only")  # profile keys read as true or false
UI_KEYS = {"theme": str, "mouse": bool}  # the `[ui]` table: the theme chosen, whether the mouse is captured


@record
class ConfigFile:
    path: Path
    default_profile: str = "default"
    profiles: dict[str, Profile] = field(default_factory=dict)
    ui: dict[str, Any] = field(default_factory=dict)  # `[ui]`: the console's own settings, kept across starts
    keymap: dict[str, str] = field(default_factory=dict)  # `[keymap]`: a binding's id → its keys ("x", "d,x")
    aliases: dict[str, str] = field(default_factory=dict)  # `[aliases]`: a word for the palette → a view's id
    # `[[commands]]`: the operator's own, on a kind's rows (`products.kit.own_commands`), and what is wrong
    # with those left out (said at start)
    commands: list[OwnCommand] = field(default_factory=list)
    command_problems: list[str] = field(default_factory=list)
    # `[columns]` and `[profiles.NAME.columns]`: a list's columns of the operator's own, for every profile
    # and for one (`products.kit.own_columns`), and what is wrong with entries left out (said at start)
    columns: dict[str, tuple[Chosen, ...]] = field(default_factory=dict)
    profile_columns: dict[str, dict[str, tuple[Chosen, ...]]] = field(default_factory=dict)
    column_problems: list[str] = field(default_factory=list)
    # `[profiles.NAME.advisor] muted = ["rule:kind:id", …]`: the advisor's findings muted, by profile
    muted: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # `[advisor]` and `[profiles.NAME.advisor]`: the ages its rules take (`backup_days = 30`), for every
    # profile and by profile
    advisor_days: dict[str, int] = field(default_factory=dict)
    profile_advisor_days: dict[str, dict[str, int]] = field(default_factory=dict)
    advisor_problems: list[str] = field(default_factory=list)  # ages left out, and why (said at start)
    error: str | None = None  # a file that could not be read is reported, never fatal
    # a profile's safety flag written as anything but true or false (`production = "yes"`): by profile,
    # what is wrong; the flag is taken as on, and the start refused until it is fixed
    bad_flags: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None = None) -> "ConfigFile":
        path = path or config_path()
        cfg = cls(path=path)
        import stat

        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            return cfg
        except OSError as exc:
            cfg.error = f"cannot read {path}: {exc.strerror or exc}"
            return cfg
        if not stat.S_ISREG(mode):  # a FIFO would hang the start on a blank screen, a device worse
            cfg.error = f"cannot read {path}: it is not a regular file"
            return cfg
        import tomllib  # only when there is a file to read

        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError as exc:
            byte = exc.object[exc.start]
            cfg.error = f"cannot read {path}: it is not UTF-8 text (byte {byte:#04x} at offset {exc.start})"
            return cfg
        except (OSError, tomllib.TOMLDecodeError) as exc:
            cfg.error = f"cannot read {path}: {exc}"
            return cfg
        cfg.default_profile = str(data.get("default_profile") or "default")
        ui = data.get("ui")
        if isinstance(ui, dict):
            cfg.ui = {k: v for k, v in ui.items() if k in UI_KEYS and isinstance(v, UI_KEYS[k])}
        for table in ("keymap", "aliases"):
            given = data.get(table)
            if isinstance(given, dict):
                kept = {str(k): str(v) for k, v in given.items() if isinstance(v, str) and v.strip()}
                if table == "keymap":  # ids are written with _ ("page_up"); page-up is taken as the same
                    kept = {k.replace("-", "_"): v for k, v in kept.items()}
                setattr(cfg, table, kept)
        from .products.kit.own_commands import parse

        cfg.commands, cfg.command_problems = parse(data.get("commands"), str(path))
        from .products.kit import own_columns

        cfg.columns, cfg.column_problems = own_columns.parse(data.get("columns"), str(path))
        cfg.advisor_days = _days(data.get("advisor"), "advisor", cfg.advisor_problems)
        known = set(fields(Profile))
        profiles = data.get("profiles") or {}
        if not isinstance(profiles, dict):  # `profiles = "x"`: said in one line, the file kept as it is
            cfg.error = (
                f"cannot read {path}: the setting profiles is {type(profiles).__name__} {profiles!r:.40}, not a "
                "table of [profiles.NAME] tables"
            )
            return cfg
        odd = [str(name) for name, table in profiles.items() if not isinstance(table, dict)]
        if odd:
            cfg.error = f"cannot read {path}: the setting profiles.{odd[0]} is not a table ([profiles.{odd[0]}])"
        for name, table in profiles.items():
            if isinstance(table, dict):
                odd_flags = [k for k in BOOLS if k in table and not isinstance(table[k], bool)]
                if odd_flags:
                    k = odd_flags[0]
                    cfg.bad_flags[str(name)] = (
                        f"profiles.{name}.{k} in {path} is {type(table[k]).__name__} {table[k]!r:.40}, not true or "
                        "false (write it unquoted)"
                    )
                values: dict[str, Any] = {
                    k: (v is not False if k in BOOLS else str(v))  # a flag not false is on (and said)
                    for k, v in table.items()
                    if k in known and k not in ("name", "allowed_origins")
                }
                origins = table.get("allowed_origins")
                if isinstance(origins, list):
                    values["allowed_origins"] = tuple(str(o) for o in origins)
                cfg.profiles[name] = Profile(name=name, **values)
                advisor = table.get("advisor")
                if isinstance(advisor, dict) and isinstance(advisor.get("muted"), list):
                    cfg.muted[str(name)] = tuple(str(k) for k in advisor["muted"] if isinstance(k, str))
                cfg.profile_advisor_days[str(name)] = _days(advisor, f"profiles.{name}.advisor", cfg.advisor_problems)
                if "columns" in table:
                    own, wrong = own_columns.parse(table["columns"], f"{path} [profiles.{name}]")
                    cfg.profile_columns[str(name)], cfg.column_problems = own, cfg.column_problems + wrong
        return cfg

    def save(self) -> None:
        """Write the profiles back, editing the file round-trip: its comments, order and keys cloudtui
        does not know are kept. A file that could not be read is never written over."""
        import tomlkit

        if self.error:
            raise ConfigNotSaved(
                f"{self.error} — it was not written, so nothing in it is lost: fix it (or move it away) "
                "and log in again"
            )
        text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        doc = tomlkit.parse(text)
        doc["default_profile"] = self.default_profile
        profiles = doc.get("profiles")
        if not isinstance(profiles, dict):
            profiles = tomlkit.table(is_super_table=True)
            doc["profiles"] = profiles
        for name, profile in self.profiles.items():
            table = profiles.get(name)
            if not isinstance(table, dict):
                table = tomlkit.table()
                profiles[name] = table
            for key in PROFILE_KEYS:
                value = getattr(profile, key)
                if value:
                    table[key] = value
                elif key in table:
                    del table[key]
            if profile.allowed_origins:
                table["allowed_origins"] = list(profile.allowed_origins)
        _write(self.path, tomlkit.dumps(doc))


class ConfigNotSaved(Exception):
    """The config file could not be read, so it is not written (that would lose what is in it)."""


@record
class Settings:
    """Everything the app needs to connect, resolved from flags, environment and profile."""

    profile: str
    api_url: str
    project_id: str
    organization_id: str
    zone: str
    region: str
    read_only: bool = False
    demo: bool = False
    config_error: str | None = None
    ca_bundle: str = ""
    genai_url: str = ""  # the generative-model API's base URL; empty: the platform's
    unknown_profile: str | None = None  # a profile named by --profile or CLOUDTUI_PROFILE that the file lacks
    bad_flag: str | None = None  # its production or read_only is not true or false (`ConfigFile.bad_flags`)
    allowed_origins: tuple[str, ...] = ()  # origins beyond api_url and genai_url the secret key may go to
    journal_file: str = ""  # the activity journal also written here (`~` expanded)
    production: bool = False  # a production profile (`Profile.production`)
    theme: str = ""  # the theme last chosen (`[ui] theme`)
    mouse: bool = True  # whether the console captures the mouse (`[ui] mouse`, `--no-mouse`)
    keymap: dict[str, str] = field(default_factory=dict)  # `[keymap]`
    aliases: dict[str, str] = field(default_factory=dict)  # `[aliases]`
    commands: tuple[OwnCommand, ...] = ()  # `[[commands]]`, the operator's own
    command_problems: tuple[str, ...] = ()  # those left out, and why (said at start)
    columns: dict[str, tuple[Chosen, ...]] = field(default_factory=dict)  # `[columns]`, the profile's over all
    columns_all: dict[str, tuple[Chosen, ...]] = field(default_factory=dict)  # `[columns]` alone (every profile's)
    column_problems: tuple[str, ...] = ()  # entries left out, and why (said at start)
    muted: tuple[str, ...] = ()  # the advisor's findings muted on this profile (`Finding.key`)
    advisor_days: dict[str, int] = field(default_factory=dict)  # the ages its rules take, the profile's over all
    advisor_problems: tuple[str, ...] = ()  # those left out, and why (said at start)

    def problems(self) -> list[str]:
        """What makes these settings unusable, found before anything is sent (said at start)."""
        import re

        from .api.tls import check_bundle
        from .products.kit.location import ALL, REGIONS, ZONES

        out = []
        if self.unknown_profile:
            out.append(self.unknown_profile)
        if self.bad_flag:
            out.append(self.bad_flag)
        if self.project_id and not re.fullmatch(UUID_RE, self.project_id):
            out.append(
                f"the project id {self.project_id!r} is not a UUID (profile {self.profile!r} or CLOUDTUI_PROJECT_ID)"
            )
        if self.zone not in (*ZONES, ALL):
            out.append(f"the zone {self.zone!r} of profile {self.profile!r} is not one of {', '.join(ZONES)} or 'all'")
        if self.region not in (*REGIONS, ALL):
            out.append(
                f"the region {self.region!r} of profile {self.profile!r} is not one of {', '.join(REGIONS)} or 'all'"
            )
        for name, url in (("API URL", self.api_url), ("generative-model API URL", self.genai_url)):
            problem = url_problem(url) if url else None
            if problem:
                out.append(f"the {name} {url!r} (profile {self.profile!r}, flag or environment) {problem}")
        if self.api_url.startswith("https://"):
            missing = check_bundle(self.ca_bundle or None)
            if missing:
                out.append(missing)
        return out


def url_problem(url: str) -> str | None:
    """Why an API base URL cannot be used (scheme, host, port), or None."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        port = parts.port  # raises for a port out of 0–65535 or not a number
    except ValueError as err:
        return f"is not a usable URL ({err})"
    if parts.scheme not in ("http", "https"):
        return "must start with https:// (or http:// for a local sandbox)"
    if not parts.hostname:
        return "has no host"
    if port == 0:
        return "has port 0"
    return None


def resolve(
    flags: dict[str, Any] | None = None, env: dict[str, str] | None = None, cfg: ConfigFile | None = None
) -> Settings:
    flags = flags or {}
    env = dict(os.environ) if env is None else env
    cfg = cfg or ConfigFile.load()
    named = flags.get("profile") or env.get("CLOUDTUI_PROFILE")
    name = named or cfg.default_profile or "default"
    prof = cfg.profiles.get(name, Profile(name=name))
    unknown = None
    if named and cfg.profiles and name not in cfg.profiles:  # a typo, not a first run: say so rather than log in anew
        unknown = f"no profile {name!r} in {cfg.path} (it has {', '.join(sorted(cfg.profiles))})"
    return Settings(
        profile=name,
        api_url=(flags.get("api_url") or env.get("CLOUDTUI_API_URL") or prof.api_url).rstrip("/"),
        project_id=env.get("CLOUDTUI_PROJECT_ID") or prof.project_id,
        organization_id=prof.organization_id,
        zone=flags.get("zone") or prof.default_zone or DEFAULT_ZONE,
        region=flags.get("region") or prof.default_region or DEFAULT_REGION,
        read_only=bool(flags.get("read_only")) or prof.read_only,
        config_error=cfg.error,
        ca_bundle=prof.ca_bundle,
        genai_url=(env.get("CLOUDTUI_GENAI_URL") or prof.genai_url).rstrip("/"),
        unknown_profile=unknown,
        bad_flag=cfg.bad_flags.get(name),
        allowed_origins=prof.allowed_origins,
        journal_file=os.path.expanduser(prof.journal_file) if prof.journal_file else "",
        production=prof.production,
        theme=str(cfg.ui.get("theme", "")),
        mouse=bool(cfg.ui.get("mouse", True)) and not flags.get("no_mouse"),
        keymap=dict(cfg.keymap),
        aliases=dict(cfg.aliases),
        commands=tuple(cfg.commands),
        command_problems=tuple(cfg.command_problems),
        columns={**cfg.columns, **cfg.profile_columns.get(name, {})},
        columns_all=dict(cfg.columns),
        column_problems=tuple(cfg.column_problems),
        muted=cfg.muted.get(name, ()),
        advisor_days={**cfg.advisor_days, **cfg.profile_advisor_days.get(name, {})},
        advisor_problems=tuple(cfg.advisor_problems),
    )


def _days(table: object, where: str, problems: list[str]) -> dict[str, int]:
    """The ages an `[advisor]` table sets (`backup_days = 30`): whole days of at least one, by name; one
    written otherwise is left out and said in `problems`."""
    if not isinstance(table, dict):
        return {}
    out: dict[str, int] = {}
    for k, v in table.items():
        if not str(k).endswith("_days"):
            continue
        if type(v) is int and v >= 1:
            out[str(k)] = v
        else:
            written = str(v).lower() if isinstance(v, bool) else repr(v)  # (as TOML writes it: true, not True)
            problems.append(f"[{where}] {k} = {written:.40} left out: write a whole number of days, 1 or more")
    return out


def save_ui(key: str, value: Any, path: Path | None = None) -> None:
    """One setting of the `[ui]` table written back (the file edited round-trip, as `save`)."""
    import tomlkit

    cfg = ConfigFile.load(path)
    if cfg.error:
        raise ConfigNotSaved(f"{cfg.error} — {key} was not saved, so nothing in it is lost")
    text = cfg.path.read_text(encoding="utf-8") if cfg.path.exists() else ""
    doc = tomlkit.parse(text)
    table = doc.get("ui")
    if not isinstance(table, dict):
        table = tomlkit.table()
        doc["ui"] = table
    table[key] = value
    _write(cfg.path, tomlkit.dumps(doc))


def save_columns(kind_id: str, chosen: Sequence[Chosen], profile: str | None, path: Path | None = None) -> None:
    """A list's columns written back (the file edited round-trip, as `save`): for one profile, or for every
    one (`profile` None); none chosen removes the entry, so the list shows its own again."""
    import tomlkit

    cfg = ConfigFile.load(path)
    if cfg.error:
        raise ConfigNotSaved(f"{cfg.error} — the columns were not saved, so nothing in it is lost")
    text = cfg.path.read_text(encoding="utf-8") if cfg.path.exists() else ""
    doc = tomlkit.parse(text)
    parent: Any = doc if profile is None else _profile_table(doc, profile)
    table = parent.get("columns")
    if not isinstance(table, dict):
        table = parent["columns"] = tomlkit.table()
    if chosen:
        table[kind_id] = [str(c) for c in chosen]
    elif kind_id in table:
        del table[kind_id]
    if not table:  # no header left standing for nothing
        del parent["columns"]
    _write(cfg.path, tomlkit.dumps(doc))


def save_muted(profile: str, muted: Sequence[str], path: Path | None = None) -> None:
    """The advisor's findings muted on a profile, written back (`[profiles.NAME.advisor] muted`, the file
    edited round-trip, as `save`)."""
    import tomlkit

    cfg = ConfigFile.load(path)
    if cfg.error:
        raise ConfigNotSaved(f"{cfg.error} — the mute was not saved, so nothing in it is lost")
    doc = tomlkit.parse(cfg.path.read_text(encoding="utf-8") if cfg.path.exists() else "")
    table = _profile_table(doc, profile)
    advisor = table.get("advisor")
    if not isinstance(advisor, dict):
        advisor = table["advisor"] = tomlkit.table()
    if muted:
        advisor["muted"] = list(muted)
    else:
        advisor.pop("muted", None)
        if not advisor:
            del table["advisor"]
    _write(cfg.path, tomlkit.dumps(doc))


def _profile_table(doc: TOMLDocument, profile: str) -> Any:
    """A tomlkit document's `[profiles.NAME]` table, made (and `[profiles]` with it) when missing."""
    import tomlkit

    profiles = doc.get("profiles")
    if not isinstance(profiles, dict):
        profiles = doc["profiles"] = tomlkit.table(is_super_table=True)
    table = profiles.get(profile)
    if not isinstance(table, dict):
        table = profiles[profile] = tomlkit.table()
    return table


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def allow_origin(profile_name: str, origin: str, path: Path | None = None) -> None:
    """Remember in the profile that the secret key may go to `origin` (the file edited round-trip)."""
    cfg = ConfigFile.load(path)
    prof = cfg.profiles.get(profile_name, Profile(name=profile_name))
    if origin not in prof.allowed_origins:
        prof.allowed_origins = (*prof.allowed_origins, origin)
    cfg.profiles[profile_name] = prof
    cfg.save()


def save_profile(profile: Profile, make_default: bool = True, path: Path | None = None) -> Path:
    cfg = ConfigFile.load(path)
    cfg.profiles[profile.name] = profile
    if make_default and (len(cfg.profiles) == 1 or cfg.default_profile not in cfg.profiles):
        cfg.default_profile = profile.name
    cfg.save()
    return cfg.path
