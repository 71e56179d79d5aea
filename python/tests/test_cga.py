"""The cellular GA from Python: the CLI's results for the same seed and parameters, the
population as numpy, progress, interruption between steps, checkpoints."""
import numpy as np
import pytest

import glevo

ARGS = dict(problem="rastrigin", dim=3, width=30, height=14, seed=7, report_every=10)


def make(ctx, **kw):
    a = dict(ARGS, **kw)
    return glevo.CellularGA(a.pop("problem"), context=ctx, **a)


def test_same_result_as_cli(ctx, cli):
    ga = make(ctx).step(40)
    j = cli("cga", "--problem", "rastrigin", "--dim", 3, "--grid", "30x14", "--generations", 40,
            "--seed", 7, "--report-every", 10)
    b = ga.best
    assert b.fitness == j["best_fitness"]
    assert b.x.tolist() == j["best_x"]
    assert b.generation == j["best_generation"]
    assert ga.evaluations == j["evaluations"] and ga.generation == j["generations"] == 40


def test_cpu_backend_matches_cli_cpu(cli):
    ga = glevo.CellularGA("camel", width=18, height=11, seed=3, backend="cpu").step(25)
    j = cli("cga", "--problem", "camel", "--grid", "18x11", "--generations", 25, "--seed", 3,
            "--backend", "cpu")
    assert ga.best.fitness == j["best_fitness"] and ga.best.x.tolist() == j["best_x"]


def test_population_arrays(ctx):
    ga = make(ctx).step(15)
    genes, fitness = ga.read()
    assert genes.shape == (1, 14, 30, 4) and genes.dtype == np.float32
    assert fitness.shape == (14, 30)
    g = ga.genes
    assert g.shape == (14, 30, 3) and g.base is not None  # a view of the one copy read back
    assert np.all(g == np.floor(g)) and g.min() >= 0 and g.max() < 2**24
    pop = ga.population
    lo, hi = ga.problem.bounds
    assert pop.shape == (14, 30, 3) and pop.min() >= lo and pop.max() <= hi
    assert np.array_equal(ga.fitness, fitness)  # reading twice changes nothing


def test_write_genes_round_trip(ctx):
    ga = make(ctx)
    rng = np.random.default_rng(5)
    g = rng.integers(0, 2**24, size=(14, 30, 3)).astype(np.float32)
    ga.write_genes(g)
    assert np.array_equal(ga.genes, g)
    with pytest.raises(ValueError, match="integers"):
        ga.write_genes(g + 0.5)
    with pytest.raises(ValueError, match="shape"):
        ga.write_genes(g[:, :, :2])


def test_progress_callback_and_history(ctx):
    seen = []
    ga = make(ctx, progress=lambda gen, best: seen.append((gen, best))).step(35)
    assert [s[0] for s in seen] == [10, 20, 30]
    h = ga.history
    assert h["generation"].tolist() == [10, 20, 30]
    assert list(h["best"]) == [s[1] for s in seen]
    assert np.all(np.diff(h["best"]) <= 0)  # best so far of a minimisation


def test_interrupt_stops_between_steps_and_the_run_goes_on(ctx):
    calls = []

    def stop_at_20(gen, best):
        calls.append(gen)
        if gen == 20:
            raise KeyboardInterrupt

    ga = make(ctx, progress=stop_at_20)
    with pytest.raises(KeyboardInterrupt):
        ga.step(40)
    assert ga.generation == 20  # stopped at the step boundary, not mid-generation
    ga.step(20)
    whole = make(ctx).step(40)
    assert ga.best.fitness == whole.best.fitness and np.array_equal(ga.genes, whole.genes)


def test_checkpoint_resumes_bit_for_bit(ctx, tmp_path):
    path = tmp_path / "run.ckpt"
    ga = make(ctx).step(20)
    ga.save(path)
    ga.step(20)
    back = glevo.CellularGA.load(path, context=ctx)
    assert back.generation == 20 and back.params["width"] == 30
    back.step(20)
    assert back.best.fitness == ga.best.fitness
    assert np.array_equal(back.genes, ga.genes)


def test_defaults_are_the_c_librarys():
    d = glevo.CellularGA.defaults("camel")
    assert d["width"] == 64 and d["height"] == 64 and d["pc"] == 0.8 and d["pm"] == 0.005
    # The backend is the package's default, as the CLI's: auto (the C params' zero is fragment).
    assert d["dim"] == 2 and d["report_every"] == 25 and d["backend"] == "auto"
    assert glevo.CellularGA.defaults("camel", pc=0)["pc"] == 0.0  # an explicit 0 is 0


def test_snapshot_png(ctx, tmp_path):
    ga = make(ctx).step(5)
    ga.snapshot(tmp_path / "s.png", scale=2)
    assert (tmp_path / "s.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def python_sigint():
    """SIGINT handled as Python handles it at an interactive prompt: a process started in the
    background by a non-interactive shell (nohup ... &, as a CI script may) inherits SIGINT
    ignored, and Python then leaves it so."""
    import signal
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_sigint_inside_a_finalizer_still_stops_the_step(python_sigint):
    """SIGINT handled while a finalizer runs (a collection may run an old engine's __del__
    inside a progress callback) still stops the step: Python's default handler would raise
    KeyboardInterrupt inside the finalizer, where it is lost (CI saw a step run to its end)."""
    import os
    import signal

    class Dropped:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # Python runs the signal's handler here, in the finalizer
                pass

    def progress(generation, best, *rest):
        if generation == 10:
            Dropped()  # freed at once: its __del__ runs inside this callback

    ga = glevo.CellularGA("rastrigin", dim=4, width=16, height=8, seed=3, backend="cpu",
                          report_every=5, progress=progress)
    with pytest.raises(KeyboardInterrupt):
        ga.step(100000)
    assert ga.generation == 10


def test_real_sigint_stops_between_steps(python_sigint):
    """SIGINT while the C library runs: Python raises KeyboardInterrupt once the step call
    returns, so the run stops on a report boundary and goes on as if never stopped."""
    import os
    import signal
    import threading
    kw = dict(width=40, height=20, seed=3, backend="cpu", report_every=5)
    ga = glevo.CellularGA("rastrigin", dim=4, **kw)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            ga.step(100000)
    finally:
        timer.cancel()
    g = ga.generation
    assert 0 < g < 100000 and g % 5 == 0
    ga.step(10)
    whole = glevo.CellularGA("rastrigin", dim=4, **kw).step(g + 10)
    assert ga.best.fitness == whole.best.fitness and np.array_equal(ga.genes, whole.genes)


def test_progress_bar_without_tqdm(ctx, capsys):
    ga = make(ctx, progress=True).step(20)
    assert ga.generation == 20
    err = capsys.readouterr().err
    assert "20/20" in err  # tqdm's bar when importable, else glevo's one-line stand-in
