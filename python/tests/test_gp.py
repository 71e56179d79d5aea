"""GP from Python: the CLI's results on a CSV, the same run from numpy arrays, the best model
as text and as a callable, gp_eval against glevo gp-eval."""
import numpy as np
import pytest

import glevo


def load_csv(path):
    return np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2)


def test_same_result_as_cli(ctx, cli, data_csv):
    g = glevo.GP(data_csv, pop=60, generations=5, seed=2, context=ctx)
    r = g.run()
    j = cli("gp", "--data", data_csv, "--pop", 60, "--generations", 5, "--seed", 2)
    assert r["best_error"] == j["best_fitness"]
    assert r["best_program"] == j["best_program"] == g.best
    assert r["evaluations"] == j["evaluations"] and g.generation == j["generations"]


def test_numpy_data_runs_as_the_csv(ctx, data_csv):
    a = glevo.GP(data_csv, pop=40, generations=3, seed=11, context=ctx).run()
    arr = load_csv(data_csv)
    b = glevo.GP(arr, pop=40, generations=3, seed=11, context=ctx).run()
    c = glevo.GP((arr[:, :-1], arr[:, -1]), pop=40, generations=3, seed=11, context=ctx).run()
    assert a["best_program"] == b["best_program"] == c["best_program"]
    assert a["best_error"] == b["best_error"] == c["best_error"]


def test_model_is_callable_and_agrees_with_gp_eval(ctx, data_csv):
    for metric in ("sae", None):  # None: mse with linear scaling, `glevo gp`'s default
        g = glevo.GP(data_csv, pop=50, generations=4, seed=3, metric=metric, context=ctx)
        g.run()
        assert g.params["metric"] == (metric or "mse")
        arr = load_csv(data_csv)
        X, y = arr[:, :-1], arr[:, -1].astype(np.float32)
        pred = g.model(X)  # the reported model: with scaling, a + b f already
        assert pred.dtype == np.float32 and pred.shape == y.shape
        e = pred.astype(np.float64) - y
        mine = float(np.sum(np.abs(e))) if metric == "sae" else float(np.mean(e * e))
        # The library sums per-case float errors in its own order: agree to float rounding,
        # scaled by the terms summed (|e| or e^2), not by the result.
        terms = np.abs(e) if metric == "sae" else e * e
        assert mine == pytest.approx(g.best_error, rel=1e-5, abs=1e-6 * float(np.sum(terms)) + 1e-12)
        errs = glevo.gp_eval([g.best], X, y, metric=metric or "mse", context=ctx)
        assert errs[0] == g.best_error


def test_gp_eval_same_as_cli(ctx, cli, data_csv):
    import os
    programs = os.path.join(os.path.dirname(data_csv), "programs.txt")
    with open(programs) as f:
        text = f.read()
    e = glevo.gp_eval(text, data_csv, context=ctx)
    j = cli("gp-eval", "--programs", programs, "--data", data_csv)
    assert e.tolist() == j["errors"]
    assert e[2] == 0.0  # the law itself (README)


def test_progress_history_and_checkpoint(ctx, data_csv, tmp_path):
    seen = []
    g = glevo.GP(data_csv, pop=30, generations=6, seed=4, context=ctx, report_every=1,
                 progress=lambda gen, err, prog: seen.append((gen, err, prog)))
    g.step(3)
    assert [s[0] for s in seen] == [0, 1, 2, 3]  # generation 0 is evaluated at create
    assert seen[-1][2] == g.best and g.history["program"][-1] == g.best
    g.save(tmp_path / "gp.ckpt")
    end = g.run()
    back = glevo.GP.load(tmp_path / "gp.ckpt", data_csv, context=ctx)
    assert back.generation == 3
    assert back.run()["best_program"] == end["best_program"]


def test_portfolio_reports_the_best_search(ctx, data_csv):
    g = glevo.GP(data_csv, pop=80, generations=4, seed=5, context=ctx)
    assert g.params["portfolio"] == 0.25 and g.params["pop"] == 80
    r = g.run()
    # The main search alone: pop minus the other searches' quarter, no portfolio.
    main = glevo.GP(data_csv, pop=60, generations=4, seed=5, portfolio=0, context=ctx).run()
    programs, errors = g.programs  # the main search's population
    assert len(programs) == len(errors) == 60
    if r["best_search"] == "main":
        assert r["best_program"] == main["best_program"] and r["best_error"] == main["best_error"]
    else:
        assert r["best_search"] in ("second", "third", "fourth")
        assert r["best_error"] < main["best_error"]
    assert str(g.model) == r["best_program"]


def test_enumeration_seeds_an_exact_formula():
    # y = 2 sin(x1) cos(x2) + 1 exactly: the enumeration's sin(x1) cos(x2), scaled, is
    # generation 0's best; without it (enumeration=0) generation 0 has no such program.
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 1, (30, 2)).astype(np.float32)
    y = (2 * np.sin(x[:, 0]) * np.cos(x[:, 1]) + 1).astype(np.float32)
    assert glevo.GP.defaults()["enumeration"] == 100000
    on = glevo.GP((x, y), pop=64, generations=1, seed=2, portfolio=0, backend="cpu")
    off = glevo.GP((x, y), pop=64, generations=1, seed=2, portfolio=0, enumeration=0,
                   backend="cpu")
    assert on.params["enumeration"] == 100000 and off.params["enumeration"] == 0
    assert on.best_error < 1e-10 < 1e-6 < off.best_error
    with pytest.raises(ValueError, match="enumeration -3 is outside"):
        glevo.GP((x, y), enumeration=-3, backend="cpu")


def test_linear_layer_weighs_the_parts():
    # y = x1 x2 - 2 x3^2: a model with both parts unweighted becomes the weighted sum in the
    # result (not in best_error, the search's model); linear_layer=0 keeps the model (and
    # prune=0 the noise pruning before it, test_prune_takes_the_noise).
    rng = np.random.default_rng(5)
    x = rng.uniform(1, 3, (200, 3)).astype(np.float32)
    y = (x[:, 0] * x[:, 1] - 2 * x[:, 2] ** 2).astype(np.float32)
    assert glevo.GP.defaults()["linear_layer"] == 32
    runs = {}
    for layer in (None, 0):
        kw = {} if layer is None else {"linear_layer": layer}
        g = glevo.GP((x, y), pop=100, generations=4, seed=4, portfolio=0, enumeration=0,
                     prune=0, backend="cpu", **kw)
        g.run()
        runs[layer] = (g.params["linear_layer"], g.best_error, g.result["best_error"])
    assert runs[None][0] == 32 and runs[0][0] == 0
    assert runs[None][1] == runs[0][1] == runs[0][2]  # the same search, its model
    assert runs[None][2] < 0.5 * runs[0][2]
    with pytest.raises(ValueError, match="linear_layer 65 is outside 0..64"):
        glevo.GP((x, y), linear_layer=65, backend="cpu")


def test_prune_takes_the_noise():
    # y = x1 x2 + 1 % noise: the search's model carries terms that fit the noise; the result's
    # (prune on, the default for mse) is shorter, prune=0 keeps the search's model.
    rng = np.random.default_rng(7)
    x = rng.uniform(1, 3, (400, 2)).astype(np.float32)
    y = x[:, 0] * x[:, 1]
    y = (y + 0.01 * np.sqrt(np.mean(y ** 2)) * rng.standard_normal(400)).astype(np.float32)
    assert glevo.GP.defaults()["prune"] == 1
    runs = {}
    for prune in (None, 0):
        kw = {} if prune is None else {"prune": prune}
        g = glevo.GP((x, y), pop=300, generations=10, seed=3, linear_layer=0, backend="cpu",
                     **kw)
        g.run()
        runs[prune] = (g.params["prune"], g.result["best_nodes"], g.result["best_error"],
                       g.best_error)
    assert runs[None][0] == 1 and runs[0][0] == 0
    assert runs[0][2] == runs[0][3]  # the search's own model
    assert runs[None][1] < runs[0][1], runs
    with pytest.raises(ValueError, match="prune 2 is not 0, 1 or GLEVO_ZERO"):
        glevo.GP((x, y), prune=2, backend="cpu")
    with pytest.raises(ValueError, match="prune needs metric mse or rmse"):
        glevo.GP((x, y), prune=1, metric="sae", backend="cpu")


def test_data_errors():
    with pytest.raises(ValueError, match="data holds NaN"):
        glevo.GP(np.array([[1.0, 2.0], [np.nan, 1.0]]), backend="cpu")
    with pytest.raises(TypeError, match="data has dtype"):
        glevo.GP(np.array([["a", "b"]]), backend="cpu")
    with pytest.raises(ValueError, match="2-D"):
        glevo.GP(np.zeros(5), backend="cpu")
    with pytest.raises(ValueError, match=r"\(X, y\) has 3 rows in X and 2 in y"):
        glevo.gp_eval(["x1"], np.zeros((3, 1)), np.zeros(2), backend="cpu")
    with pytest.raises(glevo.GlevoIOError, match="cannot open data file '/nonexistent/data.csv'"):
        glevo.GP("/nonexistent/data.csv", backend="cpu")
    with pytest.raises(glevo.GlevoIOError, match="cannot open data file '/nonexistent/b.csv'"):
        glevo.GP(b"/nonexistent/b.csv", backend="cpu")  # a path as bytes is a path


def test_data_at_float32s_edge():
    """Finite float64 that is not a finite float32, and a target whose squared errors would
    overflow float sums, are refused naming the case, not run to an infinite model."""
    x = np.array([[1.0], [2.0], [3.0]])
    with pytest.raises(ValueError, match=r"x1 at case 1 \(counting from 0\) is inf"):
        glevo.GP((np.array([[1.0], [1e39], [3.0]]), np.array([1.0, 2.0, 3.0])), backend="cpu")
    with pytest.raises(ValueError, match=r"target at case 2 .* beyond \+-1e15"):
        glevo.GP((x, np.array([1.0, 2.0, 1e38])), backend="cpu")
    with pytest.raises(ValueError, match="target at case 0"):
        glevo.gp_eval(["x1"], x, np.array([1e39, 1.0, 2.0]), backend="cpu")


def test_load_refuses_what_would_change_the_run(tmp_path):
    X = np.random.default_rng(1).random((30, 2))
    data = (X, X[:, 0] * X[:, 1])
    g = glevo.GP(data, pop=40, generations=3, backend="cpu")
    g.run()
    path = str(tmp_path / "p.ckpt")
    g.save(path)
    for kw, words in [(dict(metric="sae"), "metric sae differs from the checkpoint's mse"),
                      (dict(parsimony=0.1), "parsimony 0.1 differs"),
                      (dict(const_opt_iters=3), "const_opt_iters 3 differs"),
                      (dict(const_min=-2, const_max=2), "const_min -2 differs")]:
        with pytest.raises(ValueError, match=words):
            glevo.GP.load(path, data, **kw)
    assert glevo.GP.load(path, data, generations=5, metric="mse").generation == 3


def test_operator_lists_as_the_cli():
    X = np.random.default_rng(2).random((25, 2)) + 0.5
    data = (X, X[:, 0] ** X[:, 1])
    g = glevo.GP(data, function_set="+,-,*,pow", pop=60, generations=3, backend="cpu")
    assert g.params["metric"] == "mse"  # arithmetic: the CLI's default
    r = g.run()
    # Only the listed operators (the default set would offer sin, exp, log, division, ...).
    tokens = set(r["best_program"].replace("(", " ").replace(")", " ").split())
    assert not tokens & {"sin", "cos", "exp", "log", "sqrt", "/", "neg"}, r["best_program"]
    with pytest.raises(ValueError, match="nosuch"):
        glevo.GP(data, function_set="+,nosuch", backend="cpu")
    assert glevo.GP.defaults(function_set="if,<,+")["metric"] == "sae"


def test_negative_target_error_refused():
    data = (np.array([[1.0], [2.0], [3.0]]), np.array([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="target_error -5 is negative"):
        glevo.GP(data, target_error=-5, backend="cpu")


def test_ctrl_c_during_creation_stops_the_enumeration():
    """Ctrl-C while glevo.GP(...) enumerates (a C call of seconds) raises KeyboardInterrupt at
    once, not when the call returns; the next run is unaffected."""
    import os
    import signal
    import threading
    import time
    X = np.random.default_rng(1).random((1000, 5))
    y = X[:, 0] * np.sin(X[:, 1]) + X[:, 2] ** 3
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        # 10^7 candidates on 1000 cases: many seconds on a CPU when not stopped.
        glevo.GP((X, y), enumeration=10**7, backend="cpu", pop=100, generations=1)
    assert time.perf_counter() - t0 < 2.0
    timer.join()
    assert glevo.GP((X, y), pop=50, generations=2, backend="cpu", enumeration=1000).run()["generations"] == 2


def test_every_cli_option_has_its_python_row():
    """docs/python.md's table lists each option of `glevo gp --help`, and each keyword it
    names is one glevo.GP (or glevo.Context) takes."""
    import inspect
    import os
    import re
    import subprocess
    path = os.environ.get("GLEVO_CLI") or os.path.join(os.path.dirname(__file__), "..", "..",
                                                       "build", "glevo")
    help_text = subprocess.run([path, "gp", "--help"], capture_output=True, text=True).stdout
    options = set(re.findall(r"^  --([a-z-]+)", help_text, re.M))
    assert len(options) > 30, help_text
    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")).read()
    rows = dict(re.findall(r"^\| `--([a-z-]+)` \| (.*) \|$", doc, re.M))
    assert options == set(rows), (options - set(rows), set(rows) - options)
    accepted = set(glevo.gp.FIELDS) | {"data", "target", "context", "progress"} | \
        set(inspect.signature(glevo.Context).parameters)
    for option, python in rows.items():
        first = re.match(r"`([a-z_]+)", python)
        if first and "(" not in first.group(1) and not python.startswith(("`gp.", "`GP", "`GPM", "`help", "`glevo")):
            assert first.group(1) in accepted, (option, python)


def test_json_front_of_size_and_error(cli, data_csv):
    """`glevo gp --json` lists the front its model was picked from: smallest first, each
    model of less training error than every smaller one, each error its printed program's."""
    r = cli("gp", "--data", data_csv, "--pop", 300, "--generations", 8, "--backend", "cpu")
    front = r["front"]
    assert front, "an empty front"
    assert all(a["nodes"] < b["nodes"] and a["error"] > b["error"] for a, b in zip(front, front[1:]))
    errors = glevo.gp_eval([f["program"] for f in front], data_csv, metric="mse", backend="cpu")
    np.testing.assert_allclose(errors, [f["error"] for f in front], rtol=1e-6)
    assert r["best_program"] in [f["program"] for f in front]  # the printed model is on it
