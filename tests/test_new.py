"""``fuego new NAME``: a commented scenario template that passes ``fuego check`` as written."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from fuego.cli import cli
from fuego.cli.new import file_name, template
from fuego.errors import FuegoError


def test_new_writes_a_template_that_passes_check_and_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    r = runner.invoke(cli, ["new", "old-mill"])
    assert r.exit_code == 0, r.output
    path = tmp_path / "old-mill.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# old-mill.yaml") and 'title: "Old Mill"' in text
    assert "script:" in text and "\n# " in text  # commented
    r = runner.invoke(cli, ["check", "old-mill.yaml"])
    assert r.exit_code == 0, r.output
    assert '"Old Mill" is fine' in r.output
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController
    from fuego.engine.events import EventKind
    from fuego.scenario.model import load

    scene = load(path).build(1)
    loop.run(scene, AutoController(), rounds=5)
    said = [e.data["text"] for e in scene.log if e.kind is EventKind.READ_ALOUD]
    assert said and said[0].startswith("Smoke curls under the kitchen door.")


def test_new_refuses_to_overwrite(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "barn.yaml").write_text("mine\n")
    r = CliRunner().invoke(cli, ["new", "barn"])
    assert r.exit_code == 2
    assert "barn.yaml already exists" in r.output
    assert (tmp_path / "barn.yaml").read_text() == "mine\n"


@pytest.mark.parametrize("bad", ["../escape", "a/b", "", "-x", ".hidden", "has space", "x" * 61,
                                 "caf\u00e9"])
def test_new_validates_the_name(tmp_path, monkeypatch, bad):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["new", "--", bad])
    assert r.exit_code == 2
    assert "not a scenario name" in r.output
    assert list(tmp_path.iterdir()) == []


def test_name_and_title():
    assert file_name("mill") == "mill.yaml" and file_name("mill.yaml") == "mill.yaml"
    with pytest.raises(FuegoError):
        file_name("mill.txt/")
    assert 'title: "The \\"Old\\" Mill"' in template("x", 'The "Old" Mill')


def test_a_given_title_is_kept_and_still_checks(tmp_path, monkeypatch):
    from fuego.scenario.model import loads

    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["new", "mill_2", "--title", "Mill: the 'second' fire #2"])
    assert r.exit_code == 0, r.output
    scenario = loads((tmp_path / "mill_2.yaml").read_text(encoding="utf-8"))
    assert scenario.title == "Mill: the 'second' fire #2"


def test_the_template_lists_every_trigger_and_effect_the_script_reads():
    from fuego.scenario.script.words import EFFECT_NAMES, TRIGGER_NAMES

    comment = " ".join(line[2:] for line in template("x").splitlines() if line.startswith("# "))
    for word in TRIGGER_NAMES + EFFECT_NAMES:  # it left out blast, burn, wreck and drive
        assert f" {word}," in comment or f" {word}." in comment, word
