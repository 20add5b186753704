"""Read replicas of a database instance (pydantic; loaded on first use): create with a direct-access
and/or private-network endpoint, add an endpoint, promote. Every rule spec 2 states is checked
before sending, with the field named."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ValidationInfo, field_validator

from ..kit import outcome
from ..kit.base import Choices, Context, CreateSpec, ParentRef, Row
from ..kit.fields import network_if, not_among
from ..kit.flows import Refused, asks_at_send
from ..kit.vocabulary import Form, ServiceIp, label
from .instance_forms import PrivateEndpointForm, private_spec

if TYPE_CHECKING:
    from ..kit.flows import FlowUI


# ---- read replicas ----------------------------------------------------------------------------------------
class ReplicaForm(Form):
    direct_access: Annotated[bool, label("Direct-access endpoint (public)")] = True
    private_network_id: Annotated[
        str, label("Network ID", placeholder="empty: none; or the private network's UUID")
    ] = ""
    service_ip: ServiceIp = ""
    same_zone: Annotated[bool, label("In the instance's zone")] = True

    @field_validator("private_network_id")
    @classmethod
    def _pn(cls, v: str) -> str:
        from ..kit.fields import uuid_of

        return uuid_of(v, "private network ID") if v.strip() else ""

    @field_validator("service_ip")
    @classmethod
    def _ip(cls, v: str, info: ValidationInfo) -> str:
        if v.strip() and not info.data.get("private_network_id"):
            raise ValueError("a service IP goes with a private network: give its ID")
        return v

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
        specs.append(
            {
                "private_network": private_spec(
                    PrivateEndpointForm(private_network_id=form.private_network_id, service_ip=form.service_ip)
                )
            }
        )
    return specs


def replica_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, ReplicaForm) and c.parent is not None
    return {"instance_id": c.parent.id, "endpoint_spec": replica_specs(form), "same_zone": form.same_zone}


REPLICA_CREATE = CreateSpec(ReplicaForm, replica_payload, path="read-replicas")


@asks_at_send
async def create_replica_flow(ui: FlowUI, instance: Row) -> None:
    from .children import REPLICAS

    parent = ParentRef(instance.id, instance.name, ui.scope)
    svc = ui.service(REPLICAS, parent)
    known = [str(r.get("id")) for r in instance.items("read_replicas") if isinstance(r, dict)]

    async def send(form: ReplicaForm) -> Any:
        await ui.cleared(f"Create a read replica of {instance.name}")
        return await outcome.create(
            svc, ui.scope, replica_payload(form, Context(ui.project_id, ui.scope, parent=parent)), known
        )

    done = await ui.form(
        f"Read replica of {instance.name} (read-only, asynchronous)", ReplicaForm, submit=send, submit_label="Create"
    )
    if done:
        outcome.tell(ui, done, f"{instance.name}: read replica {done[0].id} {done[0].state} — see Read replicas")
        ui.follow(instance)


class ReplicaEndpointForm(Form):
    kind: Annotated[str, label("Endpoint", widget="select")]
    private_network_id: Annotated[
        str, label("Network ID", placeholder="the private network's UUID (private-network endpoint)")
    ] = ""
    service_ip: ServiceIp = ""

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str, info: ValidationInfo) -> str:
        return not_among(info, "has", v, f"a read replica has at most one {v.replace('_', '-')} endpoint: it has one")

    @field_validator("private_network_id")
    @classmethod
    def _pn(cls, v: str, info: ValidationInfo) -> str:
        return network_if(info.data.get("kind") == "private_network", v, "only a private-network endpoint takes one")

    @field_validator("service_ip")
    @classmethod
    def _ip(cls, v: str, info: ValidationInfo) -> str:
        return v if info.data.get("kind") == "private_network" else ""


async def replica_endpoint_options(ui: FlowUI, replica: Row) -> tuple[Choices, dict[str, Any]]:
    """The endpoint kinds the replica has not got yet (at most one of each)."""
    has = {
        k
        for e in replica.items("endpoints")
        if isinstance(e, dict)
        for k in ("direct_access", "private_network")
        if k in e
    }
    if has >= {"direct_access", "private_network"}:
        raise Refused("a read replica has at most one direct-access and one private-network endpoint: it has both")
    kinds = [
        (label, k)
        for label, k in (("direct access (public)", "direct_access"), ("private network", "private_network"))
        if k not in has
    ]
    return {"kind": kinds}, {"has": has}


def replica_endpoint_body(form: ReplicaEndpointForm, replica: Row) -> dict[str, Any]:
    spec = (
        {"direct_access": {}}
        if form.kind == "direct_access"
        else {
            "private_network": private_spec(
                PrivateEndpointForm(private_network_id=form.private_network_id, service_ip=form.service_ip)
            )
        }
    )
    return {"endpoint_spec": [spec]}
