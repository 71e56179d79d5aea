"""The quickstart's job from Python: a cellular GA on the six-hump camel function (64x64
grid, 200 generations), then one figure with the population texture as the GPU holds it
(genes as colour), the fitness of every cell, and the best-so-far curve.

  GLEVO_LIBRARY=build/libglevo.so.0 PYTHONPATH=python /usr/bin/python3 \
      examples/python/cga_population.py [OUT.png] [--generations G] [--grid WxH]
"""
import argparse

import matplotlib
matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt
import numpy as np

import glevo


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="build/python-cga.png")
    ap.add_argument("--problem", default="camel")
    ap.add_argument("--generations", type=int, default=200)
    ap.add_argument("--grid", default="64x64")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", default="fragment")
    a = ap.parse_args()
    width, height = (int(v) for v in a.grid.split("x"))

    with glevo.Context(backend=a.backend) as ctx:
        ga = glevo.CellularGA(a.problem, width=width, height=height, seed=a.seed,
                              report_every=5, progress=True)
        ga.step(a.generations)
        best = ga.best
        genes, fitness = ga.read()  # one readback: (textures, H, W, 4) and (H, W)
        history = ga.history
        dim, bits = ga.params["dim"], ga.params["bits"]
        renderer, optimum = ctx.renderer, ga.problem.optimum
        ga_maximize = ga.problem.maximize
        print(f"{ctx.renderer}: best {best.fitness:.10g} at x = {best.x} "
              f"(generation {best.generation}, cell {best.cell})")

    # Genes 1-3 as red, green, blue (24-bit integers scaled to 0..1); row 0 at the bottom, as GL.
    rgb = np.zeros((height, width, 3))
    rgb[:, :, :min(dim, 3)] = genes[0, :, :, :min(dim, 3)] / float((1 << bits) - 1)

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    axes[0].imshow(rgb, origin="lower", interpolation="nearest")
    axes[0].set_title(f"population: genes x1..x{min(dim, 3)} as RGB")
    # Ranks, not values: a few cells far out in the domain score 1e11 and would flatten the rest.
    order = fitness.ravel().argsort()
    if ga_maximize:
        order = order[::-1]
    rank = np.empty(fitness.size)
    rank[order] = np.arange(fitness.size) / (fitness.size - 1)
    im = axes[1].imshow(rank.reshape(fitness.shape), origin="lower", interpolation="nearest",
                        cmap="viridis_r")
    axes[1].set_title("fitness rank of each cell (0 = best)")
    fig.colorbar(im, ax=axes[1], shrink=0.8)
    for ax in axes[:2]:
        ax.set_xlabel("x (cell)")
        ax.set_ylabel("y (cell)")
    if optimum is not None:  # the distance to the optimum, on a log axis
        error = np.abs(history["best"] - optimum)
        axes[2].semilogy(history["generation"], np.maximum(error, 1e-12), marker=".")
        axes[2].set_ylabel(f"|best so far - optimum {optimum:.8g}|")
    else:
        axes[2].plot(history["generation"], history["best"], marker=".")
        axes[2].set_ylabel("best so far")
    axes[2].set_xlabel("generation")
    axes[2].set_title("fitness curve")
    fig.suptitle(f"glevo cellular GA: {a.problem}, {width}x{height}, {a.generations} "
                 f"generations, seed {a.seed} ({renderer})")
    fig.tight_layout()
    fig.savefig(a.out, dpi=90)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
