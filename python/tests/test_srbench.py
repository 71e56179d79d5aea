"""The symbolic-regression benchmark harness's own pieces (scripts/srbench): the suites'
definitions at known points, their sampling, the evaluator of glevo's printed programs, and one
tiny end-to-end run against build/glevo scored both by the evaluator and by `glevo gp-eval`."""
import csv
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, build_file

sys.path.insert(0, os.path.join(ROOT, "scripts", "srbench"))
import run  # noqa: E402
import sexpr  # noqa: E402
import suites  # noqa: E402


def at(name, *point):
    return float(suites.target(name).f(np.array(point, dtype=float).reshape(len(point), 1))[0])


def test_definitions_at_known_points():
    assert at("nguyen-1", 1.0) == 3.0
    assert at("nguyen-4", -1.0) == 0.0  # 1 - 1 + 1 - 1 + 1 - 1
    assert at("nguyen-5", 0.0) == -1.0
    assert at("nguyen-7", 1.0) == pytest.approx(2 * math.log(2), rel=1e-15)
    assert at("nguyen-8", 2.25) == 1.5
    assert at("nguyen-10", math.pi / 2, 0.0) == pytest.approx(2.0, rel=1e-15)
    assert at("nguyen-11", 0.25, 0.5) == 0.5
    assert at("nguyen-12", 1.0, 2.0) == 0.0  # 1 - 1 + 2 - 2
    assert at("keijzer-1", 0.25) == pytest.approx(0.075, rel=1e-15)
    assert at("keijzer-5", 0.5, 2.0, 1.0) == pytest.approx(30 * 0.5 / (-9.5 * 4), rel=1e-15)
    assert at("keijzer-9", 1.0) == pytest.approx(math.log(1 + math.sqrt(2)), rel=1e-15)
    assert at("keijzer-14", 0.0, 0.0) == 4.0
    assert at("keijzer-15", 1.0, 2.0) == pytest.approx(0.2 + 4 - 2 - 1, rel=1e-15)
    f = at("friedman-1", 0.5, 0.5, 0.5, 0.5, 0.5, 9, 9, 9, 9, 9)  # x6..x10 unused
    assert f == pytest.approx(10 * math.sin(math.pi / 4) + 5 + 2.5, rel=1e-15)


def test_sampling_follows_the_published_ranges_and_sizes():
    xtr, ytr, xte, yte, clean = suites.draw(suites.target("nguyen-7"), 3)
    assert xtr.shape == (1, 20) and xte.shape == (1, 1000)
    assert xtr.min() >= 0 and xtr.max() <= 2 and xte.min() >= 0 and xte.max() <= 2
    assert np.array_equal(yte, clean.astype(np.float32))  # noiseless: y is f(x) in float32
    xtr, _, xte, _, _ = suites.draw(suites.target("nguyen-12"), 3)
    assert xtr.shape == (2, 20) and 0 <= xtr.min() and xtr.max() <= 1
    xtr, _, xte, _, _ = suites.draw(suites.target("keijzer-1"), 3)
    assert xtr.shape == (1, 21) and xte.shape == (1, 2001)  # E[-1,1,0.1], E[-1,1,0.001]
    assert xtr[0, 0] == -1 and xtr[0, -1] == 1
    xtr, _, xte, _, _ = suites.draw(suites.target("keijzer-5"), 3)
    assert xtr.shape == (3, 1000) and 1 <= xtr[1].min() and xtr[1].max() <= 2  # y in [1, 2]
    assert xte.shape == (3, 10000)
    xtr, _, xte, _, _ = suites.draw(suites.target("keijzer-12"), 3)
    assert xtr.shape == (2, 20) and xte.shape == (2, 601 * 601)
    xtr, _, xte, _, _ = suites.draw(suites.target("friedman-1"), 3)
    assert xtr.shape == (10, 200) and xte.shape == (10, 1000)


def test_data_are_deterministic_per_data_seed_and_float32_exact():
    t = suites.target("nguyen-9")
    a, b, c = suites.draw(t, 5), suites.draw(t, 5), suites.draw(t, 6)
    assert all(np.array_equal(u, v) for u, v in zip(a, b))
    assert not np.array_equal(a[0], c[0])
    for v in a[:4]:
        assert np.array_equal(v, v.astype(np.float32).astype(np.float64))


def test_friedman_noise_has_unit_variance():
    # The reference: the true function scores test R^2 ~0.96 (var f ~ 24, noise 1).
    _, ytr, _, yte, clean = suites.draw(suites.target("friedman-1"), 1)
    assert 0.8 < np.std(yte - clean) < 1.2
    assert 0.93 < sexpr.r2(clean, yte) < 0.99


def test_csv_round_trip(tmp_path):
    xtr, ytr, _, _, _ = suites.draw(suites.target("nguyen-10"), 2)
    path = str(tmp_path / "d.csv")
    suites.write_csv(path, xtr, ytr)
    assert open(path).readline().strip() == "x1,x2,y"
    x, y = suites.read_csv(path)
    assert np.array_equal(x, xtr.T) and np.array_equal(y, ytr)


def ev(text, *cols):
    return sexpr.evaluate(sexpr.parse(text), np.array(cols, dtype=float).T)


def test_truth_size_counts_as_glevo_writes():
    import sympy
    import truth_size
    x, y, a, b = sympy.symbols("x y a b")
    cases = [(x ** 2, 3), (x ** 3, 5), (sympy.sqrt(x), 2), (1 / sympy.sqrt(x), 4), (1 / x, 3),
             (a - b, 3), (a - 3 * b, 5), (a / b, 3), (a * b / (x * y ** 2), 9), (x ** y, 3),
             (sympy.pi * x, 3), (sympy.sin(x) * sympy.sqrt(2 * sympy.pi), 4), (-x, 3)]
    for expr, nodes in cases:
        assert truth_size.count(expr) == nodes, expr
    assert truth_size.truth_nodes("nguyen-1") == 11  # (+ (+ (* (* x x) x) (* x x)) x)
    assert truth_size.truth_nodes("feynman-I.12.4") == 9  # (/ (* c q1) (* epsilon (* r r)))
    assert truth_size.truth_nodes("feynman-II.13.17") == 11  # I an input, not SymPy's unit
    assert truth_size.truth_nodes("keijzer-12") == 17
    assert truth_size.truth_nodes("no-such-target") is None


@pytest.mark.parametrize("suite", ["nguyen", "keijzer", "friedman1"])
def test_truths_agree_with_the_definitions(suite):
    # The SymPy strings stated beside the numpy definitions (their sizes' yardstick) are the
    # same functions.
    import sympy
    x = np.random.default_rng(1).uniform(0.5, 1.5, (10, 7))
    for t in suites.SUITES[suite]:
        expr = sympy.sympify(t.truth, locals={n: sympy.Symbol(n) for n in t.names})
        f = sympy.lambdify([sympy.Symbol(n) for n in t.names], expr, "numpy")
        np.testing.assert_allclose(f(*x[:t.nvars]), t.f(x[:t.nvars]), rtol=1e-12,
                                   err_msg=t.name)


def test_summary_counts_models_over_twice_the_truth():
    # Rows of an older harness (no truth_nodes): the count comes from the target's name.
    row = dict(suite="nguyen", target="nguyen-1", status="ok", exact="1", nodes="11",
               test_r2="1", seconds="1", ols_test_r2="0", truth_test_r2="1")
    rows = [row, dict(row, nodes="23"), dict(row, nodes="99", exact="0")]
    run.fill_truth_nodes(rows)
    assert [r["truth_nodes"] for r in rows] == [11, 11, 11]
    text = run.summary(rows, "header")
    assert "over 2 x the truth's nodes: exact runs 1 of 2 (median ratio 1.55)." in text
    for r, verdict in zip(rows, ["1", "0", "0"]):
        r["symbolic"] = verdict
    assert "symbolic solutions 0 of 1 (median ratio 1.00)" in run.summary(rows, "header")
    unknown = [dict(row, target="keijzer-6", truth_nodes="")]  # no truth stated: no line
    run.fill_truth_nodes(unknown)
    assert "truth's nodes" not in run.summary(unknown, "header")


def test_evaluator_protected_semantics():
    assert list(ev("(/ x1 x2)", [3.0, 3.0], [2.0, 1e-7])) == [1.5, 1.0]
    # numpy's vectorised log (AVX-512 on some CPUs) is one ulp off ln e; the protection is exact
    log_e, log_0, log_tiny = ev("(log x1)", [-math.e, 0.0, 5e-7])
    assert log_e == pytest.approx(1.0, rel=1e-15) and log_0 == 0.0 and log_tiny == 0.0
    assert list(ev("(sqrt x1)", [-4.0])) == [2.0]
    assert ev("(pow x1 x2)", [-2.0], [2.0])[0] == pytest.approx(4.0, rel=1e-15)
    assert list(ev("(pow x1 x2)", [0.0], [3.0])) == [1.0]  # exp(3 * protected log 0)
    assert list(ev("(aq x1 x2)", [3.0], [0.0])) == [3.0]
    assert ev("(aq 1 x1)", [1.0])[0] == pytest.approx(1 / math.sqrt(2), rel=1e-15)
    assert list(ev("(if (< x1 0) (neg x1) (cube x1))", [-2.0, 2.0])) == [2.0, 8.0]
    assert list(ev("(- (square x1) (abs -2.5))", [3.0])) == [6.5]


def test_evaluator_parses_what_glevo_prints():
    text = "(+ (* -0.123456791 (sin x2)) (/ x1 (cos 1e-05)))"
    tree = sexpr.parse(text)
    assert sexpr.size(tree) == 9
    got = sexpr.evaluate(tree, np.array([[2.0, 0.5]]))[0]
    assert got == pytest.approx(-0.123456791 * math.sin(0.5) + 2.0 / math.cos(1e-5), rel=1e-15)
    with pytest.raises(sexpr.UnknownOperator):
        sexpr.parse("(gamma x1)")
    for bad in ["", "(+ x1)", "(+ x1 x2 x3)", "(sin x1", "x1 x2", ")"]:
        with pytest.raises(ValueError):
            sexpr.parse(bad)
    with pytest.raises(ValueError):
        sexpr.evaluate(sexpr.parse("x3"), np.zeros((1, 2)))


def test_r2_and_mse():
    y = np.array([1.0, 2.0, 3.0])
    assert sexpr.r2(y, y) == 1.0 and sexpr.mse(y, y) == 0.0
    assert sexpr.r2(np.full(3, 2.0), y) == 0.0
    assert sexpr.r2(np.array([1.0, np.inf, 3.0]), y) == -math.inf
    assert sexpr.mse(np.array([np.nan, 2.0, 3.0]), y) == math.inf


def test_exact_recovery_needs_both_sets(tmp_path):
    t = suites.target("nguyen-1")
    tr, te, data, ref = run.prepare(t, 1, str(tmp_path))
    assert ref["truth_test_r2"] == pytest.approx(1.0, abs=1e-12)  # y is f(x) rounded to float32
    exact = run.score("unused", "(+ x1 (* x1 (+ x1 (* x1 x1))))", data, tr, te)
    assert exact[0] < run.EXACT_MSE and exact[1] < run.EXACT_MSE and exact[4] == "python"
    near = run.score("unused", "(+ x1 (* x1 (+ x1 (* 0.999 (* x1 x1)))))", data, tr, te)
    assert near[1] > run.EXACT_MSE and 0.99 < near[3] < 1.0


def test_end_to_end_against_glevo(tmp_path):
    glevo = build_file("glevo")
    out = str(tmp_path / "out")
    assert run.main(["--glevo", glevo, "--out", out, "--suite", "nguyen", "--targets",
                     "nguyen-1,nguyen-9", "--seeds", "1", "--pop", "64", "--generations", "3",
                     "--label", "test"]) == 0
    rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
    assert [(r["target"], r["status"], r["seed"], r["data_seed"]) for r in rows] == [
        ("nguyen-1", "ok", "1", "1"), ("nguyen-9", "ok", "1", "1")]
    for r in rows:
        # The float64 evaluator and glevo's own float32 interpreter agree on the printed program.
        tr = os.path.join(out, "data", f"{r['target']}-d1-train.csv")
        assert float(r["train_mse"]) == pytest.approx(run.gp_eval(glevo, r["program"], tr),
                                                      rel=1e-3, abs=1e-9)
        assert int(r["nodes"]) == sexpr.size(sexpr.parse(r["program"]))
    text = open(os.path.join(out, "summary.md")).read()
    assert "| nguyen-9 | 1 | 0 |" in text and "| **all** | 2 | 0 |" in text
    assert run.main(["--glevo", glevo, "--out", out, "--suite", "nope"]) == 2


def test_feynman_definitions_and_names():
    feynman = suites.SUITES["feynman"]
    assert len(feynman) == 100
    assert at("feynman-I.12.1", 2.0, 3.0) == 6.0
    assert at("feynman-I.10.7", 2.0, 0.0, 5.0) == 2.0  # at rest: m = m_0
    assert at("feynman-II.38.14", 3.0, 0.5) == 1.0  # Y / (2 (1 + sigma))
    t = suites.target("feynman-II.6.15a")
    assert t.names == ["epsilon", "p_d", "r", "x", "y", "z"] and t.formula
    xtr, ytr, _, _, _ = suites.draw(t, 1)
    assert xtr.shape == (6, 1500) and xtr.min() >= 1 and xtr.max() <= 3
    # SRBench's noise: on the training target only, sd = level x its RMS.
    _, noisy, _, yte, _ = suites.draw(t, 1, 0.01)
    _, clean, _, yte0, _ = suites.draw(t, 1)
    rms = np.sqrt(np.mean(clean ** 2))
    assert 0.005 * rms < np.std(noisy - clean) < 0.02 * rms
    np.testing.assert_array_equal(yte, yte0)


def test_strogatz_definitions_and_states():
    strogatz = suites.SUITES["strogatz"]
    assert len(strogatz) == 14
    assert at("strogatz-lv1", 1.0, 3.0) == -4.0  # 3x - 2xy - x^2
    assert at("strogatz-vdp2", 2.0, 0.0) == pytest.approx(-0.2, rel=1e-15)
    assert at("strogatz-shearflow1", 0.0, math.pi / 4) == pytest.approx(1.0, rel=1e-12)
    t = suites.target("strogatz-lv2")
    assert t.names == ["x", "y"] and t.formula == "2*y - x*y - y**2"
    xtr, ytr, xte, yte, _ = suites.draw(t, 1)
    assert xtr.shape == (2, 300) and xte.shape == (2, 100)
    np.testing.assert_array_equal(ytr, t.f(xtr).astype(np.float32).astype(np.float64))
    # Lotka-Volterra's trajectories start where La Cava's do; the 400 states are split 75/25.
    both = {tuple(p) for p in np.hstack([xtr, xte]).T}
    assert {(1.0, 3.0), (4.0, 1.0), (8.0, 2.0), (3.0, 3.0)} <= both and len(both) == 400
    # Both equations of a system share the states; another data seed draws other ones.
    x1, _, _, _, _ = suites.draw(suites.target("strogatz-bacres1"), 1)
    x2, _, _, _, _ = suites.draw(suites.target("strogatz-bacres2"), 1)
    x3, _, _, _, _ = suites.draw(suites.target("strogatz-bacres1"), 2)
    np.testing.assert_array_equal(x1, x2)
    assert not np.array_equal(x1, x3)


def test_glevo_lists_the_identifiers_its_models_use(tmp_path):
    """The harness takes the inputs' names in the model from `glevo gp --json` (identifiers):
    src/gp/identifiers.c's rule, also tested in C."""
    path = tmp_path / "names.csv"
    path.write_text("m_0,2nd speed,lambda,E,a b,a_b,y\n" +
                    "".join(f"{k},{k + 1},{k + 2},{k + 3},{k + 4},{k + 5},{k}\n" for k in range(6)))
    res = subprocess.run([build_file("glevo"), "gp", "--data", str(path), "--pop", "20",
                          "--generations", "1", "--backend", "cpu", "--json", "--quiet"],
                         capture_output=True, text=True, check=True)
    assert json.loads(res.stdout)["identifiers"] == \
        ["m_0", "_2nd_speed", "lambda_", "E_", "a_b", "a_b_"]


def test_srbench_symbolic_check():
    import symbolic
    names = ["epsilon", "c", "I", "r"]
    truth = "1/(4*pi*epsilon*c**2)*2*I/r"
    idents = ["epsilon", "c", "I_", "r"]  # as glevo names I (SymPy's imaginary unit)
    check = lambda model: symbolic.symbolic_solution(model, truth, names, idents)
    assert check("0.159154943*I_/(epsilon*c**2*r)")  # a constant ratio (and 3-digit rounding)
    assert not check("I_/(epsilon*c*r)")
    assert not check("3.0")  # a constant model is never a solution
    # A difference: constant only where the rounded coefficients are the truth's.
    half = lambda model: symbolic.symbolic_solution(model, "q*v*r/2", ["q", "v", "r"],
                                                    ["q", "v", "r"])
    assert half("0.5*q*v*r + 2.5")
    assert half("0.50004*q*v*r + 0.00003")  # rounded to 3 decimals; below 1e-4: 0
    assert not half("0.52*q*v*r + 2.5")


def test_srbench_symbolic_check_survives_sympy_failures(monkeypatch):
    # SymPy's simplify can fail inside itself (an AttributeError in fu.py stopped a whole
    # Feynman summary, 2026-11-29): the model is then undecided, as after a timeout.
    import symbolic
    import sympy

    def broken(expr, *args, **kwargs):
        raise AttributeError("'int' object has no attribute 'is_integer'")

    monkeypatch.setattr(sympy, "simplify", broken)
    assert symbolic.symbolic_solution("x*y", "x*y", ["x", "y"], ["x", "y"]) is None


def test_reexport_prints_recorded_runs_again(tmp_path):
    """scripts/srbench/reexport.py: a recorded run's program printed again by this build (a
    term scaled by 1e-9 is dead weight the printed model drops), the changed program scored
    again and SymPy's check run again on its new string."""
    import reexport
    fields = ["suite", "target", "label", "run", "seed", "data_seed", "status", "exact",
              "train_mse", "test_mse", "train_r2", "test_r2", "nodes", "noise", "symbolic",
              "accurate", "program", "sympy", "identifiers"]
    dead = "(+ (* 0.398942292 (sqrt (exp (neg (* x1 x1))))) (* 1e-09 x1))"
    row = dict(suite="feynman", target="feynman-I.6.2a", label="", run="1", seed="1",
               data_seed="1", status="ok", exact="0", train_mse="1", test_mse="1", train_r2="0",
               test_r2="0.999999", nodes="13", noise="0.0", symbolic="0", accurate="0",
               program=dead, sympy="(recorded)", identifiers="theta")
    src, out = tmp_path / "runs.csv", tmp_path / "out.csv"

    def reexported(*options):
        """row written as a runs.csv, printed again by reexport.py, the row it writes."""
        with open(src, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerow(row)
        reexport.main([str(src), str(out), "--glevo", build_file("glevo"),
                       "--data-dir", str(tmp_path / "data"), *options])
        return next(csv.DictReader(open(out)))

    got = reexported()
    assert got["program"] == "(* 0.398942292 (sqrt (exp (neg (* x1 x1)))))"
    assert got["nodes"] == "8" and got["exact"] == "1" and got["accurate"] == "1"
    assert float(got["train_mse"]) < 1e-10 < 1  # scored again, not the recorded 1
    assert got["symbolic"] == "1" and "theta" in got["sympy"]
    # --layer: the result's linear layer on top (glevo_gp_model_layer). Feynman I.11.19's
    # x1 y1 + x2 y2 + x3 y3 from a model holding the three products, one of them weighted
    # wrong, and a wrong term: the layer's sum is scored exact; --skip-symbolic leaves it
    # undecided.
    parts = "(+ (+ (* x1 x4) (* 3 (* x2 x5))) (+ (* x3 x6) (sin x1)))"
    row.update(target="feynman-I.11.19", program=parts, nodes="15",
               identifiers="x1 x2 x3 y1 y2 y3")
    got = reexported("--layer", "32", "--skip-symbolic")
    assert got["exact"] == "1" and got["symbolic"] == "" and got["program"] != parts, \
        (got["program"], got["symbolic"])
    # A row of an older harness, without the run's identifiers: SymPy's check takes the data's
    # own (Feynman III.17.37's beta prints as beta_, SymPy's beta function taken).
    row.update(target="feynman-III.17.37", identifiers="", nodes="12",
               program="(+ (* x1 (+ 1 (* x2 (cos x3)))) (* 1e-09 x2))")
    got = reexported()
    assert "beta_" in got["sympy"] and got["symbolic"] == "1", (got["sympy"], got["symbolic"])

