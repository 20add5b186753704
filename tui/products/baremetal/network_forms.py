"""Forms of a bare-metal server's private networks (pydantic; loaded on first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import ValidationInfo, field_validator

from ..kit.base import CreateSpec
from ..kit.fields import ctx, not_among, uuid_of
from ..kit.vocabulary import Form, PrivateNetworkId, label
from .networks import MAX_NETWORKS

if TYPE_CHECKING:
    from ..kit.service import ResourceService


class AddForm(Form):
    private_network_id: Annotated[
        str, label("Private network ID", placeholder="UUID of a private network of this zone")
    ]

    @field_validator("private_network_id")
    @classmethod
    def _network(cls, v: str, info: ValidationInfo) -> str:
        v = not_among(info, "taken", uuid_of(v, "private network ID"), "the server is already in this private network")
        if len(ctx(info, "taken") or ()) >= MAX_NETWORKS:
            raise ValueError(f"a server is in at most {MAX_NETWORKS} private networks: remove one first")
        return v


async def add_options(service: ResourceService, scope: str) -> tuple[dict[str, Any], dict[str, Any]]:
    rows = await service.list_rows(scope)
    return {}, {"taken": {r.id for r in rows}}


ADD = CreateSpec(AddForm, lambda form, c: {"private_network_id": form.private_network_id}, add_options)


class NetworkRecord(Form):
    private_network_id: Annotated[PrivateNetworkId, label("Private network ID")]
