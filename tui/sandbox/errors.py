"""Error responses of the sandbox, with the exact bodies of spec/4 "Error bodies"."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse, Response


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


def invalid_arguments(*details: tuple[str, str, str]) -> HttpError:
    """400 with one detail per (argument_name, reason, help_message); reason in required|format|constraint|unknown."""
    return HttpError(
        400,
        {
            "type": "invalid_arguments",
            "message": "invalid argument(s)",
            "details": [{"argument_name": a, "reason": r, "help_message": h} for a, r, h in details],
        },
    )


def invalid_request(message: str) -> HttpError:
    return HttpError(400, {"type": "invalid_request_error", "message": message})


def denied() -> HttpError:
    return HttpError(
        401,
        {
            "type": "denied_authentication",
            "message": "authentication is denied",
            "method": "api_key",
            "reason": "not_found",
        },
    )


def permissions_denied(action: str, resource: str) -> HttpError:
    return HttpError(
        403,
        {
            "type": "permissions_denied",
            "message": "insufficient permissions",
            "details": [{"action": action, "resource": resource}],
        },
    )


def not_found(resource: str, resource_id: str) -> HttpError:
    return HttpError(
        404, {"type": "not_found", "message": "resource is not found", "resource": resource, "resource_id": resource_id}
    )


def transient_state(resource: str, resource_id: str, current_state: str) -> HttpError:
    """409: the resource is moving (creating, deleting…) and cannot take this request now."""
    return HttpError(
        409,
        {
            "type": "transient_state",
            "message": "resource is in a transient state",
            "resource": resource,
            "resource_id": resource_id,
            "current_state": current_state,
        },
    )


def already_exists(resource: str, help_message: str) -> HttpError:
    return HttpError(
        409,
        {
            "type": "already_exists",
            "message": "resource already exists",
            "resource": resource,
            "help_message": help_message,
        },
    )


def precondition_failed(precondition: str, help_message: str) -> HttpError:
    return HttpError(
        412,
        {
            "type": "precondition_failed",
            "message": "precondition is not respected",
            "precondition": precondition,
            "help_message": help_message,
        },
    )


def rate_limited() -> HttpError:
    return HttpError(429, None)
