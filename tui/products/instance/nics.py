"""The private NICs of a server (spec 1 §4.2): a child kind, listed, added and removed from the
server's list (`a` → Private NICs ›), polled while they sync."""

from __future__ import annotations

from ..base import Column, Lazy, Parent
from .common import DELETE_BY_ID, instance_kind, raw, state_col, tags_col

PRIVATE_NICS = instance_kind(
    id="instance.private_nics",
    title="Private NICs",
    singular="private NIC",
    collection="private_nics",
    list_key="private_nics",
    item_key="private_nic",
    parent=Parent("instance.servers", list_path="servers/{parent}/private_nics", item_path="servers/{parent}/private_nics/{id}"),
    columns=(
        Column("network", "Private network", lambda r: r.text("private_network_id"), width=36),
        state_col(12),
        Column("mac", "MAC", lambda r: r.text("mac_address"), width=17),
        tags_col(12),
    ),
    detail_fields=(
        ("ID", raw("id")),
        ("Private network", raw("private_network_id")),
        ("State", raw("state")),
        ("MAC address", raw("mac_address")),
        ("Tags", raw("tags")),
        ("Created", raw("creation_date", "?")),
    ),
    transitional=frozenset({"syncing", "attaching", "detaching", "hotsyncing"}),
    create=Lazy("tui.products.instance.server_flows:NIC_CREATE"),
    delete=DELETE_BY_ID,
    delete_warning=lambda r: "The server leaves this private network",
)
