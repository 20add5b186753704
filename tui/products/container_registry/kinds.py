"""The container registry as listed and acted on (spec 3 §2.2, §4.2; spec/4 "Container registry"):
namespaces, their images (also every image of a region) and the images' tags. No pydantic here:
forms live in `forms`, loaded on first use."""

from __future__ import annotations

from typing import Any

from .. import commands
from ..base import ActionSpec, Call, Child, Column, Lazy, ListParams, Parent, Row, kinds_of
from ..columns import created_col, name_col, raw, scope_col, size_col, state_col
from ..format import COMMON, Tones, date_of, human_bytes
from ..shapes import ShowValue
from ..kind_options import Reading, Writing
from ..kind_options import Rows

API = "registry/v1"
REGIONS = ("fr-par", "nl-ams", "pl-waw")  # spec 3 §4.2
FORMS = "tui.products.container_registry.forms:"
HERE = "tui.products.container_registry.kinds:"
TONES = Tones(bad={"locked"}, base=COMMON)
registry_kind = kinds_of(product="Registry", api=API, scope_type="region", scopes=REGIONS, paging="page_size", reading=Reading(page_size=100),
                         model=Lazy("tui.products.models:Resource"), state_field="status", transitional=frozenset({"deleting"}))

VISIBILITY = {  # spec 3 §2.2: what each value means to whoever pulls
    "public": "public: anyone can pull",
    "private": "private: only the Organization can pull",
    "inherit": "inherit: as its namespace",
    "visibility_unknown": "unknown",
}


def ns_visibility(r: Any) -> str:
    return "public" if r.get("is_public") else "private"


def image_visibility(r: Any) -> str:
    """The image's own setting, and with `inherit` what it comes to (its namespace's)."""
    own = r.text("visibility") or "visibility_unknown"
    if own == "inherit":
        ns = r.get("namespace_public")
        return "inherit → " + ("?" if ns is None else "public" if ns else "private")
    return own


def registry_of(endpoint: str) -> tuple[commands.Value, commands.Value]:
    """A namespace endpoint `<registry_host>/<namespace>` as the two values a command may hold,
    each to be checked (the endpoint comes from the API)."""
    registry, _, namespace = endpoint.partition("/")
    return commands.address("the registry host", registry), commands.image("the namespace", namespace)


def login_command(row: Row, parent: Any = None) -> str:
    """`docker login <registry host> …`; CommandRefused when the endpoint holds no plain host."""
    registry, _ = registry_of(row.text("endpoint"))
    return commands.command("docker login {host} -u nologin --password-stdin", host=registry)


def login_text(row: Row, parent: Any = None, origins: tuple[str, ...] = ()) -> str:
    """The log-in command and how to give it the key. The line that pipes the secret key in is
    written only for a registry host among the profile's origins (the key goes nowhere else)."""
    registry, namespace = registry_of(row.text("endpoint"))
    login = login_command(row, parent)
    push = commands.command("{host}/{namespace}", host=registry, namespace=namespace)
    try:
        commands.key_goes_to(registry, origins)
        piped = ("Pipe it in from where you keep it, such as a password manager or the variable cloudtui reads:\n"
                 f"  printenv CLOUDTUI_SECRET_KEY | {login}")
    except commands.CommandRefused as err:
        piped = f"Pipe it in from where you keep it. No line sending the key there is offered: {err.reason}."
    return (f"{login}\n\nAny user name works; the password is your secret key, read from standard input.\n{piped}\n\n"
            f"Then push to {push}/<image>:<tag>.\nThe key is never shown here.")


def pull_command(row: Row, parent: Any = None) -> str:
    """`docker pull <endpoint>/<image>:<tag>` of a tag (its parent is the image, which knows its
    namespace's endpoint once listed); each part checked, CommandRefused when one fails."""
    image = parent.data if parent is not None and parent.data else {}
    endpoint = str(image.get("namespace_endpoint") or "")
    if not endpoint and parent is not None and parent.up is not None and parent.up.data:
        endpoint = str(parent.up.data.get("endpoint") or "")
    if not endpoint:
        raise commands.CommandRefused("the image's namespace is not known yet "
                                      "(open the tags from its namespace's images)")
    registry, namespace = registry_of(endpoint)
    return commands.command("docker pull {host}/{namespace}/{image}:{tag}", host=registry, namespace=namespace,
                            image=commands.image("the image name", image.get("name")),
                            tag=commands.tag("the tag", row.name))


def pull_text(row: Row, parent: Any = None) -> str:
    return f"{pull_command(row, parent)}\n\nDigest {row.text('digest')}\nA private image needs docker login first (a on its namespace)."


def pull_field(raw: dict[str, Any]) -> str:
    """The namespace detail's Pull line, or why there is none."""
    registry, namespace = registry_of(str(raw.get("endpoint") or ""))
    try:
        return commands.command("docker pull {host}/{namespace}/<image>:<tag>", host=registry, namespace=namespace)
    except commands.CommandRefused as err:
        return f"not offered: {err.reason}"


async def enrich_images(service: Any, scope: str, rows: list[Row]) -> None:
    """Each image's namespace: its name, endpoint and visibility (what `inherit` comes to), from one
    listing of the region's namespaces reused a while."""
    namespaces = await service.related(NAMESPACES, scope)
    for r in rows:
        ns = namespaces.get(r.text("namespace_id"))
        if ns is not None:
            r.data["namespace_name"] = ns.name
            r.data["namespace_endpoint"] = ns.text("endpoint")
            r.data["namespace_public"] = bool(ns.get("is_public"))


NAMESPACES = registry_kind(
    id="registry.namespaces",
    title="Registry namespaces",
    singular="namespace",
    collection="namespaces",
    list_key="namespaces",
    item_key=None,
    columns=(
        name_col(18),
        state_col(TONES, 10, "status", "Status"),
        Column("endpoint", "Endpoint", lambda r: r.text("endpoint"), width=34),  # what one pushes to: before the rest
        Column("visibility", "Visibility", ns_visibility, width=10),
        Column("images", "Images", lambda r: r.text("image_count"), width=6, sort_key=lambda r: r.get("image_count") or 0),
        size_col(),
        scope_col("region", 6),
        created_col(),
    ),
    detail_fields=(
        ("ID", lambda s: s.id),
        ("Name", lambda s: s.name),
        ("Description", raw("description")),
        ("Status", lambda s: str(s.raw.get("status", "")) + (f": {s.raw.get('status_message')}" if s.raw.get("status_message") else "")),
        ("Visibility", lambda s: VISIBILITY[ns_visibility(s.raw)] + " (images set to inherit follow it)"),
        ("Images", lambda s: f"{s.raw.get('image_count', '?')}, {human_bytes(s.raw.get('size'))}"),
        ("Endpoint", raw("endpoint")),
        ("Pull", lambda s: pull_field(s.raw)),
        ("Region", raw("region")),
        ("Created", lambda s: date_of(str(s.raw.get("created_at", "")))),
        ("Updated", lambda s: date_of(str(s.raw.get("updated_at", "")))),
    ),
    children=(Child("Images", HERE + "NAMESPACE_IMAGES"),),
    actions=(
        ActionSpec("login", "Log in with docker (copy the command)…", shape=ShowValue("Log in to the registry of {name}", login_text, copy=login_command),
                   why_not=lambda r: "the namespace is being deleted" if r.get("status") == "deleting" else None),
    ),
    create=Lazy(FORMS + "NAMESPACE_CREATE"),
    edit=Lazy(FORMS + "NAMESPACE_EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=Writing(delete_needs_name=True, delete_warning=lambda r: (f"Its {r.get('image_count')} image(s) and all their tags are deleted with it: nobody can pull them again"
                              if r.get("image_count") else None), name_param="name"),
    reading=Reading(sort=("name", False)),
)


def _image_columns(namespace: bool) -> tuple[Column, ...]:
    return (
        name_col(18),
        *((Column("namespace", "Namespace", lambda r: r.text("namespace_name") or r.text("namespace_id")[:8], width=14),) if namespace else ()),
        state_col(TONES, 10, "status", "Status"),
        Column("visibility", "Visibility", image_visibility, width=18),
        size_col(),
        Column("tags", "Tags", lambda r: f"{len(r.items('tags'))}: " + ", ".join(map(str, r.items("tags")[-3:])), width=24),
        Column("updated", "Updated", lambda r: date_of(r.text("updated_at")), width=10, sort_key=lambda r: r.text("updated_at")),
        scope_col("region"),
    )


IMAGE_DETAIL = (
    ("ID", lambda s: s.id),
    ("Name", lambda s: s.name),
    ("Namespace", lambda s: f"{s.raw['namespace_name']} ({s.raw.get('namespace_id', '')})" if s.raw.get("namespace_name") else str(s.raw.get("namespace_id", ""))),
    ("Status", lambda s: str(s.raw.get("status", "")) + (f": {s.raw.get('status_message')}" if s.raw.get("status_message") else "")),
    ("Visibility", lambda s: VISIBILITY.get(str(s.raw.get("visibility")), str(s.raw.get("visibility", "")))),
    ("Size", lambda s: human_bytes(s.raw.get("size"))),
    ("Tags", raw("tags")),
    ("Created", lambda s: date_of(str(s.raw.get("created_at", "")))),
    ("Updated", lambda s: date_of(str(s.raw.get("updated_at", "")))),
)
_image = dict(
    singular="image", collection="images", list_key="images", item_key=None, detail_fields=IMAGE_DETAIL,
    children=(Child("Tags", HERE + "TAGS"),), edit=Lazy(FORMS + "IMAGE_EDIT"), delete=Call("DELETE", "{id}"), writing=Writing(delete_needs_name=True, delete_warning=lambda r: f"Its {len(r.items('tags'))} tag(s) are deleted with it: nobody can pull them again", name_param="name"),
    rows=Rows(enrich=Lazy(HERE + "enrich_images"), names_from=Lazy(HERE + "NAMESPACES")), reading=Reading(sort=("name", False)),
)

IMAGES = registry_kind(id="registry.images", title="Registry images", columns=_image_columns(True), **_image)

NAMESPACE_IMAGES = registry_kind(
    id="registry.namespace_images", title="Images", parent=Parent("registry.namespaces", query="namespace_id"), columns=_image_columns(False), **_image,
)

TAGS = registry_kind(
    id="registry.tags",
    title="Tags",
    singular="tag",
    collection="tags",
    list_key="tags",
    item_key=None,
    parent=Parent("registry.images", list_path="images/{parent}/tags", item_path="tags/{id}"),
    columns=(
        name_col(20),
        state_col(TONES, 10, "status", "Status"),
        Column("digest", "Digest", lambda r: r.text("digest").removeprefix("sha256:")[:12], width=12),
        created_col(),
        Column("updated", "Updated", lambda r: date_of(r.text("updated_at")), width=10, sort_key=lambda r: r.text("updated_at")),
    ),
    detail_fields=(
        ("ID", lambda s: s.id),
        ("Name", lambda s: s.name),
        ("Status", raw("status")),
        ("Digest", raw("digest")),
        ("Created", lambda s: date_of(str(s.raw.get("created_at", "")))),
        ("Updated", lambda s: date_of(str(s.raw.get("updated_at", "")))),
    ),
    actions=(ActionSpec("pull", "Pull command (copy)…", shape=ShowValue("Pull {name}", pull_text, copy=pull_command)),),
    delete=Call("DELETE", "{id}"),
    writing=Writing(delete_flow=Lazy(FORMS + "delete_tag"), name_param="name"),
    # Newest first, as the API orders them: thousands of tags arrive in the order shown, with no
    # sort to merge each page into.
    reading=Reading(list_params=ListParams(fixed={"order_by": "created_at_desc"})),
)
