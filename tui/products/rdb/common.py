"""What the Databases kinds share: their defaults and tones, an instance's endpoints and volume in
words, and the whole-set editors of its ACL rules and settings (no pydantic here)."""

from __future__ import annotations

from typing import Any

from ..kit.base import Call, Lazy, kinds_of
from ..kit.declared import Field, columns
from ..kit.format import COMMON, Tones, gb
from ..kit.set_editor import SetEditor

API = "rdb/v1"
# What every Databases kind shares; a kind says only what differs.
rdb_kind = kinds_of(product="Databases", api=API, scope_type="region")
DATA = "tui.products.rdb.data_forms:"
# The database states beyond the common words; a full disk needs someone now.
TONES = Tones(
    busy={"backuping", "promoting", "exporting", "restoring", "autohealing"}, alarm={"disk_full"}, base=COMMON
)


def volume(data: dict[str, Any]) -> str:
    v = data.get("volume")
    if not isinstance(v, dict):
        return ""
    return f"{v.get('type', '?')} {gb(v.get('size'))} GB"


def endpoints_text(data: dict[str, Any]) -> str:
    """Every endpoint as ip:port, with what it is (load balancer, private network, direct)."""
    out = []
    for e in data.get("endpoints") or []:
        if not isinstance(e, dict):
            continue
        out.append(f"{e.get('ip') or e.get('hostname') or '?'}:{e.get('port', '?')} ({_where(e)})")
    return ", ".join(out)


def _where(e: dict[str, Any]) -> str:
    if e.get("private_network"):
        return "private"
    return "lb" if "load_balancer" in e else "direct" if "direct_access" in e else "?"


def first_endpoint(data: dict[str, Any]) -> str:
    e = data.get("endpoint")
    if not isinstance(e, dict):
        eps = [x for x in data.get("endpoints") or [] if isinstance(x, dict)]
        e = eps[0] if eps else None
    return f"{e.get('ip') or e.get('hostname') or '?'}:{e.get('port', '?')}" if isinstance(e, dict) else ""


ACL_COLUMNS = columns(Field("ip", "IP / network", "ip", width=20), Field("description", "Description", width=30))
SETTING_COLUMNS = columns(Field("name", "Setting", "name", width=26), Field("value", "Value", width=30))


def acl_editor(read: str | Call, path: str, owner: str) -> SetEditor:
    """An instance's ACL rules, the whole set per PUT: from the instance (`{id}/acls`) or from its
    ACL list (`instances/{parent}/acls`)."""
    return SetEditor(
        f"ACL rules of {owner}",
        Lazy(DATA + "AclRecord"),
        ACL_COLUMNS,
        Call("PUT", path),
        "rules",
        ("ip", "description"),
        "ACL rule",
        read=read,
        unique="ip",
        empty="With no ACL rule, no client can connect to the instance.",
        describe="Who may connect to the load-balanced and direct endpoints. "
        "The whole set is sent at once; an empty set lets nobody in.",
    )


def settings_editor(read: str, path: str, owner: str) -> SetEditor:
    """An instance's settings, the whole set per PUT (see `acl_editor`)."""
    return SetEditor(
        f"Settings of {owner}",
        Lazy(DATA + "SettingForm"),
        SETTING_COLUMNS,
        Call("PUT", path),
        "settings",
        ("name", "value"),
        "setting",
        read=read,
        unique="name",
        options=Lazy(DATA + "set_options"),
        describe="The whole set is sent at once: a setting left out goes back to its default.",
    )
