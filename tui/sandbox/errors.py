"""Error responses of the sandbox, with the exact bodies of spec/4 "Error bodies"."""

from __future__ import annotations

from typing import Any, TypeVar

from starlette.responses import JSONResponse, Response

T = TypeVar("T")


class HttpError(Exception):
    """Raised by handlers; turned into the matching JSON response by the app."""

    def __init__(self, status: int, body: dict[str, Any] | None) -> None:
        super().__init__(status, body)
        self.status = status
        self.body = body

    def response(self) -> Response:
        if self.body is None:
            headers = {"X-Envoy-Ratelimited": "true"} if self.status == 429 else None
            return Response(status_code=self.status, headers=headers)
        return JSONResponse(self.body, status_code=self.status)


def platform_error(status: int, type_: str, message: str, **fields: object) -> HttpError:
    """An error with the platform's body: its type and message, then the fields of that type."""
    return HttpError(status, {"type": type_, "message": message, **fields})


def invalid_arguments(*details: tuple[str, str, str]) -> HttpError:
    """400 with one detail per (argument_name, reason, help_message); reason in required|format|constraint|unknown."""
    return platform_error(
        400,
        "invalid_arguments",
        "invalid argument(s)",
        details=[{"argument_name": a, "reason": r, "help_message": h} for a, r, h in details],
    )


def invalid_request(message: str) -> HttpError:
    return platform_error(400, "invalid_request_error", message)


def denied() -> HttpError:
    return platform_error(
        401, "denied_authentication", "authentication is denied", method="api_key", reason="not_found"
    )


def permissions_denied(action: str, resource: str) -> HttpError:
    return platform_error(
        403, "permissions_denied", "insufficient permissions", details=[{"action": action, "resource": resource}]
    )


def not_found(resource: str, resource_id: str) -> HttpError:
    return platform_error(404, "not_found", "resource is not found", resource=resource, resource_id=resource_id)


def or_not_found(obj: T | None, resource: str, resource_id: str) -> T:
    """`obj`, looked up by `resource_id`: a 404 as a `resource` where it is None."""
    if obj is None:
        raise not_found(resource, resource_id)
    return obj


def transient_state(resource: str, resource_id: str, current_state: str | None) -> HttpError:
    """409: the resource is moving (creating, deleting…) and cannot take this request now."""
    return platform_error(
        409,
        "transient_state",
        "resource is in a transient state",
        resource=resource,
        resource_id=resource_id,
        current_state=current_state,
    )


def already_exists(resource: str, help_message: str) -> HttpError:
    return platform_error(
        409, "already_exists", "resource already exists", resource=resource, help_message=help_message
    )


def precondition_failed(precondition: str, help_message: str, **extra: object) -> HttpError:
    """412; `extra`: the fields some products add (the resource still in use)."""
    return platform_error(
        412,
        "precondition_failed",
        "precondition is not respected",
        precondition=precondition,
        help_message=help_message,
        **extra,
    )


def rate_limited() -> HttpError:
    return HttpError(429, None)
