"""One line at the bottom: profile, project, scope, last refresh, read-only."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static


class StatusBar(Static):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    profile = reactive("")
    project = reactive("")
    scope = reactive("")
    refreshed = reactive("never")
    read_only = reactive(False)

    def render(self) -> str:
        project = self.project[:8] + "…" if len(self.project) > 9 else (self.project or "no project")
        parts = [f"⚑ {self.profile}", f"project {project}", self.scope, f"refreshed {self.refreshed}"]
        if self.read_only:
            parts.append("READ-ONLY")
        return " │ ".join(p for p in parts if p)
