"""The form vocabulary: field types every product's forms share, each carrying its rule, its
parsing and its label (pydantic `Annotated` types; loaded with the forms, not at start-up).

    tags: Tags = []
    password: Password
    password: Annotated[Password, Field(json_schema_extra=meta("New password", widget="password"))]

A form may relabel a field with an outer `Field` (as above); the rule stays the type's.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, Field, SecretStr

from .fields import check_password, meta, split_tags

# "web, prod" as typed → ["web", "prod"]
Tags = Annotated[list[str], BeforeValidator(split_tags), Field(json_schema_extra=meta("Tags", placeholder="e.g. web, prod"))]

# The platform's password rule (length and character classes), checked without echoing the value.
Password = Annotated[SecretStr, AfterValidator(check_password), Field(json_schema_extra=meta("Password", widget="password"))]
