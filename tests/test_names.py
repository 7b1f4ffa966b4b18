"""A character by what the table calls them (fuego.names): the short form a narrow screen
shows is a word the GM may type back, and the names a GM types find the one they mean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from fuego.cli import cli
from fuego.cli.gm_screen import hero_rows
from fuego.errors import RuleError
from fuego.names import called, short_names
from fuego.scenario.model import load

REPO = Path(__file__).resolve().parents[1]
TAVERN = REPO / "campaigns" / "tavern.yaml"


def test_the_short_form_skips_titles_and_tells_characters_apart():
    assert short_names(["Catalina Vega", "Father Domingo", "Rafael Ortiz", "Old Anselm"]) == \
        ["Catalina", "Domingo", "Rafael", "Anselm"]
    assert short_names(["Isabela Soldano", "Mother Hettie", "Pip"]) == ["Isabela", "Hettie",
                                                                        "Pip"]
    # one word shared: its next word's initial; a name that is all titles: its last word
    assert short_names(["Isabela Soldano", "Isabela Vaz", "Old Mother", "the cook"]) == \
        ["Isabela S.", "Isabela V.", "Mother", "cook"]
    # another's full name wins the word: the initial tells them apart; nothing left: in full
    assert short_names(["Pip", "Pip Jones", "Father Domingo", "Brother Domingo"]) == \
        ["Pip", "Pip J.", "Father Domingo", "Brother Domingo"]


def test_a_name_is_called_by_its_full_name_its_words_or_their_starts():
    names = ["Isabela Soldano", "Gaston Allais", "Yusuf al-Tariq", "Mother Hettie"]
    for typed, want in [("MOTHER  hettie", [3]), ("Hettie", [3]), ("mother", [3]),
                        ("Tariq", [2]), ("Isa", [0]), ("isabela s.", [0]), ("Soldano", [0]),
                        ("Hettie Mother", []), ("zed", []), ("  ", [])]:
        assert called(typed, names) == want, typed
    # the full name first, then whole words: 'Pip' is Pip, not Pip Jones too
    assert called("Pip", ["Pip Jones", "Pip"]) == [1]
    assert called("Pi", ["Pip Jones", "Pip"]) == [0, 1]


NAMES = st.lists(st.lists(st.sampled_from(["Ana", "Vaz", "Old", "Father", "Bo", "Pip", "Jo",
                                           "al-Tariq", "the", "Ana-Lu"]),
                          min_size=1, max_size=3).map(" ".join),
                 min_size=1, max_size=6, unique_by=lambda n: n.lower())


@given(NAMES)
def test_every_short_form_calls_back_its_own_character_alone(names):
    for i, short in enumerate(short_names(names)):
        assert called(short, names) == [i], (short, names)


def test_the_heroes_table_at_80_columns_shows_the_names_a_gm_types():
    scene = load(str(TAVERN)).build(3)
    header, rows, _ = hero_rows(scene, 80)
    assert [r[0] for r in rows] == ["Isabela", "Gaston", "Bjorn", "Hettie"]
    assert [scene.hero(r[0]).name for r in rows] == [h.name for h in scene.heroes]


def test_a_name_that_calls_none_or_several_is_refused_with_the_names():
    scene = load(str(TAVERN)).build(3)
    with pytest.raises(RuleError, match=r"no character named 'Hetie' \(did you mean "
                                        r"'Hettie'\?\)"):
        scene.hero("Hetie")
    with pytest.raises(RuleError, match="'H' names 2 characters: Bjorn Haraldsson, Mother "
                                        "Hettie .tip: name the one you mean in full"):
        scene.hero("H")


def test_the_gm_wounds_moves_and_burns_a_character_by_the_word_shown(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["play", str(TAVERN), "--seed", "3", "--session",
                                      "s.json"],
                                input="wound Hettie 3\n\nwound hettie 1 dw\nmove Soldano "
                                      "ground:F5\nburn gaston a 2 jet\nquit\n")
    assert result.exit_code == 0, result.output
    assert "GM: gives Mother Hettie 3 Flesh Wounds" in result.output
    saved = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert [e["gm"] for e in saved["inputs"] if "gm" in e] == [
        "wound Mother Hettie 3 flesh", "wound Mother Hettie 1 dramatic",
        "move Isabela Soldano ground:F5", "burn Gaston Allais 2 jet"]
