"""What a form knows of its pydantic model, without Textual: the fields it shows by path (nested
models, "exactly one of" variants), the messages it gives in the console's words, and the values
its controls hold as the model takes them. Used by the form widget, its screen and the form-rule
tests."""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

if TYPE_CHECKING:
    from pydantic import Discriminator
    from pydantic.fields import FieldInfo
    from pydantic_core import ErrorDetails

    Skipped = str | Discriminator | None  # a field left out by name: a variant's tag (its discriminator)


def is_bool(annotation: object) -> bool:
    return annotation is bool


def _is_list(annotation: object) -> bool:
    return typing.get_origin(annotation) is list


def _is_dict(annotation: object) -> bool:
    return typing.get_origin(annotation) is dict or annotation is dict


def _is_int(annotation: object) -> bool:
    return annotation is int or int in typing.get_args(annotation)


def submodel(annotation: object) -> type[BaseModel] | None:
    """The model of a nested form, or None."""
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def variants(info: FieldInfo) -> dict[str, type[BaseModel]] | None:
    """An "exactly one of" field's models by tag (a union of models with a `Literal` discriminator), or None."""
    disc = info.discriminator if isinstance(info.discriminator, str) else None
    members = typing.get_args(info.annotation)
    if disc is None or not members or not all(submodel(m) for m in members):
        return None
    return {str(typing.get_args(m.model_fields[disc].annotation)[0]): m for m in members}


def field_paths(model: type[BaseModel], prefix: str = "", skip: Skipped = None) -> list[str]:
    """Every field a form shows, by path: leaves, and each variant field's own (its choice)."""
    out: list[str] = []
    for name, info in model.model_fields.items():
        if name == skip:
            continue
        path = prefix + name
        sub, kinds = submodel(info.annotation), variants(info)
        if sub is not None:
            out += field_paths(sub, path + ".")
        elif kinds is not None:
            out.append(path)
            for tag, member in kinds.items():
                out += field_paths(member, f"{path}.{tag}.", skip=info.discriminator)
        else:
            out.append(path)
    return out


def info_at(model: type[BaseModel] | None, path: str) -> FieldInfo | None:
    """The pydantic field at `path` (a variant's tag steps into that variant), or None."""
    info, parts = None, path.split(".")
    while parts and model is not None:
        info = model.model_fields.get(parts.pop(0))
        if info is None:
            return None
        sub, kinds = submodel(info.annotation), variants(info)
        model = sub if sub is not None else (kinds.get(parts.pop(0)) if kinds is not None and parts else None)
    return info if not parts else None


def errors_by_field(exc: ValidationError, model: type[BaseModel] | None = None) -> dict[str, str]:
    """One message per field (by path), in the words a form shows: the rule broken ("at most 255
    characters", "from 1 to 720"), never pydantic's own sentence. A value not matching its field's
    pattern is told with the field's `rule` (its metadata), else with its example (placeholder).
    An error inside a field's value (a list's item) lands on the field."""
    known = field_paths(model) if model is not None else []
    out: dict[str, str] = {}
    for err in exc.errors():
        loc = [str(part) for part in err["loc"]]
        name = next(
            (".".join(loc[:n]) for n in range(len(loc), 0, -1) if ".".join(loc[:n]) in known),
            loc[0] if loc else "_form",
        )
        out.setdefault(name, _message(err, field_meta(model, name)))
    return out


def first_error(exc: ValidationError, model: type[BaseModel] | None = None) -> str:
    """The first refusal, in a form's words, named by its field ("ttl: from 60 to 2147483647"): what a
    form refused about a value that was not typed into it (a row's tags, a file's record)."""
    field, message = next(iter(errors_by_field(exc, model).items()), ("form", str(exc)))
    return f"{field}: {message}"


def field_meta(model: type[BaseModel] | None, name: str) -> dict[str, Any]:
    info = info_at(model, name)
    extra = info.json_schema_extra if info is not None else None
    return extra if isinstance(extra, dict) else {}


def widget_id(path: str) -> str:
    return path.replace(".", "--")


_RULES = {  # pydantic error type → the rule as a form says it, from the error's context
    "string_too_long": "at most {max_length} characters",
    "string_too_short": "at least {min_length} characters",
    "too_long": "at most {max_length} items",
    "too_short": "at least {min_length} items",
    "greater_than_equal": "at least {ge}",
    "greater_than": "more than {gt}",
    "less_than_equal": "at most {le}",
    "less_than": "less than {lt}",
    "literal_error": "one of {expected}",
    "enum": "one of {expected}",
}
_PLAIN = {
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "int_type": "a whole number",
    "float_parsing": "a number",
    "float_type": "a number",
    "bool_parsing": "yes or no",
    "bool_type": "yes or no",
    "uuid_parsing": "a UUID, such as 3f2d1c0b-aaaa-4bbb-8ccc-123456789abc",
    "list_type": "a list, comma-separated",
    "string_type": "text",
    "finite_number": "a finite number",
    "dict_type": "key=value lines",
    "model_type": "choose one of the options",
    "model_attributes_type": "choose one of the options",
    "union_tag_invalid": "choose one of the options",
    "union_tag_not_found": "choose one of the options",
}


def _message(err: ErrorDetails, meta: dict[str, Any]) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "missing" or (kind == "string_too_short" and ctx.get("min_length") == 1):
        return "required"
    if kind in ("too_short", "too_long") and ctx.get("min_length", ctx.get("max_length")) == 1:
        return "at least one" if kind == "too_short" else "at most one"  # not "at least 1 items"
    if kind == "string_pattern_mismatch":
        if meta.get("rule"):
            return str(meta["rule"])
        return (
            f"not in the expected form, such as {meta['placeholder']}"
            if meta.get("placeholder")
            else "not in the expected form"
        )
    if kind in _RULES:
        try:
            return _RULES[kind].format(**ctx)
        except (KeyError, IndexError, ValueError):
            pass
    if kind in _PLAIN:
        return _PLAIN[kind]
    return str(err["msg"]).removeprefix("Value error, ")


def form_values(model: type[BaseModel], raw: dict[str, Any]) -> dict[str, Any]:
    """What a form sends its model, from what its controls hold (`raw`: a checkbox's bool, a
    select's value, an input's text): lists split on commas, empty text left out (an optional
    number: None), an unticked checkbox False — so a rule on a default still runs."""
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if is_bool(info.annotation):
            out[name] = bool(raw.get(name, info.default if isinstance(info.default, bool) else False))
        elif name not in raw:
            continue
        elif not isinstance(raw[name], str):
            out[name] = raw[name]
        else:
            text = raw[name].strip()
            if _is_dict(info.annotation):  # key=value lines: the field's type parses them
                out[name] = text
            elif _is_list(info.annotation):
                out[name] = [t.strip() for t in text.split(",") if t.strip()]
            elif text:
                out[name] = text
            elif not info.is_required() and _is_int(info.annotation):
                out[name] = None
    return out


def texts(model: type[BaseModel], values: dict[str, Any]) -> list[tuple[str, str]]:
    """Every text in a form's values, with the path of the field holding it (a list's items and
    a key/value map's keys and values are their field's; a variant's fields sit under its tag)."""
    out: list[tuple[str, str]] = []

    def walk(model: type[BaseModel], value: object, prefix: str, skip: Skipped = None) -> None:
        for name, info in model.model_fields.items():
            if name == skip or not isinstance(value, dict) or name not in value:
                continue
            v, path = value[name], prefix + name
            sub, kinds = submodel(info.annotation), variants(info)
            if sub is not None:
                walk(sub, v, path + ".")
            elif kinds is not None and isinstance(v, dict) and v.get(info.discriminator) in kinds:
                tag = v[info.discriminator]
                walk(kinds[tag], v, f"{path}.{tag}.", info.discriminator)
            else:
                items = (
                    [t for pair in v.items() for t in pair]
                    if isinstance(v, dict)
                    else v
                    if isinstance(v, list)
                    else [v]
                )
                out.extend((path, t) for t in items if isinstance(t, str))

    walk(model, values, "")
    return out
