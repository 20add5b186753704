"""DNS certificates from the keyboard: a create on a zone that already has one (the platform
answers with it: create or get) says so, and counts nothing."""

from __future__ import annotations

import pytest

from helpers import (
    child_list,
    form_ready,
    loaded,
    make_app,
    notified,
    open_view,
    screen_named,
    sent,
    to_named_row,
    wait_for,
)

pytestmark = pytest.mark.anyio


async def test_a_create_answered_with_the_zones_certificate_says_so_and_counts_nothing(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        await to_named_row(pilot, zones, "example.com")
        certs = await child_list(pilot, app, "Certificates")
        before = certs.table.loaded_count
        assert str(certs.table.border_title).endswith(f"{before}/{before}")
        await pilot.press("c")
        await form_ready(pilot, app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: notified(app, "already has a certificate"), what="said")
        assert sent(sandbox, "/domain/v2beta1/ssl-certificates") == [("POST", "/domain/v2beta1/ssl-certificates")]
        assert notified(
            app, "Not created: example.com already has a certificate: example.com, success"
        ) and not notified(app, "Created")
        assert certs.table.loaded_count == before and str(certs.table.border_title).endswith(f"{before}/{before}")
        await screen_named(pilot, app, "ChildScreen")  # its key, readable any time, is not shown as given once


async def test_an_issued_certificates_chain_is_saved_as_pem(sandbox, tmp_path):
    from helpers import act

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        await to_named_row(pilot, zones, "example.com")
        certs = await child_list(pilot, app, "Certificates")
        await wait_for(pilot, lambda: certs.table.loaded_count, what="the certificate")
        chain = certs.table.resources()[0].raw["certificate_chain"]
        await act(pilot, app, "Save the certificate chain (PEM)…")
        save = await screen_named(pilot, app, "FilePickerScreen")
        assert save.query_one("#file-path").value.endswith("example.com.chain.pem")
        await pilot.press("ctrl+u", *str(tmp_path / "chain.pem"), "enter")
        await wait_for(pilot, lambda: notified(app, f"to {tmp_path / 'chain.pem'}"), what="saved")
        saved = (tmp_path / "chain.pem").read_text()  # real PEM: its lines broken, two blocks
        assert saved.startswith("-----BEGIN CERTIFICATE-----\n") and saved.count("-----END CERTIFICATE-----\n") == 2
        assert "\\n" not in saved and len(saved.splitlines()) > 10 and chain.replace("\\n", "\n").strip() in saved
        assert not [m for m, _ in sandbox.requests if m != "GET"]
