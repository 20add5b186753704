"""Forms and flows for what lives in a database instance and around it (pydantic; loaded on first
use): databases, users, privileges, ACL rules, settings, read replicas, backups, snapshots, logs.
Every rule spec 2 states is checked here before sending, with the field named."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationInfo, field_validator

from .. import outcome
from ..base import Call, Choices, Column, Context, CreateSpec, EditSpec, ParentRef, Row
from ..fields import check_password, ctx, meta, network, private_cidr
from ..flows import Refused, confirm_loss
from .instance_forms import PrivateEndpointForm, USER_NAME, catalogue, check_ha, check_node, private_spec

DB_NAME = r"^[A-Za-z_][A-Za-z0-9_-]{0,62}$"
PERMISSIONS = ("none", "readonly", "readwrite", "all")


def _iso_in(days: int | None) -> str | None:
    return (datetime.now(timezone.utc) + timedelta(days=days)).replace(microsecond=0).isoformat().replace("+00:00", "Z") if days else None


def _parent_id(svc: Any) -> str:
    if svc.parent is None:
        raise Refused("open this from a database instance")
    return str(svc.parent.id)


# ---- databases and users --------------------------------------------------------------------------
class DatabaseForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=63, pattern=DB_NAME, json_schema_extra=meta("Database", placeholder="orders"))]


DATABASE_CREATE = CreateSpec(DatabaseForm, lambda form, c: {"name": form.name})  # type: ignore[attr-defined]


class UserForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=63, pattern=USER_NAME, json_schema_extra=meta("User", placeholder="app"))]
    password: Annotated[SecretStr, Field(json_schema_extra=meta("Password", widget="password"))]
    is_admin: Annotated[bool, Field(json_schema_extra=meta("Admin (CREATEROLE, CREATEDB)"))] = False

    _pw = field_validator("password")(lambda v: check_password(v))


USER_CREATE = CreateSpec(UserForm, lambda form, c: {"name": form.name, "password": form.password.get_secret_value(), "is_admin": form.is_admin})  # type: ignore[attr-defined]


class UserEditForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    is_admin: Annotated[bool, Field(json_schema_extra=meta("Admin (CREATEROLE, CREATEDB)"))] = False


USER_EDIT = EditSpec(UserEditForm, lambda row: {"is_admin": bool(row.get("is_admin"))},
                     lambda form, row: {"is_admin": form.is_admin} if form.is_admin != bool(row.get("is_admin")) else {})  # type: ignore[attr-defined]


class PasswordForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: Annotated[SecretStr, Field(json_schema_extra=meta("New password", widget="password"))]

    _pw = field_validator("password")(lambda v: check_password(v))


async def password_flow(ui: Any, user: Row) -> None:
    svc = ui.service()

    async def send(form: PasswordForm) -> Any:
        return await outcome.send(svc, Call("PATCH", "{id}"), ui.scope, user, {"password": form.password.get_secret_value()})

    done = await ui.form(f"New password for {user.name}", PasswordForm, submit=send, submit_label="Change")
    if done:
        ui.notify(done[1] or f"{user.name}: password changed", "warning" if done[1] else "information")


# ---- privileges: users × databases ----------------------------------------------------------------
async def privileges_flow(ui: Any, instance: Row) -> None:
    svc = ui.service()
    users = await svc.read_all(ui.scope, "instances", instance.id, "users", key="users")
    dbs = await svc.read_all(ui.scope, "instances", instance.id, "databases", key="databases")
    privs = await svc.read_all(ui.scope, "instances", instance.id, "privileges", key="privileges")
    if not users or not dbs:
        raise Refused(f"{instance.name} needs at least one user and one database first")
    names = [str(u.get("name")) for u in users if u.get("name")]
    databases = [str(d.get("name")) for d in dbs if d.get("name")]
    values = {(u, d): "none" for u in names for d in databases}
    for p in privs:
        values[(str(p.get("user_name")), str(p.get("database_name")))] = str(p.get("permission") or "none")
    locked = {str(d.get("name")): f"unmanaged (owned by {d.get('owner', '?')} in SQL): permissions are set in SQL, not here"
              for d in dbs if not d.get("managed")}
    if ui.read_only:  # shown, not changed
        locked = {d: "read-only mode: privileges are shown, not changed" for d in databases}

    async def save(changes: dict[tuple[str, str], str]) -> None:
        for (user, db), permission in sorted(changes.items()):
            if db in locked:
                raise Refused(f"{db}: {locked[db]}")
            await svc.call("PUT", ui.scope, "instances", instance.id, "privileges",
                           body={"database_name": db, "user_name": user, "permission": permission})

    done = await ui.dialog("matrix", title=f"Privileges on {instance.name}: users × databases", rows=names, columns=databases,
                           values=values, choices=PERMISSIONS, locked=locked, corner="user \\ database", save=None if ui.read_only else save,
                           describe="none · readonly · readwrite · all (custom: set in SQL). Only managed databases take permissions here.")
    if done:
        ui.notify(f"{instance.name}: {len(done)} privilege{'s' if len(done) != 1 else ''} set")


# ---- ACL rules --------------------------------------------------------------------------------------
class AclForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ip: Annotated[str, Field(min_length=1, json_schema_extra=meta("IP or network", placeholder="203.0.113.7/32"))]
    description: Annotated[str, Field(max_length=255, json_schema_extra=meta("Description", placeholder="jump host"))] = ""

    _ip = field_validator("ip")(lambda v: network(v))

    @field_validator("ip")
    @classmethod
    def _taken(cls, v: str, info: ValidationInfo) -> str:
        if v in (ctx(info, "taken") or set()):
            raise ValueError(f"{v} is already allowed")
        return v


async def acl_options(service: Any, scope: str) -> tuple[Choices, dict[str, Any]]:
    return {}, {"taken": {r.id for r in await service.list_rows(scope)}}


ACL_CREATE = CreateSpec(AclForm, lambda form, c: {"rules": [{"ip": form.ip, "description": form.description}]}, acl_options)  # type: ignore[attr-defined]
ACL_COLUMNS = (Column("ip", "IP / network", lambda r: str(r.get("ip", "")), width=20), Column("description", "Description", lambda r: str(r.get("description", "")), width=30))


class AclRecord(AclForm):
    pass


async def _replace_acls(ui: Any, svc: Any, instance_id: str, name: str, current: list[dict[str, Any]]) -> None:
    async def save(records: list[dict[str, Any]]) -> Any:
        ips = [r["ip"] for r in records]
        if len(set(ips)) != len(ips):
            raise Refused("an address is listed twice")
        return await svc.call("PUT", ui.scope, "instances", instance_id, "acls", body={"rules": [{"ip": r["ip"], "description": r.get("description", "")} for r in records]})

    done = await ui.edit_records(f"ACL rules of {name}", AclRecord, current, ACL_COLUMNS, save=save,
                                 describe="Who may connect to the load-balanced and direct endpoints. The whole set is sent at once; an empty set lets nobody in.")
    if done is not None:
        ui.notify(f"{name}: {len(done)} ACL rule(s)")
        ui.reload()


async def acl_replace_flow(ui: Any, row: Row) -> None:
    svc = ui.service()
    current = [{"ip": r.id, "description": r.text("description")} for r in await svc.list_rows(ui.scope)]
    await _replace_acls(ui, svc, _parent_id(svc), svc.parent.name, current)


async def acl_set_flow(ui: Any, instance: Row) -> None:
    svc = ui.service()
    rules = await svc.read_all(ui.scope, "instances", instance.id, "acls", key="rules")
    await _replace_acls(ui, svc, instance.id, instance.name, [{"ip": str(r.get("ip")), "description": str(r.get("description") or "")} for r in rules])


# ---- settings ----------------------------------------------------------------------------------------
def setting_error(spec: dict[str, Any] | None, value: str) -> str | None:
    """Why `value` does not suit an engine setting (its type, bounds, pattern), or None."""
    if spec is None:
        return None
    kind = spec.get("property_type")
    if kind == "INT":
        try:
            n = int(value)
        except ValueError:
            return "a whole number"
        lo, hi = spec.get("int_min"), spec.get("int_max")
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            return f"from {lo} to {hi}" + (f" {spec['unit']}" if spec.get("unit") else "")
    elif kind == "FLOAT":
        try:
            f = float(value)
        except ValueError:
            return "a number"
        lo, hi = spec.get("float_min"), spec.get("float_max")
        if (lo is not None and f < lo) or (hi is not None and f > hi):
            return f"from {lo} to {hi}"
    elif kind == "BOOLEAN" and value not in ("true", "false"):
        return "true or false"
    elif kind == "STRING" and spec.get("string_constraint"):
        import re

        try:
            if not re.match(str(spec["string_constraint"]), value):
                return f"must match {spec['string_constraint']}"
        except re.error:
            return None
    return None


def setting_label(spec: dict[str, Any], init: bool = False) -> str:
    kind = spec.get("property_type", "?")
    bounds = ""
    if kind == "INT" and spec.get("int_min") is not None:
        bounds = f" {spec['int_min']}–{spec['int_max']}{(' ' + spec['unit']) if spec.get('unit') else ''}"
    elif kind == "FLOAT" and spec.get("float_min") is not None:
        bounds = f" {spec['float_min']}–{spec['float_max']}"
    restart = "" if spec.get("hot_configurable", True) else " · restart"
    return f"{spec.get('name')} · {kind}{bounds} · default {spec.get('default_value')}{restart}" + (" · INIT ONLY (set at creation)" if init else "")


async def engine_settings(svc: Any, scope: str, instance_id: str) -> tuple[dict[str, dict[str, Any]], set[str]]:
    """The available settings of the instance's engine version, and the names of its init-only ones."""
    data = await svc.call("GET", scope, "instances", instance_id)
    engines = await svc.read_all(scope, "database-engines", key="engines")
    version = next((v for e in engines for v in e.get("versions") or [] if v.get("name") == data.get("engine")), {})
    hot = {s["name"]: s for s in version.get("available_settings") or [] if isinstance(s, dict) and s.get("name")}
    cold = {s["name"]: s for s in version.get("available_init_settings") or [] if isinstance(s, dict) and s.get("name")}
    return {**cold, **hot}, set(cold) - set(hot)


class SettingForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, json_schema_extra=meta("Setting", widget="select"))]
    value: Annotated[str, Field(min_length=1, max_length=1024, json_schema_extra=meta("Value"))]

    @field_validator("name")
    @classmethod
    def _name(cls, v: str, info: ValidationInfo) -> str:
        if v in (ctx(info, "init_only") or set()):
            raise ValueError(f"{v} is set only when the engine is initialised (at creation)")
        return v

    @field_validator("value")
    @classmethod
    def _value(cls, v: str, info: ValidationInfo) -> str:
        bad = setting_error((ctx(info, "specs") or {}).get(info.data.get("name") or ctx(info, "fixed_name")), v.strip())
        if bad:
            raise ValueError(bad)
        return v.strip()


async def setting_options(service: Any, scope: str) -> tuple[Choices, dict[str, Any]]:
    specs, init_only = await engine_settings(service, scope, _parent_id(service))
    choices = [(setting_label(s, s["name"] in init_only), name) for name, s in sorted(specs.items())]
    return {"name": choices}, {"specs": specs, "init_only": init_only}


SETTING_CREATE = CreateSpec(SettingForm, lambda form, c: {"settings": [{"name": form.name, "value": form.value}]}, setting_options)  # type: ignore[attr-defined]


class ValueForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    value: Annotated[str, Field(min_length=1, max_length=1024, json_schema_extra=meta("Value"))]

    @field_validator("value")
    @classmethod
    def _value(cls, v: str, info: ValidationInfo) -> str:
        bad = setting_error(ctx(info, "spec"), v.strip())
        if bad:
            raise ValueError(bad)
        return v.strip()


async def setting_change_flow(ui: Any, setting: Row) -> None:
    svc = ui.service()
    specs, _ = await engine_settings(svc, ui.scope, _parent_id(svc))
    spec = specs.get(setting.id)

    async def send(form: ValueForm) -> Any:
        return await svc.call("POST", ui.scope, "instances", _parent_id(svc), "settings", body={"settings": [{"name": setting.id, "value": form.value}]})

    title = setting_label(spec) if spec else setting.id
    if await ui.form(title, ValueForm, initial={"value": setting.text("value")}, context={"spec": spec}, submit=send, submit_label="Set"):
        ui.notify(f"{setting.id} set")
        ui.reload()


SETTING_COLUMNS = (Column("name", "Setting", lambda r: str(r.get("name", "")), width=26), Column("value", "Value", lambda r: str(r.get("value", "")), width=30))


async def _replace_settings(ui: Any, svc: Any, instance_id: str, name: str, current: list[dict[str, Any]]) -> None:
    specs, init_only = await engine_settings(svc, ui.scope, instance_id)
    choices = [(setting_label(s, n in init_only), n) for n, s in sorted(specs.items())]

    async def save(records: list[dict[str, Any]]) -> Any:
        names = [r["name"] for r in records]
        if len(set(names)) != len(names):
            raise Refused("a setting is listed twice")
        return await svc.call("PUT", ui.scope, "instances", instance_id, "settings", body={"settings": [{"name": r["name"], "value": r["value"]} for r in records]})

    done = await ui.edit_records(f"Settings of {name}", SettingForm, current, SETTING_COLUMNS, choices={"name": choices},
                                 context={"specs": specs, "init_only": init_only}, save=save,
                                 describe="The whole set is sent at once: a setting left out goes back to its default.")
    if done is not None:
        ui.notify(f"{name}: {len(done)} setting(s)")
        ui.reload()


async def settings_replace_flow(ui: Any, row: Row) -> None:
    svc = ui.service()
    current = [{"name": r.id, "value": r.text("value")} for r in await svc.list_rows(ui.scope)]
    await _replace_settings(ui, svc, _parent_id(svc), svc.parent.name, current)


async def settings_set_flow(ui: Any, instance: Row) -> None:
    current = [{"name": str(s.get("name")), "value": str(s.get("value"))} for s in instance.items("settings") if isinstance(s, dict)]
    await _replace_settings(ui, ui.service(), instance.id, instance.name, current)


# ---- read replicas ----------------------------------------------------------------------------------------
class ReplicaForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    direct_access: Annotated[bool, Field(json_schema_extra=meta("Direct-access endpoint (public)"))] = True
    private_network_id: Annotated[str, Field(json_schema_extra=meta("Network ID", placeholder="empty: none; or the private network's UUID"))] = ""
    service_ip: Annotated[str, Field(json_schema_extra=meta("Service IP", placeholder="CIDR, such as 172.16.4.10/22; empty: assigned by IPAM"))] = ""
    same_zone: Annotated[bool, Field(json_schema_extra=meta("In the instance's zone"))] = True

    @field_validator("private_network_id")
    @classmethod
    def _pn(cls, v: str) -> str:
        from ..fields import uuid_of

        return uuid_of(v, "private network ID") if v.strip() else ""

    @field_validator("service_ip")
    @classmethod
    def _ip(cls, v: str, info: ValidationInfo) -> str:
        if v.strip() and not info.data.get("private_network_id"):
            raise ValueError("a service IP goes with a private network: give its ID")
        return private_cidr(v) if v.strip() else ""

    @field_validator("same_zone")
    @classmethod
    def _some(cls, v: bool, info: ValidationInfo) -> bool:
        if not info.data.get("direct_access") and not info.data.get("private_network_id"):
            raise ValueError("give the replica an endpoint: direct access, a private network, or both")
        return v


def replica_specs(form: ReplicaForm) -> list[dict[str, Any]]:
    specs: list[dict[str, Any]] = []
    if form.direct_access:
        specs.append({"direct_access": {}})
    if form.private_network_id:
        specs.append({"private_network": private_spec(PrivateEndpointForm(private_network_id=form.private_network_id, service_ip=form.service_ip))})
    return specs


def replica_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, ReplicaForm) and c.parent is not None
    return {"instance_id": c.parent.id, "endpoint_spec": replica_specs(form), "same_zone": form.same_zone}


REPLICA_CREATE = CreateSpec(ReplicaForm, replica_payload)


async def create_replica_flow(ui: Any, instance: Row) -> None:
    from .children import REPLICAS

    parent = ParentRef(instance.id, instance.name, ui.scope)
    svc = ui.service(REPLICAS, parent)
    known = [str(r.get("id")) for r in instance.items("read_replicas") if isinstance(r, dict)]

    async def send(form: ReplicaForm) -> Any:
        return await outcome.create(svc, ui.scope, replica_payload(form, Context(ui.project_id, ui.scope, parent=parent)), known)

    done = await ui.form(f"Read replica of {instance.name} (read-only, asynchronous)", ReplicaForm, submit=send, submit_label="Create")
    if done:
        row, looked = done
        ui.notify(looked or f"{instance.name}: read replica {row.id} {row.state} — see Read replicas", "warning" if looked else "information")
        ui.follow(instance)


class ReplicaEndpointForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Annotated[str, Field(json_schema_extra=meta("Endpoint", widget="select"))]
    private_network_id: Annotated[str, Field(json_schema_extra=meta("Network ID", placeholder="the private network's UUID (private-network endpoint)"))] = ""
    service_ip: Annotated[str, Field(json_schema_extra=meta("Service IP", placeholder="CIDR, such as 172.16.4.10/22; empty: assigned by IPAM"))] = ""

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str, info: ValidationInfo) -> str:
        if v in (ctx(info, "has") or set()):
            raise ValueError(f"a read replica has at most one {v.replace('_', '-')} endpoint: it has one")
        return v

    @field_validator("private_network_id")
    @classmethod
    def _pn(cls, v: str, info: ValidationInfo) -> str:
        from ..fields import uuid_of

        if info.data.get("kind") == "private_network":
            return uuid_of(v, "private network ID")
        if v.strip():
            raise ValueError("only a private-network endpoint takes one")
        return ""

    @field_validator("service_ip")
    @classmethod
    def _ip(cls, v: str, info: ValidationInfo) -> str:
        return private_cidr(v) if v.strip() and info.data.get("kind") == "private_network" else ""


async def replica_endpoint_flow(ui: Any, replica: Row) -> None:
    svc = ui.service()
    has = {k for e in replica.items("endpoints") if isinstance(e, dict) for k in ("direct_access", "private_network") if k in e}
    if has >= {"direct_access", "private_network"}:
        raise Refused("a read replica has at most one direct-access and one private-network endpoint: it has both")
    kinds = [(label, k) for label, k in (("direct access (public)", "direct_access"), ("private network", "private_network")) if k not in has]

    async def send(form: ReplicaEndpointForm) -> Any:
        spec = {"direct_access": {}} if form.kind == "direct_access" else {
            "private_network": private_spec(PrivateEndpointForm(private_network_id=form.private_network_id, service_ip=form.service_ip))}
        return await svc.run(Call("POST", "{id}/endpoints"), ui.scope, replica, {"endpoint_spec": [spec]})

    done = await ui.form(f"Endpoint for read replica {replica.id[:8]}", ReplicaEndpointForm, choices={"kind": kinds}, context={"has": has}, submit=send, submit_label="Add")
    if done:
        ui.upsert(svc.row_of(done, ui.scope))


async def promote_flow(ui: Any, replica: Row) -> None:
    svc = ui.service()
    if not await ui.confirm("Promote this read replica?", "It stops replicating and becomes a standalone instance that accepts writes, "
                            "with its endpoints; the replica is gone. This cannot be undone.", "Promote"):
        return
    new = await svc.run(Call("POST", "{id}/promote", {}), ui.scope, replica)
    ui.notify(f"Promoted: new instance {new.get('name', '?')} ({new.get('status', '?')}) in Database instances")
    ui.follow(replica)


# ---- backups --------------------------------------------------------------------------------------------------
class BackupForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    instance_id: Annotated[str, Field(min_length=1, json_schema_extra=meta("Instance", widget="select"))]
    database_name: Annotated[str, Field(min_length=1, max_length=63, json_schema_extra=meta("Database", placeholder="orders"))]
    name: Annotated[str, Field(max_length=255, json_schema_extra=meta("Backup name", placeholder="empty: database and date"))] = ""
    expires_in_days: Annotated[int | None, Field(ge=1, le=3650, json_schema_extra=meta("Expires in (days)", placeholder="empty: never"))] = None

    @field_validator("database_name")
    @classmethod
    def _db(cls, v: str, info: ValidationInfo) -> str:
        known = (ctx(info, "databases") or {}).get(info.data.get("instance_id"))
        if known is not None and v not in known:
            raise ValueError(f"no database {v} there: {', '.join(sorted(known)) or 'none'}")
        return v


class BackupHereForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    database_name: Annotated[str, Field(min_length=1, json_schema_extra=meta("Database", widget="select"))]
    name: Annotated[str, Field(max_length=255, json_schema_extra=meta("Backup name", placeholder="empty: database and date"))] = ""
    expires_in_days: Annotated[int | None, Field(ge=1, le=3650, json_schema_extra=meta("Expires in (days)", placeholder="empty: never"))] = None


def _backup_body(instance_id: str, form: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"instance_id": instance_id, "database_name": form.database_name}
    if form.name:
        body["name"] = form.name
    if form.expires_in_days:
        body["expires_at"] = _iso_in(form.expires_in_days)
    return body


async def backup_options(service: Any, scope: str) -> tuple[Choices, dict[str, Any]]:
    from .instances import INSTANCES

    rows = await service.names_of(INSTANCES, scope)
    dbs: dict[str, set[str]] = {}
    for iid in rows:
        try:
            dbs[iid] = {str(d.get("name")) for d in await service.read_all(scope, "instances", iid, "databases", key="databases")}
        except Exception:
            continue  # an instance not ready answers nothing useful: its databases are not checked here
    return {"instance_id": [(name, iid) for iid, name in sorted(rows.items(), key=lambda x: x[1])]}, {"databases": dbs}


async def backup_here_options(service: Any, scope: str) -> tuple[Choices, dict[str, Any]]:
    dbs = await service.read_all(scope, "instances", _parent_id(service), "databases", key="databases")
    return {"database_name": [(str(d.get("name")), str(d.get("name"))) for d in dbs if d.get("name")]}, {}


BACKUP_CREATE = CreateSpec(BackupForm, lambda form, c: _backup_body(form.instance_id, form), backup_options)  # type: ignore[attr-defined]
BACKUP_HERE = CreateSpec(BackupHereForm, lambda form, c: _backup_body(c.parent.id if c.parent else "", form), backup_here_options)


async def backup_flow(ui: Any, instance: Row) -> None:
    from .backups import INSTANCE_BACKUPS

    svc = ui.service(INSTANCE_BACKUPS, ParentRef(instance.id, instance.name, ui.scope))
    dbs = await ui.service().read_all(ui.scope, "instances", instance.id, "databases", key="databases")

    async def send(form: BackupHereForm) -> Any:
        known = [r.id for r in await svc.list_rows(ui.scope)]  # to tell a new backup from the others if the answer is lost
        return await outcome.create(svc, ui.scope, _backup_body(instance.id, form), known)

    done = await ui.form(f"Back up a database of {instance.name}", BackupHereForm, choices={"database_name": [(str(d.get("name")), str(d.get("name"))) for d in dbs]},
                         submit=send, submit_label="Back up")
    if done:
        row, looked = done
        ui.notify(looked or f"Backup {row.name} of {instance.name}: {row.state} — see Backups", "warning" if looked else "information")
        ui.follow(instance)


class BackupEditForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=255, json_schema_extra=meta("Name"))]
    expires_in_days: Annotated[int | None, Field(ge=1, le=3650, json_schema_extra=meta("Expires in (days)", placeholder="empty: unchanged"))] = None


def _edit_patch(form: Any, row: Row) -> dict[str, Any]:
    patch: dict[str, Any] = {}
    if form.name != row.name:
        patch["name"] = form.name
    if form.expires_in_days:
        patch["expires_at"] = _iso_in(form.expires_in_days)
    return patch


BACKUP_EDIT = EditSpec(BackupEditForm, lambda row: {"name": row.name}, _edit_patch)


async def backup_url_flow(ui: Any, backup: Row) -> None:
    await ui.dialog("result", title=f"Download URL of {backup.name} (y copies it; expires {backup.text('download_url_expires_at') or '?'})",
                    text=backup.text("download_url"))


class RestoreForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    database_name: Annotated[str, Field(min_length=1, max_length=63, pattern=DB_NAME, json_schema_extra=meta("As database"))]


def engine_family(engine: str) -> str:
    """'PostgreSQL-15' -> 'PostgreSQL': a backup restores only within its engine family."""
    return engine.rpartition("-")[0] or engine


def restore_targets(backup: Row, instances: list[Row]) -> list[tuple[str, str, str | None]]:
    """Every instance of the region as a restore target: (label, id, why not). Another engine family
    than the backup's instance, or an instance that is not ready, is greyed with why."""
    source = next((i for i in instances if i.id == backup.get("instance_id")), None)
    family = engine_family(source.text("engine")) if source is not None else ""
    out = []
    for i in sorted(instances, key=lambda i: i.name):
        engine = i.text("engine")
        why = (f"{engine}: a {family} backup restores only to {family}" if family and engine_family(engine) != family
               else None if i.state in ("ready", "disk_full") else f"{i.state}: not ready")
        out.append((f"{i.name}  {engine}" + ("  (its own instance)" if i is source else ""), i.id, why))
    return out


async def restore_flow(ui: Any, backup: Row) -> None:
    """Restore a backup into a database: the target instance is picked (none by default; another
    engine family greyed), the database named (by default one that does not exist there), and
    restoring over an existing database confirms with that database's name typed."""
    from .instances import INSTANCES

    svc = ui.service()
    instances = await ui.service(INSTANCES).list_rows(ui.scope)
    db = backup.text("database_name")
    target = await ui.pick(f"Restore {backup.name} (database {db}) to which instance?", restore_targets(backup, instances))
    if target is None:
        return
    tname = next((i.name for i in instances if i.id == target), target)

    async def existing() -> set[str]:
        return {str(d.get("name")) for d in await svc.read_all(ui.scope, "instances", target, "databases", key="databases")}

    async def send(form: RestoreForm) -> Any:
        if form.database_name in await existing():
            await confirm_loss(
                ui, f"Overwrite database {form.database_name} on {tname}?",
                f"Restoring {backup.name} ({backup.text('created_at')[:16]}) replaces everything in database {form.database_name} of "
                f"{tname} with the backup's data. What is in it now is lost for good.", "Overwrite", form.database_name)
        return await outcome.send(svc, Call("POST", "{id}/restore"), ui.scope, backup, {"instance_id": target, "database_name": form.database_name})

    taken = await existing()
    fresh = db if db not in taken else next(n for n in (f"{db}_restored"[:63], *(f"{db[:50]}_restored_{k}" for k in range(2, 99))) if n not in taken)
    done = await ui.form(
        f"Restore {backup.name} to {tname} — fails unless the backup's users exist there under the same names", RestoreForm,
        initial={"database_name": fresh}, submit=send, submit_label="Restore",
    )
    if done:
        answer, looked = done
        if answer:
            ui.upsert(svc.row_of(answer, ui.scope))
        ui.notify(looked or f"Restoring {backup.name} into {tname}…", "warning" if looked else "information")


# ---- snapshots ---------------------------------------------------------------------------------------------------
class SnapshotForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=255, json_schema_extra=meta("Snapshot name"))]
    expires_in_days: Annotated[int | None, Field(ge=1, le=3650, json_schema_extra=meta("Expires in (days)", placeholder="empty: never"))] = None


def _snapshot_body(form: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"name": form.name}
    if form.expires_in_days:
        body["expires_at"] = _iso_in(form.expires_in_days)
    return body


SNAPSHOT_CREATE = CreateSpec(SnapshotForm, lambda form, c: _snapshot_body(form))


async def snapshot_flow(ui: Any, instance: Row) -> None:
    from .backups import SNAPSHOTS

    svc = ui.service(SNAPSHOTS)

    async def send(form: SnapshotForm) -> Any:
        return await svc.call("POST", ui.scope, "instances", instance.id, "snapshots", body=_snapshot_body(form))

    done = await ui.form(f"Snapshot the block volume of {instance.name}", SnapshotForm, initial={"name": f"{instance.name}-snapshot"}, submit=send, submit_label="Snapshot")
    if done:
        ui.notify(f"Snapshot {done.get('name')} of {instance.name}: {done.get('status')} — see Snapshots")
        ui.follow(instance)


class FromSnapshotForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    instance_name: Annotated[str, Field(min_length=1, max_length=255, json_schema_extra=meta("New instance"))]
    node_type: Annotated[str, Field(min_length=1, json_schema_extra=meta("Node type", widget="select"))]
    is_ha_cluster: Annotated[bool, Field(json_schema_extra=meta("High availability"))] = False

    _node = field_validator("node_type")(lambda v, info: check_node(v, info))
    _ha = field_validator("is_ha_cluster")(lambda v, info: check_ha(v, info))


async def instance_from_snapshot_flow(ui: Any, snapshot: Row) -> None:
    svc = ui.service()
    choices, context = await catalogue(svc, ui.scope)

    async def send(form: FromSnapshotForm) -> Any:
        return await svc.run(Call("POST", "{id}/create-instance"), ui.scope, snapshot,
                             {"instance_name": form.instance_name, "node_type": form.node_type, "is_ha_cluster": form.is_ha_cluster})

    done = await ui.form(f"New instance from {snapshot.name}", FromSnapshotForm, initial={"instance_name": f"{snapshot.name}-restored", "node_type": snapshot.get("node_type")},
                         choices={"node_type": choices["node_type"]}, context=context, submit=send, submit_label="Create")
    if done:
        ui.notify(f"Instance {done.get('name')} is {done.get('status')} — see Database instances")


# ---- logs ------------------------------------------------------------------------------------------------------------
class LogsForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hours: Annotated[int, Field(ge=1, le=24 * 30, json_schema_extra=meta("Last (hours)", placeholder="1 to 720"))] = 1


def logs_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, LogsForm)
    end = datetime.now(timezone.utc).replace(microsecond=0)
    return {"start_date": (end - timedelta(hours=form.hours)).isoformat().replace("+00:00", "Z"), "end_date": end.isoformat().replace("+00:00", "Z")}


LOGS_PREPARE = CreateSpec(LogsForm, logs_payload)


async def log_url_flow(ui: Any, log: Row) -> None:
    await ui.dialog("result", title=f"Logs of {log.text('node_name')} (y copies the URL; expires {log.text('expires_at')[:16]})", text=log.text("download_url"))


async def log_files_flow(ui: Any, instance: Row) -> None:
    svc = ui.service()
    details = (await svc.run(Call("GET", "{id}/logs-details", mutating=False), ui.scope, instance)).get("details") or []
    from ..format import human_bytes

    if ui.read_only:  # the sizes are a read: shown; purging is not offered
        lines = [f"{d.get('log_name')}: {human_bytes(d.get('size'))}" for d in details if isinstance(d, dict)]
        await ui.dialog("result", title=f"Log files of {instance.name}", text="\n".join(lines) or "no log files")
        return
    options: list[tuple[Any, ...]] = [(f"Purge {d.get('log_name')} ({human_bytes(d.get('size'))})", d.get("log_name")) for d in details if isinstance(d, dict)]
    options.append(("Purge every log file", ""))
    picked = await ui.pick(f"Log files of {instance.name}", options)
    if picked is None:
        return
    what = picked or "every log file"
    if not await ui.confirm(f"Purge {what}?", "The log data is deleted from the instance; prepared downloads stay until they expire.", "Purge"):
        return
    await svc.run(Call("POST", "{id}/purge-logs"), ui.scope, instance, {"log_name": picked} if picked else {})
    ui.notify(f"{instance.name}: purged {what}")
