"""Start-up refuses what it cannot use, in one line naming what and where, before any screen."""

from __future__ import annotations

import os

import pytest

from tui import cli

UUID = "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910"


def start(capsys, *argv: str) -> str:
    assert cli.main(list(argv)) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cloudtui: ") and len(err.splitlines()) == 1, err
    return err


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        f'default_profile = "prod"\n[profiles.prod]\napi_url = "https://api.example.com"\nproject_id = "{UUID}"\n'
        '[profiles.odd]\napi_url = "https://api.example.com"\ndefault_zone = "fr-par-9"\n'
    )
    os.environ["CLOUDTUI_CONFIG"] = str(path)  # isolated_env restores it
    return path


def test_an_unknown_profile_is_named(capsys, config):
    err = start(capsys, "--profile", "prdo")
    assert "no profile 'prdo'" in err and "(it has odd, prod)" in err


def test_a_bad_zone_inside_a_profile_is_named(capsys, config):
    assert "the zone 'fr-par-9' of profile 'odd'" in start(capsys, "--profile", "odd")


def test_a_project_id_with_a_trailing_newline_is_not_a_uuid(capsys, config, monkeypatch):
    monkeypatch.setenv("CLOUDTUI_PROJECT_ID", UUID + "\n")
    assert "is not a UUID" in start(capsys)


@pytest.mark.parametrize(
    "url, why",
    [
        ("https://api.example.com:99999", "not a usable URL"),
        ("ftp://api.example.com", "must start with https://"),
        ("https://", "has no host"),
    ],
)
def test_an_api_url_that_cannot_work_is_refused(capsys, config, url, why):
    assert why in start(capsys, "--api-url", url)


@pytest.mark.parametrize("seed", ["1e400", "nan", "7.5"])
def test_a_fault_seed_is_a_whole_number(capsys, seed):
    assert "the seed is a whole number" in start(capsys, "--demo", "--faults", f"5xx=0.1,seed={seed}")


def test_a_ca_bundle_that_is_not_a_file_is_refused(capsys, config, tmp_path):
    fifo = tmp_path / "ca.fifo"
    os.mkfifo(fifo)
    config.write_text(config.read_text().replace('project_id = "', f'ca_bundle = "{fifo}"\nproject_id = "', 1))
    assert "is not a file or a folder" in start(capsys)


def test_a_start_refused_before_the_first_frame_leaves_the_collector_running():
    import gc

    from tui import cli

    assert (
        cli.main(["--demo", "--zone", "fr-par"]) == 2
    )  # a region is not a zone: refused after the collector's start-up pause
    assert gc.isenabled()
