"""Pieces the Instance kinds share: their defaults, and the fields most of them declare alike
(`products/kit/declared.py`; no pydantic here: this module is on the start path)."""

from __future__ import annotations

from ..kit.base import ONE_OF_COLLECTION, Call, Item, Reading, Writing, kinds_of
from ..kit.declared import ID, Field  # noqa: F401  (ID: its kinds import it from here)
from ..kit.format import COMMON, Tones

API = "instance/v1"
DELETE_BY_ID = Call("DELETE", "{id}")
TONES = Tones(busy={"exporting", "importing"}, bad={"invalid_data"}, base=COMMON)  # a snapshot's own states


def action_call(action: str) -> Call:
    """An Instance action: POST {item}/action with the action's name."""
    return Call("POST", "{id}/action", {"action": action})


# What every Instance kind shares; a kind says only what differs (types: read whole, never deleted). One
# object comes wrapped under its singular (`{"server": …}`), is deleted by its id, and a lost create is
# looked for by its name.
instance_kind = kinds_of(
    product="Instance",
    api=API,
    scope_type="zone",
    paging="per_page",
    reading=Reading(item=Item(envelope=ONE_OF_COLLECTION)),  # `{"server": {...}}`
    delete=DELETE_BY_ID,
    writing=Writing(name_param="name"),
)

# The server a volume or an IP is attached to: its name sent beside its id.
SERVER = Field(
    "server.id",
    "Server",
    "ref",
    ref="instance.servers",
    named="server.name",
    width=18,
    key="server",
    blank="—",
    empty="not attached",
)


def detail_common(tags: int | None = None) -> tuple[Field, ...]:
    """What a detail ends with: tags (a column `tags` wide, when listed), the dates, zone and project.
    A date it lacks reads "—" (an IP has neither), as every detail says of a date it lacks."""
    return (
        Field("tags", "Tags", "tags", width=tags),
        Field("creation_date", "Created", "time", width=10, key="created", empty="—"),
        Field("modification_date", "Modified", "time", empty="—"),
        Field("zone", "Zone", "place", width=8, empty="?"),
        Field("project", "Project", "id", empty="?"),
    )
