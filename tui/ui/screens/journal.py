"""The activity journal on one key (`J`): every change sent this session, newest first, one line each —
when, the outcome (✓ done, ✗ failed, ? may have been applied, … on its way), the status, what was done
to what, the product, the request and how long it took. It follows new entries as they come.

`enter` shows one whole: the request (method, URL, body with its secrets masked), what the answer or
the look after a lost answer said, and the `curl` line (`y` copies it; the key is
`$CLOUDTUI_SECRET_KEY`, never the key). A failed entry whose retry is safe (a busy resource, a limit,
a look that found it not applied) offers Retry, after which the same request is sent again.
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING, Iterable, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from ...api.safe import clean
from ...products.kit.times import moment_of, rfc3339
from .. import styles
from ..widgets.key_bar import KeyBar
from ..widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from ...api.journal import Act, Doing, Entry
    from ..app import CloudApp
    from ..widgets.resource_view import ResourceView

MARKS = {"done": "✓", "failed": "✗", "maybe": "?", "sending": "…"}


LOST = {True: "lost: applied", False: "lost: not applied", None: "lost answer"}  # what the look found
LOST_NARROW = {True: "lost: done", False: "lost: not done", None: "lost"}  # (under 100 columns)


def line(entry: Entry, width: int = 120) -> Text:
    """One entry on one line (plain text: never markup); under 100 columns without the product and the
    time taken, and the request's path from its version on, so that the request shows. What a look
    after a lost answer found is never cut: the words before it are."""
    at = time.strftime("%H:%M:%S" if width >= 100 else "%H:%M", time.localtime(entry.at))
    doing = entry.doing
    product = doing.product if doing else ""
    path = entry.url.split("://", 1)[-1].split("/", 1)[-1]
    # the answer was lost (a 500 beside ✓ would puzzle): what the look found says it
    said_lost = LOST if width >= 100 else LOST_NARROW
    lost = f" ({said_lost.get(entry.applied, said_lost[None])})" if entry.looked else ""
    status = str(entry.status) if entry.status else "—"
    took = f"{entry.ms:.0f} ms" if entry.outcome != "sending" else ""
    room = 46  # the act and its resource, before the request (its path is in the entry's detail)
    what = _what(doing, room - len(lost)) + lost
    if width < 100:  # the time without its seconds; the act whole, the request after it (aligned when short)
        path = path.split("/", 2)[-1] if path.count("/") >= 2 else path  # after the product and its version
        said = f"{at} {MARKS.get(entry.outcome, '?')} {status:>3}  {what:<24} "
    else:
        said = f"{at} {MARKS.get(entry.outcome, '?')} {status:>3} {took:>7}  {what:<{room}} {product[:12]:<12} "
    return Text(clean(said + f"{entry.method} /{path}"), no_wrap=True, overflow="ellipsis")


def _what(doing: Doing | None, room: int) -> str:
    """What was done to what, in `room` characters: the act's words in brackets go first, then the act
    is cut, and the resource last (which server was backed up says more than how)."""
    if doing is None:
        return "—"
    verb, resource = doing.what, doing.resource
    if verb.startswith("Retry: ") and len(verb) + 3 + len(resource) > room:
        verb = verb.removeprefix("Retry: ") + " again"  # "Delete again · worker-batch-2"
    if not resource:
        return verb if len(verb) <= room else verb[: max(room - 1, 1)] + "…"
    if len(verb) + 3 + len(resource) > room:
        verb = verb.split(" (")[0]  # "Back up (image of its volumes)" → "Back up"
    left = room - 3 - len(resource)
    if left >= 4:
        return f"{verb if len(verb) <= left else verb[: left - 1] + '…'} · {resource}"
    # no room for both whole: the act's first word stays (a lost reboot still reads Reboot: walk 22), the
    # resource is cut after it
    words = verb.split(" ")
    first = " ".join(words[:2] if words[0].endswith(":") else words[:1])[:14]  # "Retry: Delete", "Reboot"
    left = room - 3 - len(first)
    if left < 4:
        return resource if len(resource) <= room else resource[: max(room - 1, 1)] + "…"
    return f"{first} · {resource if len(resource) <= left else resource[: left - 1] + '…'}"


def whole(entry: Entry) -> str:
    """An entry whole, for its dialog."""
    doing = entry.doing
    head = (f"{doing.what} · {doing.resource}" if doing.resource else doing.what) if doing else "A change"
    outcome = {
        "done": "accepted (it is done in the background: its list shows when)" if entry.status == 202 else "done",
        "failed": "failed",
        "maybe": "may have been applied",
        "sending": "on its way",
    }.get(entry.outcome, entry.outcome)
    lines = [
        f"{head}" + (f" ({doing.product})" if doing and doing.product else "") + f" — profile {entry.profile}",
        f"Sent {moment_of(rfc3339(entry.at))}; took {entry.ms:.0f} ms: {outcome}"
        + (f" ({entry.status})" if entry.status else ""),
    ]
    if entry.said:
        lines.append(entry.said)
    if entry.looked:
        lines.append(f"Looked again: {entry.looked}")
    if entry.retried_at:
        at = time.strftime("%H:%M:%S", time.localtime(entry.retried_at))
        lines.append(f"Retried at {at}: its own entry says how it went.")
    elif entry.outcome in ("failed", "maybe") and doing is not None and not doing.retry:
        lines.append("Not retried from here: what it sent stays staged in its list, where w sends it again.")
    lines += ["", f"{entry.method} {entry.url}"]
    if entry.body:
        lines.append(entry.body)
    elif entry.content_sha256:  # a text body (user data): never shown, said by its length and digest
        lines.append(
            f"The body, {entry.text_body()}, is not shown. The curl line reads it from {entry.body_file()}: "
            "put the text there first."
        )
    lines += ["", "The same call (the key read from $CLOUDTUI_SECRET_KEY):", entry.curl()]
    return "\n".join(lines)


class JournalScreen(Screen[None]):
    app: CloudApp
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="back"),
        Binding("y", "copy", "Copy curl", id="copy"),
        Binding("enter", "open", "Open", show=False, id="open"),
        # j k g G as in every list
        Binding("j", "move('cursor_down')", show=False, id="down"),
        Binding("k", "move('cursor_up')", show=False, id="up"),
        Binding("g", "move('first')", show=False, id="top"),
        Binding("G", "move('last')", show=False, id="bottom"),
    ]

    def __init__(self) -> None:
        super().__init__(id="journal")
        self.shown: list[Entry] = []  # the entries, as listed (newest first)
        self._width = 0  # the width its lines were made for

    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="detail-title", markup=False)
        yield OptionList(id="journal-lines")
        yield StatusBar()  # the profile in use, PRODUCTION first (main's, on every screen)
        yield KeyBar()

    def _title(self) -> str:
        n = len(self.app.journal.entries)
        return f" Activity journal · {n} change{'s' if n != 1 else ''} sent this session (newest first)"

    def on_mount(self) -> None:
        self.app.journal.listeners.append(self._changed)
        self._fill()
        self.query_one(OptionList).focus()

    def on_unmount(self) -> None:
        if self._changed in self.app.journal.listeners:
            self.app.journal.listeners.remove(self._changed)

    def _fill(self) -> None:
        options = self.query_one(OptionList)
        self.shown = list(self.app.journal.entries)
        self._width = self.app.size.width
        options.clear_options()
        if not self.shown:
            options.add_option(Option("Nothing was changed this session yet.", disabled=True))
            return
        options.add_options([Option(line(e, self.app.size.width)) for e in self.shown])
        options.highlighted = 0

    def on_resize(self) -> None:  # the lines as wide as the screen now is
        if self.app.size.width == self._width:  # (the first, as it opens: filled already)
            return
        at = self.query_one(OptionList).highlighted
        self._fill()
        if at is not None and self.shown:
            self.query_one(OptionList).highlighted = min(at, len(self.shown) - 1)

    def _changed(self, entry: Entry) -> None:
        """A new entry goes on top; one that ended is drawn again where it is."""
        if not self.is_attached:
            return
        self.query_one("#detail-title", Label).update(self._title())
        at = next((i for i, e in enumerate(self.shown) if e is entry), None)  # the same entry, not an equal one
        if at is not None:
            prompt = line(entry, self.app.size.width)
            self.query_one(OptionList).replace_option_prompt_at_index(at, prompt)
        else:
            self._fill()

    def action_move(self, how: str) -> None:
        getattr(self.query_one(OptionList), f"action_{how}")()

    def _current(self) -> Entry | None:
        at = self.query_one(OptionList).highlighted
        return self.shown[at] if at is not None and at < len(self.shown) else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_open()

    def action_copy(self) -> None:
        entry = self._current()
        if entry is not None:
            self.app.copy_to_clipboard(entry.curl())
            self.app.notify("Copied the curl line (the key is read from $CLOUDTUI_SECRET_KEY).", timeout=4)

    def action_open(self) -> None:
        entry = self._current()
        if entry is None:
            return
        from .result import ResultScreen

        def answered(retry: bool | None) -> None:
            if retry:
                self.app.run_worker(self._retry(entry), group="mutate", exit_on_error=False)

        said = "accepted" if entry.outcome == "done" and entry.status == 202 else entry.outcome  # (as its body says)
        title = f"{entry.method} · {MARKS.get(entry.outcome, '?')} {said}"
        why_not = self._not_retried(entry) if entry.retryable else None
        retry = "Retry" if entry.retryable and not why_not else None
        first = "reads what is there first (done or gone since: not sent), then " if self._reads(entry) else ""
        text = whole(entry) + (
            f"\n\nRetry {first}sends this request again, once, alone: what followed it in the console is not sent "
            f"again. {self.app.key_for('refresh', 'r')} in its list shows what is there now."
            if retry
            else f"\n\nNot offered again here: {why_not}."
            if why_not
            else ""
        )
        self.app.push_screen(ResultScreen(title, text, copy_text=entry.curl(), confirm_label=retry), answered)

    def _not_retried(self, entry: Entry) -> str | None:
        """Why a retryable entry is not offered now: read-only; sent under another profile (its key,
        project and confirmation are that profile's); a text body no longer held (sent before a restart)."""
        settings = self.app.settings
        if settings.read_only:
            return "the console is read-only"
        if entry.profile != settings.profile:
            return (
                f"it was sent under profile {clean(entry.profile)}, and {clean(settings.profile)} is in use: switch "
                f"to {clean(entry.profile)} (palette: Profile: {clean(entry.profile)}) to retry it; nothing is sent"
            )
        if entry.content_sha256 and entry.raw_content is None:
            return "its text body is not held any more (it is kept in memory for the run that sent it only)"
        if entry.superseded_at:  # sent again now, it would undo what was applied since (walk 22)
            when = moment_of(rfc3339(entry.superseded_at))
            return f"a later change to the same resource was applied at {when}: sent again, this one would undo it"
        return None

    @staticmethod
    def _reads(entry: Entry) -> bool:
        """Whether a retry of `entry` reads what is there before sending (`Doing.ready`; a DELETE, its URL)."""
        return (entry.doing is not None and entry.doing.ready is not None) or entry.method == "DELETE"

    async def _retry(self, entry: Entry) -> None:
        """The same request again, through the client of its origin (journalled as a new entry), through
        the write pipeline: what is there read first (`Doing.ready`: done or gone since, not sent), the name
        typed on a production profile, and the first send's look should its answer be lost too."""
        from ...products.kit.flows import Refused
        from ...products.kit.writes import Write
        from .. import asking
        from ..errors import notify_error, notify_lost

        client = next((c for c in self.app.clients.values() if entry.url.startswith(c.api_url + "/")), None)
        what = entry.doing.what if entry.doing else entry.method
        act_named = f"{what} · {entry.doing.resource}" if entry.doing and entry.doing.resource else what
        why_not = self._not_retried(entry)
        if why_not:  # (the profile may have been switched while its dialog was open)
            self.app.notify(f"Retry: {what}: {why_not}.", severity="warning", timeout=10)
            return
        if client is None:
            self.app.notify("Its API is not in use in this profile any more: not sent.", severity="warning")
            return
        doing = entry.doing
        look = doing.look if doing is not None else None
        ready = doing.ready if doing is not None else None
        if ready is None and entry.method == "DELETE":  # kept as its request only: what its URL names, read
            from ...products.kit.before_retry import before_delete_at

            ready = partial(before_delete_at, client, entry.url)
        if ready is not None:  # what the look compares with, read before sending
            try:
                look = await ready()
            except Exception as err:  # not read, or done or gone since: not sent, and offered still
                notify_error(self.app, err, f"Retry: {act_named}")
                return
        product, resource = (doing.product, doing.resource) if doing is not None else ("", "")
        profile = self.app.settings.profile

        async def again(act: Act) -> int:
            if self._not_retried(entry) or not entry.retryable or self.app.settings.profile != profile:
                raise Refused(f"not sent ({self._not_retried(entry) or 'retried already'})")  # switched while asked
            self.app.journal.retried(entry)  # once: whatever comes of it, it is not offered again
            sender = next((c for c in self.app.clients.values() if entry.url.startswith(c.api_url + "/")), client)
            if entry.raw_content is not None:  # the same text bytes as sent (user data)
                response, _ = await sender.request_data(
                    entry.method, entry.url, content=entry.raw_content, content_type=entry.content_type, act=act
                )
            else:
                response, _ = await sender.request_data(entry.method, entry.url, json=entry.raw_body, act=act)
            return response.status_code

        write = Write(
            f"Retry: {what}",
            product,
            resource,
            again,
            # (the journal, below the products, says a look returns an `object`: it is the write's own, `Found`)
            look=look,  # type: ignore[arg-type]
            typed=resource or "retry",
            says=f"Send {act_named} again: {_request_of(entry)}"
            + (".\nWhat it deletes is lost for good: this cannot be undone" if entry.method == "DELETE" else ""),
            label="Retry",
        )
        try:
            done = await asking.send(self.app, write)
        except Exception as err:
            notify_error(self.app, err, f"Retry: {act_named}")
            return
        if done.cancelled:
            return
        if done.lost is not None:
            if look is None:  # nothing to look with: said so, as a first send says it
                notify_error(self.app, done.lost, f"Retry: {act_named}")
            else:  # the same look the first send had; the journal keeps what it found
                notify_lost(self.app, f"Retry: {act_named}", done.told)
            return
        ended = "accepted" if done.answer == 202 else "done"  # (202: begun; it goes on on the platform)
        if self._follow(entry.url):
            self.app.notify(f"Retry: {act_named} — {ended}; its list reads it again.", timeout=6)
        else:
            self.app.notify(f"Retry: {act_named} — {ended}. Refresh (r) its list to see it now.", timeout=6)

    def _follow(self, url: str) -> bool:
        """The rows a retried request names in its path, in the lists open (shown or not): read again and
        followed until they settle, as after the first send (walk: a retried power-off left the row
        `running` until the next refresh). Whether any was."""
        from urllib.parse import unquote, urlsplit

        from ..widgets.staged import VIEWS

        named = {unquote(part) for part in urlsplit(url).path.split("/") if part}
        found = False
        for screen in self.app.screen_stack:
            for view in cast("Iterable[ResourceView]", screen.query(VIEWS)):  # (a query by class is typed Widget)
                for key in named:
                    row = view.model.rows.get(key)
                    if row is not None:
                        view.follow(row)
                        found = True
        return found


def _request_of(entry: Entry) -> str:
    """The request a retry sends, said where it is asked: its method, path and body (secrets masked, cut
    at 300 characters; a text body by its length), so what is sent again is seen before it is."""
    from urllib.parse import urlsplit

    path = clean(urlsplit(entry.url).path)
    body = entry.body or entry.text_body()
    body = body if len(body) <= 300 else body[:299] + "…"
    return f"{entry.method} {path}" + (f"\n{clean(body)}" if body else "")
