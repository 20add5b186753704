"""A resource's topology as a tree (a kind's `DetailPanel(tree=...)`): the product's loader answers a
`views.Node`, drawn with Textual's `Tree`, read again with the view through a `Refresher`. The
branches the operator folded stay folded across refreshes; labels from the API are cleaned and
never read as markup.

Keys: the tree's own (up/down, enter or space folds and unfolds), `r` refresh now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static, Tree

from ...api.safe import clean
from ...products.kit.base import Lazy
from ...products.kit.refresh_plan import RefreshPolicy
from ..errors import describe
from ..refresher import Refresher

if TYPE_CHECKING:
    from textual.widgets.tree import TreeNode

    from ...products.kit.base import Row
    from ...products.kit.service import ResourceService
    from ...products.kit.views import Node

    Branch = TreeNode[tuple[str, ...]]  # a node of the tree drawn: its data, the labels' path to it


class TreePanel(Vertical):
    DEFAULT_CSS = """
    TreePanel { height: 1fr; }
    TreePanel #tree-head { height: auto; padding: 0 1; }
    TreePanel Tree { height: 1fr; }
    """
    BINDINGS = [Binding("r", "refresh_tree", "Refresh", id="refresh_tree")]

    def __init__(
        self, service: ResourceService, scope: str, row: Row, loader: str, *, policy: RefreshPolicy | None = None
    ) -> None:
        super().__init__(classes="tree-panel")
        self.service, self.scope, self.row = service, scope, row
        self.loader = Lazy[Any](loader)
        self.folded: set[tuple[str, ...]] = set()  # label paths the operator folded
        self.loaded = False
        self.refresher = Refresher(self, self._load, policy=policy or getattr(service, "policy", None))

    def compose(self) -> ComposeResult:
        yield Static("loading…", id="tree-head", markup=False)
        tree: Tree[tuple[str, ...]] = Tree(Text(clean(self.row.name or self.row.id)), id="topology")
        tree.show_root = True
        yield tree

    def on_mount(self) -> None:
        self._load()

    def on_unmount(self) -> None:
        self.refresher.cancel()

    def focus(self, scroll_visible: bool = True) -> Any:
        return self.query_one(Tree).focus(scroll_visible)

    @work(exclusive=True, group="tree", exit_on_error=False)
    async def _load(self) -> None:
        try:
            node = await self.loader.get()(self.service, self.scope, self.row)
        except Exception as err:
            summary, hint = describe(err)
            self.query_one("#tree-head", Static).update(Text(f"✖ {summary}. {hint}", style="red"))
            self.refresher.done(False)
            return
        self._draw(node)
        self.refresher.done(True)

    def _draw(self, node: Node) -> None:
        tree = self.query_one(Tree)
        cursor = tree.cursor_node.data if tree.cursor_node is not None else None
        tree.clear()
        tree.root.set_label(Text(clean(str(node.label))))
        tree.root.data = (str(node.label),)
        count = self._add(tree.root, node, (str(node.label),))
        tree.root.expand()
        self.loaded = True
        self.query_one("#tree-head", Static).update(
            Text(f"{count} item{'s' * (count != 1)} · enter folds or unfolds a branch · r refresh", style="dim")
        )
        if cursor is not None:  # the cursor stays on the node it was on, when that is still there
            found = next((n for n in _walk(tree.root) if n.data == cursor), None)
            if found is not None:
                tree.move_cursor(found)

    def _add(self, parent: Branch, node: Node, path: tuple[str, ...]) -> int:
        count = 0
        for child in node.children:
            here = (*path, str(child.label))
            label = Text(clean(str(child.label)))
            if child.children:
                branch = parent.add(label, data=here, expand=here not in self.folded)
                count += 1 + self._add(branch, child, here)
            else:
                parent.add_leaf(label, data=here)
                count += 1
        return count

    def on_tree_node_collapsed(self, event: Tree.NodeCollapsed) -> None:
        if event.node.data is not None:
            self.folded.add(event.node.data)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        self.folded.discard(event.node.data)

    def action_refresh_tree(self) -> None:
        self.refresher.cancel()
        self._load()


def _walk(node: Branch) -> Iterator[Branch]:
    yield node
    for child in node.children:
        yield from _walk(child)
