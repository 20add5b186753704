"""Forms and flows of a bare-metal server's private networks (pydantic; loaded on first use)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from ..base import Column, CreateSpec, Row
from ..fields import ctx, meta, uuid_of
from ..flows import Refused
from .networks import MAX_NETWORKS


class AddForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    private_network_id: Annotated[str, Field(json_schema_extra=meta("Private network ID", placeholder="UUID of a private network of this zone"))]

    @field_validator("private_network_id")
    @classmethod
    def _network(cls, v: str, info: ValidationInfo) -> str:
        v = uuid_of(v, "private network ID")
        taken = ctx(info, "taken") or set()
        if v in taken:
            raise ValueError("the server is already in this private network")
        if len(taken) >= MAX_NETWORKS:
            raise ValueError(f"a server is in at most {MAX_NETWORKS} private networks: remove one first")
        return v


async def add_options(service: Any, scope: str) -> tuple[dict[str, Any], dict[str, Any]]:
    rows = await service.list_rows(scope)
    return {}, {"taken": {r.id for r in rows}}


ADD = CreateSpec(AddForm, lambda form, c: {"private_network_id": form.private_network_id}, add_options)

SNIPPET = """# On the server, as root. IFACE is its network interface (see `ip -br link`).
IFACE=eno1
ip link add link "$IFACE" name "$IFACE.{vlan}" type vlan id {vlan}
ip link set "$IFACE.{vlan}" up
ip addr add ADDRESS/PREFIX dev "$IFACE.{vlan}"   # an address of private network {pn}
"""


async def snippet_flow(ui: Any, row: Row) -> None:
    await ui.dialog("result", title=f"VLAN {row.get('vlan')}: configure it on the server", text=SNIPPET.format(vlan=row.get("vlan"), pn=row.id))


class NetworkRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    private_network_id: Annotated[str, Field(json_schema_extra=meta("Private network ID"))]

    @field_validator("private_network_id")
    @classmethod
    def _uuid(cls, v: str) -> str:
        return uuid_of(v, "private network ID")


COLUMNS = (Column("private_network_id", "Private network", lambda r: str(r.get("private_network_id", "")), width=38),)


async def replace_flow(ui: Any, row: Row) -> None:
    svc = ui.service()
    current = [{"private_network_id": r.id} for r in await svc.list_rows(ui.scope)]

    async def save(records: list[dict[str, Any]]) -> Any:
        ids = [r["private_network_id"] for r in records]
        if len(ids) > MAX_NETWORKS:
            raise Refused(f"a server is in at most {MAX_NETWORKS} private networks ({len(ids)} given)")
        if len(set(ids)) != len(ids):
            raise Refused("a private network is listed twice")
        return await svc.call("PUT", ui.scope, "servers", svc.parent.id, "private-networks", body={"private_network_ids": ids})

    done = await ui.edit_records(
        f"Private networks of {svc.parent.name}", NetworkRecord, current, COLUMNS, save=save,
        describe=f"The whole set is sent at once (at most {MAX_NETWORKS}); networks left out are removed.",
    )
    if done is not None:
        ui.notify(f"{svc.parent.name}: {len(done)} private network(s)")
        ui.reload()
