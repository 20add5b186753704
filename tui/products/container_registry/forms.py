"""Container-registry forms and the tag delete (pydantic; loaded on first use): a namespace's name
is unique in its region (spec 3 §7.2, §8), checked against the region's namespaces before sending;
an image's visibility is one of three; a tag sharing its digest is deleted with `force`, after
saying which other tags go with it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from ..kit.base import Call, Choices, Context, CreateSpec, EditSpec, Row
from ..kit.fields import ctx, meta, sent
from ..kit.flows import confirms_first
from ..kit.vocabulary import Form, label

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

# The distribution specification's path component: lower-case letters and digits, separated by
# one `.`, `_` or `-` (a namespace is the first component of every image reference in it).
NAME_PATTERN = r"^[a-z0-9]+(?:[._-][a-z0-9]+)*$"
NAME_RULE = "lower-case letters and digits, separated by one '.', '_' or '-'"
VISIBILITY_CHOICES = [("private: only the Organization can pull", "private"), ("public: anyone can pull", "public")]
IMAGE_VISIBILITY_CHOICES = [
    ("inherit: as its namespace", "inherit"),
    ("private: only the Organization can pull", "private"),
    ("public: anyone can pull, whatever its namespace", "public"),
]

Description = Annotated[
    str, Field(max_length=255, json_schema_extra=meta("Description", placeholder="what it holds (optional)"))
]


class NamespaceForm(Form):
    name: Annotated[
        str,
        label(
            "Name", min_length=1, max_length=255, pattern=NAME_PATTERN, rule=NAME_RULE, placeholder="e.g. team-images"
        ),
    ]
    description: Description = ""
    visibility: Annotated[Literal["private", "public"], label("Visibility", widget="select")] = "private"

    @field_validator("name")
    @classmethod
    def _unique(cls, v: str, info: ValidationInfo) -> str:
        taken = ctx(info, "taken") or {}
        if v in taken:
            raise ValueError(f"{v} is already a namespace in {taken[v]}: a name is unique in its region")
        return v


async def namespace_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    """The region's namespace names (a name is unique there: checked before sending)."""
    names = await service.read_all(scope, "namespaces", key="namespaces")
    return {"visibility": VISIBILITY_CHOICES}, {"taken": {str(n.get("name")): scope for n in names if n.get("name")}}


def namespace_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, NamespaceForm)
    return {**sent(form, "name", "description", project_id=c.project_id), "is_public": form.visibility == "public"}


NAMESPACE_CREATE = CreateSpec(NamespaceForm, namespace_payload, namespace_options)


class NamespaceEditForm(Form):
    description: Description = ""
    visibility: Annotated[Literal["private", "public"], label("Visibility", widget="select")]


async def _namespace_edit_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    return {"visibility": VISIBILITY_CHOICES}, {}


def _namespace_patch(form: BaseModel, row: Row) -> dict[str, Any]:
    assert isinstance(form, NamespaceEditForm)
    before = _namespace_values(row)
    out: dict[str, Any] = {}
    if form.description != before["description"]:
        out["description"] = form.description
    if form.visibility != before["visibility"]:
        out["is_public"] = form.visibility == "public"
    return out


def _namespace_values(row: Row) -> dict[str, Any]:
    data = getattr(row, "data", None) or getattr(row, "raw", {})
    return {
        "description": str(data.get("description") or ""),
        "visibility": "public" if data.get("is_public") else "private",
    }


def _going_public(form: BaseModel, row: Row) -> str | None:
    assert isinstance(form, NamespaceEditForm)
    if form.visibility == "public" and _namespace_values(row)["visibility"] == "private":
        return (
            f"Anyone on the internet will be able to pull every image of {getattr(row, 'name', '')} whose visibility "
            "is inherit (an image set to private stays private)."
        )
    return None


NAMESPACE_EDIT = EditSpec(
    NamespaceEditForm, _namespace_values, _namespace_patch, _namespace_edit_options, confirm=_going_public
)


class ImageEditForm(Form):
    visibility: Annotated[Literal["inherit", "private", "public"], label("Visibility", widget="select")]


async def _image_edit_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    return {"visibility": IMAGE_VISIBILITY_CHOICES}, {}


def _image_values(row: Row) -> dict[str, Any]:
    data = getattr(row, "data", None) or getattr(row, "raw", {})
    own = str(data.get("visibility") or "")
    return {"visibility": own if own in ("inherit", "private", "public") else "inherit"}


IMAGE_EDIT = EditSpec(ImageEditForm, _image_values, options=_image_edit_options)


@confirms_first
async def delete_tag(ui: FlowUI, tag: Row) -> None:
    """Delete a tag. Tags sharing its digest are one image manifest: the platform deletes them all
    and asks for `force`, so they are named before anything is sent."""
    svc: ResourceService = ui.service()
    image = svc.parent
    siblings = await svc.read_all(ui.scope, "images", image.id, "tags", key="tags") if image is not None else []
    shared = [
        str(t.get("name"))
        for t in siblings
        if t.get("id") != tag.id and t.get("digest") == tag.get("digest") and t.get("status") != "deleting"
    ]
    where = f" of {image.name}" if image is not None else ""
    if shared:
        one = len(shared) == 1
        message = (
            f"{'Tag' if one else 'Tags'} {', '.join(shared)} {'points' if one else 'point'} at the same image "
            f"({tag.text('digest')[:19]}…): deleting {tag.name} deletes {'it' if one else 'them'} too. Nobody can "
            "pull any of them again."
        )
        if not await ui.confirm(
            f"Delete tag {tag.name}{where} and {len(shared)} other{'' if len(shared) == 1 else 's'}?",
            message,
            "Delete all",
            require_text=tag.name,
        ):
            return
        await svc.run(Call("DELETE", "{id}", params={"force": "true"}), ui.scope, tag)
    else:
        if not await ui.confirm(f"Delete tag {tag.name}{where}?", "Nobody can pull it again.", "Delete"):
            return
        await svc.delete(ui.scope, tag)
    ui.notify(f"Deleting tag {tag.name}" + (f" and {', '.join(shared)}" if shared else ""))
    ui.reload()
