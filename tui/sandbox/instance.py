"""The Instance API of the sandbox (`/instance/v1/zones/{zone}`): servers, actions, types, images.

Server state is a plan of timed steps applied when read (`_settle`), so with a ManualClock a test
decides exactly when a server finishes starting, and with the wall clock the demo moves by itself.
States, allowed actions, transitions and status codes follow spec/4 "Instance".
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import catalog
from .clock import Clock
from .core import ALL_ZONES, Ids, is_uuid, json_body, page_per_page
from .errors import invalid_arguments, invalid_request, not_found, permissions_denied

NAME_RE = re.compile(r"^[A-Za-z0-9. -]+$")

ALLOWED_ACTIONS: dict[str, list[str]] = {
    "stopped": ["poweron", "backup"],
    "starting": ["stop_in_place", "backup"],
    "running": ["poweroff", "terminate", "reboot", "stop_in_place", "backup"],
    "stopping": ["stop_in_place", "backup"],
    "stopped in place": ["poweron", "poweroff", "terminate", "reboot", "backup"],
    "locked": [],
}
ACTIONS = ("poweron", "poweroff", "stop_in_place", "reboot", "terminate", "backup")
GONE = "__gone__"
SERVER_FIELDS = {
    "name", "project", "organization", "commercial_type", "image", "enable_ipv6", "volumes", "tags",
    "dynamic_ip_required", "routed_ip_enabled", "boot_type", "security_group", "placement_group",
    "public_ip", "public_ips", "protected", "admin_password_encryption_ssh_key_id",
}
PATCH_FIELDS = {"name", "tags", "commercial_type", "enable_ipv6", "protected", "dynamic_ip_required", "boot_type"}


@dataclass
class Timings:
    """Seconds each transition takes; the demo's defaults feel alive without being slow."""

    start: float = 4.0
    stop: float = 3.0
    reboot_stop: float = 1.5
    reboot_start: float = 2.5
    terminate: float = 3.0
    backup: float = 5.0


class InstanceStore:
    def __init__(self, clock: Clock, ids: Ids, organization: str, project: str, timings: Timings | None = None) -> None:
        self.clock = clock
        self.ids = ids
        self.organization = organization
        self.project = project
        self.timings = timings or Timings()
        self.types = catalog.commercial_types()
        self.servers: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}
        self.images: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}
        self.labels: dict[str, dict[str, str]] = {z: {} for z in ALL_ZONES}  # zone -> label -> image id
        self.plans: dict[str, list[tuple[float, str, str]]] = {}  # server id -> timed steps
        self.image_plans: dict[str, float] = {}  # image id -> time it becomes available
        self.version: dict[str, int] = {z: 0 for z in ALL_ZONES}
        self.revs: dict[str, int] = {}  # server id -> revision, bumped on every change
        self._json: dict[str, tuple[int, bytes]] = {}
        self._list_cache: dict[tuple, tuple[int, list[dict[str, Any]]]] = {}
        for zone in ALL_ZONES:
            for label, name, arch, size in catalog.IMAGES:
                image = self._new_image(zone, name, arch, size * catalog.GB, public=True)
                self.labels[zone][label] = image["id"]

    # ---- images -------------------------------------------------------------------------------
    def _new_image(self, zone: str, name: str, arch: str, size: int, public: bool, state: str = "available") -> dict[str, Any]:
        iid = self.ids.uuid()
        now = self.clock.iso()
        image = {
            "id": iid,
            "name": name,
            "arch": arch,
            "root_volume": {"id": self.ids.uuid(), "name": f"{name} root", "size": size, "volume_type": "unified"},
            "extra_volumes": {},
            "public": public,
            "state": state,
            "organization": self.organization,
            "project": self.project,
            "tags": [],
            "creation_date": now,
            "modification_date": now,
            "default_bootscript": None,
            "from_server": None,
            "zone": zone,
        }
        self.images[zone][iid] = image
        return image

    def _settle_images(self, zone: str) -> None:
        now = self.clock.now()
        for iid, at in list(self.image_plans.items()):
            image = self.images[zone].get(iid)
            if image is not None and at <= now:
                image["state"] = "available"
                del self.image_plans[iid]

    def resolve_image(self, zone: str, ref: str) -> dict[str, Any] | None:
        iid = self.labels[zone].get(ref, ref)
        return self.images[zone].get(iid)

    # ---- servers ------------------------------------------------------------------------------
    def _touch(self, zone: str, sid: str | None = None) -> None:
        """Something changed in the zone (and in server `sid`): list caches and its JSON are stale."""
        self.version[zone] += 1
        if sid is not None:
            self.revs[sid] = self.revs.get(sid, 0) + 1

    def encoded(self, server: dict[str, Any]) -> bytes:
        """The server as JSON, cached until it changes: listing 50,000 servers must not re-encode
        every one of them for every page (the sandbox is not what the benchmark measures)."""
        sid = server["id"]
        rev = self.revs.get(sid, 0)
        hit = self._json.get(sid)
        if hit is not None and hit[0] == rev:
            return hit[1]
        data = json.dumps(self.render(server), separators=(",", ":"), ensure_ascii=False).encode()
        self._json[sid] = (rev, data)
        return data

    def _settle(self, zone: str, sid: str) -> None:
        plan = self.plans.get(sid)
        if not plan:
            return
        now = self.clock.now()
        server = self.servers[zone].get(sid)
        while plan and plan[0][0] <= now:
            at, state, detail = plan.pop(0)
            if server is None:
                break
            if state == GONE:
                del self.servers[zone][sid]
                server = None
                plan.clear()
                break
            server["state"] = state
            server["state_detail"] = detail
            server["modification_date"] = self.clock.iso(at)
            if state == "running" and server.get("dynamic_ip_required") and not server.get("public_ip"):
                self._assign_public_ip(server)
            self._touch(zone, sid)
        if not plan:
            self.plans.pop(sid, None)

    def settle_zone(self, zone: str) -> None:
        for sid in [s for s in self.plans if s in self.servers[zone]]:
            self._settle(zone, sid)
        self._settle_images(zone)

    def get_server(self, zone: str, sid: str) -> dict[str, Any]:
        self._settle(zone, sid)
        server = self.servers[zone].get(sid)
        if server is None:
            raise not_found("instance_server", sid)
        return server

    def render(self, server: dict[str, Any]) -> dict[str, Any]:
        out = dict(server)
        out["allowed_actions"] = list(ALLOWED_ACTIONS.get(server["state"], []))
        return out

    def _assign_public_ip(self, server: dict[str, Any]) -> None:
        n = self.ids.rng.randrange(1, 254)
        m = self.ids.rng.randrange(1, 254)
        ip = {"id": self.ids.uuid(), "address": f"51.15.{n}.{m}", "dynamic": True, "family": "inet", "provisioning_mode": "dhcp"}
        server["public_ip"] = ip
        server["public_ips"] = [ip]

    def add_server(
        self,
        zone: str,
        name: str,
        commercial_type: str,
        image: dict[str, Any],
        *,
        state: str = "stopped",
        tags: list[str] | None = None,
        volumes: dict[str, dict[str, Any]] | None = None,
        enable_ipv6: bool = False,
        dynamic_ip_required: bool = True,
        created_at: float | None = None,
        project: str | None = None,
    ) -> dict[str, Any]:
        sid = self.ids.uuid()
        created = self.clock.iso(created_at)
        rng = self.ids.rng
        server: dict[str, Any] = {
            "id": sid,
            "name": name,
            "organization": self.organization,
            "project": project or self.project,
            "tags": list(tags or []),
            "commercial_type": commercial_type,
            "creation_date": created,
            "modification_date": created,
            "dynamic_ip_required": dynamic_ip_required,
            "routed_ip_enabled": True,
            "enable_ipv6": enable_ipv6,
            "hostname": re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-") or sid[:8],
            "image": image,
            "protected": False,
            "public_ip": None,
            "public_ips": [],
            "private_ip": None,
            "mac_address": "de:00:00:%02x:%02x:%02x" % (rng.randrange(256), rng.randrange(256), rng.randrange(256)),
            "state": state,
            "state_detail": {"running": "booted", "stopped": "", "locked": "locked by support"}.get(state, ""),
            "boot_type": "local",
            "arch": self.types.get(commercial_type, {}).get("arch", "x86_64"),
            "volumes": {},
            "security_group": {"id": self._default_security_group(zone), "name": "Default security group"},
            "placement_group": None,
            "private_nics": [],
            "maintenances": [],
            "ipv6": None,
            "location": {"zone_id": zone, "platform_id": "14", "cluster_id": str(rng.randrange(1, 40)), "hypervisor_id": str(rng.randrange(100, 999)), "node_id": str(rng.randrange(1, 60))},
            "zone": zone,
        }
        for key, vol in (volumes or {}).items():
            server["volumes"][key] = {
                "id": self.ids.uuid(),
                "name": vol.get("name") or f"{name}-vol-{key}",
                "size": vol["size"],
                "volume_type": vol["volume_type"],
                "state": "available" if vol["volume_type"] == "sbs_volume" else "in_use",
                "boot": bool(vol.get("boot", key == "0")),
                "zone": zone,
            }
        if state in ("running", "stopped in place") and dynamic_ip_required:
            self._assign_public_ip(server)
        self.servers[zone][sid] = server
        self._touch(zone, sid)
        return server

    def _default_security_group(self, zone: str) -> str:
        # One stable default group per zone (the security-group API itself arrives with issue 4).
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"sg-default-{zone}-{self.project}"))

    def list_servers(self, zone: str, params: dict[str, str]) -> list[dict[str, Any]]:
        self.settle_zone(zone)
        key = (zone, tuple(sorted(params.items())))
        hit = self._list_cache.get(key)
        if hit and hit[0] == self.version[zone]:
            return hit[1]
        items = list(self.servers[zone].values())
        if name := params.get("name"):
            items = [s for s in items if name.lower() in s["name"].lower()]
        if state := params.get("state"):
            items = [s for s in items if s["state"] == state]
        if ctype := params.get("commercial_type"):
            items = [s for s in items if s["commercial_type"] == ctype]
        if project := params.get("project"):
            items = [s for s in items if s["project"] == project]
        if tags := params.get("tags"):
            wanted = [t for t in tags.split(",") if t]
            items = [s for s in items if all(t in s["tags"] for t in wanted)]
        order = params.get("order", "creation_date_desc")
        if order not in ("creation_date_asc", "creation_date_desc", "modification_date_asc", "modification_date_desc"):
            raise invalid_arguments(("order", "constraint", "order must be creation_date_asc|creation_date_desc|modification_date_asc|modification_date_desc"))
        field, _, direction = order.rpartition("_")
        items.sort(key=lambda s: (s[field], s["id"]), reverse=direction == "desc")
        if len(self._list_cache) > 64:
            self._list_cache.clear()
        self._list_cache[key] = (self.version[zone], items)
        return items

    # ---- transitions --------------------------------------------------------------------------
    def plan(self, zone: str, server: dict[str, Any], steps: list[tuple[float, str, str]]) -> None:
        now = self.clock.now()
        absolute = [(now + dt, state, detail) for dt, state, detail in steps]
        self.plans[server["id"]] = absolute
        self._settle(zone, server["id"])
        self._touch(zone, server["id"])

    def run_action(self, zone: str, server: dict[str, Any], action: str, body: dict[str, Any]) -> dict[str, Any]:
        t = self.timings
        state = server["state"]
        if action not in ALLOWED_ACTIONS.get(state, []):
            raise invalid_request(_refusal(action, state))
        if action == "poweron":
            self.plan(zone, server, [(0, "starting", "provisioning node"), (t.start / 2, "starting", "booting kernel"), (t.start, "running", "booted")])
        elif action == "poweroff":
            self.plan(zone, server, [(0, "stopping", "stopping"), (t.stop, "stopped", "")])
        elif action == "stop_in_place":
            self.plan(zone, server, [(0, "stopping", "stopping in place"), (t.stop, "stopped in place", "")])
        elif action == "reboot":
            self.plan(zone, server, [(0, "stopping", "rebooting"), (t.reboot_stop, "starting", "booting kernel"), (t.reboot_stop + t.reboot_start, "running", "booted")])
        elif action == "terminate":
            self.plan(zone, server, [(0, "stopping", "terminating"), (t.terminate, GONE, "")])
        elif action == "backup":
            name = body.get("name") or f"{server['name']}-backup"
            if not isinstance(name, str) or not NAME_RE.match(name):
                raise invalid_arguments(("name", "format", "only alphanumeric characters, dots, spaces and dashes"))
            image = self._new_image(zone, name, server["arch"], sum(v["size"] for v in server["volumes"].values()) or 10 * catalog.GB, public=False, state="creating")
            image["from_server"] = server["id"]
            self.image_plans[image["id"]] = self.clock.now() + t.backup
        return self._task(zone, server, action)

    def _task(self, zone: str, server: dict[str, Any], action: str) -> dict[str, Any]:
        return {
            "id": self.ids.uuid(),
            "description": f"server_{action}" if action != "poweron" else "server_batch_poweron",
            "status": "pending",
            "href_from": f"/servers/{server['id']}/action",
            "href_result": f"/servers/{server['id']}",
            "started_at": self.clock.iso(),
            "terminated_at": None,
            "progress": 0,
            "zone": zone,
        }


def _refusal(action: str, state: str) -> str:
    if action == "poweron":
        return "server should be stopped"
    if action in ("poweroff", "reboot", "terminate"):
        return "server should be running"
    return f"action {action} is not allowed while the server is {state}"


# ---- request validation -------------------------------------------------------------------------
def _check_name(name: Any, arg: str = "name") -> list[tuple[str, str, str]]:
    if not isinstance(name, str) or not name.strip():
        return [(arg, "required", "a non-empty name is required")]
    if len(name) > 255:
        return [(arg, "constraint", "at most 255 characters")]
    if not NAME_RE.match(name):
        return [(arg, "format", "only alphanumeric characters, dots, spaces and dashes are allowed")]
    return []


def _check_tags(tags: Any) -> list[tuple[str, str, str]]:
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        return [("tags", "format", "tags must be a list of strings")]
    return []


def validate_volumes(store: InstanceStore, zone: str, volumes: Any, ctype: dict[str, Any] | None) -> list[tuple[str, str, str]]:
    """Spec 1 §2.3: keys "0","1",… in order; each value one of the six use cases; sizes in range."""
    if not isinstance(volumes, dict):
        return [("volumes", "format", 'volumes must be an object keyed by "0", "1", …')]
    if list(volumes.keys()) != [str(i) for i in range(len(volumes))]:
        return [("volumes", "format", 'volume keys must be "0", "1", … in order')]
    errs: list[tuple[str, str, str]] = []
    local_total = 0
    for key, vol in volumes.items():
        arg = f"volumes.{key}"
        if not isinstance(vol, dict):
            errs.append((arg, "format", "each volume must be an object"))
            continue
        unknown = sorted(set(vol) - {"name", "size", "volume_type", "boot", "base_snapshot", "id"})
        if unknown:
            errs.append((f"{arg}.{unknown[0]}", "unknown", "unknown volume parameter"))
            continue
        if "boot" in vol and not isinstance(vol["boot"], bool):
            errs.append((f"{arg}.boot", "format", "boot must be true or false"))
        vtype = vol.get("volume_type")
        if vtype is not None and vtype not in ("l_ssd", "b_ssd", "sbs_volume"):
            errs.append((f"{arg}.volume_type", "constraint", "volume_type must be l_ssd, b_ssd or sbs_volume"))
            continue
        if "id" in vol:  # attach an existing volume: id (+ volume_type for sbs_volume) and boot only
            extra = sorted(set(vol) - {"id", "boot", "volume_type"})
            if extra:
                errs.append((f"{arg}.{extra[0]}", "constraint", "an existing volume takes only id, volume_type and boot"))
            elif not is_uuid(vol["id"]):
                errs.append((f"{arg}.id", "format", "id must be a volume UUID"))
            continue
        if vtype is None:
            errs.append((f"{arg}.volume_type", "required", "volume_type is required"))
            continue
        size = vol.get("size")
        if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size <= 0):
            errs.append((f"{arg}.size", "format", "size must be a positive integer number of bytes"))
            continue
        if "base_snapshot" in vol:  # from a snapshot: name required; size only for sbs_volume
            if not is_uuid(vol["base_snapshot"]):
                errs.append((f"{arg}.base_snapshot", "format", "base_snapshot must be a snapshot UUID"))
            if not vol.get("name"):
                errs.append((f"{arg}.name", "required", "name is required with base_snapshot"))
            if size is not None and vtype != "sbs_volume":
                errs.append((f"{arg}.size", "constraint", "size is taken from the snapshot for l_ssd and b_ssd"))
        elif "name" in vol and size is None:  # an empty volume needs its size
            errs.append((f"{arg}.size", "required", "size is required for an empty volume"))
        if vol.get("name"):
            errs += [(f"{arg}.name", r, h) for _, r, h in _check_name(vol["name"])]
        if size is None:
            continue
        if vtype == "l_ssd":
            if ctype is not None and not catalog.supports_local(ctype):
                errs.append((f"{arg}.volume_type", "constraint", "this commercial type has no local storage (l_ssd)"))
            elif ctype is not None:
                c = ctype["per_volume_constraint"]["l_ssd"]
                if not c["min_size"] <= size <= c["max_size"]:
                    errs.append((f"{arg}.size", "constraint", f"l_ssd size must be between {c['min_size']} and {c['max_size']} bytes"))
                else:
                    local_total += size
        elif not catalog.BLOCK_MIN <= size <= catalog.BLOCK_MAX:
            errs.append((f"{arg}.size", "constraint", f"{vtype} size must be between {catalog.BLOCK_MIN} and {catalog.BLOCK_MAX} bytes"))
    if ctype is not None and local_total > ctype["volumes_constraint"]["max_size"]:
        errs.append(("volumes", "constraint", f"total local storage must be at most {ctype['volumes_constraint']['max_size']} bytes"))
    return errs


def default_volumes(store: InstanceStore, zone: str, image_ref: str, image: dict[str, Any], ctype: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Spec 1 §2.3 defaults when `volumes` is omitted."""
    os_size = image["root_volume"]["size"]
    if image_ref in store.labels[zone]:
        return {"0": {"size": os_size, "volume_type": "sbs_volume", "boot": True}}
    if catalog.supports_local(ctype):
        return {"0": {"size": ctype["volumes_constraint"]["max_size"], "volume_type": "l_ssd", "boot": True}}
    return {"0": {"size": os_size, "volume_type": "b_ssd", "boot": True}}


# ---- routes -------------------------------------------------------------------------------------
def routes(store: InstanceStore) -> list[Route]:
    prefix = "/instance/v1/zones/{zone}"

    def zone_of(request: Request) -> str:
        zone = request.path_params["zone"]
        if zone not in ALL_ZONES:
            raise invalid_arguments(("zone", "constraint", f"unknown zone {zone}; use one of {', '.join(ALL_ZONES)}"))
        return zone

    async def list_servers(request: Request) -> Response:
        zone = zone_of(request)
        items = store.list_servers(zone, {k: v for k, v in request.query_params.items() if k not in ("page", "per_page")})
        return page_per_page(request, "servers", items, store.encoded)

    async def create_server(request: Request) -> Response:
        zone = zone_of(request)
        body = await json_body(request)
        errs: list[tuple[str, str, str]] = []
        for key in sorted(set(body) - SERVER_FIELDS):
            errs.append((key, "unknown", "unknown field"))
        if "name" in body:
            errs += _check_name(body["name"])
        project = body.get("project")
        if project is None and body.get("organization") is None:
            errs.append(("project", "required", "required key not provided"))
        elif project is not None and not is_uuid(project):
            errs.append(("project", "format", "project must be a UUID"))
        ctype_name = body.get("commercial_type")
        ctype = None
        if ctype_name is None:
            errs.append(("commercial_type", "required", "required key not provided"))
        elif ctype_name not in store.types:
            errs.append(("commercial_type", "constraint", f"unknown commercial type {ctype_name!r}; see /products/servers"))
        else:
            ctype = store.types[ctype_name]
        image = None
        image_ref = body.get("image")
        if image_ref is None:
            vols = body.get("volumes")
            if not (isinstance(vols, dict) and isinstance(vols.get("0"), dict) and ({"base_snapshot", "id"} & set(vols["0"]))):
                errs.append(("image", "required", "an image label or ID is required unless volume 0 comes from a snapshot"))
        elif not isinstance(image_ref, str) or (image := store.resolve_image(zone, image_ref)) is None:
            errs.append(("image", "constraint", "unknown image label or ID in this zone; see /images"))
        for flag in ("enable_ipv6", "dynamic_ip_required", "routed_ip_enabled", "protected"):
            if flag in body and not isinstance(body[flag], bool):
                errs.append((flag, "format", f"{flag} must be true or false"))
        if "tags" in body:
            errs += _check_tags(body["tags"])
        if "boot_type" in body and body["boot_type"] not in ("local", "rescue"):
            errs.append(("boot_type", "constraint", "boot_type must be local or rescue"))
        if "volumes" in body:
            errs += validate_volumes(store, zone, body["volumes"], ctype)
        if errs:
            raise invalid_arguments(*errs)
        if project is not None and project != store.project:
            raise permissions_denied("write", "server")
        assert ctype is not None and ctype_name is not None
        if image is not None and image["arch"] != ctype["arch"]:
            raise invalid_request(f"image arch {image['arch']} is not compatible with commercial type {ctype_name} ({ctype['arch']})")
        volumes = body.get("volumes") or (default_volumes(store, zone, image_ref, image, ctype) if image else {})
        for key, vol in volumes.items():
            if "size" not in vol:
                vol = {**vol, "size": image["root_volume"]["size"] if image else 10 * catalog.GB}
                volumes[key] = vol
            volumes[key] = {**vol, "volume_type": vol.get("volume_type", "b_ssd")}
        name = body.get("name") or f"srv-{store.ids.uuid()[:8]}"
        server = store.add_server(
            zone,
            name,
            ctype_name,
            image or {},
            tags=body.get("tags"),
            volumes=volumes,
            enable_ipv6=body.get("enable_ipv6", False),
            dynamic_ip_required=body.get("dynamic_ip_required", True),
        )
        if body.get("boot_type"):
            server["boot_type"] = body["boot_type"]
        return JSONResponse({"server": store.render(server)}, status_code=201)

    async def get_server(request: Request) -> Response:
        zone = zone_of(request)
        return JSONResponse({"server": store.render(store.get_server(zone, request.path_params["sid"]))})

    async def patch_server(request: Request) -> Response:
        zone = zone_of(request)
        server = store.get_server(zone, request.path_params["sid"])
        body = await json_body(request)
        errs = [(k, "unknown", "this field cannot be updated") for k in sorted(set(body) - PATCH_FIELDS)]
        if "name" in body:
            errs += _check_name(body["name"])
        if "tags" in body:
            errs += _check_tags(body["tags"])
        for flag in ("enable_ipv6", "protected", "dynamic_ip_required"):
            if flag in body and not isinstance(body[flag], bool):
                errs.append((flag, "format", f"{flag} must be true or false"))
        if "commercial_type" in body and body["commercial_type"] not in store.types:
            errs.append(("commercial_type", "constraint", "unknown commercial type"))
        if "boot_type" in body and body["boot_type"] not in ("local", "rescue"):
            errs.append(("boot_type", "constraint", "boot_type must be local or rescue"))
        if errs:
            raise invalid_arguments(*errs)
        if "commercial_type" in body and body["commercial_type"] != server["commercial_type"] and server["state"] != "stopped":
            raise invalid_request("instance should be powered off to change its commercial type")
        server.update(body)
        if "name" in body:
            server["hostname"] = re.sub(r"[^a-z0-9-]+", "-", body["name"].lower()).strip("-")
        server["modification_date"] = store.clock.iso()
        store._touch(zone, server["id"])
        return JSONResponse({"server": store.render(server)})

    async def delete_server(request: Request) -> Response:
        zone = zone_of(request)
        server = store.get_server(zone, request.path_params["sid"])
        if server["state"] != "stopped":
            raise invalid_request("instance should be powered off")
        if server.get("protected"):
            raise invalid_request("server is protected: unset protection before deleting it")
        del store.servers[zone][server["id"]]
        store.plans.pop(server["id"], None)
        store._json.pop(server["id"], None)
        store._touch(zone)
        return Response(status_code=204)

    async def get_actions(request: Request) -> Response:
        zone = zone_of(request)
        server = store.get_server(zone, request.path_params["sid"])
        return JSONResponse({"actions": ALLOWED_ACTIONS.get(server["state"], [])})

    async def post_action(request: Request) -> Response:
        zone = zone_of(request)
        server = store.get_server(zone, request.path_params["sid"])
        body = await json_body(request)
        action = body.get("action")
        if action is None:
            raise invalid_arguments(("action", "required", "required key not provided"))
        if action not in ACTIONS:
            raise invalid_arguments(("action", "constraint", f"action must be one of {', '.join(ACTIONS)}"))
        unknown = set(body) - {"action", "name", "volumes"}
        if unknown:
            raise invalid_arguments(*[(k, "unknown", "unknown field") for k in sorted(unknown)])
        task = store.run_action(zone, server, action, body)
        return JSONResponse({"task": task}, status_code=202)

    async def products_servers(request: Request) -> Response:
        zone_of(request)
        return JSONResponse({"servers": store.types})

    async def products_availability(request: Request) -> Response:
        zone = zone_of(request)
        scarce = {"GP1-S": "scarce", "GPU-3070-S": "shortage" if zone != "fr-par-2" else "scarce"}
        return JSONResponse({"servers": {name: {"availability": scarce.get(name, "available")} for name in store.types}})

    async def list_images(request: Request) -> Response:
        zone = zone_of(request)
        store._settle_images(zone)
        items = sorted(store.images[zone].values(), key=lambda i: (i["name"], i["id"]))
        if arch := request.query_params.get("arch"):
            items = [i for i in items if i["arch"] == arch]
        if name := request.query_params.get("name"):
            items = [i for i in items if name.lower() in i["name"].lower()]
        if (public := request.query_params.get("public")) in ("true", "false"):
            items = [i for i in items if i["public"] == (public == "true")]
        return page_per_page(request, "images", items, lambda i: json.dumps(i).encode())

    async def get_image(request: Request) -> Response:
        zone = zone_of(request)
        store._settle_images(zone)
        image = store.images[zone].get(request.path_params["iid"])
        if image is None:
            raise not_found("instance_image", request.path_params["iid"])
        return JSONResponse({"image": image})

    return [
        Route(prefix + "/servers", list_servers, methods=["GET"]),
        Route(prefix + "/servers", create_server, methods=["POST"]),
        Route(prefix + "/servers/{sid}", get_server, methods=["GET"]),
        Route(prefix + "/servers/{sid}", patch_server, methods=["PATCH"]),
        Route(prefix + "/servers/{sid}", delete_server, methods=["DELETE"]),
        Route(prefix + "/servers/{sid}/action", get_actions, methods=["GET"]),
        Route(prefix + "/servers/{sid}/action", post_action, methods=["POST"]),
        Route(prefix + "/products/servers", products_servers, methods=["GET"]),
        Route(prefix + "/products/servers/availability", products_availability, methods=["GET"]),
        Route(prefix + "/images", list_images, methods=["GET"]),
        Route(prefix + "/images/{iid}", get_image, methods=["GET"]),
    ]

