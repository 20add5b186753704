"""The private NICs of a server (spec 1 §4.2): a child kind, listed, added and removed from the
server's list (`a` → Private NICs ›), polled while they sync."""

from __future__ import annotations

from ..kit.base import Lazy, Parent
from ..kit.declared import Field
from ..kit.kind_options import Deleting, Writing
from .common import TONES, instance_kind

PRIVATE_NICS = instance_kind(
    id="instance.private_nics",
    singular="private NIC",
    parent=Parent(
        "instance.servers", list_path="servers/{parent}/private_nics", item_path="servers/{parent}/private_nics/{id}"
    ),
    fields=(
        # A NIC has no name: the console calls it by its id.
        Field("id", "ID", ("id", "name")),
        # A private network is not a kind of this console (the VPC product is not in it): its id, whole.
        Field("private_network_id", "Private network", "id", width=36, key="network"),
        Field("state", "State", "state", width=12, tones=TONES),
        Field("mac_address", "MAC address", width=17, head="MAC", key="mac"),
        Field("tags", "Tags", "tags", width=12),
        Field("creation_date", "Created", "time", empty="?"),
        Field("server_id", "Server", "ref", ref="instance.servers", detail=False),  # its parent
    ),
    columns=("network", "state", "mac", "tags"),
    transitional=frozenset({"syncing", "attaching", "detaching", "hotsyncing"}),
    create=Lazy("tui.products.instance.server_flows:NIC_CREATE"),
    writing=Writing(deleting=Deleting(warning=lambda r: "The server leaves this private network")),
)
