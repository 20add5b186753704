"""The private networks of a bare-metal server (spec 1 §2.9, §4.6): a child list of the server,
with the VLAN each attachment uses and the snippet that configures it on the server."""

from __future__ import annotations

from ..kit import commands
from ..kit.base import ActionSpec, Call, Column, Lazy, Parent, Row
from ..kit.declared import Field
from ..kit.kind_options import Deleting, Item, Reading, Writing
from ..kit.set_editor import SetEditor
from ..kit.shapes import ShowValue
from .common import baremetal_kind

PN_ZONES = ("fr-par-1", "nl-ams-1")  # spec 1 §2.1
MAX_NETWORKS = 8  # spec 1 §8
FLOWS = "tui.products.baremetal.network_forms:"
# The whole-set editor's column.
COLUMNS = (Column("private_network_id", "Private network", lambda r: str(r.get("private_network_id", "")), width=38),)
SNIPPET = """# On the server, as root. IFACE is its network interface (see `ip -br link`).
IFACE=eno1
VLAN={vlan}
ip link add link "$IFACE" name "$IFACE.$VLAN" type vlan id "$VLAN"
ip link set "$IFACE.$VLAN" up
ip addr add ADDRESS/PREFIX dev "$IFACE.$VLAN"   # an address of private network {network}
"""


def vlan_snippet(row: Row, parent: object = None) -> str:
    """The snippet configuring the attachment's VLAN, pasted as root: the VLAN id (1 to 4094) and the
    network's id are checked first, so an answer cannot make it run anything else."""
    return commands.command(
        SNIPPET,
        vlan=commands.integer("the VLAN id", row.get("vlan"), 1, 4094),
        network=commands.uuid("the private network's id", row.get("private_network_id") or row.id),
    )


def not_here(row: object) -> str | None:
    zone = getattr(row, "data", {}).get("zone")
    return (
        None
        if zone in PN_ZONES
        else f"private networks of bare-metal servers are offered in {' and '.join(PN_ZONES)} only"
    )


PRIVATE_NETWORKS = baremetal_kind(
    id="baremetal.private_networks",
    title="Private networks",
    singular="private network attachment",
    api="baremetal/v2",
    scopes=PN_ZONES,
    collection="private-networks",
    list_key="server_private_networks",
    parent=Parent(
        "baremetal.servers",
        list_path="servers/{parent}/private-networks",
        item_path="servers/{parent}/private-networks/{id}",
    ),
    transitional=frozenset({"attaching", "detaching"}),
    reading=Reading(item=Item(fetch=False)),
    fields=(
        # The attachment is named by its network (no kind of the console lists private networks).
        Field("private_network_id", "Private network", ("name", "id"), width=36, key="network", empty=""),
        Field("vlan", "VLAN", width=5, empty=""),
        Field("status", "Status", "state", width=12),
        Field("created_at", "Attached", "time", width=10, key="created", detail=False),
        Field("id", "Attachment", "id", empty=""),
    ),
    columns=("network", "vlan", "status", "created"),
    actions=(
        ActionSpec(
            "snippet",
            "VLAN snippet for the server…",
            lambda r: bool(r.get("vlan")),
            shape=ShowValue("VLAN {vlan}: configure it on the server", vlan_snippet),
        ),
        ActionSpec(
            "replace",
            "Replace the whole set…",
            shape=SetEditor(
                "Private networks of {parent}",
                Lazy(FLOWS + "NetworkRecord"),
                COLUMNS,
                Call("PUT", "servers/{parent}/private-networks"),
                "private_network_ids",
                ("private_network_id",),
                "private network",
                flat=True,
                unique="private_network_id",
                max_count=MAX_NETWORKS,
                describe=f"The whole set is sent at once (at most {MAX_NETWORKS}); networks left out are removed.",
            ),
        ),
    ),
    create=Lazy(FLOWS + "ADD"),
    delete=Call("DELETE", "{id}"),
    writing=Writing(
        deleting=Deleting(warning=lambda r: "The server leaves this private network; its VLAN interface stops working")
    ),
)
