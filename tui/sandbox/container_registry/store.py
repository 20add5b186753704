"""The container registry's objects (spec 3 §2.2, §3, §8; spec/4 "Container registry"): namespaces,
their images and the images' tags, per region. A namespace name is unique in its region; an image's
`inherit` visibility follows its namespace; a delete answers the object `deleting` and the clock
removes it (a namespace takes its images and tags with it)."""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

from tui.records import record

from ..collection import Collection
from ..lifecycle import Timeline
from ..product_store import ProductStore

if TYPE_CHECKING:
    from ..app import Sandbox

REGIONS = ("fr-par", "nl-ams", "pl-waw")  # spec 3 §4.2
# A namespace and an image name are path components of a container image reference: lower-case
# letters and digits, separated by one `.`, `_` or `-` (the distribution specification's rule).
NAME_RULE = re.compile(r"^[a-z0-9]+(?:[._-][a-z0-9]+)*$")
NAME_MAX = 255
VISIBILITIES = ("inherit", "public", "private")


def registry_host(region: str) -> str:
    """`{registry_host}` of spec 3 for a region."""
    return f"rg.{region}.cr.example"


@record
class Timings:
    delete: float = 5.0  # deleting → gone


class RegistryStore(ProductStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "registry_timings", Timings)
        self.timeline = Timeline(self.clock)
        self.namespaces = Collection("namespace", REGIONS, self.timeline, scope_key="region")
        self.images = Collection("image", REGIONS, self.timeline, scope_key="_region")
        self.tags = Collection("tag", REGIONS, self.timeline, scope_key="_region")
        self.namespaces.timeline.on_gone = self._gone

    # ---- reading ---------------------------------------------------------------------------------
    def images_of(self, region: str, namespace_id: str) -> list[dict[str, Any]]:
        return [i for i in self.images.all(region) if i["namespace_id"] == namespace_id]

    def tags_of(self, region: str, image_id: str) -> list[dict[str, Any]]:
        return [t for t in self.tags.all(region) if t["image_id"] == image_id]

    def namespace_view(self, ns: dict[str, Any]) -> dict[str, Any]:
        """A namespace as answered: its image count and size are what it holds now."""
        images = self.images_of(ns["region"], ns["id"])
        return {
            **{k: v for k, v in ns.items() if not k.startswith("_")},
            "image_count": len(images),
            "size": sum(i["size"] for i in images),
        }

    @staticmethod
    def image_view(image: dict[str, Any], tags: list[dict[str, Any]]) -> dict[str, Any]:
        out = {k: v for k, v in image.items() if not k.startswith("_")}
        out["tags"] = [t["name"] for t in tags]
        return out

    # ---- making ----------------------------------------------------------------------------------
    def create_namespace(
        self, region: str, name: str, description: str = "", is_public: bool = False, age: float = 0.0
    ) -> dict[str, Any]:
        at = self.clock.iso(self.clock.now() - age)
        ns = {
            "id": self.ids.uuid(),
            "name": name,
            "description": description,
            "organization_id": self.organization_id,
            "project_id": self.project_id,
            "status": "ready",
            "status_message": "",
            "endpoint": f"{registry_host(region)}/{name}",
            "is_public": is_public,
            "size": 0,
            "created_at": at,
            "updated_at": at,
            "image_count": 0,
            "region": region,
        }
        return self.namespaces.add(ns)

    def push(
        self,
        region: str,
        namespace: dict[str, Any],
        image_name: str,
        tags: list[str],
        size: int,
        visibility: str = "inherit",
        age: float = 0.0,
        digest_of: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """An image pushed with `tags` (what a `docker push` makes; the API has no create). Tags
        named in `digest_of` share the digest of the tag named there."""
        at = self.clock.iso(self.clock.now() - age)
        image = {
            "id": self.ids.uuid(),
            "name": image_name,
            "namespace_id": namespace["id"],
            "status": "ready",
            "status_message": "",
            "visibility": visibility,
            "size": size,
            "created_at": at,
            "updated_at": at,
            "_region": region,
        }
        self.images.add(image)
        digests: dict[str, str] = {}
        for n, tag in enumerate(tags):
            shared = (digest_of or {}).get(tag)
            digest = (
                digests[shared]
                if shared in digests
                else "sha256:" + hashlib.sha256(f"{image['id']}/{tag}".encode()).hexdigest()
            )
            digests[tag] = digest
            self.tags.add(
                {
                    "id": self.ids.uuid(),
                    "name": tag,
                    "image_id": image["id"],
                    "status": "ready",
                    "digest": digest,
                    "created_at": self.clock.iso(self.clock.now() - age + n / 1000),
                    "updated_at": at,
                    "_region": region,
                }
            )
        return image

    # ---- deleting --------------------------------------------------------------------------------
    def delete(self, collection: Collection, obj: dict[str, Any]) -> dict[str, Any]:
        return collection.delete_later(obj, self.t.delete)

    def _gone(self, obj: dict[str, Any]) -> None:
        """A namespace, image or tag the clock removes; what it holds goes with it."""
        if "endpoint" in obj:  # a namespace (read without settling: this runs inside a settle)
            for image in [i for i in self.images.items[obj["region"]].values() if i["namespace_id"] == obj["id"]]:
                self._gone(image)
            self.namespaces.remove(obj)
        elif "namespace_id" in obj:  # an image
            for tag in [t for t in self.tags.items[obj["_region"]].values() if t["image_id"] == obj["id"]]:
                self.tags.remove(tag)
            self.images.remove(obj)
        else:
            self.tags.remove(obj)
