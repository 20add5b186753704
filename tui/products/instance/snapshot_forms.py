"""Snapshot and image forms and flows (pydantic; loaded on first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from ..kit.base import CreateSpec, EditSpec, Row
from ..kit.fields import sends
from ..kit.format import gb
from ..kit.vocabulary import Form, label
from .fields import Name, NameTagsForm, Tags

if TYPE_CHECKING:
    from ..kit.service import ResourceService


class SnapshotCreateForm(Form):
    name: Name
    volume_id: Annotated[str, label("Volume", min_length=1, widget="select")]
    tags: Tags = []


async def snapshot_options(service: ResourceService, scope: str) -> tuple[dict[str, Any], dict[str, Any]]:
    vols = await service.read_all(scope, "volumes", key="volumes")
    # A snapshot takes its volume's type; sbs volumes are snapshotted by the Block Storage API.
    choices = [
        (f"{v.get('name')} · {v.get('volume_type')} · {gb(v.get('size'))} GB · {v.get('state')}", v["id"])
        for v in vols
        if v.get("volume_type") in ("l_ssd", "b_ssd")
    ]
    return {"volume_id": choices}, {}


def named_values(row: Row) -> dict[str, Any]:
    return {"name": row.name, "tags": [str(t) for t in row.items("tags")]}


class ImageCreateForm(Form):
    name: Name
    root_volume: Annotated[str, label("Root snapshot", min_length=1, widget="select")]
    arch: Annotated[str, label("Arch", widget="select")] = "x86_64"
    public: Annotated[bool, label("Public")] = False
    tags: Tags = []


async def image_options(service: ResourceService, scope: str) -> tuple[dict[str, Any], dict[str, Any]]:
    snaps = await service.read_all(scope, "snapshots", key="snapshots")
    choices = [
        (f"{s.get('name')} · {s.get('volume_type')} · {gb(s.get('size'))} GB", s["id"])
        for s in snaps
        if s.get("state") == "available"
    ]
    return {"root_volume": choices, "arch": [("x86_64", "x86_64"), ("arm64", "arm64"), ("arm", "arm")]}, {}


SNAPSHOT_CREATE = CreateSpec(
    SnapshotCreateForm, sends("name", "volume_id", "tags", project="project"), snapshot_options
)
IMAGE_CREATE = CreateSpec(
    ImageCreateForm, sends("name", "root_volume", "arch", "public", "tags", project="project"), image_options
)
NAMED_EDIT = EditSpec(NameTagsForm, named_values)


# ---- the forms of a snapshot's actions (declared in `snapshots`) ----------------------------------
class ImageFromSnapshotForm(Form):
    name: Name
    arch: Annotated[str, label("Arch", widget="select")] = "x86_64"


class ExportForm(Form):
    bucket: Annotated[
        str,
        label(
            "Bucket",
            min_length=3,
            max_length=63,
            pattern=r"^[a-z0-9][a-z0-9.-]+[a-z0-9]$",
            placeholder="e.g. my-backups",
            rule="3 to 63 lower-case letters, digits, dots and dashes, starting and ending with a letter or digit",
        ),
    ]
    key: Annotated[str, label("Object key", min_length=1, max_length=1024, placeholder="e.g. snapshots/web.qcow2")]
