"""Forms and flows for what lives in a database instance and around it (pydantic; loaded on first
use): databases, users, privileges, ACL rules, settings, logs (read replicas: `replica_forms`, backups and
snapshots: `copy_forms`).
Every rule spec 2 states is checked here before sending, with the field named."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Callable

from pydantic import BaseModel, ValidationInfo, field_validator
from pydantic.fields import FieldInfo

from ...api.errors import ApiError, OutcomeUnknown
from ..kit.base import Call, Choices, Context, CreateSpec, EditSpec, Row
from ..kit.fields import ctx, not_among, number_error
from ..kit.flows import Refused, StepCancelled, asks_at_send
from ..kit.looks import Found
from ..kit.times import from_now
from ..kit.vocabulary import Form, Network, Password, label
from ..kit.writes import Write
from .instance_forms import user_name

if TYPE_CHECKING:
    from ...api.journal import Act
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

DB_NAME = r"^[A-Za-z_][A-Za-z0-9_-]{0,62}$"
DB_NAME_RULE = "1 to 63 letters, digits, _ and -, starting with a letter or _"


def database_name(text: str, example: str = "") -> FieldInfo:
    """A database's name field (the engines' rule), labelled: `Annotated[str, database_name("Database")]`."""
    hint = {"placeholder": f"e.g. {example}"} if example else {}
    return label(text, min_length=1, max_length=63, pattern=DB_NAME, rule=DB_NAME_RULE, **hint)


PERMISSIONS = ("none", "readonly", "readwrite", "all")


def _parent_id(svc: ResourceService) -> str:
    if svc.parent is None:
        raise Refused("open this from a database instance")
    return str(svc.parent.id)


# ---- databases and users --------------------------------------------------------------------------
class DatabaseForm(Form):
    name: Annotated[str, database_name("Database", "orders")]


DATABASE_CREATE = CreateSpec(DatabaseForm, lambda form, c: {"name": form.name})


class UserForm(Form):
    name: Annotated[str, user_name("User", "app")]
    password: Password
    is_admin: Annotated[bool, label("Admin (CREATEROLE, CREATEDB)")] = False


USER_CREATE = CreateSpec(
    UserForm,
    lambda form, c: {"name": form.name, "password": form.password.get_secret_value(), "is_admin": form.is_admin},
)


class UserEditForm(Form):
    is_admin: Annotated[bool, label("Admin (CREATEROLE, CREATEDB)")] = False


USER_EDIT = EditSpec(
    UserEditForm,
    lambda row: {"is_admin": bool(row.get("is_admin"))},
    lambda form, row: {"is_admin": form.is_admin} if form.is_admin != bool(row.get("is_admin")) else {},
)


async def admin_message(service: ResourceService, scope: str, user: Row) -> str:
    instance = service.parent.name if service.parent is not None else "the instance"
    if user.get("is_admin"):
        return f"{user.name} stops being an administrator of {instance}."
    return f"{user.name} becomes an administrator of {instance}: it may create and drop databases and users."


class PasswordForm(Form):
    password: Annotated[Password, label("New password", widget="password")]


# ---- privileges: users × databases ----------------------------------------------------------------
@asks_at_send
async def privileges_flow(ui: FlowUI, instance: Row) -> None:
    """The grid of users × databases; its ctrl+s sends the cells changed through the write pipeline (on a
    production profile the name typed, saying each change), and after a lost answer reads them back."""
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
    locked = {
        str(d.get("name")): f"unmanaged (owned by {d.get('owner', '?')} in SQL): permissions are set in SQL, not here"
        for d in dbs
        if not d.get("managed")
    }
    if ui.read_only:  # shown, not changed
        locked = {d: "read-only mode: privileges are shown, not changed" for d in databases}

    async def save(changes: dict[tuple[str, str], str]) -> None:
        for (user, db), permission in sorted(changes.items()):
            if db in locked:
                raise Refused(f"{db}: {locked[db]}")
        said = "; ".join(f"{u} on {d}: {values[(u, d)]} → {p}" for (u, d), p in sorted(changes.items()))

        async def send(act: Act) -> None:
            bound = svc.acting(act)
            for (user, db), permission in sorted(changes.items()):
                body = {"database_name": db, "user_name": user, "permission": permission}
                await bound.call("PUT", ui.scope, "instances", instance.id, "privileges", body=body)

        async def look(err: OutcomeUnknown) -> Found:
            try:
                now = await svc.read_all(ui.scope, "instances", instance.id, "privileges", key="privileges")
            except ApiError as again:
                return Found(None, f"reading them again failed too ({again.summary}): check before sending again", None)
            held = {(str(p.get("user_name")), str(p.get("database_name"))): str(p.get("permission")) for p in now}
            if all(held.get(cell, "none") == permission for cell, permission in changes.items()):
                return Found(None, "they now hold what was sent: it was applied", True)
            part = "not applied" if len(changes) == 1 else "not applied, or only in part"
            return Found(None, f"they do not hold what was sent: {part}", False)

        done = await ui.write(
            Write(
                "Privileges",
                "Databases",
                instance.name,
                send,
                look=look,
                says=f"Privileges on {instance.name}: {said}",
                label="Save",
            )
        )
        if done.cancelled:
            raise StepCancelled("Not confirmed: nothing was sent. ctrl+s asks again; esc closes.")
        done.applied_or_raise()

    done = await ui.dialog(
        "matrix",
        title=f"Privileges on {instance.name}: users × databases",
        rows=names,
        columns=databases,
        values=values,
        choices=PERMISSIONS,
        locked=locked,
        corner="user \\ database",
        save=None if ui.read_only else save,
        describe="none · readonly · readwrite · all (custom: set in SQL). "
        "Only managed databases take permissions here.",
    )
    if done:
        ui.notify(f"{instance.name}: {len(done)} privilege{'s' if len(done) != 1 else ''} set")


# ---- ACL rules --------------------------------------------------------------------------------------
class AclForm(Form):
    ip: Network
    description: Annotated[str, label("Description", max_length=255, placeholder="e.g. jump host")] = ""

    @field_validator("ip")
    @classmethod
    def _taken(cls, v: str, info: ValidationInfo) -> str:
        return not_among(info, "taken", v, f"{v} is already allowed")


async def acl_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    return {}, {"taken": {r.id for r in await service.list_rows(scope)}}


def first_of(
    answer: dict[str, Any], key: str, match: Callable[[dict[str, Any]], bool] | None = None
) -> dict[str, Any] | None:
    """The object a create put in an answer that lists several (`{"rules": [...]}`)."""
    items = answer.get(key)
    if not isinstance(items, list):
        return None
    found = [i for i in items if isinstance(i, dict) and (match is None or match(i))]
    return found[0] if found else None


ACL_CREATE = CreateSpec(
    AclForm,
    lambda form, c: {"rules": [{"ip": form.ip, "description": form.description}]},
    acl_options,
    path="instances/{parent}/acls",
    created=lambda answer, payload: first_of(answer, "rules"),
    identity=lambda payload: {"ip": payload["rules"][0]["ip"]},
)


class AclRecord(AclForm):
    pass


# ---- settings ----------------------------------------------------------------------------------------
def setting_error(spec: dict[str, Any] | None, value: str) -> str | None:
    """Why `value` does not suit an engine setting (its type, bounds, pattern), or None."""
    if spec is None:
        return None
    kind = spec.get("property_type")
    if kind == "INT":
        return number_error(value, kind, spec.get("int_min"), spec.get("int_max"), spec.get("unit") or "")
    if kind == "FLOAT":
        return number_error(value, kind, spec.get("float_min"), spec.get("float_max"))
    if kind == "BOOLEAN" and value not in ("true", "false"):
        return "true or false"
    if kind == "STRING" and spec.get("string_constraint"):
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
    return f"{spec.get('name')} · {kind}{bounds} · default {spec.get('default_value')}{restart}" + (
        " · INIT ONLY (set at creation)" if init else ""
    )


async def engine_settings(
    svc: ResourceService, scope: str, instance_id: str
) -> tuple[dict[str, dict[str, Any]], set[str]]:
    """The available settings of the instance's engine version, and the names of its init-only ones."""
    data = await svc.call("GET", scope, "instances", instance_id)
    engines = await svc.read_all(scope, "database-engines", key="engines")
    version: dict[str, Any] = next(
        (v for e in engines for v in e.get("versions") or [] if v.get("name") == data.get("engine")), {}
    )
    hot = {s["name"]: s for s in version.get("available_settings") or [] if isinstance(s, dict) and s.get("name")}
    cold = {s["name"]: s for s in version.get("available_init_settings") or [] if isinstance(s, dict) and s.get("name")}
    return {**cold, **hot}, set(cold) - set(hot)


class SettingForm(Form):
    name: Annotated[str, label("Setting", min_length=1, widget="select")]
    value: Annotated[str, label("Value", min_length=1, max_length=1024)]

    @field_validator("name")
    @classmethod
    def _name(cls, v: str, info: ValidationInfo) -> str:
        return not_among(info, "init_only", v, f"{v} is set only when the engine is initialised (at creation)")

    @field_validator("value")
    @classmethod
    def _value(cls, v: str, info: ValidationInfo) -> str:
        bad = setting_error((ctx(info, "specs") or {}).get(info.data.get("name") or ctx(info, "fixed_name")), v.strip())
        if bad:
            raise ValueError(bad)
        return v.strip()


async def setting_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    return await setting_options_of(service, scope, _parent_id(service))


async def setting_options_of(service: ResourceService, scope: str, instance_id: str) -> tuple[Choices, dict[str, Any]]:
    specs, init_only = await engine_settings(service, scope, instance_id)
    choices = [(setting_label(s, s["name"] in init_only), name) for name, s in sorted(specs.items())]
    return {"name": choices}, {"specs": specs, "init_only": init_only}


SETTING_CREATE = CreateSpec(
    SettingForm,
    lambda form, c: {"settings": [{"name": form.name, "value": form.value}]},
    setting_options,
    path="instances/{parent}/settings",
    created=lambda answer, payload: first_of(
        answer, "settings", lambda s: s.get("name") == payload["settings"][0]["name"]
    ),
    identity=lambda payload: payload["settings"][0],
)


class ValueForm(Form):
    value: Annotated[str, label("Value", min_length=1, max_length=1024)]

    @field_validator("value")
    @classmethod
    def _value(cls, v: str, info: ValidationInfo) -> str:
        bad = setting_error(ctx(info, "spec"), v.strip())
        if bad:
            raise ValueError(bad)
        return v.strip()


async def value_options(ui: FlowUI, setting: Row) -> tuple[Choices, dict[str, Any]]:
    """What one setting takes (its type and bounds: the form's title and rule)."""
    svc = ui.service()
    specs, _ = await engine_settings(svc, ui.scope, _parent_id(svc))
    spec = specs.get(setting.id)
    return {}, {"spec": spec, "title": setting_label(spec) if spec else setting.id}


def value_body(form: ValueForm, setting: Row) -> dict[str, Any]:
    return {"settings": [{"name": setting.id, "value": form.value}]}


async def set_options(ui: FlowUI, row: Row) -> tuple[Choices, dict[str, Any]]:
    """The whole-set editor's settings: those of the instance's engine version (from an instance's
    actions, or from its settings list)."""
    svc = ui.service()
    return await setting_options_of(svc, ui.scope, svc.parent.id if svc.parent else row.id)


# ---- logs ------------------------------------------------------------------------------------------------------------
class LogsForm(Form):
    hours: Annotated[int, label("Last (hours)", ge=1, le=24 * 30, placeholder="1 to 720")] = 1


def logs_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, LogsForm)
    return {"start_date": from_now(-3600 * form.hours), "end_date": from_now(0)}


LOGS_PREPARE = CreateSpec(
    LogsForm,
    logs_payload,
    path="instances/{parent}/prepare-logs",
    created=lambda answer, payload: first_of(answer, "instance_logs"),
)


@asks_at_send  # a purge loses the logs: on a production profile its confirmation takes the name typed
async def log_files_flow(ui: FlowUI, instance: Row) -> None:
    svc = ui.service()
    details = (await svc.run(Call("GET", "{id}/logs-details", mutating=False), ui.scope, instance)).get("details") or []
    from ..kit.format import human_bytes

    if ui.read_only:  # the sizes are a read: shown; purging is not offered
        lines = [f"{d.get('log_name')}: {human_bytes(d.get('size'))}" for d in details if isinstance(d, dict)]
        await ui.dialog("result", title=f"Log files of {instance.name}", text="\n".join(lines) or "no log files")
        return
    options: list[tuple[Any, ...]] = [
        (f"Purge {d.get('log_name')} ({human_bytes(d.get('size'))})", d.get("log_name"))
        for d in details
        if isinstance(d, dict)
    ]
    options.append(("Purge every log file", ""))
    picked = await ui.pick(f"Log files of {instance.name}", options)
    if picked is None:
        return
    what = picked or "every log file"
    if not await ui.confirm(
        f"Purge {what}?",
        "The log data is deleted from the instance; prepared downloads stay until they expire.",
        "Purge",
    ):
        return
    await svc.run(Call("POST", "{id}/purge-logs"), ui.scope, instance, {"log_name": picked} if picked else {})
    ui.notify(f"{instance.name}: purged {what}")
