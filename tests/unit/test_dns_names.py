"""A record's name ending in a dot is absolute (walk defect): within the zone it becomes the relative
name, outside it is refused, and a CNAME check sees it as the name it is."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tui.products.dns.records import RecordForm

ZONE = {"zone": "example.com"}


def named(name, context=ZONE, **fields):
    values = {"name": name, "type": "A", "data": "192.0.2.4", **fields}
    return RecordForm.model_validate(values, context=context)


def test_a_name_ending_in_a_dot_within_the_zone_is_sent_relative():
    assert named("status.example.com.").record()["name"] == "status"
    assert named("Status.Example.COM.").record()["name"] == "status"
    assert named("*.example.com.").record()["name"] == "*"
    assert named("example.com.").record()["name"] == ""  # the zone itself
    assert named("status").record()["name"] == "status"  # no dot: relative, as before
    assert named("status.example.com").record()["name"] == "status.example.com"  # no dot: a label path in the zone


@pytest.mark.parametrize("name", ["status.example.org.", "badexample.com.", "com."])
def test_a_name_ending_in_a_dot_outside_the_zone_is_refused_with_the_rule(name):
    with pytest.raises(ValidationError, match="a name ending in a dot is a full name"):
        named(name)


def test_with_no_zone_to_read_it_against_a_name_ending_in_a_dot_is_refused():
    with pytest.raises(ValidationError, match="a name ending in a dot is a full name"):
        named("status.example.com.", context={})


def test_the_cname_rule_sees_a_name_ending_in_a_dot_as_the_name_it_is():
    rows = [{"name": "www", "type": "CNAME", "data": "example.com."}]
    with pytest.raises(ValidationError, match="holds a CNAME"):
        named("www.example.com.", context={**ZONE, "rows": rows})
