"""The API client's TLS and proxies on a real wire: certificates that fail (said which, never retried), a
profile's CA bundle and SSL_CERT_FILE trusted, a dead proxy named as the proxy, its credentials never shown,
a proxy setting httpx refuses and a key that cannot go in a header refused before anything is sent."""

from __future__ import annotations

import datetime
import ssl

import pytest
import trustme

from tui.api.client import ApiClient, RetryPolicy, decode_object
from tui.api.errors import (
    CertificateError,
    ConfigError,
    ProxyFailed,
)

from raw_http import RawServer, client, ok

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


def _server_ctx(cert: trustme.LeafCert) -> ssl.SSLContext:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(ctx)
    return ctx


@pytest.mark.parametrize(
    "case, reason",
    [
        ("self-signed", "self-signed|issuer is not trusted"),
        ("expired", "has expired"),
        ("wrong host", "does not match"),
    ],
)
async def test_certificate_failures_say_which_and_are_not_retried(ca, tmp_path, case, reason) -> None:
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    if case == "self-signed":
        cert = trustme.CA().issue_cert("127.0.0.1")  # another CA: not in the bundle
    elif case == "expired":
        past = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
        cert = ca.issue_cert("127.0.0.1", not_before=past - datetime.timedelta(days=30), not_after=past)
    else:
        cert = ca.issue_cert("api.example.test")
    async with RawServer(ok, _server_ctx(cert)) as srv:
        c = client(srv.url, ca_bundle=str(bundle))
        with pytest.raises(CertificateError, match=reason):
            await c.get_json("/x")
        assert c.sleeps == [], "a certificate failure is not retried"
        await c.aclose()


async def test_a_profile_ca_bundle_is_trusted_and_a_missing_one_is_named(ca, tmp_path) -> None:
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    async with RawServer(ok, _server_ctx(ca.issue_cert("127.0.0.1"))) as srv:
        c = client(srv.url, ca_bundle=str(bundle))
        assert await c.get_json("/x") == {"ok": True}
        await c.aclose()
        c = client(srv.url, ca_bundle=str(tmp_path / "missing.pem"))
        with pytest.raises(ConfigError, match="missing.pem"):
            await c.get_json("/x")
        await c.aclose()


async def test_ssl_cert_file_is_honoured(ca, tmp_path, monkeypatch) -> None:
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    async with RawServer(ok, _server_ctx(ca.issue_cert("127.0.0.1"))) as srv:
        c = client(srv.url)
        assert await c.get_json("/x") == {"ok": True}
        await c.aclose()


async def test_a_dead_proxy_is_named_as_the_proxy(monkeypatch) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{dead}")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    c = client("http://api.example.test", retry=RetryPolicy(deadline=0))
    with pytest.raises(ProxyFailed, match=f"through the proxy http://127.0.0.1:{dead}"):
        await c.get_json("/x")
    await c.aclose()


async def test_proxy_credentials_are_never_shown_or_logged(monkeypatch, caplog) -> None:
    import logging
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    monkeypatch.setenv("HTTP_PROXY", f"http://ops:hunter2@127.0.0.1:{dead}")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    c = client("http://api.example.test", retry=RetryPolicy(deadline=0))
    with caplog.at_level(logging.DEBUG, logger="cloudtui"), pytest.raises(ProxyFailed) as failed:
        await c.get_json("/x")
    await c.aclose()
    assert f"http://ops:•••@127.0.0.1:{dead}" in failed.value.message
    assert "hunter2" not in failed.value.message + failed.value.hint + caplog.text


@pytest.mark.parametrize(
    "method", ["GET", "POST"]
)  # a first GET makes httpx's sync client, anything else the async one
async def test_a_proxy_setting_httpx_refuses_is_a_configuration_error(monkeypatch, method) -> None:
    monkeypatch.setenv("HTTP_PROXY", "ftp://ops:hunter2@proxy.example.test")
    async with RawServer(ok) as srv:
        c = client(srv.url)
        with pytest.raises(ConfigError, match="cannot set up the connection .*HTTP_PROXY") as refused:
            await c.request_data(method, "/x", decode=decode_object)
        assert "Unknown scheme for proxy URL ftp://" in refused.value.message and "URL(" not in refused.value.message
        assert "hunter2" not in refused.value.message and refused.value.label == "set-up"
        assert srv.requests == []
        await c.aclose()


async def test_a_key_that_cannot_go_in_a_header_is_refused_before_sending() -> None:
    async with RawServer(ok) as srv:
        c = ApiClient(srv.url, "clé-" + "k" * 30)
        with pytest.raises(ConfigError, match="must be ASCII"):
            await c.get_json("/x")
        assert srv.requests == []
        await c.aclose()
