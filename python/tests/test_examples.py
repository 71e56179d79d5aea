"""The examples in examples/python run (small sizes) and write what they say."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT

EXAMPLES = os.path.join(ROOT, "examples", "python")


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args],
                          capture_output=True, text=True, check=True, env=os.environ)


def test_cga_population_png(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "cga.png"
    r = run("cga_population.py", str(out), "--generations", "20", "--grid", "24x10")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "best" in r.stdout and f"wrote {out}" in r.stdout


def test_gp_numpy():
    r = run("gp_numpy.py", "--generations", "3", "--pop", "60", "--backend", "cpu")
    lines = dict(l.strip().split(None, 1) for l in r.stdout.splitlines()
                 if l.strip().startswith(("S-expression", "test", "gp_eval")))
    # The model called from Python and the library's evaluator agree on the test rows.
    model_rmse = float(r.stdout.split("test rmse")[1].split()[0])
    eval_rmse = float(r.stdout.split("gp_eval rmse")[1].split()[0])
    assert model_rmse == pytest.approx(eval_rmse, rel=1e-5)
    assert "S-expression" in lines
