"""DSMGA-II from Python: the CLI's results, progress, checkpoints."""
import numpy as np

import glevo


def test_same_result_as_cli(ctx, cli):
    d = glevo.DSMGA("trap", 25, pop=40, seed=1, context=ctx)
    r = d.run()
    j = cli("dsmga", "--problem", "trap", "--ell", 25, "--pop", 40, "--seed", 1)
    assert r["best_fitness"] == j["best_fitness"] and r["solved"] == j["solved"]
    assert (r["nfe"], r["generations"]) == (j["nfe"], j["generations"])
    assert d.best.tolist() == j["best_x"]


def test_progress_and_checkpoint(ctx, tmp_path):
    seen = []
    d = glevo.DSMGA("ftrap", 36, pop=60, seed=5, context=ctx, backend="cpu",
                    progress=lambda g, b, nfe: seen.append((g, b, nfe)))
    d.step(1)
    assert seen == [(1, seen[0][1], d.nfe)]
    d.save(tmp_path / "d.ckpt")
    end = d.run()
    back = glevo.DSMGA.load(tmp_path / "d.ckpt", "ftrap", 36, context=ctx)
    assert back.generation == 1
    r = back.run()
    assert (r["nfe"], r["best_fitness"]) == (end["nfe"], end["best_fitness"])
    assert np.array_equal(back.best, d.best)
