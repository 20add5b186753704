"""One line at the bottom of every screen: profile, project, scope, last refresh, read-only."""

from __future__ import annotations

from rich.cells import cell_len
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from ..console_app import console_of

SEP = " │ "


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else (text[: max(width - 1, 0)] + "…" if width > 0 else "")


class StatusBar(Static):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    profile = reactive("")
    project = reactive("")
    scope = reactive("")
    refreshed = reactive("never")
    read_only = reactive(False)
    production = reactive(False)  # a production profile: said first, whatever the width
    note = reactive("")  # something the operator should know the whole session (the log is not kept)
    doing = reactive("")  # work under way across the console (every product being indexed)
    sending = reactive("")  # the changes on their way (`journal.in_flight`)
    watching = reactive("")  # how many resources are watched (`ui.across.watch`)

    def on_mount(self) -> None:
        """On every screen that shows it: the profile in use, and PRODUCTION or READ-ONLY, in text."""
        console = console_of(self)
        settings = console.settings if console is not None else None
        if settings is not None and not self.profile:
            self.profile, self.project = settings.profile, settings.project_id
            self.read_only, self.production = settings.read_only, settings.production
            self.refreshed = ""  # a screen of its own (a detail, the journal): its list's refresh is not said

    def fitted(self, width: int) -> str:
        """The line without READ-ONLY, made to fit `width`: the less important parts shorten first, and the
        profile in use always shows (cut to ten characters at most)."""
        project = self.project[:8] + "…" if len(self.project) > 9 else (self.project or "no project")
        profile, scope = f"⚑ {self.profile}", self.scope
        refreshed = f"refreshed {self.refreshed}" if self.refreshed else ""
        note = " · ".join(p for p in (self.sending, self.doing, self.watching, self.note) if p)

        def line() -> str:
            return SEP.join(p for p in (profile, project_part, scope, refreshed, note) if p)

        project_part = f"project {project}"
        for step in range(6):
            if cell_len(line()) <= width:
                break
            if step == 0:
                refreshed = f"↻ {self.refreshed}" if self.refreshed else ""
            elif step == 1:
                project_part = project[:4] + "…" if len(project) > 5 else project
            elif step == 2:
                profile = _cut(profile, 10)
            elif step == 3:  # the scope gives what it must, keeping at least a few characters
                over = cell_len(line()) - width
                scope = _cut(scope, max(len(scope) - over, 6)) if scope else scope
            elif step == 4:
                project_part = ""
            else:
                scope = ""
        return _cut(line(), width) if width > 0 else line()

    def render(self) -> Content:
        width = self.content_size.width
        badges = [b for b, on in (("PRODUCTION", self.production), ("READ-ONLY", self.read_only)) if on]
        prefix = sum(len(b + SEP) for b in badges)
        line = Content(self.fitted(width - prefix if width else 0))  # plain: a profile name is not markup
        for badge in reversed(badges):  # first, so that no width ever cuts them off
            line = Content.assemble((badge, "bold reverse"), SEP, line)
        return line
