"""The sandbox's generative "model": no network, no weights — answers built from the prompt's words,
the same answer for the same prompt and model.

Tokens are words (runs of letters and digits) and single signs, so an answer's pieces are its
tokens: a piece is a word with the space before it, or a sign. The prompt counts its messages'
tokens plus one per message (the framing of a turn).

- By default the answer repeats the first words of the last user message and says what it is.
- A last user message asking for "N words" or "N tokens" (for example "write 2000 words about
  clouds") gets an answer of exactly N tokens (at most `MAX_ANSWER`): sentences drawn from its own
  words and a small vocabulary, each ended by a full stop, in paragraphs.
- `max_tokens` (or `max_completion_tokens`) cuts the answer there, with finish_reason "length";
  otherwise the finish_reason is "stop".
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

MAX_ANSWER = 16_384
TOKEN = re.compile(r"\w+|[^\w\s]")
PIECE = re.compile(r"(\s*)(\w+|[^\w\s])")
ASK = re.compile(r"(\d{1,6})\s*-?\s*(?:words?|tokens?)\b", re.IGNORECASE)
VOCABULARY = (
    "the sandbox answers from your own words without a network or any weights so the same question always "
    "gets the same answer and a long answer streams one piece at a time"
).split()
MODELS = ("sandbox-chat-small", "sandbox-chat-large", "sandbox-coder")
OWNER = "sandbox"


def count(text: str) -> int:
    return len(TOKEN.findall(text))


def text_of(content: object) -> str:
    """A message's text: a string, or the text parts of a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def prompt_tokens(messages: list[dict[str, Any]]) -> int:
    return sum(count(text_of(m.get("content"))) + 1 for m in messages)


def pieces(text: str) -> list[str]:
    """The text as tokens, each word with one space before it when the text had any."""
    return [(" " if space else "") + token for space, token in PIECE.findall(text)]


def answer(model: str, messages: list[dict[str, Any]], max_tokens: int | None) -> tuple[list[str], str]:
    """The answer's pieces and its finish_reason."""
    last = next((text_of(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), "")
    words = re.findall(r"\w+", last)
    asked = ASK.search(last)
    if asked:
        out = _long(min(int(asked.group(1)), MAX_ANSWER), words, f"{model}\n{last}")
    else:
        said = " ".join(words[:12]) or "nothing"
        out = pieces(
            f"You said: {said}. I am {model}, the sandbox's model: I answer from your own words, "
            "offline, and the same question always gets the same answer."
        )
    if max_tokens is not None and len(out) > max_tokens:
        return out[:max_tokens], "length"
    return out, "stop"


def _long(n: int, words: list[str], seed: str) -> list[str]:
    """Exactly `n` tokens of sentences of 5 to 14 words, each with its full stop, in paragraphs of
    3 to 6 sentences (a paragraph's first word comes after a blank line)."""
    rng = random.Random(hashlib.sha256(seed.encode("utf-8")).digest())
    pool = [w.lower() for w in words if not w.isdigit()] + list(VOCABULARY)
    out: list[str] = []
    left = rng.randint(3, 6)  # sentences until the paragraph ends
    while len(out) < n:
        sentence = [rng.choice(pool) for _ in range(rng.randint(5, 14))]
        sentence[0] = sentence[0].capitalize()
        lead = "\n\n" if out and left == 0 else " " if out else ""
        left = rng.randint(3, 6) if left == 0 else left
        out += [(lead if i == 0 else " ") + w for i, w in enumerate(sentence)] + ["."]
        left -= 1
    return out[:n]
