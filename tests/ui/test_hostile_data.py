"""Data from the API is untrusted: escapes never reach the terminal, text is never read as markup.

Each case here crashed the console or reached the operator's terminal before: a tag that retitles
the terminal (OSC 2) or writes the clipboard (OSC 52), an error message holding `[/]` (MarkupError),
`field [name] is invalid` losing `[name]`, the ansi themes raising in the table's render.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from helpers import loaded, make_app, wait_for
from tui.api import safe
from tui.api.errors import error_from_response
from tui.sandbox import DEMO_PROJECT_ID

pytestmark = pytest.mark.anyio

RETITLE = "\x1b]2;HACKED\x07"
CLIPBOARD = "\x1b]52;c;SGk=\x07"
MARKUP = "[/] [@click=app.quit]quit[/] [b]bold"


def visible(svg: str) -> str:
    """The text of a screenshot, its styled pieces joined again."""
    import html
    import re

    svg = svg[svg.index("<g class") :] if "<g class" in svg else svg  # past the embedded styles
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


def test_clean_shows_every_control_character_as_a_visible_escape():
    assert safe.clean(RETITLE) == "\\x1b]2;HACKED\\x07"
    assert safe.clean("a\nb\tc\x85d\x7f") == "a\\nb\\tc\\x85d\\x7f"
    assert safe.clean("plain é ü ✓") == "plain é ü ✓"
    assert safe.loads(b'{"t":["\\u001b]52;c;SGk=\\u0007"],"k\\u009b":"\xc2\x9b"}') == {
        "t": ["\\x1b]52;c;SGk=\\x07"],
        "k\\x9b": "\\x9b",
    }


@given(st.text())
def test_cleaned_text_never_holds_a_control_character(text):
    cleaned = safe.clean(text)
    assert not safe.has_control(cleaned)
    assert safe.clean(cleaned) == cleaned


@settings(max_examples=200)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
        max_leaves=20,
    )
)
def test_decoded_bodies_never_hold_a_control_character(value):
    import json

    def strings(v):
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            for k, x in v.items():
                yield k
                yield from strings(x)
        elif isinstance(v, list):
            for x in v:
                yield from strings(x)

    decoded = safe.loads(json.dumps(value).encode())
    assert not any(safe.has_control(s) for s in strings(decoded))
    decoded = safe.loads(json.dumps(value, ensure_ascii=False).encode())
    assert not any(safe.has_control(s) for s in strings(decoded))


def test_error_messages_keep_brackets_and_lose_escapes():
    err = error_from_response(400, b'{"message":"bad value [/] here \\u001b[2J","type":"invalid_request_error"}')
    assert err.message == "bad value [/] here \\x1b[2J"
    err = error_from_response(
        400,
        b'{"type":"invalid_arguments","message":"invalid","details":[{"argument_name":"[name]","reason":"format"}]}',
    )
    assert "[name] format" in err.summary


async def test_hostile_fields_are_shown_as_text_in_the_list_the_detail_and_the_json(sandbox):
    server = next(s for s in sandbox.instance.servers["fr-par-1"].values() if s["name"] == "bastion")
    sandbox.instance.wire_overrides[server["id"]] = {
        "tags": [RETITLE, CLIPBOARD, MARKUP],
        "state_detail": MARKUP,
        "hostname": "\x9b31m",
    }
    app = make_app(sandbox)
    async with app.run_test(size=(160, 40)) as pilot:
        view = await loaded(pilot, app)
        shot = app.export_screenshot()
        assert "\x1b" not in shot and "\x07" not in shot
        assert "\\x1b]2;HACKED\\x07" in visible(shot)
        view.table.move_to(server["id"])
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: app.screen.__class__.__name__ == "DetailScreen" and app.screen.resource is not None,
            what="detail",
        )
        shot = visible(app.export_screenshot())
        assert "\x1b" not in shot and "\x9b" not in shot
        assert "[/] [@click=app.quit]quit[/] [b]bold" in shot, "markup is shown as typed, not interpreted"
        await pilot.press("v")
        await pilot.pause()
        assert "\x1b" not in app.export_screenshot()
        code = app.screen.query_one("#json").content.code  # the JSON view: the escape, escaped again by JSON
        assert "\\\\x1b]52;c;SGk=\\\\x07" in code and "\x1b" not in code
        assert app.is_running and app.bugs == []


async def test_an_error_message_with_markup_is_shown_literally(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        view = await loaded(pilot, app)
        sandbox.inject(400, "/action", method="POST", times=1)
        sandbox.faults[-1].body = {
            "message": "bad value [/] here [@click=app.quit]x[/]",
            "type": "invalid_request_error",
        }
        running = next(r for r in view.table.resources() if r.state == "running")
        view.table.move_to(running.id)
        view._do_action(running, next(a for a in view.kind.actions if a.name == "reboot"))
        await wait_for(pilot, lambda: any("bad value [/] here" in n.message for n in app.notes), what="toast")
        await pilot.pause()
        assert app.is_running and app.bugs == []
        await wait_for(
            pilot, lambda: bool(app.screen.query("Toast")), what="toast shown"
        )  # Textual's toast, by its CSS type
        shown = " ".join(t.render().plain for t in app.screen.query("Toast"))
        assert "bad value [/] here [@click=app.quit]x[/]" in shown


async def test_the_login_test_ends_with_an_answer_whatever_the_url(sandbox):
    from tui.ui.screens.login import LoginScreen

    app = make_app(sandbox, secret=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LoginScreen), what="login")
        screen = app.screen
        screen.query_one("#api-url").value = "http://127.0.0.1:1/v[/]"
        screen.query_one("#secret").value = "k" * 36
        screen.test = lambda url, secret: _fail(url)
        await pilot.press("ctrl+s")
        status = screen.query_one("#login-status")
        await wait_for(pilot, lambda: "Testing" not in str(status.render()) and str(status.render()), what="an answer")
        assert "v[/]" in str(status.render())


async def _fail(url):
    from tui.api.errors import NotFound

    raise NotFound(404, f"no such endpoint: {url}")


async def test_forms_refuse_control_characters(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        server = next(r for r in view.table.resources() if r.name == "bastion")
        view.table.move_to(server.id)
        await pilot.press("e")
        await wait_for(
            pilot, lambda: app.screen.__class__.__name__ == "FormScreen" and app.screen.ready, what="edit form"
        )
        form = app.screen
        form.query_one("#f-tags").value = "ok, " + RETITLE
        before = len(sandbox.requests)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "control characters" in str(form.query_one("#e-tags").render())
        assert app.screen is form and [m for m, _ in list(sandbox.requests)[before:] if m != "GET"] == []


async def test_the_sandbox_refuses_control_characters(http):
    resp = await http.post("/instance/v1/zones/fr-par-1/ips", json={"project": DEMO_PROJECT_ID, "tags": ["a\x1bb"]})
    assert resp.status_code == 400
    assert resp.json()["details"][0] == {
        "argument_name": "tags.0",
        "reason": "format",
        "help_message": "control characters are not allowed",
    }


@pytest.mark.parametrize("theme", ["textual-dark", "ansi-dark", "ansi-light", "textual-light", "nord"])
async def test_every_theme_draws_the_table(sandbox, theme):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        assert theme in app.available_themes
        app.theme = theme
        await pilot.pause()
        app.export_screenshot()
        await pilot.press("j")
        await pilot.pause()
        assert app.is_running and app.bugs == []
        assert not any(n.severity == "error" for n in app.notes)


async def test_a_huge_name_in_a_typed_confirmation_leaves_its_field_and_buttons_in_view(sandbox):
    from helpers import screen_named
    from tui.ui.screens.confirm import ConfirmScreen

    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        name = "x" * 5000
        app.push_screen(ConfirmScreen("Power off?", f"Power off: {name} in fr-par-1.", "Power off", require_text=name))
        dialog = await screen_named(pilot, app, "ConfirmScreen")
        await pilot.pause()
        for part in ("#confirm-text", "#confirm", "#cancel"):
            region = dialog.query_one(part).region
            assert region.height and region.bottom <= 24, f"{part} is in view"


async def test_file_names_and_link_targets_in_the_file_dialog_are_text(sandbox, tmp_path):
    """A shared folder is anyone's: a file named with a terminal escape, or a link pointing at one, is
    shown with the escape visible, never sent to the terminal, never read as markup."""
    from helpers import screen_named, text_of
    from tui.ui.screens.files import FilePickerScreen

    hostile = "\x1b]2;HACK\x07[b]x"
    (tmp_path / f"{hostile}.csv").write_text("")
    (tmp_path / "link.csv").symlink_to(tmp_path / hostile)
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(FilePickerScreen("Save", mode="save", path=str(tmp_path / "out.csv")))
        dialog = await screen_named(pilot, app, "FilePickerScreen")
        await wait_for(pilot, lambda: dialog.query("#file-tree"), what="the dialog built")
        tree = dialog.query_one("#file-tree")
        await wait_for(pilot, lambda: len(tree.root.children) == 2, what="the folder read")
        labels = [str(node.label) for node in tree.root.children]
        assert all("\x1b" not in label and "\x07" not in label for label in labels)
        assert any("\\x1b]2;HACK\\x07[b]x.csv" in label for label in labels), labels
        dialog._choose(tmp_path / "link.csv")
        said = text_of(dialog.query_one("#file-error"))
        assert "symbolic link" in said and "\x1b" not in said and "\\x1b]2;HACK" in said


async def test_a_huge_name_in_a_form_title_or_a_notification_leaves_the_screen_usable(sandbox):
    """Walk: a 5,000-character name from the API (an edit's answer) made the "Saved …" toast cover the
    list, and the edit form's title pushed its fields and buttons out of sight."""
    from pydantic import BaseModel

    from helpers import screen_named
    from tui.ui.screens.form import FormScreen

    class Tags(BaseModel):
        tags: str = ""

    async def submit(form: Tags, extra: dict) -> None:
        return None

    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        name = "x" * 5000
        app.notify(f"Saved {name}")
        assert all(len(line) <= 300 for line in app.notes[-1].message.split("\n"))
        app.push_screen(FormScreen(f"Edit {name}", Tags, submit, submit_label="Save"))
        form = await screen_named(pilot, app, "FormScreen")
        await pilot.pause()
        for part in ("#f-tags", "#submit"):
            region = form.query_one(part).region
            assert region.height and region.bottom <= 24, f"{part} is in view"
