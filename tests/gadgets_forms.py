"""The test product's forms (loaded on first use through `Lazy("gadgets_forms:…")`, as a product's forms
module is): a gadget's edit (PUT), a tune, labels, a configuration with a nested form, a probe whose body is
its own, a part's create and edit, a key's create."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tui.products.kit.base import Context, CreateSpec, EditSpec
from tui.products.kit.vocabulary import KeyValues, LongText, Several


def probe_body(form: Any, row: Any) -> dict[str, Any]:
    """The check's variant becomes its own `<kind>_config` object, as the API takes exactly one."""
    check = form.check.model_dump(exclude={"kind"}, exclude_none=True)
    return {**form.timing.model_dump(), f"{form.check.kind}_config": check}


def key_payload(form: Any, ctx: Context) -> dict[str, Any]:
    return {"name": form.name}


class Timing(BaseModel):  # a nested form
    model_config = ConfigDict(extra="forbid")

    delay: int = Field(5, ge=1, le=60, json_schema_extra={"label": "Delay (s)"})
    retries: int = Field(3, ge=1, le=10, json_schema_extra={"label": "Retries"})


class TcpCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", title="TCP connect")

    kind: Literal["tcp"] = "tcp"


class HttpCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", title="HTTP request")

    kind: Literal["http"] = "http"
    uri: str = Field(
        min_length=1,
        pattern="^/",
        json_schema_extra={"label": "URI", "rule": "a path starting with /", "placeholder": "e.g. /health"},
    )
    code: int | None = Field(None, ge=100, le=599, json_schema_extra={"label": "Code", "placeholder": "e.g. 200"})


class ProbeForm(BaseModel):  # a nested form and an "exactly one of" (a load balancer's health check)
    model_config = ConfigDict(extra="forbid")

    timing: Timing = Timing()
    check: Annotated[TcpCheck | HttpCheck, Field(discriminator="kind", json_schema_extra={"label": "Check"})] = (
        TcpCheck()
    )


class ConfigureForm(BaseModel):  # the form vocabulary's multi-line, key/value and multi-select fields
    model_config = ConfigDict(extra="forbid")

    notes: LongText = ""
    settings: KeyValues = {}
    modes: Several = []


class KeyForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64, json_schema_extra={"label": "Name"})


class PartForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64, json_schema_extra={"label": "Name"})
    kind: str = Field("gear", json_schema_extra={"label": "Kind"})
    count: int = Field(1, ge=0, json_schema_extra={"label": "Count"})


class PartEditForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    count: int = Field(ge=0, json_schema_extra={"label": "Count"})


class GadgetForm(BaseModel):  # a PUT replaces the gadget: name and description, both sent
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64, json_schema_extra={"label": "Name"})
    description: str = Field("", max_length=255, json_schema_extra={"label": "Description"})


class TuneForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: int = Field(ge=1, le=9, json_schema_extra={"label": "Level"})


class LabelRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: str = Field(min_length=1, max_length=16, json_schema_extra={"label": "Key"})
    value: str = Field("", max_length=32, json_schema_extra={"label": "Value"})


GADGET_EDIT = EditSpec(GadgetForm, lambda row: {"name": row.name, "description": row.text("description")}, method="PUT")
KEY_CREATE = CreateSpec(KeyForm, key_payload)
PART_CREATE = CreateSpec(PartForm, lambda form, ctx: form.model_dump())
PART_EDIT = EditSpec(
    PartEditForm,
    lambda row: {"count": row.get("count")},
    lambda form, row: {"count": form.count} if form.count != row.get("count") else {},
)
