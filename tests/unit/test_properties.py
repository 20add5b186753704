"""Property-based checks (hypothesis): the console's validators and the sandbox's agree on what is
valid, and the lenient parsers never raise on whatever JSON the API might send."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from pydantic import ValidationError

from tui.api import safe
from tui.api.errors import ApiError, error_from_response
from tui.api.paging import _decode
from tui.products.manifest import list_kinds

from tui.products.instance.fields import NameTagsForm
from tui.products.instance.network_forms import RuleForm
from tui.sandbox.core import _control_at
from tui.sandbox.instance.network import check_rule
from tui.sandbox.instance.validation import check_name, check_tags

KINDS = list_kinds()

NAME_CHARS = st.sampled_from("abcXYZ019 .-_/é\t\n\x1b[]")
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=10), c, max_size=6),
    max_leaves=30,
)


def console_accepts(model: type, values: dict[str, Any]) -> bool:
    """As the form does: the model's rules, and no control character in any text."""
    texts = [t for v in values.values() for t in (v if isinstance(v, list) else [v]) if isinstance(t, str)]
    if any(safe.has_control(t) for t in texts):
        return False
    try:
        model.model_validate(values)
    except ValidationError:
        return False
    return True


@settings(max_examples=400)
@given(st.text(NAME_CHARS, max_size=12), st.lists(st.text(NAME_CHARS, max_size=6), max_size=3))
def test_name_and_tags_rules_agree(name, tags):
    console = console_accepts(NameTagsForm, {"name": name, "tags": tags})
    sandbox = not check_name(name) and not check_tags(tags) and _control_at({"name": name, "tags": tags}, "") is None
    assert console == sandbox, (name, tags)


@settings(max_examples=400)
@given(
    st.sampled_from(["TCP", "UDP", "ICMP", "ANY"]),
    st.sampled_from(["0.0.0.0/0", "10.0.0.0/8", "203.0.113.7/32", "2001:db8::/32"]),
    st.one_of(st.none(), st.integers(-2, 70000)),
    st.one_of(st.none(), st.integers(-2, 70000)),
)
def test_security_group_rule_rules_agree(protocol, ip_range, lo, hi):
    rule = {
        "direction": "inbound",
        "action": "accept",
        "protocol": protocol,
        "ip_range": ip_range,
        "dest_port_from": lo,
        "dest_port_to": hi,
    }
    console = console_accepts(RuleForm, rule)
    sandbox = not check_rule(dict(rule))
    assert console == sandbox, rule


def test_a_port_zero_on_an_icmp_rule_is_no_port_in_the_console_too():
    form = RuleForm.model_validate(
        {"protocol": "ICMP", "ip_range": "0.0.0.0/0", "dest_port_from": 0, "dest_port_to": 0}
    )
    assert form.dest_port_from is None and form.dest_port_to is None


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "id",
                "name",
                "state",
                "zone",
                "tags",
                "volumes",
                "private_nics",
                "public_ip",
                "public_ips",
                "server",
                "allowed_actions",
                "creation_date",
                "size",
                "public",
                "policy_respected",
                "x",
            ]
        ),
        JSON,
    )
)
def test_rows_of_every_kind_never_raise_on_random_objects(data):
    for kind in KINDS:
        row = kind.row_maker("fr-par-1")(data)
        for column in kind.columns:
            column.value(row)
            if column.sort_key is not None:
                column.sort_key(row)
        kind.is_transitional(row)
        for action in kind.actions:
            action.available(row)
            action.why_not(row)
        kind.writing.refuses.delete(row)
        kind.writing.deleting.warning(row)
        kind.writing.refuses.edit(row)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.text(max_size=12), JSON, max_size=8))
def test_detail_models_never_raise_on_random_objects(data):
    for kind in KINDS:
        model = kind.reading.item.model.get().model_validate(data)
        model.raw  # noqa: B018 - the JSON view reads it
        # The detail shows "?" for a field whose getter fails; it must never take the screen down.


@settings(max_examples=300)
@given(JSON, st.integers(200, 599))
def test_error_bodies_never_raise(value, status):
    err = error_from_response(status, json.dumps(value).encode(), "GET", "/x")
    assert isinstance(err, ApiError) and err.summary and err.hint
    assert not safe.has_control(err.summary)


@settings(max_examples=300)
@given(st.binary(max_size=200), st.integers(400, 599))
def test_error_bodies_of_random_bytes_never_raise(content, status):
    err = error_from_response(status, content)
    assert not safe.has_control(err.summary)


@settings(max_examples=300)
@given(JSON)
def test_a_page_of_any_json_is_items_or_a_clear_error(value):
    from tui.api.errors import BadBody

    try:
        items, total = _decode(
            json.dumps({"servers": value} if isinstance(value, list) else value).encode(), "servers", None
        )
    except BadBody as err:
        assert err.message
    else:
        assert all(isinstance(i, dict) for i in items)


@pytest.mark.parametrize("text", ["   ", " a", "a ", "a.b-c d"])
def test_blank_and_padded_names(text):
    assert console_accepts(NameTagsForm, {"name": text}) == (not check_name(text))


# ---- the table's order ---------------------------------------------------------------------------
OPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("upsert"),
            st.lists(st.tuples(st.sampled_from("abcdefgh"), st.sampled_from(["x", "y", "z", "w"])), max_size=5),
        ),
        st.tuples(st.just("remove"), st.lists(st.sampled_from("abcdefgh"), max_size=3)),
        st.tuples(
            st.just("replace"),
            st.lists(st.tuples(st.sampled_from("abcdefgh"), st.sampled_from(["x", "y", "z", "w"])), max_size=6),
        ),
        st.tuples(st.just("sort"), st.tuples(st.sampled_from([None, "v", "k"]), st.booleans())),
        st.tuples(st.just("filter"), st.sampled_from(["", "x", "y", "a"])),
        st.tuples(st.just("mark"), st.sampled_from("abcdefgh")),
    ),
    max_size=25,
)


@settings(max_examples=300, deadline=None, database=None)
@given(OPS)
def test_the_table_shows_exactly_the_filtered_rows_in_sort_order_whatever_happened_before(ops):
    """However rows arrive, change, go, and the sort and filter change, the order shown is the one
    computed from scratch (the table keeps sort values between orderings), and marks go with their
    rows. A re-listing that brings new rows shows them where the API lists them."""
    from tui.products.kit.base import Column, Row
    from tui.ui.widgets.resource_table import ResourceTable

    table = ResourceTable()
    table.set_columns(
        [Column("k", "Key", lambda r: r.id, width=4), Column("v", "Value", lambda r: r.text("v"), width=4)]
    )
    rows: dict[str, str] = {}
    sort, flt, marked = None, "", set()
    for op, arg in ops:
        if op == "upsert":
            table.upsert([Row({"id": k, "v": v}) for k, v in arg])
            rows.update(dict(arg))
        elif op == "replace":  # a re-listing: rows it adds put the list in the API's order
            table.replace([Row({"id": k, "v": v}) for k, v in arg])
            new = dict(arg)
            rows = new if any(k not in rows for k in new) else {k: new[k] for k in rows if k in new}
            marked &= set(new)
        elif op == "remove":
            table.remove_rows(arg)
            for k in arg:
                rows.pop(k, None)
                marked.discard(k)
        elif op == "sort":
            table.sort_by(*arg)
            sort = arg if arg[0] else None
        elif op == "filter":
            table.set_filter(arg)
            flt = arg
        elif arg in rows:
            marked ^= {arg}
            table.toggle_mark(arg)
        shown = [k for k in rows if flt in f"{k} {rows[k]} {k}".lower()]
        if sort:
            col, rev = sort
            shown.sort(key=lambda k: ((k if col == "k" else rows[k]), k), reverse=rev)
        assert table.shown_keys == shown
        assert table.marked == marked


def test_a_numeric_sort_key_orders_numbers_as_numbers_and_an_odd_one_last():
    from tui.products.kit.base import Column, Row
    from tui.ui.widgets.resource_table import ResourceTable

    table = ResourceTable()
    table.set_columns([Column("size", "Size", lambda r: r.text("size"), width=6, sort_key=lambda r: r.get("size") + 0)])
    table.upsert(
        [Row({"id": i, "size": size}) for i, size in (("a", 100), ("b", 9), ("c", "oops"), ("d", 10), ("e", 0.5))]
    )
    table.sort_by("size")
    assert table.shown_keys == ["e", "b", "d", "a", "c"]  # 0.5, 9, 10, 100, then the one that cannot be read
