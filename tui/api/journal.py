"""The activity journal (issue 36, item 1): every change the console sent this session, newest first —
when, which profile, what was done to what, the request (method, URL, body with its secrets masked),
its outcome (done, failed and why, may have been applied and what the look after it found) and how
long it took — and the equivalent `curl` line, with the key as `$CLOUDTUI_SECRET_KEY`, never the key.

The API client records each write it sends (`Journal.sent`, then `answered` or `failed`), under the
act it was sent for (`Act`, which the write pipeline opens and passes down: `products.kit.writes`); what a
look after a lost answer found is added to the act's last write (`Act.looked`). An
optional file (JSON lines, rotated) is written off the UI thread by the standard library's
`QueueHandler` and `RotatingFileHandler`.
"""

from __future__ import annotations

import json
import logging
import shlex
import time
from collections import deque
from dataclasses import field
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from ..records import record, replace
from .safe import SECRET_MASK, clean, mask_userinfo

if TYPE_CHECKING:
    import logging.handlers

    from .errors import ApiError, OutcomeUnknown

MOST = 1_000  # entries kept in memory (the file, when named, keeps every one)
Look = Callable[["OutcomeUnknown"], Awaitable[object]]  # what a retry's lost answer calls: it returns what was found
SECRET_WORDS = ("password", "secret", "token", "private_key", "passphrase")


@record
class Doing:
    """What the console was doing when it sent a request: `what` ("Power off"), `product`, `resource`."""

    what: str
    product: str = ""
    resource: str = ""
    retry: bool = True  # False: never offered again from the journal (a staged batch: its changes stay staged)
    # `async (OutcomeUnknown) -> Found`: the look a lost answer calls for (`products.kit.looks`), for a retry
    look: Look | None = field(default=None, repr=False)
    # `async () -> look`: for a look that needs what was there before (a create: the ids listed), run
    # just before a retry is sent; it gives the look for that retry's lost answer
    ready: Callable[[], Awaitable[Look]] | None = field(default=None, repr=False)


@record
class Entry:
    at: float  # wall time sent
    profile: str
    method: str
    url: str
    body: str  # the JSON sent, its secrets masked ("" for none)
    auth: str  # the header the key goes in ("X-Auth-Token", or "Authorization" with Bearer)
    doing: Doing | None = None
    status: int = 0  # 0: no answer
    outcome: str = "sending"  # done, failed, maybe (may have been applied), sending
    said: str = ""  # why it failed, or what the look found
    looked: str = ""  # what a look after a lost answer found
    applied: bool | None = None  # what the look concluded
    ms: float = 0.0
    retryable: bool = False
    retried_at: float = 0.0  # wall time it was sent again from the journal (0: never)
    superseded_at: float = 0.0  # wall time a later write to the same URL was applied (a retry would undo it)
    raw_body: object = field(default=None, repr=False)  # what was sent, to send it again (never written out)
    journal: Journal | None = field(default=None, repr=False)
    started: float = 0.0  # monotonic, for `ms`
    # A text body (user data) as sent, kept in memory only, so that a retry in this run sends the same
    # bytes; the screen and the file say its length and sha256, never its text.
    raw_content: bytes | None = field(default=None, repr=False)
    content_type: str = ""
    content_size: int = 0
    content_sha256: str = ""
    in_act: bool = False  # sent by an act (`Act`): in flight while the act is open
    written: bool = False  # its line is in the journal's file (a later one is an update)

    def body_file(self) -> str:
        """The file a text body's `curl` line reads it from (named after its sha256)."""
        return f"cloudtui-body-{self.content_sha256[:12]}.txt" if self.content_sha256 else ""

    def text_body(self) -> str:
        """What a text body is, said without its text: its length and sha256."""
        if not self.content_sha256:
            return ""
        return f"a text body of {self.content_size} bytes, sha256 {self.content_sha256} ({self.content_type})"

    def curl(self) -> str:
        """The equivalent call for a shell: every value quoted, the key read from the environment."""
        header = (
            '"Authorization: Bearer $CLOUDTUI_SECRET_KEY"'
            if self.auth == "Authorization"
            else f'"{self.auth}: $CLOUDTUI_SECRET_KEY"'
        )
        parts = ["curl", "-X", self.method, shlex.quote(self.url), "-H", header]
        if self.body:
            parts += ["-H", shlex.quote("Content-Type: application/json"), "--data-raw", shlex.quote(self.body)]
        elif self.content_sha256:  # a text body is not shown: read from the file it is saved as
            parts += ["-H", shlex.quote(f"Content-Type: {self.content_type}"), "--data-binary", "@" + self.body_file()]
        return " ".join(parts)

    def as_line(self, update: bool = False) -> str:
        """The JSON line written to the journal's file; `update`: a later line of the same entry (what a
        look after its lost answer found), which replaces the one before of the same `at` and `url`."""
        out = {k: getattr(self, k) for k in ("at", "profile", "method", "url", "body", "status", "outcome", "said")}
        if update:
            out["update"] = True
        out.update(looked=self.looked, ms=round(self.ms, 1), curl=self.curl())
        if self.retried_at:  # sent again from the journal (its retry has a line of its own)
            out.update(retried_at=self.retried_at)
        if self.content_sha256:  # its length and digest, never its text
            out.update(body_bytes=self.content_size, body_sha256=self.content_sha256)
        if self.doing is not None:
            out.update(what=self.doing.what, product=self.doing.product, resource=self.doing.resource)
        return json.dumps(out, ensure_ascii=False)


class Act:
    """One act of the console (a create, a power-off, a batch of changes), as the journal holds it:
    each write sent with it (`ApiClient.request_data(act=…)`, or a service bound to it) is journalled as
    its `doing`; what a look after a lost answer found is added to its last write (`looked`); what a
    create made, when nothing named it before, renames its entries (`made`). While it is open and has
    sent a write it is in flight (`Journal.in_flight`): a profile switch or a quit waits for it."""

    def __init__(self, journal: Journal | None, doing: Doing) -> None:
        self.journal, self.doing = journal, doing
        self.last: Entry | None = None  # the last write it sent
        self.open = True

    def __enter__(self) -> Act:
        return self

    def __exit__(self, *_: object) -> None:
        self.end()

    def end(self) -> None:
        """Its answers are in, and any look after a lost one made: no longer in flight."""
        self.open = False
        if self.journal is not None:
            self.journal.settled(self)

    def part(self, what: str, resource: str) -> Act:
        """A part of this act journalled apart (one request of a batch sent as several): `what` done to
        `resource`, never offered again on its own (the act it is part of is what is sent again)."""
        return Act(self.journal, Doing(what, self.doing.product, resource, retry=False))

    def looked(self, says: str, applied: bool | None) -> None:
        """What a look after a lost answer found, added to the last write this act sent."""
        entry = self.last
        said_already = entry is not None and entry.looked == clean(says) and entry.applied == applied  # (said twice)
        if entry is not None and entry.outcome == "maybe" and not said_already:
            entry.looked, entry.applied = clean(says), applied
            entry.outcome = "done" if applied else "failed" if applied is False else "maybe"
            entry.retryable = applied is False and _may_retry(entry)
            if entry.journal is not None:
                entry.journal.changed(entry)

    def made(self, name: str) -> None:
        """What the act made (a create's new address, when nothing named it before sending), said in its
        entry instead of the kind's word."""
        entry = self.last
        if entry is not None and entry.doing is not None and name:
            self.doing = replace(self.doing, resource=clean(name))
            entry.doing = self.doing
            if entry.journal is not None:
                entry.journal.changed(entry)


def masked(value: Any) -> Any:
    """A JSON body with the values of secret-named keys masked, and credentials in URLs."""
    if isinstance(value, dict):
        return {
            k: SECRET_MASK if any(w in str(k).lower() for w in SECRET_WORDS) and v else masked(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [masked(v) for v in value]
    if isinstance(value, str):
        return mask_userinfo(value)
    return value


VERBS = {"POST": "Send", "PUT": "Replace", "PATCH": "Change", "DELETE": "Delete"}


def _unnamed(method: str, url: str) -> Doing:
    """A write sent outside any act (none should be): named from its request, what and where, so no
    entry reads as a bare "—"."""
    path = url.split("?", 1)[0].rstrip("/").split("/")
    return Doing(VERBS.get(method, method.capitalize()), "", clean("/".join(path[-2:])))


def _waited(refused: list[float] | None) -> str:
    """What a write refused for the rate (429) before it was taken says: how often, and how long it waited."""
    if not refused:
        return ""
    times = "once" if len(refused) == 1 else f"{len(refused)} times"
    return (
        f"refused for the rate (429) {times}, so not applied then; sent again after waiting {sum(refused):.1f} s in all"
    )


def _may_retry(entry: Entry) -> bool:
    """Whether the journal may offer to send `entry` again: once, never a retry itself, never a batch."""
    return entry.doing is None or (entry.doing.retry and not entry.doing.what.startswith("Retry"))


def _private(path: str, flags: int) -> int:
    """Open a journal file readable by its owner only (0600), new or not."""
    import os
    import stat

    fd = os.open(path, flags, 0o600)
    if stat.S_ISREG(os.fstat(fd).st_mode):
        os.fchmod(fd, 0o600)
    return fd


def _private_file(path: str, max_bytes: int, keep: int, failing: Callable[[str], None]) -> Any:
    """The standard library's rotating file handler, each of its files opened readable by its owner only
    (made here: `logging.handlers` is not imported unless a journal file is named). A line it cannot
    write (a full disk) is said once through `failing`, not printed over the console as logging would."""
    import logging.handlers
    import sys

    class PrivateFile(logging.handlers.RotatingFileHandler):
        said = False

        def _open(self) -> Any:
            return open(self.baseFilename, self.mode, encoding=self.encoding, errors=self.errors, opener=_private)

        def handleError(self, record: logging.LogRecord | None) -> None:
            if not self.said:
                self.said = True
                err = sys.exc_info()[1]
                why = getattr(err, "strerror", None) or err
                failing(
                    f"the journal file {self.baseFilename} cannot be written ({why}): its lines are not kept "
                    "there (the journal on J keeps them for this session)"
                )

        def flush(self) -> None:
            try:
                super().flush()
            except OSError:  # what is buffered cannot be written (a full disk): said once
                self.handleError(None)

        def close(self) -> None:
            try:
                super().close()
            except OSError:
                self.handleError(None)

    return PrivateFile(path, maxBytes=max_bytes, backupCount=keep, encoding="utf-8")


class Journal:
    def __init__(self, profile: Callable[[], str], clock: Callable[[], float] = time.time) -> None:
        self.profile, self.clock = profile, clock
        self.entries: deque[Entry] = deque(maxlen=MOST)
        self.listeners: list[Callable[[Entry], None]] = []
        self.on_problem: Callable[[str], None] | None = None  # its file cannot be written: said (from a thread)
        self._acts: dict[int, Entry] = {}  # acts in flight (`Act`), by their id: the first write each sent
        self._file: logging.Logger | None = None
        self._listener: logging.handlers.QueueListener | None = None
        self.path = ""  # the file it is written to, if any

    def act(
        self,
        what: str,
        product: str = "",
        resource: str = "",
        retry: bool = True,
        look: Look | None = None,
        ready: Callable[[], Awaitable[Look]] | None = None,
    ) -> Act:
        """An act the writes sent with it are journalled as: `what` done to `resource` of `product`
        (`retry` False: a failure is not offered again from the journal; `look`: what a retry's lost answer
        calls; `ready`: what makes that look just before the retry is sent). Ended by `Act.end` (or `with`)."""
        return Act(self, Doing(what, product, resource, retry, look, ready))

    def sent(
        self,
        method: str,
        url: str,
        json_body: object,
        auth: str,
        content: bytes | None = None,
        content_type: str = "",
        act: Act | None = None,
    ) -> Entry:
        """A write on its way, sent by `act` (None: named from its request): `json_body` (kept to send
        again, shown with its secrets masked), or a text body `content` (kept in memory to send again;
        said by its length and sha256 only)."""
        body = json.dumps(masked(json_body), ensure_ascii=False, separators=(",", ":")) if json_body is not None else ""
        entry = Entry(
            self.clock(),
            self.profile(),
            method,
            mask_userinfo(url),
            body,
            auth,
            act.doing if act is not None else _unnamed(method, url),
            raw_body=json_body,
            journal=self,
            started=time.monotonic(),
        )
        if content is not None and json_body is None:
            import hashlib  # (not on the start path: a text body is rare)

            entry.raw_content, entry.content_type = bytes(content), content_type
            entry.content_size, entry.content_sha256 = len(content), hashlib.sha256(content).hexdigest()
        self.entries.appendleft(entry)
        entry.in_act = act is not None
        if act is not None:
            if act.last is None and act.open:  # the act it is part of is in flight until it ends
                self._acts[id(act)] = entry
            act.last = entry
        self.changed(entry)
        return entry

    def settled(self, act: Act) -> None:
        """An act that sent writes has ended: answered, or looked at after a lost answer (said to the
        listeners; the file has its line already)."""
        entry = self._acts.pop(id(act), None)
        if entry is not None:
            self.changed(entry, write=False)

    def in_flight(self) -> list[str]:
        """The acts whose writes are on their way or being looked at after a lost answer, named; and
        any write sent outside an act that has no answer yet."""
        acts = list(self._acts.values())
        loose = [e for e in self.entries if e.outcome == "sending" and not e.in_act]
        named = []
        for entry in acts + loose:
            doing = entry.doing
            what = (f"{doing.what} · {doing.resource}" if doing.resource else doing.what) if doing else entry.method
            named.append(clean(what))
        return named

    def answered(self, entry: Entry, status: int, refused: list[float] | None = None) -> None:
        """`refused`: the waits after each time the platform refused it for the rate (429) first. An older
        change of the same resource (a PATCH, PUT or DELETE of its URL) still offered again is superseded:
        retried now, it would undo this one. (A POST creates or acts: a retry of one reads what is there
        first, `Doing.ready`; two creates to one collection are two things.)"""
        entry.status, entry.outcome = status, "done"
        entry.said = _waited(refused)
        same = [e for e in self.entries if e.url == entry.url] if entry.method != "POST" else []
        for older in same:
            if older is not entry and older.retryable and older.method != "POST" and not older.superseded_at:
                older.superseded_at = entry.at
                self.changed(older, write=False)
        self._ended(entry)

    def failed(self, entry: Entry, err: ApiError, unknown: bool, refused: list[float] | None = None) -> None:
        """`unknown`: the answer was lost after sending (it may have been applied)."""
        entry.status = getattr(err, "status", 0) or 0
        entry.said = clean(getattr(err, "summary", str(err))) + (f" ({_waited(refused)})" if refused else "")
        entry.outcome = "maybe" if unknown else "failed"
        # a refusal that says nothing was done, or a limit: the same request may be sent again
        entry.retryable = not unknown and entry.status in (409, 429, 503) and _may_retry(entry)
        self._ended(entry)

    def abandoned(self, why: str) -> None:
        """The writes still on their way when the console stops waiting for them (`q` twice): each ended
        as "may have been applied", saying `why`, so that the journal and its file keep that it was sent."""
        from .errors import OutcomeUnknown

        for entry in [e for e in self.entries if e.outcome == "sending"]:
            self.failed(entry, OutcomeUnknown(0, f"{why} — it may have been applied"), unknown=True)
            logging.getLogger("cloudtui.journal").warning("%s %s: %s", entry.method, entry.url, why)

    def retried(self, entry: Entry) -> None:
        """`entry` is sent again now: never offered again, and it says when (its retry is a new entry)."""
        entry.retryable = False
        entry.retried_at = self.clock()
        self.changed(entry)

    def _ended(self, entry: Entry) -> None:
        entry.ms = (time.monotonic() - entry.started) * 1000
        self.changed(entry)

    def changed(self, entry: Entry, write: bool = True) -> None:
        """`entry` was sent, answered or looked at: the listeners told; its line written to the file once
        it has ended, and a line again when a look after a lost answer adds to it (marked an update)."""
        for listener in list(self.listeners):
            listener(entry)
        if self._file is None or not write or entry.outcome == "sending":
            return
        self._file.info(entry.as_line(update=entry.written))
        entry.written = True

    # ---- the file --------------------------------------------------------------------------------
    def write_to(self, path: str, max_bytes: int = 1_000_000, keep: int = 5) -> None:
        """Every entry, once it has ended, as a JSON line in `path` (rotated at `max_bytes`, `keep`
        old files), written by a thread of the logging module's own."""
        import logging.handlers
        import queue

        handler = _private_file(path, max_bytes, keep, self._failing)
        handler.setFormatter(logging.Formatter("%(message)s"))
        lines: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._listener = logging.handlers.QueueListener(lines, handler)
        self._listener.start()
        logger = logging.getLogger(f"cloudtui.journal.{id(self)}")
        logger.propagate = False
        logger.setLevel(logging.INFO)
        logger.addHandler(logging.handlers.QueueHandler(lines))
        self._file = logger

    def _failing(self, problem: str) -> None:
        """The journal's file cannot be written (from its writer thread): logged, and said (`on_problem`)."""
        logging.getLogger("cloudtui.journal").warning("%s", problem)
        if self.on_problem is not None:
            self.on_problem(problem)

    def open_file(self, path: str) -> str | None:
        """Write to `path` from now on (none: stop writing); why it cannot be, or None."""
        self.close()
        self.path = path
        if not path:
            return None
        try:
            self.write_to(path)
        except OSError as err:
            return f"the journal file {path} cannot be written ({err.strerror or err}): it is kept in memory only"
        return None

    def close(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop()  # what is queued is written first
            for handler in listener.handlers:
                handler.close()
        if self._file is not None:
            for handler in list(self._file.handlers):
                self._file.removeHandler(handler)
            self._file = None
