"""Backups and snapshots of a database instance — the copies an operator makes, restores and exports
(pydantic; loaded on first use). Restoring over an existing database takes its name typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import ValidationInfo, field_validator

from ..kit import outcome
from ..kit.base import Call, Choices, CreateSpec, EditSpec, ParentRef, Row
from ..kit.fields import ctx
from ..kit.flows import asks_at_send, confirm_loss
from ..kit.times import in_days
from ..kit.vocabulary import Form, label
from .data_forms import _parent_id, database_name
from .instance_forms import HighAvailability, NodeType, new_instance_form

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService


def _iso_in(days: int | None) -> str | None:
    return in_days(days) if days else None


# ---- backups --------------------------------------------------------------------------------------------------
class BackupForm(Form):
    instance_id: Annotated[str, label("Instance", min_length=1, widget="select")]
    database_name: Annotated[str, label("Database", min_length=1, max_length=63, placeholder="e.g. orders")]
    name: Annotated[str, label("Backup name", max_length=255, placeholder="empty: database and date")] = ""
    expires_in_days: Annotated[int | None, label("Expires in (days)", ge=1, le=3650, placeholder="empty: never")] = None

    @field_validator("database_name")
    @classmethod
    def _db(cls, v: str, info: ValidationInfo) -> str:
        known = (ctx(info, "databases") or {}).get(info.data.get("instance_id"))
        if known is not None and v not in known:
            raise ValueError(f"no database {v} there: {', '.join(sorted(known)) or 'none'}")
        return v


class BackupHereForm(Form):
    database_name: Annotated[str, label("Database", min_length=1, widget="select")]
    name: Annotated[str, label("Backup name", max_length=255, placeholder="empty: database and date")] = ""
    expires_in_days: Annotated[int | None, label("Expires in (days)", ge=1, le=3650, placeholder="empty: never")] = None


def _backup_body(instance_id: str, form: BackupForm | BackupHereForm) -> dict[str, Any]:
    body: dict[str, Any] = {"instance_id": instance_id, "database_name": form.database_name}
    if form.name:
        body["name"] = form.name
    if form.expires_in_days:
        body["expires_at"] = _iso_in(form.expires_in_days)
    return body


async def backup_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    from .instances import INSTANCES

    rows = await service.names_of(INSTANCES, scope)
    dbs: dict[str, set[str]] = {}
    for iid in rows:
        try:
            dbs[iid] = {
                str(d.get("name"))
                for d in await service.read_all(scope, "instances", iid, "databases", key="databases")
            }
        except Exception:
            continue  # an instance not ready answers nothing useful: its databases are not checked here
    return {"instance_id": [(name, iid) for iid, name in sorted(rows.items(), key=lambda x: x[1])]}, {"databases": dbs}


async def backup_here_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    dbs = await service.read_all(scope, "instances", _parent_id(service), "databases", key="databases")
    return {"database_name": [(str(d.get("name")), str(d.get("name"))) for d in dbs if d.get("name")]}, {}


BACKUP_CREATE = CreateSpec(
    BackupForm,
    lambda form, c: _backup_body(form.instance_id, form),
    backup_options,
)
BACKUP_HERE = CreateSpec(
    BackupHereForm, lambda form, c: _backup_body(c.parent.id if c.parent else "", form), backup_here_options
)


@asks_at_send
async def backup_flow(ui: FlowUI, instance: Row) -> None:
    from .backups import INSTANCE_BACKUPS

    svc = ui.service(INSTANCE_BACKUPS, ParentRef(instance.id, instance.name, ui.scope))
    dbs = await ui.service().read_all(ui.scope, "instances", instance.id, "databases", key="databases")

    async def send(form: BackupHereForm) -> Any:
        await ui.cleared(f"Back up database {form.database_name} of {instance.name}")
        known = [
            r.id for r in await svc.list_rows(ui.scope)
        ]  # to tell a new backup from the others if the answer is lost
        return await outcome.create(svc, ui.scope, _backup_body(instance.id, form), known)

    done = await ui.form(
        f"Back up a database of {instance.name}",
        BackupHereForm,
        choices={"database_name": [(str(d.get("name")), str(d.get("name"))) for d in dbs]},
        submit=send,
        submit_label="Back up",
    )
    if done:
        outcome.tell(ui, done, f"Backup {done[0].name} of {instance.name}: {done[0].state} — see Backups")
        ui.follow(instance)


class BackupEditForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=255)]
    expires_in_days: Annotated[
        int | None, label("Expires in (days)", ge=1, le=3650, placeholder="empty: unchanged")
    ] = None


def _edit_patch(form: BackupEditForm, row: Row) -> dict[str, Any]:
    patch: dict[str, Any] = {}
    if form.name != row.name:
        patch["name"] = form.name
    if form.expires_in_days:
        patch["expires_at"] = _iso_in(form.expires_in_days)
    return patch


BACKUP_EDIT = EditSpec(BackupEditForm, lambda row: {"name": row.name}, _edit_patch)


class RestoreForm(Form):
    database_name: Annotated[str, database_name("As database")]


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
        why = (
            f"{engine}: a {family} backup restores only to {family}"
            if family and engine_family(engine) != family
            else None
            if i.state in ("ready", "disk_full")
            else f"{i.state}: not ready"
        )
        out.append((f"{i.name}  {engine}" + ("  (its own instance)" if i is source else ""), i.id, why))
    return out


@asks_at_send
async def restore_flow(ui: FlowUI, backup: Row) -> None:
    """Restore a backup into a database: the target instance is picked (none by default; another
    engine family greyed), the database named (by default one that does not exist there), and
    restoring over an existing database confirms with that database's name typed."""
    from .instances import INSTANCES

    svc = ui.service()
    instances = await ui.service(INSTANCES).list_rows(ui.scope)
    db = backup.text("database_name")
    target = await ui.pick(
        f"Restore {backup.name} (database {db}) to which instance?", restore_targets(backup, instances)
    )
    if target is None:
        return
    tname = next((i.name for i in instances if i.id == target), target)

    async def existing() -> set[str]:
        return {
            str(d.get("name")) for d in await svc.read_all(ui.scope, "instances", target, "databases", key="databases")
        }

    async def send(form: RestoreForm) -> Any:
        if form.database_name in await existing():
            await confirm_loss(
                ui,
                f"Overwrite database {form.database_name} on {tname}?",
                f"Restoring {backup.name} ({backup.text('created_at')[:16]}) replaces everything in database "
                f"{form.database_name} of "
                f"{tname} with the backup's data. What is in it now is lost for good.",
                "Overwrite",
                form.database_name,
            )
        await ui.cleared(f"Restore {backup.name} into database {form.database_name} of {tname}")
        return await outcome.send(
            svc,
            Call("POST", "{id}/restore"),
            ui.scope,
            backup,
            {"instance_id": target, "database_name": form.database_name},
        )

    taken = await existing()
    fresh = (
        db
        if db not in taken
        else next(
            n for n in (f"{db}_restored"[:63], *(f"{db[:50]}_restored_{k}" for k in range(2, 99))) if n not in taken
        )
    )
    done = await ui.form(
        f"Restore {backup.name} to {tname} — fails unless the backup's users exist there under the same names",
        RestoreForm,
        initial={"database_name": fresh},
        submit=send,
        submit_label="Restore",
    )
    if done:
        if done[0]:
            ui.upsert(svc.row_of(done[0], ui.scope))
        outcome.tell(ui, done, f"Restoring {backup.name} into {tname}…")


# ---- snapshots ---------------------------------------------------------------------------------------------------
class SnapshotForm(Form):
    name: Annotated[str, label("Snapshot name", min_length=1, max_length=255)]
    expires_in_days: Annotated[int | None, label("Expires in (days)", ge=1, le=3650, placeholder="empty: never")] = None


def snapshot_body(form: SnapshotForm, row: Row | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": form.name}
    if form.expires_in_days:
        body["expires_at"] = _iso_in(form.expires_in_days)
    return body


SNAPSHOT_CREATE = CreateSpec(SnapshotForm, lambda form, c: snapshot_body(form), path="instances/{parent}/snapshots")


class FromSnapshotForm(Form):
    instance_name: Annotated[str, label("New instance", min_length=1, max_length=255)]
    node_type: NodeType
    is_ha_cluster: HighAvailability = False


@asks_at_send
async def instance_from_snapshot_flow(ui: FlowUI, snapshot: Row) -> None:
    named = {"instance_name": f"{snapshot.name}-restored"}
    call = Call("POST", "{id}/create-instance")
    done = await new_instance_form(
        ui, snapshot, f"New instance from {snapshot.name}", FromSnapshotForm, named, call, "Create"
    )
    if done:
        ui.notify(f"Instance {done.get('name')} is {done.get('status')} — see Database instances")
