"""A prediction's payload (spec 2 §4.4), as typed or loaded in the playground: array data (typed,
or from a JSON or CSV file), string data, or an image from disk. The keys are the tensor-serving
backend's: `{"instances": [...]}` answered by `{"predictions": [...]}`. An image is referred to by
its path in the payload (`"image_file"`) and read, base64-encoded, only when the request is sent,
so the editor holds a few lines rather than a megabyte of base64."""

from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..kit.fields import json_object

if TYPE_CHECKING:
    from ..kit.base import Row

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".webp", ".tif", ".tiff"}
MAX_IMAGE = 1_000_000  # bytes
TEMPLATE = '{"instances": [[1.0, 2.0, 3.0]]}\n'
IMAGE_KEYS = {"img_mode": ("RGB", "BGR"), "img_format": ("channels_last", "channels_first")}


def load(path: Path) -> str:
    """The payload's text for a file picked with ctrl+o: JSON as it is (a bare list becomes the
    instances), CSV as rows of numbers (or strings), an image as a reference with the image fields
    to check."""
    suffix = path.suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return (
            '{\n  "image_file": '
            + json.dumps(str(path))
            + ',\n  "img_mode": "RGB",\n  "img_format": "channels_last",\n'
            '  "img_size": [224, 224]\n}\n'
        )
    text = path.read_bytes().decode("utf-8")
    if suffix == ".csv":
        return json.dumps({"instances": csv_rows(text)}) + "\n"
    value = json.loads(text)
    return json.dumps(value if isinstance(value, dict) else {"instances": value}, indent=2) + "\n"


def csv_rows(text: str) -> list[Any]:
    """Each CSV row a list of numbers (a first row of words above rows of numbers is a header,
    skipped); a single column becomes plain values; rows that are not numbers are string inputs."""
    rows = [r for r in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in r)]
    numbers = [_numbers(r) for r in rows]
    if len(rows) > 1 and numbers[0] is None and numbers[1] is not None:
        rows, numbers = rows[1:], numbers[1:]
    if any(n is not None for n in numbers) and any(n is None for n in numbers):  # numbers, but a row is not
        bad = next(i for i, n in enumerate(numbers) if n is None)
        raise ValueError(
            f"row {bad + 1} of the CSV is not numbers ({','.join(rows[bad])[:40]}): a file is all numbers or all text"
        )
    out: list[Any] = [(n if len(n) > 1 else n[0]) if n is not None else ",".join(r) for r, n in zip(rows, numbers)]
    if not out:
        raise ValueError("the CSV file holds no rows")
    return out


def _numbers(row: list[str]) -> list[float] | None:
    try:
        return [float(cell) for cell in row]
    except ValueError:
        return None


def body(text: str, row: Row | None = None) -> dict[str, Any]:
    """The request body for the payload's text: checked before sending (each refusal says what)."""
    value = json_object(text, '{"instances": [[1, 2]]}')
    if "image_file" in value:
        return image_body(value)
    data = value.get("instances", value.get("inputs"))
    if not isinstance(data, list) or not data:
        raise ValueError(
            'put the data under "instances": a list with one item per input (numbers, lists of numbers, or strings)'
        )
    return value


def image_body(value: dict[str, Any]) -> dict[str, Any]:
    path = Path(str(value.pop("image_file"))).expanduser()
    for key, allowed in IMAGE_KEYS.items():
        if value.get(key) not in allowed:
            raise ValueError(f"{key} is one of {', '.join(allowed)}")
    size = value.get("img_size")
    if not (isinstance(size, list) and len(size) == 2 and all(isinstance(n, int) and n > 0 for n in size)):
        raise ValueError("img_size is the image shape the model expects: [height, width], such as [224, 224]")
    try:
        if path.stat().st_size > MAX_IMAGE:
            raise ValueError(f"the image is over {MAX_IMAGE:,} bytes")
        data = path.read_bytes()
    except OSError as err:
        raise ValueError(f"the image could not be read: {err.strerror or err}") from None
    return {**value, "instances": [{"b64": base64.b64encode(data).decode("ascii")}]}
