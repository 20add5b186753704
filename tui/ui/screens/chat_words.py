"""The chat's words about what it shows: a message cut short for a status line, why an event of the
stream was skipped (logged whole), and a conversation as Markdown to save."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

from ...api.safe import clean

log = logging.getLogger("cloudtui.ui")


def short(text: str) -> str:
    text = clean(" ".join(text.split()))
    return text if len(text) <= 40 else text[:39] + "…"


def skipped(err: ValueError, data: str) -> str:
    """Why an event was skipped, as said under the answer; the event itself goes to the log."""
    why = clean(str(err))[:80]
    shown = clean(data)
    shown = shown[:300] + ("…" if len(shown) > 300 else "")
    log.warning("Chat: an event not understood was skipped (%s): %s", why, shown)
    return why


def transcript(
    title: str, model: str | None, system: str, messages: list[dict[str, Any]], incomplete: dict[int, str]
) -> str:
    """The conversation as Markdown: who said what, and which answers are not whole."""
    lines = (
        [f"# {title}", ""]
        + ([f"**Model:** {model}", ""] if model else [])
        + ([f"**System:** {system}", ""] if system else [])
    )
    for i, m in enumerate(messages):
        lines += [f"**{'You' if m['role'] == 'user' else 'Model'}:**", "", m["content"], ""]
        if i in incomplete:
            lines += [f"_(answer {incomplete[i]}: not whole)_", ""]
    return "\n".join(lines)


def save(path: Path, text: str) -> str | None:
    """The conversation written to `path`; what to say when it could not be, else None."""
    from ...products.kit.files import write_private
    from ...products.kit.flows import Refused

    try:
        write_private(path, text.encode("utf-8"))  # the owner's alone, never through a link
    except Refused as err:
        return f"✖ Not saved: {clean(str(err))}."
    except OSError as err:
        return f"✖ Not saved: {clean(str(err.strerror or err))} ({clean(str(path))})."
    return None
