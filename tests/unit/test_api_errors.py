"""Error bodies of spec/4 become typed errors with the status, the best message and a hint."""

import json

from tui.api.errors import (
    AuthenticationError,
    Conflict,
    InvalidArguments,
    NotFound,
    PermissionDenied,
    PreconditionFailed,
    RateLimited,
    ServerError,
    error_from_response,
)


def body(obj) -> bytes:
    return json.dumps(obj).encode()


def test_invalid_arguments_names_each_field():
    err = error_from_response(
        400,
        body(
            {
                "type": "invalid_arguments",
                "message": "invalid argument(s)",
                "details": [
                    {
                        "argument_name": "commercial_type",
                        "reason": "required",
                        "help_message": "required key not provided",
                    }
                ],
            }
        ),
    )
    assert isinstance(err, InvalidArguments)
    assert err.field_messages() == {"commercial_type": "required key not provided"}
    assert err.summary == "400 invalid argument(s): commercial_type required key not provided"


def test_older_invalid_request_with_fields():
    err = error_from_response(
        400, body({"type": "invalid_request_error", "message": "bad", "fields": {"name": ["too long"]}})
    )
    assert isinstance(err, InvalidArguments)
    assert err.field_messages() == {"name": "too long"}


def test_plain_invalid_request_error_keeps_message():
    err = error_from_response(400, body({"type": "invalid_request_error", "message": "instance should be powered off"}))
    assert err.status == 400 and err.message == "instance should be powered off"
    assert not isinstance(err, InvalidArguments)


def test_401_403_404_409_412_types_and_hints():
    assert isinstance(
        error_from_response(401, body({"type": "denied_authentication", "message": "authentication is denied"})),
        AuthenticationError,
    )
    quota = error_from_response(403, body({"message": "Quota exceeded for volumes"}))
    assert isinstance(quota, PermissionDenied) and "quota" in quota.hint.lower()
    nf = error_from_response(404, body({"message": "lbs not Found"}))  # no `type`, as some products send
    assert isinstance(nf, NotFound) and nf.message == "lbs not Found" and nf.type is None
    busy = error_from_response(
        409,
        body(
            {"type": "transient_state", "message": "resource is in a transient state", "current_state": "configuring"}
        ),
    )
    assert isinstance(busy, Conflict) and "configuring" in busy.hint
    pre = error_from_response(
        412,
        body(
            {
                "type": "precondition_failed",
                "message": "precondition is not respected",
                "help_message": "detach it first",
            }
        ),
    )
    assert isinstance(pre, PreconditionFailed) and pre.hint == "detach it first"


def test_empty_429_body():
    err = error_from_response(429, b"")
    assert isinstance(err, RateLimited)
    assert err.summary == "429 too many requests"


def test_html_and_text_bodies_still_give_status_and_message():
    html = error_from_response(502, b"<html><body>Bad gateway</body></html>")
    assert isinstance(html, ServerError) and html.summary == "502 server error"
    text = error_from_response(503, b"upstream connect error")
    assert text.summary == "503 upstream connect error"
    weird = error_from_response(400, b"[1, 2]")
    assert weird.summary.startswith("400 ")


def test_openai_style_error_body():
    err = error_from_response(422, body({"error": {"message": "model not found", "type": "invalid_request_error"}}))
    assert err.message == "model not found"


def test_a_quota_error_says_what_is_used_of_what():
    body = {
        "type": "quotas_exceeded",
        "message": "Quota exceeded: volumes_b_ssd_total_size",
        "details": [
            {"resource": "volumes_b_ssd_total_size", "quota": 20_000_000_000_000, "current": 19_990_000_000_000}
        ],
    }
    err = error_from_response(403, json.dumps(body).encode(), "POST", "/instance/v1/zones/fr-par-1/volumes")
    assert "volumes_b_ssd_total_size: 19990 GB used of 20000 GB" in err.summary
    assert "quota is reached" in err.hint


def test_a_lists_title_names_the_status_or_what_failed_when_no_answer_came():
    from tui.api.errors import CertificateError, ConfigError, NetworkError, ProxyFailed, ServerError

    assert ServerError(503, "x").label == "503"
    assert NetworkError(0, "x").label == "unreachable"
    assert ProxyFailed(0, "x").label == "proxy unreachable"
    assert CertificateError(0, "x").label == "certificate refused"
    assert ConfigError(0, "x").label == "set-up"  # nothing was sent: not "unreachable"
