"""Symbolic regression on a numpy data set: GP finds y = x1^2 + 2 x2 + noise from 400
samples, then the best model is printed, called on new data and scored with gp_eval.

  GLEVO_LIBRARY=build/libglevo.so.0 PYTHONPATH=python /usr/bin/python3 \
      examples/python/gp_numpy.py [--generations G] [--pop N]
"""
import argparse

import numpy as np

import glevo


def data(n, rng):
    X = rng.uniform(-2, 2, size=(n, 2)).astype(np.float32)
    y = X[:, 0] ** 2 + 2 * X[:, 1] + rng.normal(0, 0.01, n).astype(np.float32)
    return X, y.astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generations", type=int, default=30)
    ap.add_argument("--pop", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", default="fragment")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    X, y = data(400, rng)
    X_test, y_test = data(200, rng)

    with glevo.Context(backend=a.backend) as ctx:
        gp = glevo.GP((X, y), pop=a.pop, generations=a.generations, seed=a.seed, metric="rmse",
                      progress=lambda g, err, prog: print(f"generation {g:3d}  rmse {err:.6g}")
                      if g % 5 == 0 else None)
        result = gp.run()
        model = gp.model
        print(f"\n{ctx.renderer}: best of {result['evaluations']} programs, "
              f"{result['seconds']:.2f} s")
        print(f"  S-expression  {model}")
        print(f"  infix         {model.infix}")
        pred = model(X_test)
        rmse = float(np.sqrt(np.mean((pred.astype(np.float64) - y_test) ** 2)))
        print(f"  test rmse     {rmse:.6g} (model called on {len(X_test)} new rows)")
        err = glevo.gp_eval([str(model)], X_test, y_test, metric="rmse")[0]
        print(f"  gp_eval rmse  {err:.6g} (the library's evaluator on the same rows)")


if __name__ == "__main__":
    main()
