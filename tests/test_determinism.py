"""Determinism: the same scenario + seed + inputs give the same JSON-lines log, byte for byte,
across runs, across processes, across PYTHONHASHSEED values (iteration over sets and dicts of
strings must not leak into results) and across ``--jobs`` counts (docs/reliability.md).

The in-process twin check (two builds from one seed compared after every round) lives in
tests/test_invariants.py; this file runs separate processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuego.cli import cli

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGNS = sorted((ROOT / "campaigns").glob("*.yaml"))
MINIMAL = ROOT / "tests" / "scenarios" / "good" / "minimal.yaml"
#: PYTHONHASHSEED values the processes run with; None: unset (a random one per process). A
#: third process of each test runs with yet another value (7, or the in-process test run's).
HASH_SEEDS = ("0", None)
FUEGO = "from fuego.cli import main; main()"


def _env(hash_seed: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONHASHSEED", None)
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = hash_seed
    env.setdefault("COLUMNS", "100")
    return env


def _spawn(args: list[str], hash_seed: str | None, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", FUEGO, *args], cwd=cwd, env=_env(hash_seed),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _finish(proc: subprocess.Popen, timeout: float = 120) -> tuple[bytes, bytes]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err.decode(errors="replace")[-2000:]
    return out, err


@pytest.mark.slow
def test_run_logs_are_identical_across_processes_and_hash_seeds(tmp_path):
    """``fuego run FILE --seed S --log L`` in separate processes with different PYTHONHASHSEED
    values: the same log and the same narration, byte for byte; ``--json-events`` prints the
    same lines as the log."""
    jobs = []
    for path in CAMPAIGNS:
        for n, hs in enumerate(HASH_SEEDS):
            log = tmp_path / f"{path.stem}-{n}.jsonl"
            jobs.append((path, hs, log, _spawn(["run", str(path), "--seed", "11", "--log",
                                                str(log)], hs, tmp_path)))
        jobs.append((path, "json", None, _spawn(["run", str(path), "--seed", "11",
                                                 "--json-events"], "7", tmp_path)))
    results: dict[Path, list[tuple[bytes, bytes]]] = {}
    for path, _hs, log, proc in jobs:
        out, _err = _finish(proc)
        if log is None:
            results.setdefault(path, []).append((b"json", out))
            continue
        results.setdefault(path, []).append((log.read_bytes(), out))
    for path, runs in results.items():
        logs = [log for log, _ in runs if log != b"json"]
        outs = [out for log, out in runs if log != b"json"]
        json_out = next(out for log, out in runs if log == b"json")
        assert len(set(logs)) == 1, f"{path.name}: the logs differ across processes"
        assert len(set(outs)) == 1, f"{path.name}: the narration differs across processes"
        assert logs[0] and logs[0].endswith(b"\n")
        assert json_out == logs[0], f"{path.name}: --json-events differs from --log"
        first = json.loads(logs[0].splitlines()[0])
        assert first["kind"] in ("fire-started", "scene-start")


_ENGINE_SCRIPT = r"""
import hashlib, json, random, sys
sys.path.insert(0, sys.argv[1])
from invariants import RandomController
from fuego.engine.controllers import AutoController
from fuego.engine import loop
from fuego.scenario.model import load
out = {}
for path in sys.argv[2:]:
    scenario = load(path)
    for seed in (1, 2):
        for kind in ("auto", "random"):
            scene = scenario.build(seed)
            ctrl = AutoController() if kind == "auto" else RandomController(seed)
            loop.run(scene, ctrl, rounds=25)
            text = "\n".join(e.to_json() for e in scene.log)
            state = json.dumps(scene.snapshot(), sort_keys=True)
            out[f"{path}:{seed}:{kind}"] = hashlib.sha256((text + state).encode()).hexdigest()
print(json.dumps(out, sort_keys=True))
"""


def _generated(n: int, tmp_path: Path) -> list[Path]:
    """``n`` scenarios from the property tests' generator (fixed examples), as files."""
    from hypothesis import HealthCheck, given, settings
    from test_invariants import scenarios

    texts: list[str] = []

    @settings(max_examples=n, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(text=scenarios(modules=True))
    def collect(text):
        texts.append(text)

    collect()
    paths = []
    for k, text in enumerate(texts[:n]):
        path = tmp_path / f"gen{k}.yaml"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


@pytest.mark.slow
def test_engine_results_do_not_depend_on_the_hash_seed(tmp_path):
    """Many buildings (the campaigns and generated ones with modules), automatic and random
    heroes and GM: a digest of every log and final state, computed in processes with different
    PYTHONHASHSEED values, is the same."""
    files = [str(p) for p in CAMPAIGNS] + [str(p) for p in _generated(6, tmp_path)]
    here = str(Path(__file__).resolve().parent)
    procs = [subprocess.Popen([sys.executable, "-c", _ENGINE_SCRIPT, here, *files],
                              env=_env(hs), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for hs in HASH_SEEDS]
    digests = []
    for proc in procs:
        out, _ = _finish(proc, timeout=300)
        digests.append(json.loads(out))
    assert len(digests[0]) == len(files) * 4
    for other in digests[1:]:
        differ = sorted(k for k in digests[0] if digests[0][k] != other.get(k))
        assert not differ, f"results depend on the hash seed: {differ[:5]}"


def test_same_seed_same_log_in_one_process(tmp_path):
    logs = []
    for n, seed in enumerate(("5", "5", "6")):
        log = tmp_path / f"{n}.jsonl"
        result = CliRunner().invoke(cli, ["run", str(CAMPAIGNS[0]), "--seed", seed, "--log",
                                          str(log), "--quiet"])
        assert result.exit_code == 0, result.output
        logs.append(log.read_bytes())
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


@pytest.mark.parametrize("path", [p for p in CAMPAIGNS if p.stem == "village"] or CAMPAIGNS[:1],
                         ids=lambda p: p.stem)
def test_forecast_json_does_not_depend_on_jobs(path):
    """With modules (the village has four): ``--jobs 1`` and ``--jobs 2`` print the same JSON."""
    args = ["forecast", str(path), "--runs", "12", "--rounds", "8", "--seed", "4", "--json"]
    one = CliRunner().invoke(cli, args + ["--jobs", "1"])
    two = CliRunner().invoke(cli, args + ["--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert one.stdout == two.stdout


_FORECAST_SCRIPT = r"""
import json, sys
from fuego.forecast.runner import forecast
from fuego.scenario.model import load
scenario = load(sys.argv[1])
data = forecast(scenario, runs=10, rounds=6, seed=9, jobs=int(sys.argv[2]),
                start_method=sys.argv[3] if sys.argv[3] != "-" else None).to_dict()
print(json.dumps(data, sort_keys=True))
"""


@pytest.mark.slow
def test_forecast_workers_with_their_own_hash_seeds(tmp_path):
    """Spawned workers each draw their own hash seed (PYTHONHASHSEED unset): the numbers are
    those of one process with another hash seed."""
    path = str(next((p for p in CAMPAIGNS if p.stem == "village"), CAMPAIGNS[0]))
    runs = [(None, "2", "spawn"), ("3", "1", "-")]
    procs = [subprocess.Popen([sys.executable, "-c", _FORECAST_SCRIPT, path, jobs, method],
                              env=_env(hs), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for hs, jobs, method in runs]
    outs = [_finish(p, timeout=300)[0] for p in procs]
    assert outs[0] == outs[1]


def test_the_log_of_a_run_reads_back_to_the_same_lines(tmp_path):
    """Every line of a log is an Event that writes the same line again (a log can be replayed
    and diffed)."""
    from fuego.engine.events import Event

    log = tmp_path / "run.jsonl"
    result = CliRunner().invoke(cli, ["run", str(CAMPAIGNS[-1]), "--seed", "3", "--log",
                                      str(log), "--quiet"])
    assert result.exit_code == 0, result.output
    for line in log.read_text(encoding="utf-8").splitlines():
        assert Event.from_dict(json.loads(line)).to_json() == line


def test_a_scenario_written_back_plays_the_same(tmp_path):
    """``Scenario.to_yaml()`` then load gives the same game: the same log for the same seed."""
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController
    from fuego.scenario.model import load, loads

    for path in CAMPAIGNS:
        scenario = load(path)
        again = loads(scenario.to_yaml(), source=str(path))
        logs = []
        for sc in (scenario, again):
            scene = sc.build(21)
            loop.run(scene, AutoController(), rounds=20)
            logs.append([e.to_json() for e in scene.log])
        assert logs[0] == logs[1], path.name


@pytest.mark.slow
@pytest.mark.parametrize("cut", [5, 14])
def test_a_session_resumed_in_another_process_continues_the_same_stream(tmp_path, cut):
    """``fuego play`` stopped after ``cut`` answers in one process and resumed in another (each
    with its own PYTHONHASHSEED) ends with the same answers, per-round digests of the state and
    the random stream, and final state as one uninterrupted session."""
    from test_session import ANSWERS, SHOP

    (tmp_path / "shop.yaml").write_text(SHOP, encoding="utf-8")
    def play(args, hash_seed, answers) -> None:
        proc = subprocess.run([sys.executable, "-c", FUEGO, "play", *args, "--plain"],
                              cwd=tmp_path, env=_env(hash_seed), capture_output=True,
                              input="".join(a + "\n" for a in answers).encode(), timeout=120)
        assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]

    play(["shop.yaml", "--seed", "394", "--session", "whole.json"], "0", ANSWERS)
    play(["shop.yaml", "--seed", "394", "--session", "s.json"], "1", ANSWERS[:cut])
    assert len(json.loads((tmp_path / "s.json").read_text())["inputs"]) == cut
    play(["--resume", "s.json"], None, ANSWERS[cut:])
    whole = json.loads((tmp_path / "whole.json").read_text(encoding="utf-8"))
    resumed = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert whole["checks"], "the session recorded per-round digests"
    for key in ("inputs", "checks", "state", "seed"):
        assert whole[key] == resumed[key], key
