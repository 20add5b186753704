"""Saving what the platform sends as a file (a certificate, spec/4 "File downloads") where the
operator says, without overwriting anything unasked. No Textual here: the console supplies `ui`."""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .fields import meta
from .flows import Refused


class SaveForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: Annotated[str, Field(min_length=1, max_length=4096, json_schema_extra=meta("Save to", placeholder="~/certs/ca.pem"))]

    @field_validator("path")
    @classmethod
    def _where(cls, v: str) -> str:
        try:
            p = Path(v.strip()).expanduser()
            if p.is_dir():
                raise ValueError("a directory: add a file name")
            if not p.parent.is_dir():
                raise ValueError(f"no directory {p.parent}")
        except (OSError, RuntimeError) as exc:  # a name too long, no home directory to expand…
            raise ValueError(f"not a path this system can use: {getattr(exc, 'strerror', None) or exc}") from None
        return str(p)


def file_content(answer: dict[str, Any]) -> bytes:
    """The bytes of a file answer: `content` is base64 (spec/4); anything else is refused."""
    try:
        return base64.b64decode(str(answer.get("content") or ""), validate=True)
    except (binascii.Error, ValueError):
        raise Refused("the platform's answer is not a base64 file: nothing was saved") from None


async def save_file_flow(ui: Any, title: str, answer: dict[str, Any], default_dir: str = "~") -> str | None:
    """Ask where, confirm an overwrite, write the file; its path, or None when cancelled."""
    content = file_content(answer)
    name = os.path.basename(str(answer.get("name") or "download")) or "download"

    async def write(form: SaveForm) -> str:
        p = Path(form.path)
        if p.exists() and not await ui.confirm("Replace the file?", f"{p} exists and will be replaced.", "Replace"):
            raise Refused(f"{p} exists: give another name")
        try:
            p.write_bytes(content)
        except OSError as err:
            raise Refused(f"could not write {p}: {err.strerror or err}") from None
        return str(p)

    saved = await ui.form(title, SaveForm, initial={"path": str(Path(default_dir).expanduser() / name)}, submit=write, submit_label="Save")
    if saved:
        ui.notify(f"Saved {len(content):,} bytes to {saved}")
    return saved
