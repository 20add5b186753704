"""How the form vocabulary draws a field (tui/ui/widgets/model_form.py), on a bare App."""

from __future__ import annotations

import pytest
from textual.app import App

pytestmark = pytest.mark.anyio


async def test_an_example_too_long_for_its_field_is_cut_with_a_mark_and_said_whole_below():
    """Walk: a load-balancer backend's timeouts showed "…(empty: the" — an example cut by the
    field's edge with no mark, the end of it (what empty means) never seen."""
    from typing import Annotated

    from pydantic import BaseModel, Field

    from tui.products.kit.fields import meta
    from tui.ui.widgets.model_form import PLACEHOLDER_FITS, ModelForm

    long = "timeout: how long a server may stay silent (empty: the platform's)"

    class Timeouts(BaseModel):
        server: Annotated[int | None, Field(json_schema_extra=meta("Server (ms)", placeholder=long))] = None
        short: Annotated[int | None, Field(json_schema_extra=meta("Short", placeholder="milliseconds"))] = None

    class Host(App):
        def compose(self):
            yield ModelForm(Timeouts, {})

    app = Host()
    async with app.run_test():
        shown = app.query_one("#f-server").placeholder
        assert shown.endswith("…") and len(shown) == PLACEHOLDER_FITS and long.startswith(shown[:-1])
        assert [str(h.render()) for h in app.query(".form-hint")] == [long]
        assert app.query_one("#f-short").placeholder == "milliseconds"
