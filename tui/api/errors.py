"""Typed API errors built from an HTTP status and whatever body came with it.

The platform's error bodies vary by product and age (spec/4 "Error bodies"): most carry `message`
and `type`, some only `message`, 429 carries nothing at all, and a proxy in between may answer with
HTML. Every case must still give the user the status, the best message available and a hint of what
to do, so parsing here never raises.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..records import record
from . import safe


@record
class ApiError(Exception):
    """Any failure talking to the API. `status` is 0 when no HTTP answer was received."""

    status: int
    message: str
    type: str | None = None
    body: dict[str, Any] = field(default_factory=dict)
    method: str = ""
    url: str = ""
    # What the answer's headers said of limits (`retry-after`, `x-ratelimit-*`), cleaned.
    limits: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(self.summary)

    def __str__(self) -> str:  # dataclass would otherwise print every field
        return self.summary

    NO_ANSWER = "failed"  # a list's title says this when no HTTP answer came (the status otherwise)

    @property
    def label(self) -> str:
        """A word for a list's title: the HTTP status, or what failed when no answer came."""
        return str(self.status) if self.status else self.NO_ANSWER

    @property
    def summary(self) -> str:
        head = f"{self.status} {self.message}" if self.status else self.message
        details = self.field_messages()
        if details:
            head += ": " + "; ".join(f"{k} {v}" for k, v in details.items())
        quotas = self.quota_details()
        if quotas:
            head += " (" + "; ".join(quotas) + ")"
        return head

    def quota_details(self) -> list[str]:
        """`details` of a quota error ({resource, quota, current}) as "resource: current of quota"."""
        out = []
        details = self.body.get("details")
        for d in details if isinstance(details, list) else []:
            if isinstance(d, dict) and "quota" in d and "current" in d:
                out.append(
                    f"{d.get('resource', 'quota')}: {_amount(d['current'], d.get('resource'))} used of "
                    f"{_amount(d['quota'], d.get('resource'))}"
                )
        return out

    @property
    def hint(self) -> str:
        return "Check the request and try again."

    def field_messages(self) -> dict[str, str]:
        """Per-field reasons, from `details` (invalid_arguments) or `fields` (older products)."""
        out: dict[str, str] = {}
        details = self.body.get("details")
        if isinstance(details, list):
            for d in details:
                if isinstance(d, dict) and d.get("argument_name"):
                    reason = d.get("help_message") or d.get("reason") or "invalid"
                    out[str(d["argument_name"])] = str(reason)
        fields_ = self.body.get("fields")
        if isinstance(fields_, dict):
            for name, msgs in fields_.items():
                out[str(name)] = "; ".join(map(str, msgs)) if isinstance(msgs, list) else str(msgs)
        return out


class InvalidArguments(ApiError):
    @property
    def hint(self) -> str:
        return "Correct the named fields and submit again."


class AuthenticationError(ApiError):
    @property
    def hint(self) -> str:
        return "The secret key was rejected: check it (ctrl+l to log in again) and its project."


class PermissionDenied(ApiError):
    @property
    def hint(self) -> str:
        if "quota" in self.message.lower():
            return "A quota is reached: free resources or ask for a higher quota."
        return "Your API key lacks the permission for this; ask the organization owner for it."


class NotFound(ApiError):
    @property
    def hint(self) -> str:
        return "It may have been deleted meanwhile; refresh the list (r)."


class Conflict(ApiError):
    @property
    def hint(self) -> str:
        if self.type == "transient_state":
            state = self.body.get("current_state")
            return f"The resource is busy{f' ({state})' if state else ''}; wait for it to settle and retry."
        return "It conflicts with an existing resource; choose another name or refresh."


class PreconditionFailed(ApiError):
    @property
    def hint(self) -> str:
        return str(self.body.get("help_message") or "A precondition is not met; see the message.")


class RateLimited(ApiError):
    @property
    def hint(self) -> str:
        if self.method and self.method.upper() not in ("GET", "HEAD"):  # sent again until its budget ran out
            return (
                "Too many requests: it was not applied; it was sent again while its time allowed, and is not "
                "now; J retries it from the journal."
            )
        return "Too many requests: cloudtui backs off and retries reads; wait a moment."


class ServerError(ApiError):
    @property
    def hint(self) -> str:
        return "The platform failed on its side; retry later."


class NetworkError(ApiError):
    NO_ANSWER = "unreachable"

    @property
    def hint(self) -> str:
        return "No answer from the API: check the network, the API URL and any proxy."


class CertificateError(NetworkError):
    """The server's certificate failed verification: never retried, the reason is named."""

    NO_ANSWER = "certificate refused"

    @property
    def hint(self) -> str:
        return (
            "Check the API URL's host name; for a private CA set ca_bundle in the profile, or "
            "SSL_CERT_FILE / SSL_CERT_DIR."
        )


class ProxyFailed(NetworkError):
    """The proxy in the environment could not be reached or refused to connect us."""

    NO_ANSWER = "proxy unreachable"

    @property
    def hint(self) -> str:
        return "Check the proxy (HTTPS_PROXY / HTTP_PROXY / ALL_PROXY), or exclude the API host with NO_PROXY."


class ConfigError(ApiError):
    """Nothing was sent: the local set-up (a CA bundle, the key's characters) is unusable."""

    NO_ANSWER = "set-up"

    @property
    def hint(self) -> str:
        return "Fix the configuration named above and start again."


class UntrustedOrigin(ApiError):
    """Nothing was sent: the request goes to an origin the profile does not name (an absolute URL
    from API data), and the secret key goes only to the origins the operator trusts."""

    NO_ANSWER = "not sent"

    origin: str = ""

    @property
    def hint(self) -> str:
        return (
            f"The secret key was not sent to {self.origin}. Allow that origin when asked "
            "(it is remembered in the profile), then try again."
        )


class Redirected(ApiError):
    """A 3xx that cloudtui does not follow (a write, or another origin): never counted as success."""

    @property
    def location(self) -> str:
        return str(self.body.get("location") or "")

    @property
    def hint(self) -> str:
        return (
            "Not followed (the key goes only to the profile's own addresses). Once, a proxy or the platform's "
            "front may have answered so: try again; every time, the API URL is not the one it answers on."
        )


class BadBody(ApiError):
    """A 2xx whose body is not the JSON expected (an HTML page from a proxy, a cut-off body)."""

    @property
    def hint(self) -> str:
        return "Something between cloudtui and the API answered instead of it; reads are retried, try again shortly."


class OutcomeUnknown(ApiError):
    """A write that may have reached the platform without a readable answer (timeout after sending,
    5xx, unreadable 2xx body): it may have been applied. Never advise a blind retry."""

    cause: str = ""

    @property
    def hint(self) -> str:
        return (
            "It may have been applied: look before trying again (r refreshes); "
            "sending it again blindly could do it twice."
        )


class Unexpected(ApiError):
    """An exception that is not an API failure: a bug in cloudtui, reported with where the log is."""

    NO_ANSWER = "bug"

    @property
    def hint(self) -> str:
        where = self.body.get("log")
        return "This is a bug in cloudtui" + (
            f"; details are in {where}." if where else "; run with --debug-log FILE for details."
        )


class ReadOnlyError(ApiError):
    NO_ANSWER = "read-only"

    @property
    def hint(self) -> str:
        return "cloudtui runs with --read-only: restart without it to change anything."


class ValidationFailed(ApiError):
    """Refused before sending: the request breaks a rule of the spec."""

    @property
    def hint(self) -> str:
        return "Correct the named fields and submit again."


_BY_STATUS: dict[int, type[ApiError]] = {
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFound,
    409: Conflict,
    412: PreconditionFailed,
    429: RateLimited,
}

_DEFAULT_MESSAGE = {
    400: "bad request",
    401: "authentication is denied",
    403: "insufficient permissions",
    404: "resource is not found",
    409: "conflict",
    412: "precondition is not respected",
    429: "too many requests",
}


def parse_body(content: bytes) -> dict[str, Any]:
    """The JSON object in `content` (made safe to show), or {} for an empty, non-JSON or non-object body."""
    if not content:
        return {}
    try:
        data = safe.loads(content)
    except (ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def error_from_response(status: int, content: bytes, method: str = "", url: str = "") -> ApiError:
    body = parse_body(content)
    message = body.get("message")
    if not isinstance(message, str) or not message:
        nested = body.get("error")  # OpenAI-style bodies
        if isinstance(nested, dict) and isinstance(nested.get("message"), str):
            message = nested["message"]
    if not isinstance(message, str) or not message:
        text = safe.text(content).strip() if content and not body else ""
        if text and not text.lstrip().startswith("<") and len(text) <= 200:
            message = text
        else:
            message = _DEFAULT_MESSAGE.get(status) or ("server error" if status >= 500 else "error")
    typ = body.get("type") if isinstance(body.get("type"), str) else None
    if status == 400:
        cls: type[ApiError] = (
            InvalidArguments if typ == "invalid_arguments" or "details" in body or "fields" in body else ApiError
        )
    elif status >= 500:
        cls = ServerError
    else:
        cls = _BY_STATUS.get(status, ApiError)
    return cls(status=status, message=message, type=typ, body=body, method=method, url=url)


def _amount(value: object, resource: object) -> str:
    """Sizes (a resource named *_size) in GB, other quotas as counts."""
    if isinstance(value, int) and "size" in str(resource):
        return f"{value / 1_000_000_000:g} GB"
    return str(value)


def log_file() -> str | None:
    """The file cloudtui's log goes to, when one is set up (named in "this is a bug" messages)."""
    import logging

    for handler in logging.getLogger("cloudtui").handlers:
        name = getattr(handler, "baseFilename", None) or getattr(getattr(handler, "inner", None), "baseFilename", None)
        if name:
            return str(name)
    return None


def log_problem(open_now: bool = False) -> str | None:
    """Why cloudtui's log keeps nothing (its folder cannot be made or written), or None. `open_now`
    first opens a log that waits for its first record (file I/O: call it off the UI thread)."""
    import logging

    for handler in logging.getLogger("cloudtui").handlers:
        if open_now and hasattr(handler, "open"):
            handler.open()
        problem = getattr(handler, "problem", None)
        if problem:
            return str(problem)
    return None


def as_api_error(err: BaseException, url: str = "") -> ApiError:
    """Any exception met while talking to the API, as an ApiError: API failures as they are, anything
    else logged with its traceback and reported as a bug, with where the log is."""
    if isinstance(err, ApiError):
        return err
    import logging

    logging.getLogger("cloudtui.api").error("unexpected error (url %s)", url, exc_info=err)
    where = log_file()
    return Unexpected(
        0, f"unexpected {type(err).__name__}: {safe.clean(str(err))}", body={"log": where} if where else {}, url=url
    )
