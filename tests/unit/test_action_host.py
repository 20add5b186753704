"""The views that run actions provide what the action runner and flows use (`ActionHost`)."""

import inspect

import pytest

from tui.ui.action_host import ActionHost
from tui.ui.widgets.panel_view import PanelView
from tui.ui.widgets.resource_view import ResourceView

MEMBERS = [n for n in vars(ActionHost) if not n.startswith("_")] + list(ActionHost.__annotations__)


def _declared(cls: type, name: str) -> bool:
    """A method the class has, or an attribute its `__init__` sets or its body annotates."""
    if callable(getattr(cls, name, None)):
        return True
    init = "".join(inspect.getsource(c.__init__) for c in cls.__mro__ if inspect.isfunction(vars(c).get("__init__")))
    annotated = any(name in getattr(c, "__annotations__", {}) for c in cls.__mro__)
    return annotated or f"self.{name} =" in init or name == "app"  # `app`: every Textual widget's


@pytest.mark.parametrize("host", [ResourceView, PanelView])
def test_every_view_that_runs_actions_provides_what_the_runner_needs(host: type) -> None:
    assert {"follow", "forget", "reload", "run_when_settled", "kind", "read_only"} <= set(MEMBERS)
    missing = [n for n in MEMBERS if not _declared(host, n)]
    assert not missing, f"{host.__name__} lacks {', '.join(missing)}"
