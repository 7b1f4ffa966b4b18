"""``fuego roll``, ``fuego odds`` and ``fuego fire-stats`` through click's CliRunner."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuego.cli import BLAS_THREADS, cli
from fuego.dice import odds as exact
from fuego.dice.roller import Pool, Roller, parse_pool


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def assert_error(result, *needles: str) -> None:
    """Exit 2, one line 'fuego: error: ...', no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("fuego: error: "), result.output
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0]


# -- fuego roll -------------------------------------------------------------------------------
def test_roll_shows_seed_dice_and_total() -> None:
    result = run("roll", "7k4", "--seed", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "seed 3"
    expected = Roller(3).roll(Pool(7, 4))
    assert lines[1].startswith("7k4: ")
    assert lines[1].endswith(f"total {expected.total}")
    # Seven dice, three of them dropped and shown in parentheses.
    dice = lines[1].split(": ", 1)[1].split("  ")[0].split()
    assert len(dice) == 7 and sum(d.startswith("(") for d in dice) == 3


def test_roll_same_seed_same_bytes() -> None:
    for args in (["7k4", "--times", "50"], ["12k6+3", "--json", "--times", "20"], ["2d6", "--times", "5"]):
        a = run("roll", *args, "--seed", "99")
        b = run("roll", *args, "--seed", "99")
        assert a.exit_code == 0 and a.output_bytes == b.output_bytes
        c = run("roll", *args, "--seed", "100")
        assert c.output != a.output


def test_roll_without_seed_prints_one_that_reproduces() -> None:
    first = run("roll", "5k3", "--times", "3")
    assert first.exit_code == 0
    match = re.fullmatch(r"seed (\d+)", first.output.splitlines()[0])
    assert match
    again = run("roll", "5k3", "--times", "3", "--seed", match.group(1))
    assert again.output == first.output


def test_roll_json_lines() -> None:
    result = run("roll", "15k10", "--seed", "5", "--times", "4", "--json")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == 4
    roller = Roller(5)
    for n, line in enumerate(lines, 1):
        data = json.loads(line)
        assert {"total", "kept", "dropped", "dice", "bonus", "pool", "seed", "roll"} <= set(data)
        assert data["roll"] == n and data["seed"] == 5 and data["pool"] == "15k10"
        assert data["bonus"] == 50 and len(data["kept"]) == 10 and data["dropped"] == []
        assert data["total"] == sum(data["kept"]) + 50 == roller.total(parse_pool("15k10"))
        assert all(all(f == 10 for f in die[:-1]) for die in data["dice"])


def test_roll_shows_chains_fold_and_bonus() -> None:
    # Find a seed whose first 10k10 roll has a ten-again chain.
    seed = next(s for s in range(200) if any(len(d.faces) > 1 for d in Roller(s).roll(Pool(10, 10)).dice))
    out = run("roll", "10k10", "--seed", str(seed)).output
    assert re.search(r"\b10\+\d+", out)
    out = run("roll", "12k6+2", "--seed", "1").output
    assert "12k6+2 (as 10k8+2)" in out and "bonus +2" in out


def test_roll_zero_kept_and_no_explode() -> None:
    data = json.loads(run("roll", "3k0+4", "--seed", "1", "--json").output)
    assert data["total"] == 4 and data["kept"] == [] and len(data["dropped"]) == 3
    out = run("roll", "5k3", "--no-explode", "--seed", "2", "--times", "300", "--json").output
    for line in out.splitlines():
        data = json.loads(line)
        assert data["pool"] == "5k3!" and all(len(die) == 1 for die in data["dice"])


def test_roll_plain_dice() -> None:
    result = run("roll", "2d6+1", "--seed", "4", "--times", "100", "--json")
    assert result.exit_code == 0
    for line in result.output.splitlines():
        data = json.loads(line)
        assert len(data["dice"]) == 2 and all(1 <= f <= 6 for f in data["dice"])
        assert data["total"] == sum(data["kept"]) + 1 and data["dropped"] == []
    text = run("roll", "d10", "--seed", "4").output.splitlines()
    assert text[0] == "seed 4" and text[1].startswith("d10: ")


def test_roll_totals_follow_the_roller() -> None:
    lines = run("roll", "7k4", "--seed", "8", "--times", "100", "--json").output.splitlines()
    roller = Roller(8)
    assert [json.loads(line)["total"] for line in lines] == [roller.total(Pool(7, 4)) for _ in range(100)]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["roll", "3x"], "'3x'"),
        (["roll", "0k5"], "'0k5'"),
        (["roll", "99999999999k3"], "99999999999k3"),
        (["roll", "7k4", "--times", "5000000000"], "--times"),
        (["roll", "7k4", "--times", "0"], "--times"),
        (["roll", "1000d1000", "--times", "10000"], "1000d1000"),
        (["roll", "7k4", "--seed", "-1"], "seed"),
        (["roll", "2d6", "--no-explode"], "2d6"),
        (["roll", "5k3+99999"], "5k3+99999"),
        (["odds", "5k3", "--tn", "-4"], "-4"),
        (["odds", "5k3", "--tn", "1001"], "1001"),
        (["odds", "5k3", "--tn", "lots"], "lots"),
        (["odds", "5k3", "--tn", "25", "--raises", "21"], "--raises"),
        (["odds", "5k3", "--tn", "25", "--raises", "-1"], "--raises"),
        (["odds", "3x", "--tn", "25"], "'3x'"),
        (["odds", "1000d1000", "--tn", "25"], "1000d1000"),
        (["fire-stats", "11"], "11"),
        (["fire-stats", "0"], "0"),
    ],
)
def test_bad_input_is_one_error_line(args: list[str], needle: str) -> None:
    assert_error(run(*args), needle)


def test_huge_runs_stay_fast() -> None:
    result = run("roll", "1000k1000", "--seed", "1", "--times", "2000", "--json")
    assert result.exit_code == 0 and len(result.output.splitlines()) == 2000
    assert json.loads(result.output.splitlines()[0])["bonus"] == 19_800


# -- fuego odds -----------------------------------------------------------------------------
def test_odds_text() -> None:
    result = run("odds", "5k3", "--tn", "25")
    assert result.exit_code == 0, result.output
    p = exact.chance(Pool(5, 3), 25)
    assert result.output.startswith("5k3 vs TN 25: ")
    assert f"{p * 100:.2f}%" in result.output


def test_odds_json() -> None:
    result = run("odds", "7k4", "--tn", "hard", "--raises", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"probability", "pool", "tn", "raises", "mean", "target"} <= set(data)
    assert data["tn"] == 20 and data["raises"] == 2 and data["target"] == 30
    assert data["probability"] == pytest.approx(exact.chance(Pool(7, 4), 30))
    assert data["mean"] == pytest.approx(exact.mean(Pool(7, 4)), abs=1e-5)


@pytest.mark.parametrize(
    ("expr", "tn", "probability"),
    [("1k1", "11", 0.1), ("1k1!", "11", 0.0), ("2d6", "8", 15 / 36), ("3k0", "0", 1.0), ("2k1!", "10", 0.19)],
)
def test_odds_known_values(expr: str, tn: str, probability: float) -> None:
    data = json.loads(run("odds", expr, "--tn", tn, "--json").output)
    assert data["probability"] == pytest.approx(probability, abs=1e-9)


def test_odds_of_huge_pools_fold() -> None:
    data = json.loads(run("odds", "1000k1000", "--tn", "1000", "--json").output)
    assert data["probability"] == 1.0 and data["rolled_as"] == "10k10+19800"
    text = run("odds", "1k1", "--tn", "500").output
    assert "less than" in text  # ten again: not impossible, only beyond the precision


# -- fuego fire-stats -----------------------------------------------------------------------
#: The fire text's table (seed 003), as the text gives it:
#: FD: Brawn, Finesse/Panache, Wits, Destruction/Spreading, Stealth, cold, regular, hot, TN, size
SEED_TABLE = {
    1: (1, 1, 3, 1, 3, "1k0", "1k1", "1k1", 5, "Sheet of Paper"),
    2: (2, 1, 3, 1, 3, "2k0", "2k1", "2k2", 10, "Torch. Burning head hair"),
    3: (3, 2, 2, 2, 2, "3k0", "3k2", "3k3", 15, "Burning clothes"),
    4: (4, 2, 2, 2, 2, "4k1", "4k2", "4k4", 20, "Small Fire, Flask of Oil"),
    5: (5, 3, 1, 3, 1, "5k1", "5k3", "5k5", 25, "Large Fire"),
    6: (6, 3, 1, 3, 1, "6k1", "6k3", "6k6", 30, "Bale of Cloth"),
    7: (7, 4, 1, 4, 1, "7k1", "7k4", "7k7", 35, "Bonfire"),
    8: (8, 4, 1, 4, 1, "8k2", "8k4", "8k8", 40, "House Fire"),
    9: (9, 5, 1, 5, 1, "9k2", "9k5", "9k9", 45, "Blazing Ship"),
    10: (10, 5, 1, 5, 1, "10k2", "10k5", "10k10", 50, "Burning Warehouse"),
}


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


@pytest.mark.parametrize("fd", range(1, 11))
def test_fire_stats_json_reproduces_the_seed_table(fd: int) -> None:
    result = run("fire-stats", str(fd), "--json")
    assert result.exit_code == 0, result.output
    [row] = json.loads(result.output)
    brawn, finpan, wits, destspread, stealth, cold, regular, hot, tn, size = SEED_TABLE[fd]
    assert row["fire_dice"] == fd
    assert row["brawn"] == brawn
    assert row["finesse"] == row["panache"] == finpan
    assert row["wits"] == wits
    assert row["destruction"] == row["spreading"] == destspread
    assert row["stealth"] == stealth
    assert row["damage"] == {"cold": cold, "regular": regular, "hot": hot}
    assert row["tn"] == tn
    assert _words(row["size"]) == _words(size)


def test_fire_stats_all_rows() -> None:
    rows = json.loads(run("fire-stats", "--json").output)
    assert [r["fire_dice"] for r in rows] == list(range(1, 11))
    text = run("fire-stats")
    assert text.exit_code == 0 and "\x1b[" not in text.output  # not a terminal: plain text
    lines = text.output.splitlines()
    assert "Brawn" in lines[0] and "Stealth" in lines[0]
    for fd, line in zip(range(1, 11), lines[1:], strict=True):
        cells = line.split()
        expected = SEED_TABLE[fd]
        assert cells[:10] == [str(fd), *map(str, expected[:9])]


def test_fire_stats_one_row() -> None:
    lines = run("fire-stats", "7").output.splitlines()
    assert len(lines) == 2
    assert lines[1].split()[:10] == ["7", "7", "4", "1", "4", "1", "7k1", "7k4", "7k7", "35"]


_THREADS_AT_EXIT = """
import atexit, os, sys
from fuego.cli import main
def threads():  # (after the roll: numpy loaded, its BLAS pool started or not)
    import numpy  # noqa: F401
    sys.stderr.write(f"threads {len(os.listdir('/proc/self/task'))}\\n")
atexit.register(threads)
sys.argv = ["fuego", "roll", "7k4", "--seed", "1"]
main()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("theirs", [None, "2"])
def test_the_fuego_command_runs_numpy_on_one_thread_unless_told(theirs) -> None:
    """numpy's BLAS pool would only spin beside fuego's small batches of dice (and be counted
    as its CPU time); a number the user set is theirs."""
    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREADS}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    if theirs:
        env["OPENBLAS_NUM_THREADS"] = theirs
    done = subprocess.run([sys.executable, "-c", _THREADS_AT_EXIT], env=env, cwd="/",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "total" in done.stdout, done.stderr
    # (OpenBLAS starts a thread per core but its own, so no more than the cores)
    want = min(int(theirs), os.cpu_count() or 1) if theirs else 1
    assert f"threads {want}" in done.stderr, done.stderr
