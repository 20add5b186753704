"""The write pipeline (`products.kit.writes`): what it asks before a send, at every send; what it journals
under the act; and what it says when an answer is lost — without a screen (a scripted asker)."""

from __future__ import annotations

import pytest

from tui.api.errors import OutcomeUnknown
from tui.api.journal import Journal
from tui.products.kit.looks import Found
from tui.products.kit.writes import Question, Write, run

pytestmark = pytest.mark.anyio


class Asker:
    def __init__(self, production: str | None = None, answers: list[bool] | None = None) -> None:
        self.production = production
        self.answers = list(answers or [])
        self.asked: list[Question] = []

    async def ask(self, question: Question) -> bool:
        self.asked.append(question)
        return self.answers.pop(0)


def power_off(sent: list[str], lose: bool = False, **kw: object) -> Write[str]:
    async def send(act: object) -> str:
        sent.append("POST")
        journal = getattr(act, "journal")
        entry = journal.sent("POST", "https://a.example/servers/s1/action", {"action": "poweroff"}, "X", act=act)
        if lose:
            err = OutcomeUnknown(503, "no answer — it may have been applied")
            journal.failed(entry, err, unknown=True)
            raise err
        journal.answered(entry, 202)
        return "accepted"

    async def look(_: OutcomeUnknown) -> Found:
        return Found(None, "it is still running: it was not applied", False)

    return Write("Power off", "Instance", "web-01", send, look=look, **kw)  # type: ignore[arg-type]


async def test_a_production_profile_asks_the_name_typed_at_every_send_and_cancel_sends_nothing():
    journal, sent = Journal(lambda: "prod"), []
    asker = Asker("prod", [False, True, True])
    write = power_off(sent)
    assert (await run(write, journal, asker)).cancelled and sent == []
    assert (await run(write, journal, asker)).answer == "accepted"
    assert (await run(write, journal, asker)).answer == "accepted"  # the same write sent again: asked again
    assert len(asker.asked) == 3 and all(q.typed == "web-01" for q in asker.asked)
    assert "Profile prod is production" in asker.asked[0].message and sent == ["POST", "POST"]


async def test_its_own_question_takes_the_name_on_production_and_is_asked_alone_elsewhere():
    journal, sent = Journal(lambda: "p"), []
    own = Question("Delete web-01?", "web-01 will be deleted.", "Delete")
    plain = Asker(None, [True])
    await run(power_off(sent, confirm=own), journal, plain)
    assert plain.asked == [own], "no name typed off production, unless the act asks it"
    production = Asker("prod", [True])
    await run(power_off(sent, confirm=own), journal, production)
    asked = production.asked[0]
    assert (
        asked.typed == "web-01"
        and asked.message.startswith("web-01 will be deleted.")
        and "production" in asked.message
    )
    quiet = Asker("prod", [])
    await run(power_off(sent, asked=True), journal, quiet)  # asked with what it follows: not again
    await run(power_off(sent, changes=False), journal, quiet)  # changes nothing: no name to type
    assert quiet.asked == [] and len(sent) == 4


async def test_a_lost_answer_is_looked_at_and_the_acts_entry_says_what_was_found():
    journal, sent = Journal(lambda: "demo"), []
    done = await run(power_off(sent, lose=True), journal, Asker())
    assert done.lost is not None and done.applied is False and done.answer is None
    assert "Looked again: it is still running: it was not applied." in done.told
    entry = journal.entries[0]
    assert (entry.doing.what, entry.doing.resource, entry.outcome) == ("Power off", "web-01", "failed")
    assert entry.looked == "it is still running: it was not applied" and entry.retryable
    assert journal.in_flight() == [], "the act ended with its look"
