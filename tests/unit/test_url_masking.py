"""A credential inside a URL is masked whole, in one linear pass (issue 32, items 2 and 14): the
userinfo ends where `urllib.parse.urlsplit` ends it (the last '@' of the authority), a password may
hold any character, and a long run of letters (a 100 KB name beside a VNC URL) costs no more than
reading it. Hypothesis's per-example deadline is what a quadratic pass trips on long inputs."""

from __future__ import annotations

from urllib.parse import urlsplit

import orjson
import pytest
from hypothesis import given, strategies as st

from tui.api import safe

M = safe.SECRET_MASK
USER = st.text("abcm1_-.", min_size=1, max_size=8)
HOST = st.from_regex(r"[a-z][a-z0-9-]{0,10}(\.[a-z0-9-]{1,8}){0,2}(:[0-9]{1,5})?", fullmatch=True)
PASSWORD = st.text("ab1/?#@ \"':%&=+!", min_size=1, max_size=40)
TAIL = st.text("ab1/?#:. ", max_size=20)  # a path, query or text after the URL: no '@'
LONG = st.integers(0, 120_000)  # a run of letters this long (a 100 KB name took 30 s before)


@pytest.mark.parametrize(
    "url, shown",
    [
        ("vnc://m1:p@ss@h", f"vnc://m1:{M}@h"),
        ("vnc://m1:p/ss@h:5900", f"vnc://m1:{M}@h:5900"),
        ("vnc://m1:p?ss@h", f"vnc://m1:{M}@h"),
        ("vnc://m1:p#ss@h", f"vnc://m1:{M}@h"),
        ("vnc://m1:p ss@h", f"vnc://m1:{M}@h"),
        ('vnc://m1:p"ss@h', f"vnc://m1:{M}@h"),
        ("https://h.example/a@b", "https://h.example/a@b"),  # an '@' in the path is no credential
        ("https://h.example:8443/a@b", f"https://h.example:{M}@b"),  # as vnc://m1:8443/x@h: masked
        ("http://[::1]:80/x@y", "http://[::1]:80/x@y"),
    ],
)
def test_the_whole_password_is_masked_whatever_it_holds(url, shown):
    assert safe.mask_userinfo(url) == shown


@given(USER, PASSWORD, HOST, TAIL, LONG, LONG)
def test_a_password_never_shows_in_long_text(user, password, host, tail, before, after):
    text = "a" * before + f" vnc://{user}:{password}@{host}{tail} " + "b" * after
    assert safe.mask_userinfo(text) == "a" * before + f" vnc://{user}:{M}@{host}{tail} " + "b" * after


@given(USER, st.text("ab1:@ \"'%&=+!", min_size=1, max_size=40), HOST)
def test_agrees_with_urlsplit(user, password, host):
    url = f"vnc://{user}:{password}@{host}/path"
    masked, host = urlsplit(safe.mask_userinfo(url)), urlsplit(url).netloc.rpartition("@")[2]
    assert (masked.username, masked.password, masked.netloc.rpartition("@")[2]) == (user, M, host)


@given(st.text("a:/@ ?#[]1", max_size=60), LONG)
def test_adversarial_text_is_read_once_and_masking_is_stable(text, run):
    text = text + "x" * run + text
    once = safe.mask_userinfo(text)
    assert safe.mask_userinfo(once) == once
    if "@" not in text.partition("://")[2]:
        assert once == text


@given(LONG, PASSWORD)
def test_a_listing_with_long_names_and_vnc_urls_decodes(run, password):
    body = orjson.dumps({"servers": [{"name": "n" * run + "://", "vnc_url": f"vnc://m1:{password}@h:5900"}] * 3})
    servers = safe.loads(body)["servers"]
    assert [s["vnc_url"] for s in servers] == [f"vnc://m1:{M}@h:5900"] * 3
    assert servers[0]["vnc_url"].secret == f"vnc://m1:{password}@h:5900" and servers[0]["name"] == "n" * run + "://"


@pytest.mark.anyio
async def test_a_large_answer_is_decoded_off_the_event_loop():
    import threading

    import httpx

    from tui.api.client import ApiClient

    body = orjson.dumps({"name": "n" * safe.LARGE_BODY, "vnc_url": "vnc://m1:pw@h"})
    threads: list[threading.Thread] = []

    def decode(content: bytes):
        threads.append(threading.current_thread())
        return safe.loads(content)

    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))
    client = ApiClient("http://api", "k", transport=transport)
    _, data = await client.request_data("GET", "/silicon/servers/x", decode=decode)
    assert data["vnc_url"] == f"vnc://m1:{M}@h" and threads and threads[0] is not threading.main_thread()
    await client.aclose()
