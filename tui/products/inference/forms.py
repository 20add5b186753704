"""Inference forms (pydantic; loaded on first use): a model's archive is an http(s) URL, its framework
one of the two serving backends and their versions (spec 2 §2.4; `latest` warned about), its config
environment variables with `input_type` a numeric type name; a rename sends the name alone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

from pydantic import BeforeValidator, Field, field_validator

from ..kit.base import Choices, CreateSpec, EditSpec
from ..kit.fields import meta, parse_pairs, sends
from ..kit.vocabulary import Form, label

if TYPE_CHECKING:
    from ..kit.service import ResourceService

# spec 2 §2.4: a tensor-serving backend and an ONNX runtime backend, `<backend>:<version>`
FRAMEWORKS = {
    "tensorflow": ("2.0.0", "1.15.0", "1.14.0", "1.13.1", "1.12.3", "latest"),
    "onnx": ("1.0.0", "0.5.0", "0.4.0", "latest"),
}
BACKEND_WORDS = {"tensorflow": "tensor-serving", "onnx": "ONNX runtime"}
INPUT_TYPES = (
    "float16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
)


def framework_choices() -> list[tuple[str, str]]:
    return [
        (f"{b}:{v} ({BACKEND_WORDS[b]}{', may change under the model' if v == 'latest' else ''})", f"{b}:{v}")
        for b, versions in FRAMEWORKS.items()
        for v in versions
    ]


def _config(v: object) -> Any:
    pairs = parse_pairs(v)
    if isinstance(pairs, dict) and "input_type" in pairs and pairs["input_type"] not in INPUT_TYPES:
        raise ValueError(f"input_type is a numeric type name: {', '.join(INPUT_TYPES)}")
    return pairs


class ModelForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=255, placeholder="e.g. image-classifier")]
    path: Annotated[
        str,
        label(
            "Archive URL",
            min_length=1,
            max_length=2048,
            placeholder="https://…/model.zip",
            hint="a zipped folder of the model, exported for its framework",
        ),
    ]
    framework: Annotated[str, label("Framework", widget="select")] = "tensorflow:2.0.0"
    config: Annotated[
        dict[str, str],
        BeforeValidator(_config),
        Field(
            json_schema_extra=meta(
                "Config (env)", widget="keyvalue", placeholder="input_type=float32\nKEY=value, one per line"
            )
        ),
    ] = {}

    @field_validator("path")
    @classmethod
    def _url(cls, v: str) -> str:
        parts = urlsplit(v.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in v.strip()):
            raise ValueError("an http or https URL of the model archive, such as https://example.com/model.zip")
        return v.strip()

    @field_validator("framework")
    @classmethod
    def _framework(cls, v: str) -> str:
        backend, _, version = v.partition(":")
        if version not in FRAMEWORKS.get(backend, ()):
            raise ValueError("one of the backends and versions offered")
        return v


async def model_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    return {"framework": framework_choices()}, {}


MODEL_CREATE = CreateSpec(ModelForm, sends("name", "path", "framework", "config"), model_options)


class RenameForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=255)]


MODEL_EDIT = EditSpec(
    RenameForm, lambda row: {"name": row.name}, lambda form, row: {"name": form.name} if form.name != row.name else {}
)
