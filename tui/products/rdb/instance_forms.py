"""Database-instance forms and flows (pydantic; loaded on first use): the create wizard of spec 2
§4.3, edit, clone, endpoints and the certificate (the upgrade's forms: `upgrade_forms`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import AfterValidator, BaseModel, Field, ValidationInfo, field_validator
from pydantic.fields import FieldInfo

from ..kit.base import Call, Choices, Context, CreateSpec, EditSpec, Row
from ..kit.fields import ctx, meta, refused_by, sent
from ..kit.flows import Refused, asks_at_send
from ..kit.vocabulary import Form, Password, PrivateNetworkId, ServiceIp, Tags, label

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

GB = 1_000_000_000
USER_NAME = r"^[A-Za-z][A-Za-z0-9_-]{0,62}$"
USER_NAME_RULE = "1 to 63 letters, digits, _ and -, starting with a letter"


def user_name(text: str, example: str) -> FieldInfo:
    """A database user's name field (the engines' rule), labelled: `Annotated[str, user_name("User", "app")]`."""
    return label(
        text, min_length=1, max_length=63, pattern=USER_NAME, placeholder=f"e.g. {example}", rule=USER_NAME_RULE
    )


STOCK = {"available": "in stock", "low_stock": "low stock", "out_of_stock": "OUT OF STOCK"}


# ---- the catalogue, as choices ------------------------------------------------------------------
def engine_choices(engines: list[dict[str, Any]]) -> tuple[list[tuple[str, str]], dict[str, dict[str, Any]]]:
    """Every engine version, newest first, with disabled, end-of-life and beta ones marked."""
    from datetime import datetime, timezone

    now = datetime.now(timezone.utc).isoformat()
    choices, versions = [], {}
    for e in engines:
        for v in sorted(e.get("versions") or [], key=lambda v: str(v.get("version")), reverse=True):
            name = v.get("name")
            if not isinstance(name, str):
                continue
            marks = []
            if v.get("disabled"):
                marks.append("DISABLED")
            if v.get("end_of_life") and str(v["end_of_life"]) < now:
                marks.append(f"end of life {str(v['end_of_life'])[:10]}")
            if v.get("beta"):
                marks.append("beta")
            choices.append((name + (f" · {', '.join(marks)}" if marks else ""), name))
            versions[name] = v
    return choices, versions


def node_choices(types: list[dict[str, Any]]) -> tuple[list[tuple[str, str]], dict[str, dict[str, Any]]]:
    choices, found = [], {}
    for t in types:
        name = t.get("name")
        if not isinstance(name, str):
            continue
        vols = "/".join(str(v.get("type")) for v in t.get("available_volume_types") or [] if isinstance(v, dict))
        marks = [STOCK.get(str(t.get("stock_status")), str(t.get("stock_status", "?")))]
        if t.get("is_ha_required"):
            marks.append("HA required")
        if t.get("beta"):
            marks.append("beta")
        if t.get("disabled"):
            marks.append("DISABLED")
        memory = (t.get("memory") or 0) / GB if isinstance(t.get("memory"), (int, float)) else 0
        choices.append((f"{name} · {t.get('vcpus', '?')} vCPU {memory:g} GB · {vols} · {', '.join(marks)}", name))
        found[name] = t
    return choices, found


def volume_type_of(node: dict[str, Any] | None, vtype: str) -> dict[str, Any] | None:
    for v in (node or {}).get("available_volume_types") or []:
        if isinstance(v, dict) and v.get("type") == vtype:
            return v
    return None


def check_size_gb(size: int | None, node: dict[str, Any] | None, vtype: str) -> int | None:
    if vtype != "bssd":
        if size is not None:
            raise ValueError("only a block volume (bssd) takes a size: leave it empty")
        return None
    if size is None:
        raise ValueError("a block volume needs a size in GB")
    v = volume_type_of(node, "bssd")
    if v is not None:
        lo, hi, step = (int(v.get(k) or 0) // GB for k in ("min_size", "max_size", "chunk_size"))
        if not lo <= size <= hi or (step and size % step):
            raise ValueError(f"{lo} to {hi} GB, in steps of {step} GB")
    return size


async def catalogue(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    engines = await service.read_all(scope, "database-engines", key="engines")
    types = await service.read_all(scope, "node-types", key="node_types")
    engine_opts, versions = engine_choices(engines)
    node_opts, nodes = node_choices(types)
    return (
        {
            "engine": engine_opts,
            "node_type": node_opts,
            "volume_type": [("lssd — local SSD", "lssd"), ("bssd — block SSD (sized, snapshots)", "bssd")],
        },
        {"versions": versions, "nodes": nodes},
    )


# ---- create -------------------------------------------------------------------------------------
def check_node(v: str, info: ValidationInfo) -> str:
    """A node type that can be had now (the catalogue in the form's context as `nodes`)."""
    node = (ctx(info, "nodes") or {}).get(v)
    if node is not None and node.get("stock_status") == "out_of_stock":
        raise ValueError(f"{v} is out of stock: choose another")
    if node is not None and node.get("disabled"):
        raise ValueError(f"{v} is disabled: choose another")
    return v


def check_ha(v: bool, info: ValidationInfo) -> bool:
    """HA ticked when the chosen node type runs only as a high-availability cluster."""
    node = (ctx(info, "nodes") or {}).get(info.data.get("node_type"))
    if node is not None and node.get("is_ha_required") and not v:
        raise ValueError(f"{node.get('name')} runs only as a high-availability cluster: tick it")
    return v


# A node type of the catalogue (the form's context `nodes`) that can be had now, and the HA box
# its node type asks for.
NodeType = Annotated[
    str, Field(min_length=1, json_schema_extra=meta("Node type", widget="select")), AfterValidator(check_node)
]
HighAvailability = Annotated[bool, Field(json_schema_extra=meta("High availability")), AfterValidator(check_ha)]


class CreateForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=255, placeholder="e.g. shop-db")]
    engine: Annotated[str, label("Engine version", min_length=1, widget="select")]
    node_type: NodeType
    is_ha_cluster: Annotated[HighAvailability, label("High availability (synchronous standby)")] = False
    volume_type: Annotated[str, label("Volume type", widget="select")] = "lssd"
    volume_size: Annotated[
        int | None, label("Volume size, GB", placeholder="block volume only: 5 to 10000, steps of 5")
    ] = None
    user_name: Annotated[str, user_name("Default user", "admin")]
    password: Password
    tags: Tags = []
    disable_backup: Annotated[bool, label("Disable automatic backups")] = False

    @field_validator("engine")
    @classmethod
    def _engine(cls, v: str, info: ValidationInfo) -> str:
        return refused_by(info, "versions", v, "disabled", True, "is disabled: choose another version")

    @field_validator("volume_type")
    @classmethod
    def _vtype(cls, v: str, info: ValidationInfo) -> str:
        if v not in ("lssd", "bssd"):
            raise ValueError("lssd or bssd")
        node = (ctx(info, "nodes") or {}).get(info.data.get("node_type"))
        if node is not None and volume_type_of(node, v) is None:
            raise ValueError(f"{node.get('name')} does not take {v}")
        return v

    @field_validator("volume_size")
    @classmethod
    def _vsize(cls, v: int | None, info: ValidationInfo) -> int | None:
        node = (ctx(info, "nodes") or {}).get(info.data.get("node_type"))
        return check_size_gb(v, node, info.data.get("volume_type") or "lssd")


def create_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, CreateForm)
    names = ("name", "engine", "node_type", "is_ha_cluster", "disable_backup", "tags", "user_name", "password")
    body = sent(form, *names, "volume_type", project_id=c.project_id)
    if form.volume_type == "bssd" and form.volume_size is not None:
        body["volume_size"] = form.volume_size * GB
    return body


CREATE = CreateSpec(CreateForm, create_payload, catalogue)


# ---- edit ---------------------------------------------------------------------------------------
class EditForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=255)]
    tags: Tags = []
    backup_frequency: Annotated[int, label("Backup every (h)", ge=1, le=24)] = 24
    backup_retention: Annotated[int, label("Keep backups (days)", ge=1, le=365)] = 7
    backups_disabled: Annotated[bool, label("Automatic backups disabled")] = False


def edit_values(row: Row) -> dict[str, Any]:
    b = row.obj("backup_schedule")
    return {
        "name": row.name,
        "tags": list(row.items("tags")),
        "backup_frequency": b.get("frequency") or 24,
        "backup_retention": b.get("retention") or 7,
        "backups_disabled": bool(b.get("disabled")),
    }


def edit_patch(form: BaseModel, row: Row) -> dict[str, Any]:
    assert isinstance(form, EditForm)
    was = edit_values(row)
    patch: dict[str, Any] = {}
    for field, key in (
        ("name", "name"),
        ("tags", "tags"),
        ("backup_frequency", "backup_schedule_frequency"),
        ("backup_retention", "backup_schedule_retention"),
        ("backups_disabled", "is_backup_schedule_disabled"),
    ):
        if getattr(form, field) != was[field]:
            patch[key] = getattr(form, field)
    return patch


EDIT = EditSpec(EditForm, edit_values, edit_patch)


# ---- clone ----------------------------------------------------------------------------------------
class CloneForm(Form):
    name: Annotated[str, label("Name of the clone", min_length=1, max_length=255)]
    node_type: NodeType


async def new_instance_form(
    ui: FlowUI, row: Row, title: str, form: type[Form], name: dict[str, str], call: Call, label: str
) -> Any:
    """A form that makes a new instance from `row` (a clone, a snapshot's copy): its name, and a node
    type of the catalogue, `row`'s by default; its values sent as `call`'s body. The answer, or None."""
    svc = ui.service()
    choices, context = await catalogue(svc, ui.scope)

    async def send(values: Form) -> Any:
        await ui.cleared(title)  # on a production profile: the name typed, at each send
        return await svc.run(call, ui.scope, row, values.model_dump())

    return await ui.form(
        title,
        form,
        initial={**name, "node_type": row.get("node_type")},
        choices={"node_type": choices["node_type"]},
        context=context,
        submit=send,
        submit_label=label,
    )


@asks_at_send
async def clone_flow(ui: FlowUI, instance: Row) -> None:
    title = f"Clone {instance.name} (its data, users and databases)"
    named = {"name": f"{instance.name}-clone"}
    done = await new_instance_form(ui, instance, title, CloneForm, named, Call("POST", "{id}/clone"), "Clone")
    if done:
        ui.upsert(ui.service().row_of(done, ui.scope))
        ui.notify(f"Cloning {instance.name} into {done.get('name')}")


# ---- endpoints ------------------------------------------------------------------------------------
class PrivateEndpointForm(Form):
    private_network_id: PrivateNetworkId
    service_ip: ServiceIp = ""


def private_spec(form: PrivateEndpointForm) -> dict[str, Any]:
    spec: dict[str, Any] = {"private_network_id": form.private_network_id}
    if form.service_ip:
        spec["service_ip"] = form.service_ip
    else:
        spec["ipam_config"] = {}
    return spec


def endpoint_label(e: dict[str, Any]) -> str:
    kind = "private network" if e.get("private_network") else "load balancer" if "load_balancer" in e else "direct"
    return f"{e.get('ip') or e.get('hostname') or '?'}:{e.get('port', '?')} ({kind})"


@asks_at_send  # on a production profile the name is typed where each change is said, after it is picked
async def endpoints_flow(ui: FlowUI, instance: Row) -> None:
    svc = ui.service()
    data = await svc.get_data(ui.scope, instance.id)
    eps = [e for e in data.get("endpoints") or [] if isinstance(e, dict) and e.get("id")]
    has_lb = any("load_balancer" in e for e in eps)
    options: list[tuple[Any, ...]] = [
        ("Add a load-balanced public endpoint", ("add_lb", None), "it has one already" if has_lb else None),
        ("Add a private-network endpoint…", ("add_pn", None)),
    ]
    for e in eps:
        options.append((f"Delete {endpoint_label(e)}", ("delete", e)))
        options.append((f"Migrate {endpoint_label(e)} to another instance…", ("migrate", e)))
    picked = await ui.pick(f"Endpoints of {instance.name} (TLS on every one; each points to the main node)", options)
    if picked is None:
        return
    what, e = picked
    if what == "add_lb":
        await ui.cleared(f"Add a load-balanced public endpoint to {instance.name}")
        await svc.run(Call("POST", "{id}/endpoints"), ui.scope, instance, {"endpoint_spec": {"load_balancer": {}}})
    elif what == "add_pn":

        async def send(form: PrivateEndpointForm) -> Any:
            await ui.cleared(f"Add a private-network endpoint to {instance.name}")
            return await svc.run(
                Call("POST", "{id}/endpoints"),
                ui.scope,
                instance,
                {"endpoint_spec": {"private_network": private_spec(form)}},
            )

        if not await ui.form(
            f"Private-network endpoint for {instance.name}", PrivateEndpointForm, submit=send, submit_label="Add"
        ):
            return
    elif what == "delete":
        if not await ui.confirm(
            f"Delete the endpoint {endpoint_label(e)}?", "Clients using this address lose their connection.", "Delete"
        ):
            return
        await svc.call("DELETE", ui.scope, "endpoints", e["id"])
    else:
        others = [(r.name, r.id) for r in await svc.list_rows(ui.scope) if r.id != instance.id and r.state == "ready"]
        if not others:
            raise Refused("no other ready instance in this region to move it to")
        target = await ui.pick(f"Move {endpoint_label(e)} to which instance?", others)
        if target is None:
            return
        to = next((name for name, rid in others if rid == target), target)
        await ui.cleared(f"Move the endpoint {endpoint_label(e)} from {instance.name} to {to}")
        await svc.call("POST", ui.scope, "endpoints", e["id"], "migrate", body={"instance_id": target})
    ui.notify(f"{instance.name}: endpoints changed")
    ui.follow(instance)
