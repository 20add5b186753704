"""One line at the bottom: profile, project, scope, last refresh, read-only."""

from __future__ import annotations

from textual.content import Content
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
    note = reactive("")  # something the operator should know the whole session (the log is not kept)

    def render(self) -> Content:
        project = self.project[:8] + "…" if len(self.project) > 9 else (self.project or "no project")
        parts = [f"⚑ {self.profile}", f"project {project}", self.scope, f"refreshed {self.refreshed}", self.note]
        line = Content(" │ ".join(p for p in parts if p))  # plain: a profile name is not markup
        if self.read_only:  # first, so that no width ever cuts it off
            line = Content.assemble(("READ-ONLY", "bold reverse"), " │ ", line)
        return line
