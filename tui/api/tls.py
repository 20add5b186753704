"""TLS for the API: which certificates are trusted, and what a verification failure means.

Trust, in order: the profile's `ca_bundle` (a file or a folder of certificates), else
`SSL_CERT_FILE` / `SSL_CERT_DIR` from the environment, else the operating system's trust store
through `truststore` (as pip does), so a company's internal CA installed on the jump host just works.
A bundle that does not exist is named at start (`check_bundle`), not discovered at the first request.
"""

from __future__ import annotations

import os
import ssl
from pathlib import Path


class BundleMissing(ValueError):
    """A configured CA bundle file or folder does not exist."""


def trust_source(ca_bundle: str | None = None) -> tuple[str, str | None]:
    """(where trust comes from, the path) — "profile", "SSL_CERT_FILE", "SSL_CERT_DIR" or "system"."""
    if ca_bundle:
        return "profile ca_bundle", ca_bundle
    for var in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
        if os.environ.get(var):
            return var, os.environ[var]
    return "system", None


def check_bundle(ca_bundle: str | None = None) -> str | None:
    """None when the trust source is usable, else a one-line reason naming the missing path."""
    source, path = trust_source(ca_bundle)
    if path is None:
        return None
    where = Path(path).expanduser()
    if not where.exists():
        return f"the CA bundle {path} (from {source}) does not exist"
    if not (where.is_file() or where.is_dir()):  # a FIFO or a device would hang the start, and the quit
        return f"the CA bundle {path} (from {source}) is not a file or a folder"
    return None


def context(ca_bundle: str | None = None) -> ssl.SSLContext:
    """The SSLContext to verify the API's certificate with."""
    problem = check_bundle(ca_bundle)
    if problem:
        raise BundleMissing(problem)
    source, path = trust_source(ca_bundle)
    if path is None:
        import truststore

        return truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    p = Path(path).expanduser()
    if p.is_dir():
        return ssl.create_default_context(capath=str(p))
    return ssl.create_default_context(cafile=str(p))


# OpenSSL's verify codes (X509_V_ERR_*) that an operator can act on, in their words.
_CODES = {
    10: "the certificate has expired",
    9: "the certificate is not yet valid",
    18: "the certificate is self-signed",
    19: "a certificate in the chain is self-signed and not trusted",
    20: "the certificate's issuer is not trusted (unknown CA)",
    21: "the certificate chain is incomplete",
    23: "the certificate has been revoked",
    62: "the certificate does not match the host name",
    64: "the certificate does not match the IP address",
}


def certificate_problem(exc: BaseException) -> str | None:
    """What is wrong with the server's certificate, if `exc` (or what caused it) says so."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, ssl.SSLCertVerificationError):
            reason = _CODES.get(getattr(cur, "verify_code", 0) or 0)
            message = str(getattr(cur, "verify_message", "") or "")
            if reason is None:
                low = message.lower()
                reason = next((words for key, words in _MESSAGES if key in low), message or "it could not be verified")
            return reason
        text = str(cur)
        if "CERTIFICATE_VERIFY_FAILED" in text:
            low = text.lower()
            return next((words for key, words in _MESSAGES if key in low), "it could not be verified")
        cur = cur.__cause__ or cur.__context__
    return None


_MESSAGES = (
    ("expired", "the certificate has expired"),
    ("self-signed", "the certificate is self-signed"),
    ("self signed", "the certificate is self-signed"),
    ("hostname mismatch", "the certificate does not match the host name"),
    ("ip address mismatch", "the certificate does not match the IP address"),
    ("unable to get local issuer", "the certificate's issuer is not trusted (unknown CA)"),
)


def describe_source(ca_bundle: str | None = None) -> str:
    source, path = trust_source(ca_bundle)
    return "the system trust store" if path is None else f"{path} ({source})"
