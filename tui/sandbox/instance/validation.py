"""Request checks shared by the Instance routes: names, tags, the volumes object of spec 1 §2.3.

Each check returns a list of (argument_name, reason, help_message) for `invalid_arguments`.
"""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING, Any

from .. import catalog
from ..catalog import VOLUME_TYPES
from ..core import check_unknown, is_uuid  # noqa: F401  (check_unknown: re-exported for the Instance routes)
from ..errors import invalid_arguments, permissions_denied

if TYPE_CHECKING:
    from .state import InstanceStore

NAME_RE = re.compile(r"^[A-Za-z0-9. -]+$")
HOST_RE = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}\.?$")
Errors = list[tuple[str, str, str]]
OWNER = ("organization", "project")  # a volume template's owner: the server's


def check_name(name: object, arg: str = "name") -> Errors:
    if not isinstance(name, str) or not name.strip():
        return [(arg, "required", "a non-empty name is required")]
    if len(name) > 255:
        return [(arg, "constraint", "at most 255 characters")]
    if not NAME_RE.match(name):
        return [(arg, "format", "only alphanumeric characters, dots, spaces and dashes are allowed")]
    return []


def check_tags(tags: object, arg: str = "tags") -> Errors:
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        return [(arg, "format", "tags must be a list of strings")]
    return []


def check_bool(body: dict[str, Any], *flags: str) -> Errors:
    return [(f, "format", f"{f} must be true or false") for f in flags if f in body and not isinstance(body[f], bool)]


def check_choice(body: dict[str, Any], field: str, choices: tuple[str, ...]) -> Errors:
    if field in body and body[field] not in choices:
        return [(field, "constraint", f"{field} must be {' or '.join(choices)}")]
    return []


def check_project(body: dict[str, Any], required: bool = True) -> Errors:
    """The owner: `project`, or its one-of partner `organization` (what the public clients send when
    their profile names no project)."""
    project = body.get("project")
    if project is None:
        organization = body.get("organization")
        if organization is not None:
            return [] if is_uuid(organization) else [("organization", "format", "organization must be a UUID")]
        return [("project", "required", "required key not provided")] if required else []
    if not is_uuid(project):
        return [("project", "format", "project must be a UUID")]
    return []


def check_new(body: dict[str, Any], allowed: set[str]) -> Errors:
    """What a creation's body is checked for first: only the fields it takes, a name, its project."""
    return check_unknown(body, allowed) + check_name(body.get("name")) + check_project(body)


def foreign_owner(store: InstanceStore, body: dict[str, Any]) -> bool:
    """The body names a project (or, without one, an organization) other than the caller's."""
    if body.get("project") is not None:
        return bool(body["project"] != store.project)
    return body.get("organization") is not None and body["organization"] != store.organization


def refuse_creation(store: InstanceStore, body: dict[str, Any], errs: Errors, resource: str) -> None:
    """A creation's body refused: 400 with the problems `errs` found, else 403 where it names another
    project or organization than the caller's."""
    if errs:
        raise invalid_arguments(*errs)
    if foreign_owner(store, body):
        raise permissions_denied("write", resource)


def check_size(size: object, volume_type: str, arg: str = "size") -> Errors:
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        return [(arg, "format", "size must be a positive integer number of bytes")]
    c = VOLUME_TYPES[volume_type]["constraints"]
    if not c["min"] <= size <= c["max"]:
        return [(arg, "constraint", f"{volume_type} size must be between {c['min']} and {c['max']} bytes")]
    return []


def check_ip_range(value: object, arg: str = "ip_range") -> Errors:
    try:
        ipaddress.ip_network(str(value), strict=False)
    except ValueError:
        return [(arg, "format", "ip_range must be an IPv4 or IPv6 network such as 10.0.0.0/8")]
    return [] if isinstance(value, str) else [(arg, "format", "ip_range must be a string")]


def check_reverse(value: object, arg: str = "reverse") -> Errors:
    if value is None:
        return []
    if not isinstance(value, str) or not HOST_RE.match(value):
        return [(arg, "format", "reverse must be a fully qualified domain name such as web.example.com")]
    return []


def volume_template(vol: object) -> object:
    """A volume as VolumeServerTemplate sends it, less the fields left at their defaults (size 0,
    boot false, no name, no base snapshot): those are not asked. Its organization and project are
    the server's (checked as UUIDs by `validate_volumes`, then dropped)."""
    if not isinstance(vol, dict):
        return vol
    defaults = {"size": (0,), "boot": (False,), "name": (None, ""), "base_snapshot": (None, "")}
    return {
        k: v for k, v in vol.items() if not any(v is d or (v == d and type(v) is type(d)) for d in defaults.get(k, ()))
    }


def volume_templates(volumes: object) -> object:
    if not isinstance(volumes, dict):
        return volumes
    return {key: volume_template(vol) for key, vol in volumes.items()}


def validate_volumes(store: InstanceStore, zone: str, volumes: object, ctype: dict[str, Any] | None) -> Errors:
    """Spec 1 §2.3: keys "0","1",… in order; each value one of the six use cases; sizes in range;
    existing volumes and snapshots looked up in the zone."""
    if not isinstance(volumes, dict):
        return [("volumes", "format", 'volumes must be an object keyed by "0", "1", …')]
    if list(volumes.keys()) != [str(i) for i in range(len(volumes))]:
        return [("volumes", "format", 'volume keys must be "0", "1", … in order')]
    errs: Errors = []
    local_total = 0
    for key, vol in volumes.items():
        arg = f"volumes.{key}"
        if not isinstance(vol, dict):
            errs.append((arg, "format", "each volume must be an object"))
            continue
        unknown = sorted(set(vol) - {"name", "size", "volume_type", "boot", "base_snapshot", "id", *OWNER})
        if unknown:
            errs.append((f"{arg}.{unknown[0]}", "unknown", "unknown volume parameter"))
            continue
        bad_owner = [k for k in OWNER if k in vol and not is_uuid(vol[k])]
        if bad_owner:
            errs.append((f"{arg}.{bad_owner[0]}", "format", f"{bad_owner[0]} must be a UUID"))
            continue
        vol = {k: v for k, v in vol.items() if k not in OWNER}
        if "boot" in vol and not isinstance(vol["boot"], bool):
            errs.append((f"{arg}.boot", "format", "boot must be true or false"))
        vtype = vol.get("volume_type")
        if vtype is not None and vtype not in ("l_ssd", "b_ssd", "sbs_volume"):
            errs.append((f"{arg}.volume_type", "constraint", "volume_type must be l_ssd, b_ssd or sbs_volume"))
            continue
        if "id" in vol:  # attach an existing volume: id (+ volume_type for sbs_volume) and boot only
            errs += _existing(store, zone, arg, vol)
            existing = store.volumes[zone].get(vol["id"]) if is_uuid(vol["id"]) else None
            if existing is not None and existing["volume_type"] == "l_ssd":
                local_total += existing["size"]
            continue
        if vtype is None:
            errs.append((f"{arg}.volume_type", "required", "volume_type is required"))
            continue
        size = vol.get("size")
        if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size <= 0):
            errs.append((f"{arg}.size", "format", "size must be a positive integer number of bytes"))
            continue
        if "base_snapshot" in vol:  # from a snapshot: name required; size only for sbs_volume
            snap = store.snapshots[zone].get(vol["base_snapshot"]) if is_uuid(vol["base_snapshot"]) else None
            if not is_uuid(vol["base_snapshot"]):
                errs.append((f"{arg}.base_snapshot", "format", "base_snapshot must be a snapshot UUID"))
            elif snap is None:
                errs.append((f"{arg}.base_snapshot", "constraint", "no such snapshot in this zone"))
            elif not same_family(snap["volume_type"], vtype):
                errs.append(
                    (
                        f"{arg}.volume_type",
                        "constraint",
                        f"a {snap['volume_type']} snapshot makes {snap['volume_type']} volumes only",
                    )
                )
            elif size is None:
                size = snap["size"]
            if not vol.get("name"):
                errs.append((f"{arg}.name", "required", "name is required with base_snapshot"))
            if "size" in vol and vtype != "sbs_volume":
                errs.append((f"{arg}.size", "constraint", "size is taken from the snapshot for l_ssd and b_ssd"))
        elif "name" in vol and size is None:  # an empty volume needs its size
            errs.append((f"{arg}.size", "required", "size is required for an empty volume"))
        if vol.get("name"):
            errs += [(f"{arg}.name", r, h) for _, r, h in check_name(vol["name"])]
        if size is None:
            continue
        if vtype == "l_ssd":
            if ctype is not None and not catalog.supports_local(ctype):
                errs.append((f"{arg}.volume_type", "constraint", "this commercial type has no local storage (l_ssd)"))
            elif ctype is not None:
                c = ctype["per_volume_constraint"]["l_ssd"]
                if not c["min_size"] <= size <= c["max_size"]:
                    errs.append(
                        (
                            f"{arg}.size",
                            "constraint",
                            f"l_ssd size must be between {c['min_size']} and {c['max_size']} bytes",
                        )
                    )
                else:
                    local_total += size
        elif not catalog.BLOCK_MIN <= size <= catalog.BLOCK_MAX:
            errs.append(
                (
                    f"{arg}.size",
                    "constraint",
                    f"{vtype} size must be between {catalog.BLOCK_MIN} and {catalog.BLOCK_MAX} bytes",
                )
            )
    if ctype is not None and local_total > ctype["volumes_constraint"]["max_size"]:
        errs.append(
            (
                "volumes",
                "constraint",
                f"total local storage must be at most {ctype['volumes_constraint']['max_size']} bytes",
            )
        )
    return errs


def _existing(store: InstanceStore, zone: str, arg: str, vol: dict[str, Any]) -> Errors:
    extra = sorted(set(vol) - {"id", "boot", "volume_type"})
    if extra:
        return [(f"{arg}.{extra[0]}", "constraint", "an existing volume takes only id, volume_type and boot")]
    if not is_uuid(vol["id"]):
        return [(f"{arg}.id", "format", "id must be a volume UUID")]
    found = store.volumes[zone].get(vol["id"])
    if found is None:
        return [(f"{arg}.id", "constraint", "no such volume in this zone")]
    if found["volume_type"] == "sbs_volume" and vol.get("volume_type") != "sbs_volume":
        return [(f"{arg}.volume_type", "required", "volume_type sbs_volume is required to attach an sbs_volume")]
    return []


def same_family(snapshot_type: str, volume_type: str) -> bool:
    """A snapshot takes the type of its volume; volumes are made from snapshots of their own type
    (sbs snapshots make sbs volumes; a unified snapshot makes l_ssd and b_ssd volumes)."""
    if snapshot_type == "unified":
        return volume_type in ("l_ssd", "b_ssd")
    return {"l_ssd": "l_ssd", "b_ssd": "b_ssd", "sbs_snapshot": "sbs_volume"}.get(snapshot_type) == volume_type


def default_volumes(
    store: InstanceStore, zone: str, image_ref: str, image: dict[str, Any], ctype: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """Spec 1 §2.3 defaults when `volumes` is omitted."""
    os_size = image["root_volume"]["size"]
    if image_ref in store.labels[zone]:
        return {"0": {"size": os_size, "volume_type": "sbs_volume", "boot": True}}
    if catalog.supports_local(ctype):
        return {"0": {"size": ctype["volumes_constraint"]["max_size"], "volume_type": "l_ssd", "boot": True}}
    return {"0": {"size": os_size, "volume_type": "b_ssd", "boot": True}}
