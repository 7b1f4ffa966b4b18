"""The GM's screen, unit by unit: lines wrapped and columns aligned by the terminal's columns
(a CJK name takes two a character), a scenario's text in paragraphs, a hero's mark on a plan."""

from __future__ import annotations

import textwrap

from hypothesis import given
from hypothesis import strategies as st

from fuego.cli.gm_screen import Screen, cells, fit_columns, paragraphs, wrap_cells

WORDS = st.lists(st.sampled_from(["a", "bb", "ccc", "dddd", "eeeeeeeeee", "x" * 40, "", " "]),
                 min_size=1, max_size=30).map(" ".join).map(str.strip).filter(bool)


@given(WORDS, st.integers(5, 60), st.integers(0, 4))
def test_ascii_text_wraps_as_textwrap_wraps_it(text, width, indent):
    want = textwrap.wrap(text, width=width, subsequent_indent=" " * indent,
                         break_on_hyphens=False)
    assert wrap_cells(text, width, " " * indent) == [line.rstrip() for line in want]


@given(st.text(st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=200),
       st.integers(4, 40))
def test_no_line_is_wider_than_the_terminal_whatever_its_characters(text, width):
    lines = wrap_cells(text, width, "  ")
    assert all(cells(line) <= width for line in lines)
    # nothing lost but the spaces the breaks took
    assert "".join("".join(lines).split()) == "".join(text.split())


def test_wide_characters_break_where_the_terminal_would():
    lines = Screen(rich=False, width=20, echo=lambda s: None).wrap("火事 " * 12)
    # four to a line, 19 columns (counting characters, six would go: 35 columns)
    assert lines[0] == "火事 火事 火事 火事" and all(cells(line) <= 20 for line in lines)
    assert lines[1].startswith("  火事")


def test_a_column_of_cjk_names_lines_up():
    rows = [["李小龍", "ground:D1"], ["Zoë", "ground:E2"], ["عمر", "ground:F2"]]
    out = fit_columns(["hero", "where"], rows, 80)
    starts = {cells(line[:line.index("ground")]) for line in out[1:]}
    assert starts == {cells(out[0][:out[0].index("where")])}
    cut = fit_columns(["hero", "where"], [["李小龍李小龍李小龍", "x"]], 12, flex=0)
    assert cells(cut[1]) <= 12 and "\u2026" in cut[1]


def test_a_scenarios_text_keeps_its_paragraphs_and_list_items():
    text = ("The forge spat a coal\nacross the floor.\n\nSet pieces:\n- round 2: Pip\n"
            "  turns up;\n- round 4: a hole.\n")
    assert paragraphs(text) == ["The forge spat a coal across the floor.", "",
                                "Set pieces:", "- round 2: Pip turns up;", "- round 4: a hole."]


def test_read_aloud_is_marked_on_every_line_it_wraps_to():
    said: list[str] = []
    Screen(rich=False, width=40, echo=said.append).quoted(
        "A Castillian merchant brig, twelve guns, riding at anchor off the coast.", "  | ")
    assert len(said) == 3 and all(line.startswith("  | ") and cells(line) <= 40
                                  for line in said)


def test_a_wrapped_menu_choice_continues_under_its_text_not_its_number():
    said: list[str] = []
    screen = Screen(rich=False, width=40, echo=said.append)
    for line in ("     4. spot ground:C3 (Kitchen): Perception 2k2 vs TN 15, 24%",
                 "   * 5. smother ground:C3 (Kitchen): Brawn 3k2 vs TN 20, 31%",
                 "    12. wait until the fire has burned the whole tavern down"):
        said.clear()
        screen.line(line)
        text_at = line.index(". ") + 2  # where the choice's words begin
        assert len(said) > 1 and all(s[:text_at].isspace() and not s[text_at].isspace()
                                     for s in said[1:]), said
    said.clear()
    screen.line("  Phase 3: Bjorn Haraldsson moves from cellar:C3 to cellar:C4 and on")
    assert said[1].startswith("    ") and not said[1][4].isspace()  # narration: two in
