"""A database instance's upgrade, one change per request (pydantic; loaded on first use): a node type
(with what it allows, and a warning when it is smaller), a larger volume, a newer engine version."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import ValidationInfo, field_validator

from ..kit.base import Choices, Row
from ..kit.fields import ctx
from ..kit.vocabulary import Form, label
from .instance_forms import GB, catalogue, check_size_gb

if TYPE_CHECKING:
    from ..kit.flows import FlowUI


class NodeTypeForm(Form):
    node_type: Annotated[str, label("New node type", min_length=1, widget="select")]

    @field_validator("node_type")
    @classmethod
    def _node(cls, v: str, info: ValidationInfo) -> str:
        node = (ctx(info, "nodes") or {}).get(v)
        current = ctx(info, "current")
        if current is not None and v == current.get("node_type"):
            raise ValueError("that is the node type it has")
        if node is not None and node.get("stock_status") == "out_of_stock":
            raise ValueError(f"{v} is out of stock")
        if node is not None and node.get("is_ha_required") and current is not None and not current.get("is_ha_cluster"):
            raise ValueError(f"{v} runs only as a high-availability cluster: enable HA first")
        return v


class VolumeSizeForm(Form):
    volume_size: Annotated[int, label("New size, GB")]

    @field_validator("volume_size")
    @classmethod
    def _size(cls, v: int, info: ValidationInfo) -> int:
        current = ctx(info, "current") or Row({})
        now_gb = int((current.obj("volume").get("size") or 0)) // GB
        if v <= now_gb:
            raise ValueError(f"larger than now ({now_gb} GB): a volume does not shrink")
        return check_size_gb(v, (ctx(info, "nodes") or {}).get(current.get("node_type")), "bssd") or v


class VersionForm(Form):
    version_id: Annotated[str, label("Upgrade to", min_length=1, widget="select")]


async def node_type_options(ui: FlowUI, instance: Row) -> tuple[Choices, dict[str, Any]]:
    """The upgrade's node types (the catalogue's, with what each allows; the current one marked)
    and the rules' data."""
    choices, context = await catalogue(ui.service(), ui.scope)
    current = instance.get("node_type")
    return {
        "node_type": [
            (label + " (current)" if value == current else label, value) for label, value in choices["node_type"]
        ]
    }, context


def _size(node: dict[str, Any] | None) -> tuple[float, float]:
    node = node or {}
    return (float(node.get("vcpus") or 0), float(node.get("memory") or 0))


def node_type_warning(form: NodeTypeForm, instance: Row, context: dict[str, Any]) -> str | None:
    """A smaller node type is said before it is sent."""
    nodes = context.get("nodes") or {}
    old, new = nodes.get(instance.get("node_type")), nodes.get(form.node_type)
    if old is None or new is None or not any(n < o for n, o in zip(_size(new), _size(old))):
        return None
    (nv, nm), (ov, om) = _size(new), _size(old)
    sizes = f"{nv:g} vCPU {nm / GB:g} GB against {ov:g} vCPU {om / GB:g} GB"
    lost = "the instance may no longer hold its load or its connections. It is configuring meanwhile."
    return f"{form.node_type} is smaller than {instance.get('node_type')} ({sizes}): {lost}"


def version_warning(form: VersionForm, instance: Row, context: dict[str, Any]) -> str:
    return (
        f"{instance.name} moves to a new engine version: this cannot be undone, and the instance is unavailable "
        "while it upgrades. A backup taken first is the way back."
    )


async def catalogue_context(ui: FlowUI, instance: Row) -> tuple[Choices, dict[str, Any]]:
    _, context = await catalogue(ui.service(), ui.scope)
    return {}, context


async def version_options(ui: FlowUI, instance: Row) -> tuple[Choices, dict[str, Any]]:
    versions = [
        (f"{v.get('name')} ({v.get('minor_version', '')})", str(v.get("id") or ""))
        for v in instance.items("upgradable_version")
        if isinstance(v, dict)
    ]
    return {"version_id": versions}, {}
