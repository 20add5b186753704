"""A kind named from its noun, and the form vocabulary: a create's body named from its form, a field in one line."""

from __future__ import annotations

from typing import Annotated

import pytest
from pydantic import SecretStr, ValidationError

from tui.products.kit.base import Context, kinds_of
from tui.products.kit.fields import sends, sent
from tui.products.kit.vocabulary import Form


class Edit(Form):
    name: str
    description: str = ""
    password: SecretStr | None = None


def test_a_kind_is_named_from_its_noun_and_its_id_unless_it_says_otherwise():
    from tui.products.kit.nouns import plural

    assert [plural(n) for n in ("server", "IP address", "policy", "key", "box", "match")] == [
        "servers",
        "IP addresses",
        "policies",
        "keys",
        "boxes",
        "matches",
    ]
    kind = kinds_of(product="Gadgets", api="gadgets/v1", scope_type="region")
    named = kind(id="g.security_groups", singular="security group", columns=())
    ips = kind(id="g.ips", singular="flexible IP", columns=())
    assert (ips.title, ips.title_in_text, named.title_in_text) == ("Flexible IPs", "flexible IPs", "security groups")
    assert (named.title, named.collection, named.list_key, named.paging) == (
        "Security groups",
        "security_groups",
        "security_groups",
        "page_size",
    )
    assert (
        named.reading.item.model.target == "tui.products.kit.models:Resource"
    )  # the lenient model every product's detail reads
    own = kind(id="g.zones", singular="zone", title="DNS zones", collection="dns-zones", columns=())
    assert (own.title, own.collection, own.list_key) == ("DNS zones", "dns-zones", "dns_zones")
    under = kind(id="g.types", singular="type", collection="products/servers", columns=())
    assert under.list_key == "servers"  # the envelope is named by the path's last word
    from tui.products.kit.base import ONE_OF_COLLECTION, Item, Reading

    wrapped = kinds_of(
        product="G", api="g/v1", scope_type="zone", reading=Reading(item=Item(envelope=ONE_OF_COLLECTION))
    )
    named = [
        wrapped(id=f"g.{c}", singular="x", columns=()).reading.item.envelope for c in ("servers", "policies", "ips")
    ]
    assert named == [
        "server",
        "policy",
        "ip",
    ]  # one object under the singular of its list's envelope, as Instance wraps them


def test_a_create_sends_the_forms_named_values_and_the_project_under_the_apis_name_for_it():
    form = Edit(name="web", description="d", password=SecretStr("S3cret!pass"))
    context = Context("p-1", "fr-par")
    assert sends("name", "password")(form, context) == {"name": "web", "password": "S3cret!pass", "project_id": "p-1"}
    assert sends("name", project="project")(form, context) == {"name": "web", "project": "p-1"}
    assert sent(form, "description", tags=[]) == {"description": "d", "tags": []}


def test_a_form_field_in_one_line_keeps_its_rules_for_pydantic_and_its_hints_for_the_form():
    from tui.products.kit.vocabulary import Form, label

    class Named(Form):
        name: Annotated[str, label("Name", max_length=3, placeholder="e.g. web")]
        count: Annotated[int, label("Nodes", ge=1)] = 1

    field = Named.model_fields["name"]
    assert field.json_schema_extra == {"label": "Name", "placeholder": "e.g. web"}
    assert Named(name="abc").count == 1
    with pytest.raises(ValidationError):
        Named(name="abcd")
    with pytest.raises(ValidationError):
        Named(name="a", count=0)
    with pytest.raises(ValidationError):  # a form is strict
        Named(name="a", other=1)
