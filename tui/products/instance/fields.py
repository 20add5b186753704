"""Form building blocks shared by the Instance forms (pydantic; loaded on first use)."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field

from ..kit.fields import ctx, meta, split_tags  # noqa: F401  (shared by every product's forms; re-exported)
from ..kit.vocabulary import Form, Tags  # noqa: F401  (re-exported)

GB = 1_000_000_000
NAME_PATTERN = r"^[A-Za-z0-9. -]+$"
NAME_RULE = "only letters, digits, dots, spaces and dashes"


def check_name(v: str) -> str:
    if not v.strip():
        raise ValueError("a name is required (not only spaces)")
    if not re.fullmatch(NAME_PATTERN, v):
        raise ValueError(NAME_RULE)
    return v


# A resource name: 1 to 255 of letters, digits, dots, spaces and dashes, not only spaces.
Name = Annotated[str, Field(min_length=1, max_length=255, json_schema_extra=meta("Name")), AfterValidator(check_name)]


class NameTagsForm(Form):
    """A name and tags: renaming, a snapshot of a volume, a volume made from a snapshot."""

    name: Name
    tags: Tags = []
