"""What the Python layer costs: the quickstart's job (camel, 64x64, 200 generations, seed 1)
timed three ways, alternating, median of N runs (engine creation and shader builds excluded
from every timing, as the CLI's own "seconds" excludes them):
  c_loop  the CLI's loop called straight through cffi (step report_every, read the best)
  python  glevo.CellularGA(...).step(200) and .best
  cli     build/glevo cga ... --json's own "seconds" (another process: noisier)
Wall time and, for the two in-process ways, CPU time of all the process's threads (on a
loaded machine the steadier measure of the work done: llvmpipe renders on CPU threads).
Run from a source checkout after the CMake build:
  GLEVO_LIBRARY=build/libglevo.so.0 PYTHONPATH=python /usr/bin/python3 examples/python/bench_overhead.py [RUNS]
"""
import json
import os
import statistics
import subprocess
import sys
import time

import glevo
from glevo import ffi, lib

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 15
CLI = os.environ.get("GLEVO_CLI", os.path.join(os.path.dirname(glevo.LIBRARY), "glevo"))


def c_loop(ctx, tiny=False):
    p = ffi.new("glevo_cga_params *")
    p.problem = lib.glevo_problem_find(b"camel")
    p.seed = 1
    if tiny:
        p.width, p.height, p.backend = 2, 2, lib.GLEVO_BACKEND_CPU
    out = ffi.new("glevo_cga **")
    assert lib.glevo_cga_create(p, out) == 0, glevo.last_error()
    best = ffi.new("glevo_cga_best *")
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(8):
        assert lib.glevo_cga_step(out[0], 25) == 0
        assert lib.glevo_cga_best_get(out[0], best) == 0
    lib.glevo_context_finish(ffi.NULL)
    t, c = time.perf_counter() - t0, time.process_time() - c0
    f = best.fitness
    lib.glevo_cga_destroy(out[0])
    return t, f, c


def python(ctx, tiny=False):
    kw = dict(width=2, height=2, backend="cpu") if tiny else {}
    ga = glevo.CellularGA("camel", seed=1, context=ctx, **kw)
    t0, c0 = time.perf_counter(), time.process_time()
    f = ga.step(200).best.fitness
    ctx.finish()
    return time.perf_counter() - t0, f, time.process_time() - c0


def cli():
    out = subprocess.run([CLI, "cga", "--problem", "camel", "--grid", "64x64", "--generations",
                          "200", "--seed", "1", "--json"], capture_output=True, text=True,
                         check=True)
    j = json.loads(out.stdout)
    return j["seconds"], j["best_fitness"], None


def main():
    with glevo.Context() as ctx:
        print(f"renderer: {ctx.renderer}", flush=True)
        times = {"c_loop": [], "python": [], "cli": []}
        cpu = {"c_loop": [], "python": []}
        results = set()
        c_loop(ctx), python(ctx)  # warm-up: driver caches, first allocations
        for _ in range(RUNS):
            for name, fn in (("c_loop", lambda: c_loop(ctx)), ("python", lambda: python(ctx)),
                             ("cli", cli)):
                t, f, c = fn()
                times[name].append(t)
                if c is not None:
                    cpu[name].append(c)
                results.add(f)
    med = {k: statistics.median(v) for k, v in times.items()}
    for k, v in times.items():
        print(f"{k:7s} median {med[k] * 1e3:8.2f} ms  min {min(v) * 1e3:8.2f} ms  "
              f"max {max(v) * 1e3:8.2f} ms  ({len(v)} runs)")
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    for k in cpu:
        print(f"{k:7s} CPU time (all threads) median {cmed[k] * 1e3:8.2f} ms")
    print(f"CPU time python / c_loop: {cmed['python'] / cmed['c_loop']:.4f}")
    print(f"python / c_loop: {med['python'] / med['c_loop']:.4f}   "
          f"python / cli: {med['python'] / med['cli']:.4f}")
    print(f"best fitness of every run: {sorted(results)}")
    # The layer's own cost, without the noise of the GPU work: the same calls (8 steps of 25
    # generations, 8 best-so-far reads) on a 2x2 grid on the CPU backend, where the C work is
    # a few microseconds.
    tiny = {"c_loop": [], "python": []}
    with glevo.Context(backend="cpu") as ctx:
        for _ in range(200):
            tiny["c_loop"].append(c_loop(ctx, True)[0])
            tiny["python"].append(python(ctx, True)[0])
    extra = statistics.median(tiny["python"]) - statistics.median(tiny["c_loop"])
    print(f"2x2 cpu: c_loop {statistics.median(tiny['c_loop']) * 1e6:.1f} us, python "
          f"{statistics.median(tiny['python']) * 1e6:.1f} us: the Python layer adds "
          f"{extra * 1e6:.1f} us a run = {extra / med['c_loop'] * 100:.3f} % of the 64x64 run")
    if len(results) != 1:
        sys.exit("runs disagree")


if __name__ == "__main__":
    main()
