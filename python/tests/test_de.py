"""DE from Python: the CLI's results, the population, progress, checkpoints."""
import numpy as np
import pytest

import glevo


def test_same_result_as_cli(ctx, cli):
    r = glevo.de("rastrigin", dim=5, pop=37, max_evals=3000, seed=3, context=ctx)
    j = cli("de", "--problem", "rastrigin", "--dim", 5, "--pop", 37, "--max-evals", 3000,
            "--seed", 3)
    assert r.best_fitness == j["best_fitness"] and r.efv == j["efv"]
    assert r.best_x.tolist() == j["best_x"]
    assert (r.evaluations, r.generations) == (j["evaluations"], j["generations"])


def test_cpu_same_as_cli_cpu(cli):
    r = glevo.de("sphere", dim=4, pop=21, max_evals=2000, seed=9, backend="cpu", CR=0)
    j = cli("de", "--problem", "sphere", "--dim", 4, "--pop", 21, "--max-evals", 2000,
            "--seed", 9, "--backend", "cpu", "--CR", 0)
    assert r.best_fitness == j["best_fitness"] and r.best_x.tolist() == j["best_x"]


def test_progress_does_not_change_the_run(ctx):
    seen = []
    a = glevo.DE("sphere", dim=3, pop=13, max_evals=1300, seed=2, check_every=7, context=ctx,
                 progress=lambda g, b: seen.append((g, b)))
    ra = a.run()
    rb = glevo.de("sphere", dim=3, pop=13, max_evals=1300, seed=2, check_every=7, context=ctx)
    assert ra.best_fitness == rb.best_fitness and ra.best_x.tolist() == rb.best_x.tolist()
    gens = [g for g, _ in seen]
    assert gens[:3] == [7, 14, 21] and gens[-1] == ra.generations
    assert seen[-1][1] == ra.best_fitness


def test_population_and_checkpoint(ctx, tmp_path):
    d = glevo.DE("griewank", dim=6, pop=19, max_evals=19 * 60, seed=5, context=ctx)
    d.step(20)
    x, f = d.population
    assert x.shape == (19, 6) and f.shape == (19,) and np.all(np.isfinite(f))
    d.save(tmp_path / "de.ckpt")
    end = d.run()
    back = glevo.DE.load(tmp_path / "de.ckpt", context=ctx)
    assert back.generation == 20
    assert back.run().best_x.tolist() == end.best_x.tolist()


def test_own_shift_vector(ctx):
    with pytest.raises(ValueError, match="shift has 2 numbers"):
        glevo.DE("sphere", dim=3, shift=[1.0, 2.0], context=ctx)
    with pytest.raises(ValueError, match="NaN"):
        glevo.DE("sphere", dim=2, shift=[1.0, np.nan], context=ctx)
    r = glevo.DE("sphere", dim=2, pop=20, max_evals=4000, seed=1, shift=[0.5, -0.25],
                 context=ctx).run()
    assert np.allclose(r.best_x, [0.5, -0.25], atol=1e-2)


def test_glsl_problem(ctx):
    src = """vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z) { return acc + vec4(abs(z - 0.5)); }
float problem_finish(vec4 acc, int D) { return acc.x; }
"""
    pr = glevo.Problem.from_glsl(src, dim=4, lower=-2, upper=2, name="abs_half")
    r = glevo.de(pr, dim=4, pop=24, max_evals=24 * 150, seed=2, context=ctx)
    assert r.efv is None and np.allclose(r.best_x, 0.5, atol=0.05)
    with pytest.raises(glevo.GlslError) as e:
        glevo.de(glevo.Problem.from_glsl(src + "oops\n", dim=4, name="abs_bad"), dim=4, context=ctx)
    assert e.value.lineno == 4
