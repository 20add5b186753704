"""The form rules' world (tests/form_rules.py), a fixture of every unit test module that asks for it."""

import pytest

from form_rules import open_world


@pytest.fixture
async def world():
    async for opened in open_world():
        yield opened
