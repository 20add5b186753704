"""The container registry as listed and acted on (spec 3 §2.2, §4.2; spec/4 "Container registry"):
namespaces, their images (also every image of a region) and the images' tags. No pydantic here:
forms live in `forms`, loaded on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kit import commands
from ..kit.base import ActionSpec, Call, Child, Lazy, ListParams, Parent, Row, data_lost, kinds_of
from ..kit.declared import ID, Field
from ..kit.format import COMMON, Tones, human_bytes
from ..kit.kind_options import Deleting, Lookup, Order, Reading, Rows, Writing
from ..kit.shapes import ShowValue

if TYPE_CHECKING:
    from ..kit.base import ParentRef
    from ..kit.models import Resource
    from ..kit.service import ResourceService

API = "registry/v1"
REGIONS = ("fr-par", "nl-ams", "pl-waw")  # spec 3 §4.2
FORMS = "tui.products.container_registry.forms:"
HERE = "tui.products.container_registry.kinds:"
TONES = Tones(bad={"locked"}, base=COMMON)
registry_kind = kinds_of(
    product="Registry",
    api=API,
    scope_type="region",
    scopes=REGIONS,
    transitional=frozenset({"deleting"}),
)

VISIBILITY = {  # spec 3 §2.2: what each value means to whoever pulls
    "public": "public: anyone can pull",
    "private": "private: only the Organization can pull",
    "inherit": "inherit: as its namespace",
    "visibility_unknown": "unknown",
}


def ns_visibility(r: Row) -> str:
    return "public" if r.get("is_public") else "private"


def image_visibility(r: Row) -> str:
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


def login_command(row: Row, parent: ParentRef | None = None) -> str:
    """`docker login <registry host> …`; CommandRefused when the endpoint holds no plain host."""
    registry, _ = registry_of(row.text("endpoint"))
    return commands.command("docker login {host} -u nologin --password-stdin", host=registry)


def piped_login(row: Row, parent: ParentRef | None = None, origins: tuple[str, ...] = ()) -> str:
    """`printenv CLOUDTUI_SECRET_KEY | docker login …`: the line to copy and run, written only for a
    registry host among the profile's origins (the key goes nowhere else); else the log-in alone."""
    registry, _ = registry_of(row.text("endpoint"))
    login = login_command(row, parent)
    try:
        commands.key_goes_to(registry, origins)
    except commands.CommandRefused:
        return login
    return f"printenv CLOUDTUI_SECRET_KEY | {login}"


def login_text(row: Row, parent: ParentRef | None = None, origins: tuple[str, ...] = ()) -> str:
    """The log-in command and how to give it the key (`piped_login`, `y` copies it)."""
    registry, namespace = registry_of(row.text("endpoint"))
    login = login_command(row, parent)
    push = commands.command("{host}/{namespace}", host=registry, namespace=namespace)
    try:
        commands.key_goes_to(registry, origins)
        piped = (
            "Pipe it in from where you keep it, such as a password manager or the variable cloudtui reads "
            f"(y copies this line):\n{piped_login(row, parent, origins)}"
        )
    except commands.CommandRefused as err:
        piped = f"Pipe it in from where you keep it. No line sending the key there is offered: {err.reason}."
    return (
        f"{login}\n\nAny user name works; the password is your secret key, read from standard input.\n{piped}\n\n"
        f"Then push to {push}/<image>:<tag>.\nThe key is never shown here."
    )


def pull_command(row: Row, parent: ParentRef | None = None) -> str:
    """`docker pull <endpoint>/<image>:<tag>` of a tag (its parent is the image, which knows its
    namespace's endpoint once listed); each part checked, CommandRefused when one fails."""
    image = parent.data if parent is not None and parent.data else {}
    endpoint = str(image.get("namespace_endpoint") or "")
    if not endpoint and parent is not None and parent.up is not None and parent.up.data:
        endpoint = str(parent.up.data.get("endpoint") or "")
    if not endpoint:
        raise commands.CommandRefused(
            "the image's namespace is not known yet (open the tags from its namespace's images)"
        )
    registry, namespace = registry_of(endpoint)
    return commands.command(
        "docker pull {host}/{namespace}/{image}:{tag}",
        host=registry,
        namespace=namespace,
        image=commands.image("the image name", image.get("name")),
        tag=commands.tag("the tag", row.name),
    )


def pull_text(row: Row, parent: ParentRef | None = None) -> str:
    return (
        f"{pull_command(row, parent)}\n\nDigest {row.text('digest')}\n"
        "A private image needs docker login first (a on its namespace)."
    )


def pull_field(raw: dict[str, Any]) -> str:
    """The namespace detail's Pull line, or why there is none."""
    registry, namespace = registry_of(str(raw.get("endpoint") or ""))
    try:
        return commands.command("docker pull {host}/{namespace}/<image>:<tag>", host=registry, namespace=namespace)
    except commands.CommandRefused as err:
        return f"not offered: {err.reason}"


async def enrich_images(service: ResourceService, scope: str, rows: list[Row]) -> None:
    """Each image's namespace: its name, endpoint and visibility (what `inherit` comes to), from one
    listing of the region's namespaces reused a while."""
    namespaces = await service.related(NAMESPACES, scope)
    for r in rows:
        ns = namespaces.get(r.text("namespace_id"))
        if ns is not None:
            r.data["namespace_name"] = ns.name
            r.data["namespace_endpoint"] = ns.text("endpoint")
            r.data["namespace_public"] = bool(ns.get("is_public"))


def status_line(s: Row | Resource) -> str:
    """The status, and the platform's message on it when it says one."""
    message = s.raw.get("status_message")
    return str(s.raw.get("status", "")) + (f": {message}" if message else "")


def images_and_size(s: Row | Resource) -> str:
    return f"{s.raw.get('image_count', '?')}, {human_bytes(s.raw.get('size'))}"


def pull_line(s: Row | Resource) -> str:
    return pull_field(s.raw)


INHERITED = " (images set to inherit follow it)"
CREATED = Field("created_at", "Created", "time", width=10, key="created", empty="")
UPDATED = Field("updated_at", "Updated", "time", width=10, key="updated", empty="")

NAMESPACE_FIELDS = (
    ID,
    Field("name", "Name", "name", width=18),
    Field("description", "Description"),
    Field("status", "Status", "state", width=10, tones=TONES, detail=status_line),
    Field("is_public", "Visibility", "flag", width=10, key="visibility", words=("public", "private"), detail=False),
    Field(
        "is_public", "Visibility", "flag", words=(VISIBILITY["public"] + INHERITED, VISIBILITY["private"] + INHERITED)
    ),
    Field("image_count", "Images", "count", width=6, key="images", detail=False),
    Field("image_count", "Images", "count", show=images_and_size),
    Field("size", "Size", "size", width=7, blank="?", detail=False),
    Field("endpoint", "Endpoint", width=34),  # what one pushes to: before the rest
    Field("endpoint", "Pull", key="pull", show=pull_line),
    Field("region", "Region", "place", width=6),
    CREATED,
    UPDATED,
)

NAMESPACES = registry_kind(
    id="registry.namespaces",
    title="Registry namespaces",
    singular="namespace",
    fields=NAMESPACE_FIELDS,
    columns=("name", "status", "endpoint", "visibility", "images", "size", "region", "created"),
    children=(Child("Images", HERE + "NAMESPACE_IMAGES"),),
    actions=(
        ActionSpec(
            "login",
            "Log in with docker (copy the command)…",
            shape=ShowValue("Log in to the registry of {name}", login_text, copy=piped_login),
            why_not=lambda r: "the namespace is being deleted" if r.get("status") == "deleting" else None,
        ),
    ),
    create=Lazy(FORMS + "NAMESPACE_CREATE"),
    edit=Lazy(FORMS + "NAMESPACE_EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=data_lost(
        lambda r: (
            f"Its {r.get('image_count')} image(s) and all their tags are deleted with it: nobody can pull them again"
            if r.get("image_count")
            else None
        ),
        name_param="name",
    ),
    reading=Reading(order=Order(by=("name", False))),
)


def image_tags(r: Row) -> str:
    """How many tags an image has, and its last three."""
    return f"{len(r.items('tags'))}: " + ", ".join(map(str, r.items("tags")[-3:]))


def tag_names(tags: object) -> str:
    """Every tag's name, in the detail."""
    return ", ".join(map(str, tags)) if isinstance(tags, list) else str(tags)


def visibility_words(s: Row | Resource) -> str:
    return VISIBILITY.get(str(s.raw.get("visibility")), str(s.raw.get("visibility", "")))


# Its namespace's name is looked up by `enrich_images`.
IMAGE_FIELDS = (
    ID,
    Field("name", "Name", "name", width=18),
    Field(
        "namespace_id",
        "Namespace",
        "ref",
        ref="registry.namespaces",
        named="namespace_name",
        width=14,
        key="namespace",
        empty="",
    ),
    Field("status", "Status", "state", width=10, tones=TONES, detail=status_line),
    Field("visibility", "Visibility", width=18, show=image_visibility, detail=visibility_words),
    Field("size", "Size", "size", width=7, blank="?", empty="?"),
    Field("tags", "Tags", width=24, show=image_tags, as_detail=tag_names),  # how many, the last three; all below
    CREATED,
    UPDATED,
    Field("region", "Region", "place", width=8, detail=False),
)
_image = dict(
    singular="image",
    collection="images",
    fields=IMAGE_FIELDS,
    children=(Child("Tags", HERE + "TAGS"),),
    edit=Lazy(FORMS + "IMAGE_EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=data_lost(
        lambda r: f"Its {len(r.items('tags'))} tag(s) are deleted with it: nobody can pull them again",
        name_param="name",
    ),
    rows=Rows(lookup=Lookup(listed=Lazy(HERE + "enrich_images"), names_from=Lazy(HERE + "NAMESPACES"))),
    reading=Reading(order=Order(by=("name", False))),
)

IMAGES = registry_kind(
    id="registry.images",
    title="Registry images",
    columns=("name", "namespace", "status", "visibility", "size", "tags", "updated", "region"),
    **_image,
)

NAMESPACE_IMAGES = registry_kind(
    id="registry.namespace_images",
    title="Images",
    parent=Parent("registry.namespaces", query="namespace_id"),
    columns=("name", "status", "visibility", "size", "tags", "updated", "region"),
    **_image,
)


def short_digest(r: Row) -> str:
    return r.text("digest").removeprefix("sha256:")[:12]


TAGS = registry_kind(
    id="registry.tags",
    singular="tag",
    parent=Parent("registry.images", list_path="images/{parent}/tags", item_path="tags/{id}"),
    fields=(
        ID,
        Field("name", "Name", "name", width=20),
        Field("image_id", "Image", "ref", ref="registry.images", detail=False),
        Field("status", "Status", "state", width=10, tones=TONES),
        Field("digest", "Digest", width=12, show=short_digest, as_detail=str),  # the column's is short
        CREATED,
        UPDATED,
    ),
    columns=("name", "status", "digest", "created", "updated"),
    actions=(
        ActionSpec(
            "pull",
            "Pull command (copy)…",
            shape=ShowValue("Pull {name}", pull_text, copy=pull_command),
        ),
    ),
    delete=Call("DELETE", "{id}"),
    writing=Writing(deleting=Deleting(flow=Lazy(FORMS + "delete_tag")), name_param="name"),
    # Newest first, as the API orders them: thousands of tags arrive in the order shown, with no
    # sort to merge each page into.
    reading=Reading(list_params=ListParams(fixed={"order_by": "created_at_desc"})),
)
