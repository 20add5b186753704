"""The lenient pydantic base of full response models (detail views). Imported on first use."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError, model_validator


class Resource(BaseModel):
    """Lenient base of every response model: unknown keys kept, every field optional."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    id: str = ""
    name: str = ""
    _raw: dict[str, Any] = PrivateAttr(default_factory=dict)
    _looked_up: dict[str, Any] = PrivateAttr(default_factory=dict)

    @model_validator(mode="wrap")
    @classmethod
    def _lenient(cls, data: Any, handler: Any) -> Any:
        """A field of an unexpected type falls back to its default instead of failing the row."""
        try:
            obj = handler(data)
        except ValidationError as exc:
            if not isinstance(data, dict):
                raise
            bad = {e["loc"][0] for e in exc.errors() if e["loc"]}
            obj = handler({k: v for k, v in data.items() if k not in bad})
        if isinstance(data, dict):
            obj._raw = data
        return obj

    @property
    def raw(self) -> dict[str, Any]:
        """The object exactly as the API sent it (for the JSON view)."""
        return self._raw or self.model_dump(mode="json", by_alias=True)

    @property
    def looked_up(self) -> dict[str, Any]:
        """Fields read elsewhere for the detail (the name of the server an IP is on, of a server's
        offer): `kind.rows.lookup` (`listed` and `detail`), kept apart from what the API sent."""
        return self._looked_up
