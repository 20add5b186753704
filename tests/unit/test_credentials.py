"""A credential inside a URL from the API (`vnc://user:secret@host`) never shows: decoded bodies
carry it masked wherever they are shown, dumped or logged, and the value as sent stays at hand for
the operator to reveal or copy on request."""

from __future__ import annotations

import json

from tui.api import safe

BODY = (
    b'{"vnc_url": "vnc://m1:s3cret@h.example:5900", "nodes": [{"url": "https://ghp_tok3n@git.example/x"}],'
    b' "mail": "ops@example.com", "path": "https://h.example/a@b", "plain": "https://h.example/"}'
)


def test_a_url_credential_is_masked_and_kept_for_reveal():
    data = safe.loads(BODY)
    shown = json.dumps(data, ensure_ascii=False)
    assert "s3cret" not in shown and "ghp_tok3n" not in shown
    assert data["vnc_url"] == "vnc://m1:•••@h.example:5900" and data["nodes"][0]["url"] == "https://•••@git.example/x"
    assert safe.credentials(data) == {
        "vnc_url": "vnc://m1:s3cret@h.example:5900",
        "nodes[0].url": "https://ghp_tok3n@git.example/x",
    }
    assert (data["mail"], data["path"], data["plain"]) == (
        "ops@example.com",
        "https://h.example/a@b",
        "https://h.example/",
    )


def test_text_that_quotes_a_url_is_masked_too():
    assert safe.mask_userinfo("proxy http://u:p4ss@proxy:3128 refused") == "proxy http://u:•••@proxy:3128 refused"
    assert "p4ss" not in f"{safe.Masked('http://u:p4ss@proxy:3128')}"
