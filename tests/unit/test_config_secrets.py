"""Profiles, overrides, and the secret key: env, keyring, or this session only — never on disk."""

import keyring
import pytest
from tui.api.secret import Secret

from keyrings import NoKeyring
from tui import secrets
from tui.config import ConfigFile, ConfigNotSaved, Profile, resolve, save_profile

KEY = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"


def test_profiles_round_trip(tmp_path):
    path = tmp_path / "c.toml"
    save_profile(
        Profile(name="prod", api_url="https://api.example.com", project_id="p-1", default_zone="nl-ams-1"), path=path
    )
    save_profile(Profile(name='staging "x"', api_url="https://s.example.com"), path=path)
    cfg = ConfigFile.load(path)
    assert cfg.default_profile == "prod"
    assert cfg.profiles["prod"].default_zone == "nl-ams-1"
    assert cfg.profiles['staging "x"'].api_url == "https://s.example.com"


def test_saving_a_profile_keeps_everything_else_in_the_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        '# my accounts\ndefault_profile = "prod"\ntheme = "dark"  # a key cloudtui does not know\n\n'
        '[profiles.prod]\napi_url = "https://api.example.com"  # production\nproject_id = "p-1"\nnote = "kept"\n\n'
        '[profiles.staging]\napi_url = "https://s.example.com"\n'
    )
    save_profile(Profile(name="prod", api_url="https://api.example.com", project_id="p-2"), path=path)
    text = path.read_text()
    for kept in (
        "# my accounts",
        'theme = "dark"',
        "# production",
        'note = "kept"',
        "[profiles.staging]",
        'project_id = "p-2"',
    ):
        assert kept in text, kept
    assert ConfigFile.load(path).profiles["staging"].api_url == "https://s.example.com"


def test_a_config_that_cannot_be_read_is_never_written_over(tmp_path):
    path = tmp_path / "c.toml"
    broken = '[profiles.prod]\napi_url = "https://api.example.com"\n[profiles.staging\napi_url = "x"\n'
    path.write_text(broken)
    with pytest.raises(ConfigNotSaved, match="nothing in it is lost"):
        save_profile(Profile(name="new", api_url="https://n.example.com"), path=path)
    assert path.read_text() == broken


def test_precedence_flag_then_env_then_profile(tmp_path):
    path = tmp_path / "c.toml"
    save_profile(
        Profile(name="prod", api_url="https://profile", project_id="from-profile", default_zone="nl-ams-1"), path=path
    )
    cfg = ConfigFile.load(path)
    s = resolve({}, {}, cfg)
    assert (s.profile, s.api_url, s.project_id, s.zone) == ("prod", "https://profile", "from-profile", "nl-ams-1")
    s = resolve({}, {"CLOUDTUI_API_URL": "https://env/", "CLOUDTUI_PROJECT_ID": "from-env"}, cfg)
    assert (s.api_url, s.project_id) == ("https://env", "from-env")
    s = resolve({"api_url": "https://flag", "zone": "pl-waw-2"}, {"CLOUDTUI_API_URL": "https://env"}, cfg)
    assert (s.api_url, s.zone) == ("https://flag", "pl-waw-2")
    s = resolve({}, {"CLOUDTUI_PROFILE": "other"}, cfg)
    assert s.profile == "other" and s.api_url == ""


def test_unreadable_config_is_reported_not_fatal(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("this is = = not toml")
    s = resolve({}, {}, ConfigFile.load(path))
    assert s.config_error and "cannot read" in s.config_error


@pytest.mark.parametrize("profiles", ['"x"', "[1, 2]", "5"])
def test_profiles_that_are_not_tables_are_said_in_one_line(tmp_path, profiles):
    path = tmp_path / "c.toml"
    path.write_text(f"default_profile = 'a'\nprofiles = {profiles}\n")
    cfg = ConfigFile.load(path)
    assert cfg.error and "the setting profiles is" in cfg.error and "\n" not in cfg.error and not cfg.profiles


def test_a_profile_that_is_not_a_table_is_said(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[profiles]\nprod = 'x'\n[profiles.stage]\nproject_id = ''\n")
    cfg = ConfigFile.load(path)
    assert "profiles.prod is not a table" in cfg.error and set(cfg.profiles) == {"stage"}


def test_a_config_that_is_not_utf8_is_reported_not_fatal(tmp_path):
    path = tmp_path / "c.toml"
    path.write_bytes(b'default_profile = "caf\xe9"\n')
    cfg = ConfigFile.load(path)
    assert cfg.error == f"cannot read {path}: it is not UTF-8 text (byte 0xe9 at offset 22)"
    with pytest.raises(ConfigNotSaved):  # and it is never written over
        save_profile(Profile(name="x"), path=path)


def test_a_config_that_is_a_fifo_is_never_opened(tmp_path):
    """A FIFO hung the start on a blank screen: opening it waits for a writer. Here a writer waits,
    so the old code read it and saw no problem; the console must not open it at all."""
    import os
    import threading

    path = tmp_path / "fifo.toml"
    os.mkfifo(path)

    def write() -> None:
        with open(path, "w") as fifo:
            fifo.write('default_profile = "x"\n')

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    cfg = ConfigFile.load(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # let the writer go
    writer.join()
    os.close(fd)
    assert cfg.error == f"cannot read {path}: it is not a regular file" and cfg.default_profile == "default"


def test_env_var_wins_over_keyring(memory_keyring):
    keyring.set_password("cloudtui", "default", "from-keyring")
    found = secrets.lookup("default", {"CLOUDTUI_SECRET_KEY": KEY})
    assert found.source == "env" and found.secret.get_secret_value() == KEY


def test_keyring_store_and_lookup(memory_keyring):
    assert secrets.store("prod", Secret(KEY)) is None
    assert memory_keyring.store[("cloudtui", "prod")] == KEY
    found = secrets.lookup("prod", {})
    assert found.source == "keyring" and found.secret.get_secret_value() == KEY
    assert secrets.forget("prod") is None and secrets.lookup("prod", {}).secret is None


def test_no_keyring_backend_is_said_clearly(tmp_path):
    keyring.set_keyring(NoKeyring())
    found = secrets.lookup("prod", {})
    assert found.secret is None and found.keyring_problem == "No system keyring is available on this host."
    assert secrets.store("prod", Secret(KEY)) == "No system keyring is available on this host."
    # nothing was written in clear anywhere under the config dir
    assert not any(KEY in p.read_text() for p in tmp_path.rglob("*") if p.is_file())


def test_secret_never_in_repr():
    found = secrets.SecretLookup(Secret(KEY), "env")
    assert KEY not in repr(found) and KEY not in str(found)


@pytest.mark.parametrize("zone", ["fr-par-1", "all"])
def test_cli_accepts_zones(zone):
    from tui.cli import _parser

    assert _parser().parse_args(["--zone", zone]).zone == zone


def test_secret_wrapper_hides_its_value():
    from tui.api.secret import Secret, as_secret

    s = Secret(KEY)
    assert KEY not in repr(s) and KEY not in str(s) and KEY not in f"{s!r} {s}"
    assert s.get_secret_value() == KEY and as_secret(s) is s and as_secret(None).get_secret_value() == ""
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(s)


@pytest.mark.parametrize("flag", ['production = "yes"', 'read_only = "true"', "production = 1"])
def test_a_safety_flag_that_is_not_true_or_false_is_taken_as_on_and_refuses_the_start(tmp_path, flag):
    path = tmp_path / "c.toml"
    path.write_text(f"[profiles.prod]\napi_url = 'https://api.example.com'\n{flag}\n")
    key = flag.split()[0]
    settings = resolve({"profile": "prod"}, {}, ConfigFile.load(path))
    assert getattr(settings, key) is True, "taken as on, never silently off"
    said = [p for p in settings.problems() if "not true or false" in p]
    assert said and f"profiles.prod.{key}" in said[0]


def test_demo_refuses_a_safety_flag_that_is_not_true_or_false(capsys, monkeypatch, tmp_path):
    from tui import cli

    path = tmp_path / "c.toml"
    path.write_text("[profiles.demo]\nproduction = 'yes'\n")
    monkeypatch.setenv("CLOUDTUI_CONFIG", str(path))
    assert cli.main(["--demo"]) == 2
    assert "profiles.demo.production" in capsys.readouterr().err
