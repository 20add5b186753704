"""A model's prediction endpoint (spec 2 §4.4): `GET` documents it, `POST` predicts.

The spec does not show the payload's keys; these are the tensor-serving backend's REST keys.
The body is one JSON object holding the data under `instances` (a list, one item per input) or
`inputs` (the same, by its other name), in one of three forms:

- array data: numbers, or lists of numbers nested to any depth —
  `{"instances": [[1.0, 2.0], [3.0, 4.0]]}`;
- string data: `{"instances": ["a sentence", "another"]}`;
- image data: each item `{"b64": "<base64 of the image bytes>"}` with, beside the data,
  `img_mode` (`RGB` or `BGR`), `img_format` (`channels_last` or `channels_first`) and `img_size`
  (`[height, width]`, what the model expects).

The answer is `{"predictions": [...]}`, array-shaped only, one item per input, deterministic:
- array data: each number x becomes x / 2 + 2, in the input's shape (after the model's
  `config.input_type` cast: an integer type truncates, an unsigned one refuses a negative);
- string data: each string becomes 8 numbers in [-1, 1] (an embedding from its hash);
- image data: each image becomes 3 class scores summing to 1 (a softmax of its mean red, green and
  blue levels, read in its mode and channel order).

A failure answers `{"error": "<what is wrong>"}` instead: 400 for bad input, 503 while the model
is not `ready` (paused, being deployed…), 404 when no model is served at that address.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import math
from typing import Any

MAX_VALUES = 100_000  # numbers, strings' characters or image bytes in one request
MODES = ("RGB", "BGR")
FORMATS = ("channels_last", "channels_first")
IMAGE_KEYS = ("img_mode", "img_format", "img_size")


class PredictionError(Exception):
    """Bad input: answered 400 `{"error": message}`."""


def documentation(model: dict[str, Any], url: str) -> dict[str, Any]:
    """What GET on the endpoint answers: how to call it, the three payload forms, the answers."""
    return {
        "model": {
            "id": model["id"],
            "name": model["name"],
            "framework": model["framework"],
            "input_type": model["config"].get("input_type", "float32"),
        },
        "predict": {
            "method": "POST",
            "url": url,
            "headers": {"X-Auth-Token": "<your secret key>", "Content-Type": "application/json"},
        },
        "payloads": {
            "array": {"instances": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]},
            "string": {"instances": ["a sentence to score"]},
            "image": {
                "instances": [{"b64": "<base64 of the image>"}],
                "img_mode": "RGB",
                "img_format": "channels_last",
                "img_size": [224, 224],
            },
        },
        "inputs_key": "'instances', or 'inputs' by its other name",
        "response": {
            "predictions": "one array per input: x/2+2 for numbers, 8 numbers for a string, 3 class scores for an image"
        },
        "failure": {"error": "what is wrong (400 bad input, 503 the model is not ready)"},
    }


def predict(body: object, input_type: str = "float32") -> dict[str, Any]:
    if not isinstance(body, dict):
        raise PredictionError("the body is a JSON object")
    keys = [k for k in ("instances", "inputs") if k in body]
    if len(keys) != 1:
        raise PredictionError("give the data under 'instances' (or 'inputs'), one of them")
    unknown = sorted(set(body) - {keys[0], "signature_name", *IMAGE_KEYS})
    if unknown:
        raise PredictionError(f"unknown key(s): {', '.join(unknown)}")
    data = body[keys[0]]
    if not isinstance(data, list) or not data:
        raise PredictionError(f"'{keys[0]}' is a non-empty list, one item per input")
    if all(isinstance(i, dict) for i in data):
        return {"predictions": _images(data, body)}
    if any(k in body for k in IMAGE_KEYS):
        raise PredictionError(f'{", ".join(IMAGE_KEYS)} go with image data ({{"b64": …}} items)')
    if all(isinstance(i, str) for i in data):
        if sum(len(s) for s in data) > MAX_VALUES:
            raise PredictionError(f"too much data: at most {MAX_VALUES} characters")
        return {"predictions": [_embedding(s) for s in data]}
    count = [0]
    return {"predictions": [_numbers(i, input_type, count, f"{keys[0]}[{n}]") for n, i in enumerate(data)]}


def _numbers(value: object, input_type: str, count: list[int], where: str) -> object:
    if isinstance(value, list):
        return [_numbers(v, input_type, count, f"{where}[{n}]") for n, v in enumerate(value)]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise PredictionError(
            f"{where} is not a number: array data holds numbers (or strings, or images, one form per request)"
        )
    count[0] += 1
    if count[0] > MAX_VALUES:
        raise PredictionError(f"too much data: at most {MAX_VALUES} numbers")
    if input_type.startswith(("int", "uint")):
        if input_type.startswith("uint") and value < 0:
            raise PredictionError(f"{where} is negative: the model reads {input_type}")
        value = int(value)
    return round(value / 2 + 2, 6)


def _embedding(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [round(b / 127.5 - 1, 4) for b in digest[:8]]


def _images(items: list[dict[str, Any]], body: dict[str, Any]) -> list[list[float]]:
    mode, fmt, size = body.get("img_mode"), body.get("img_format"), body.get("img_size")
    if mode not in MODES:
        raise PredictionError(f"img_mode is {' or '.join(MODES)}")
    if fmt not in FORMATS:
        raise PredictionError(f"img_format is {' or '.join(FORMATS)}")
    if not (
        isinstance(size, list)
        and len(size) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and 0 < n <= 8192 for n in size)
    ):
        raise PredictionError("img_size is [height, width], two positive integers")
    out, total = [], 0
    for n, item in enumerate(items):
        if set(item) != {"b64"} or not isinstance(item["b64"], str):
            raise PredictionError(f'instances[{n}] is {{"b64": "<base64 of the image>"}}')
        try:
            raw = base64.b64decode(item["b64"], validate=True)
        except (binascii.Error, ValueError):
            raise PredictionError(f"instances[{n}].b64 is not base64") from None
        total += len(raw)
        if not raw or total > MAX_VALUES * 10:
            raise PredictionError(f"instances[{n}].b64 holds no image" if not raw else "too much data")
        if fmt == "channels_last":  # pixel by pixel: r g b r g b …
            channels = [raw[c::3] for c in range(3)]
        else:  # plane by plane: every r, then every g, then every b
            third = max(1, len(raw) // 3)
            channels = [raw[:third], raw[third : 2 * third], raw[2 * third :]]
        means = [sum(c) / len(c) / 255 if c else 0.0 for c in channels]
        if mode == "BGR":
            means.reverse()
        exps = [math.exp(4 * m) for m in means]
        out.append([round(e / sum(exps), 6) for e in exps])
    return out
