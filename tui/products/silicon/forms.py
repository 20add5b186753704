"""Silicon-server forms and flows (pydantic; loaded on first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import ValidationInfo, field_validator

from ..kit.base import Call, Choices, CreateSpec, EditSpec, Row
from ..kit.fields import ctx, sends
from ..kit.flows import asks_at_send, confirm_loss
from ..kit.format import gb
from ..kit.vocabulary import Form, label

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

NAME_PATTERN = r"^[A-Za-z0-9 .-]+$"  # spec 1 §2.10
NAME_RULE = "only letters, digits, spaces, dots and dashes"


class CreateForm(Form):
    type: Annotated[str, label("Type (rented 24 h at least)", min_length=1, widget="select")]
    name: Annotated[str, label("Name", min_length=1, max_length=255, placeholder=NAME_RULE)]

    @field_validator("type")
    @classmethod
    def _stock(cls, v: str, info: ValidationInfo) -> str:
        t = (ctx(info, "types") or {}).get(v)
        if t is not None and t.get("stock") == "no_stock":
            raise ValueError("no stock for this type: choose another")
        return v

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        import re

        if not re.match(NAME_PATTERN, v):
            raise ValueError(NAME_RULE)
        return v


def _lease(value: object) -> str:
    try:
        seconds = int(str(value).rstrip("s"))
    except ValueError:
        return str(value)
    return f"{seconds // 3600} h minimum"


async def create_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    types = (await service.call("GET", scope, "server-types")).get("server_types") or []
    stock = {"high_stock": "in stock", "low_stock": "low stock", "no_stock": "NO STOCK"}
    choices = [
        (
            f"{t.get('name')} · {(t.get('cpu') or {}).get('name', '')} {(t.get('cpu') or {}).get('core_count', '?')}c "
            f"· {gb((t.get('memory') or {}).get('capacity'))} GB · {gb((t.get('disk') or {}).get('capacity'))} GB · "
            f"{_lease(t.get('minimum_lease_duration'))} · {stock.get(str(t.get('stock')), t.get('stock'))}",
            t.get("name"),
        )
        for t in types
        if t.get("name")
    ]
    return {"type": choices}, {"types": {t.get("name"): t for t in types}}


CREATE = CreateSpec(CreateForm, sends("name", "type"), create_options)


class EditForm(Form):
    name: Annotated[
        str,
        label(
            "Name", min_length=1, max_length=255, pattern=NAME_PATTERN, rule="letters, digits, spaces, dots and dashes"
        ),
    ]


EDIT = EditSpec(EditForm, lambda row: {"name": row.name})


class ReinstallForm(Form):
    os_id: Annotated[str, label("Operating system", min_length=1, widget="select")]


@asks_at_send
async def reinstall_flow(ui: FlowUI, server: Row) -> None:
    svc = ui.service()
    systems = await svc.read_all(ui.scope, "os", key="os", params={"server_type": server.get("type")})
    choices = [
        (f"{o.get('label') or o.get('name')} {o.get('version', '')}".strip(), o["id"])
        for o in systems
        if o.get("id") and server.get("type") in (o.get("compatible_server_types") or [server.get("type")])
    ]

    async def send(form: ReinstallForm) -> Any:
        os_name = next((label for label, v in choices if v == form.os_id), form.os_id)
        await confirm_loss(
            ui,
            f"Reinstall {server.name} with {os_name}?",
            f"Everything on {server.name} ({server.id}) is erased and "
            f"{os_name} installed. What is on it now is lost for good.",
            "Reinstall",
            server.name or server.id,
        )
        await ui.cleared(f"Reinstall {server.name} with {os_name}")  # asked by the loss's own, on production
        return await svc.run(Call("POST", "{id}/reinstall"), ui.scope, server, {"os_id": form.os_id})

    done = await ui.form(
        f"Reinstall {server.name}: everything on it is erased",
        ReinstallForm,
        choices={"os_id": choices},
        submit=send,
        submit_label="Reinstall",
    )
    if done:
        ui.upsert(svc.row_of(done, ui.scope))
