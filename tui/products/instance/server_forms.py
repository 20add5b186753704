"""Instance servers: full models, the create and edit forms, and their payloads (pydantic).

Loaded on first use (detail view, forms), never on the start path. Response models are lenient
(spec/4 lists the keys; the real service adds more). Forms are strict: every rule of spec 1
§2.2–2.3 that can be checked before sending is checked here, with the field named, using the
types and images loaded for the form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ValidationInfo, field_validator

from ..kit.base import Choices, Context, CreateSpec, EditSpec, Lazy, Row
from ..kit.fields import sent
from ..kit.format import gb
from ..kit.models import Resource
from ..kit.vocabulary import Form, Tags, label
from .fields import GB, Name
from .servers import public_address

if TYPE_CHECKING:
    from ..kit.service import ResourceService

BLOCK_MIN_GB, BLOCK_MAX_GB = 1, 10_000


class Server(Resource):
    state: str = "unknown"
    state_detail: str = ""
    commercial_type: str = ""
    zone: str = ""
    arch: str = ""
    tags: list[str] = []
    allowed_actions: list[str] = []
    public_ip: dict[str, Any] | None = None
    public_ips: list[dict[str, Any]] = []
    private_ip: str | None = None
    ipv6: dict[str, Any] | None = None
    image: dict[str, Any] | None = None
    volumes: dict[str, dict[str, Any]] = {}
    security_group: dict[str, Any] | None = None
    placement_group: dict[str, Any] | None = None
    private_nics: list[dict[str, Any]] = []
    hostname: str = ""
    project: str = ""
    organization: str = ""
    enable_ipv6: bool = False
    protected: bool = False
    boot_type: str = ""
    creation_date: str = ""
    modification_date: str = ""

    @property
    def public_address(self) -> str:
        return public_address(self.raw)


class ServerCreateForm(Form):
    """What the user fills in; `server_payload` turns it into the spec's creation body."""

    name: Annotated[Name, label("Name", placeholder="e.g. web-09")]
    commercial_type: Annotated[str, label("Type", min_length=1, widget="select")]
    image: Annotated[str, label("Image", min_length=1, widget="select")]
    volume_type: Annotated[str, label("Boot volume", widget="select")] = ""
    volume_size_gb: Annotated[int | None, label("Size (GB)", placeholder="image size")] = None
    tags: Tags = []
    enable_ipv6: Annotated[bool, label("IPv6")] = False
    start: Annotated[bool, label("Power on after create")] = True
    more_volumes: Annotated[bool, label("Add volumes (next step)")] = False

    @field_validator("commercial_type")
    @classmethod
    def _type(cls, v: str, info: ValidationInfo) -> str:
        types = (info.context or {}).get("types")
        if types is not None and v not in types:
            raise ValueError(f"unknown type {v}")
        return v

    @field_validator("image")
    @classmethod
    def _image(cls, v: str, info: ValidationInfo) -> str:
        ctx = info.context or {}
        images, types = ctx.get("images"), ctx.get("types")
        if images is not None and v not in images:
            raise ValueError("unknown image in this zone")
        ctype = (types or {}).get(info.data.get("commercial_type", ""))
        image = (images or {}).get(v)
        if ctype and image and image.get("arch") and ctype.get("arch") and image["arch"] != ctype["arch"]:
            raise ValueError(f"{image['arch']} image on a {ctype['arch']} type")
        return v

    @field_validator("volume_type")
    @classmethod
    def _vtype(cls, v: str, info: ValidationInfo) -> str:
        if v not in ("", "sbs_volume", "b_ssd", "l_ssd"):
            raise ValueError("must be sbs_volume, b_ssd or l_ssd")
        ctype = ((info.context or {}).get("types") or {}).get(info.data.get("commercial_type", ""))
        if v == "l_ssd" and ctype is not None and not _local_limit(ctype):
            raise ValueError("this type has no local storage")
        return v

    @field_validator("volume_size_gb")
    @classmethod
    def _size(cls, v: int | None, info: ValidationInfo) -> int | None:
        if v is None:
            return v
        ctx = info.context or {}
        vtype = info.data.get("volume_type", "")
        ctype = (ctx.get("types") or {}).get(info.data.get("commercial_type", ""))
        image = (ctx.get("images") or {}).get(info.data.get("image", ""))
        if vtype == "l_ssd" and ctype is not None:
            limit = _local_limit(ctype)
            if limit and not limit[0] <= v * GB <= limit[1]:
                raise ValueError(f"l_ssd on this type: {gb(limit[0])}–{gb(limit[1])} GB")
        elif not BLOCK_MIN_GB <= v <= BLOCK_MAX_GB:
            raise ValueError(f"between {BLOCK_MIN_GB} and {BLOCK_MAX_GB} GB")
        root = ((image or {}).get("root_volume") or {}).get("size")
        if isinstance(root, int) and v * GB < root:
            raise ValueError(f"at least the image size, {gb(root)} GB")
        return v


def _local_limit(ctype: dict[str, Any]) -> tuple[int, int] | None:
    c = (ctype.get("per_volume_constraint") or {}).get("l_ssd")
    if not c:
        return None
    return int(c.get("min_size", 0)), int(c.get("max_size", 0))


def server_payload(form: BaseModel, ctx: Context) -> dict[str, Any]:
    assert isinstance(form, ServerCreateForm)
    body = sent(form, "name", "commercial_type", "image", "enable_ipv6", "tags", project=ctx.project_id)
    if form.volume_type or form.volume_size_gb is not None:
        volume: dict[str, Any] = {"boot": True, "volume_type": form.volume_type or "sbs_volume"}
        if form.volume_size_gb is not None:
            volume["size"] = form.volume_size_gb * GB
        body["volumes"] = {"0": volume}
    return body


async def server_form_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    products = await service.call("GET", scope, "products", "servers")
    try:
        availability = (await service.call("GET", scope, "products", "servers", "availability")).get("servers", {})
    except Exception:  # availability is a nicety; the form works without it
        availability = {}
    types: dict[str, Any] = products.get("servers") or {}
    images_list = await service.read_all(scope, "images", key="images", params={"public": "true"})
    images = {i["id"]: i for i in images_list if i.get("id")}
    type_choices = []
    for name, t in sorted(types.items(), key=lambda kv: (kv[1].get("hourly_price") or 0, kv[0])):
        avail = (availability.get(name) or {}).get("availability", "")
        note = f" · {avail}" if avail and avail != "available" else ""
        local = _local_limit(t)
        storage = f" · {gb(local[1])} GB local" if local else ""
        type_choices.append(
            (
                f"{name:<14} {t.get('ncpus', '?')} vCPU {gb(t.get('ram'))} GB {t.get('arch', '')} "
                f"€{t.get('hourly_price', '?')}/h{storage}{note}",
                name,
            )
        )
    image_choices = [
        (f"{i.get('name', i['id'])} · {i.get('arch', '')}", i["id"])
        for i in sorted(images.values(), key=lambda i: i.get("name", ""))
    ]
    volume_choices = [
        ("default for the image and type", ""),
        ("sbs_volume (block)", "sbs_volume"),
        ("b_ssd (block)", "b_ssd"),
        ("l_ssd (local)", "l_ssd"),
    ]
    choices = {"commercial_type": type_choices, "image": image_choices, "volume_type": volume_choices}
    return choices, {"types": types, "images": images}


class ServerEditForm(Form):
    name: Name
    tags: Tags = []
    protected: Annotated[bool, label("Protected from deletion")] = False


def server_edit_values(row: Row) -> dict[str, Any]:
    return {"name": row.name, "tags": [str(t) for t in row.items("tags")], "protected": bool(row.get("protected"))}


CREATE = CreateSpec(
    ServerCreateForm,
    server_payload,
    server_form_options,
    after_create="start",
    after_action="poweron",
    field_map={"volumes.0.size": "volume_size_gb", "volumes.0.volume_type": "volume_type", "volumes": "volume_size_gb"},
    extend=Lazy("tui.products.instance.create_volumes:extend_volumes"),
)
EDIT = EditSpec(ServerEditForm, server_edit_values)  # sends what changed
