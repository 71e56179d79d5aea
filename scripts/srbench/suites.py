"""Benchmark suites with their published definitions and sampling, and their data sets drawn
deterministically from a data seed (separate from glevo's --seed).

Sampling specs, per input variable (one spec for all, or a list with one per variable):
  ("U", lo, hi, n)    n points uniform in [lo, hi] (all variables drawn together: n rows)
  ("E", lo, hi, step) the evenly spaced grid lo, lo + step, ..., hi; several variables: the
                      Cartesian product of their grids

Sources (docs/symbolic-regression-bench.md has the full references):
  nguyen     Uy, Hoai, O'Neill, McKay, Galvan-Lopez (2011), "Semantically-based crossover in
             genetic programming: application to real-valued symbolic regression", GPEM 12(2),
             Table 1, as tabulated with the sampling below by McDermott et al. (2012), "Genetic
             programming needs better benchmarks", GECCO, and by the benchmark table of DSR
             (Petersen et al. 2021, ICLR; dso/task/regression/benchmarks.csv): 20 training
             points; the 1000-point test set from the same range is issue 26's protocol.
  nguyen-star Nguyen-12* (Nguyen-12 with x and y on [0, 10]), reported beside Nguyen-12.
  keijzer    Keijzer (2003), "Improving symbolic regression with interval arithmetic and linear
             scaling", EuroGP, LNCS 2610, with the sampling tabulated by McDermott et al. (2012).
             DSR's table differs on Keijzer-4 (grid step 0.1, not 0.05) and Keijzer-5 (it puts
             x3, not the squared x2, in [1, 2], so y^2 can vanish); Keijzer-6 is left out, the
             tables disagree on its definition (harmonic sum vs x(x+1)/2).
  friedman1  Friedman (1991), "Multivariate adaptive regression splines", Ann. Stat. 19(1),
             eq. (the first of the three test functions): 10 inputs U[0,1], 5 of them used,
             y = 10 sin(pi x1 x2) + 20 (x3 - 1/2)^2 + 10 x4 + 5 x5 + N(0, 1); 200 training and
             1000 test points, noise on both (as sklearn.datasets.make_friedman1 draws it).
  feynman    the 100 equations of the AI Feynman database (Udrescu & Tegmark 2020; feynman.py),
             as SRBench's ground-truth track runs them (La Cava et al. 2021): every variable
             uniform in its range, 1500 training and 500 test rows (SRBench: 10 000 rows, 75/25;
             fewer here for the budget), the inputs named as the equation names them, noise
             (run.py --noise) on the training target only, sd = level x its RMS.
  strogatz   the 14 equations of the ODE-Strogatz benchmark (strogatz.py) as SRBench's ground-
             truth track runs them: each the derivative of a two-state system at 400 states
             sampled along 4 simulated trajectories, split 75/25, the inputs x and y."""
import zlib

import numpy as np

PI = np.pi


class Target:
    def __init__(self, name, nvars, f, train, test, needs=(), noise=0.0, text="", names=None,
                 formula=None, truth=None):
        self.name, self.nvars, self.f = name, nvars, f
        self.train, self.test = train, test
        self.needs = tuple(needs)  # primitives beyond main's + - * / neg sin cos
        self.noise = noise  # standard deviation of Gaussian noise added to y
        self.text = text  # the definition as printed in the docs
        self.names = names or [f"x{i + 1}" for i in range(nvars)]  # the CSV's input columns
        self.formula = formula  # the truth in SymPy's syntax (symbolic.py), where known
        # The truth in SymPy's syntax over names where known, for its size (truth_size.py):
        # formula, or given alone where SRBench's symbolic check does not run (the Nguyen,
        # Keijzer and Friedman suites, whose recorded runs it never judged).
        self.truth = truth or formula


def _nguyen():
    u = lambda lo, hi: ("U", lo, hi, 20)
    t = lambda lo, hi: ("U", lo, hi, 1000)
    rows = [
        ("nguyen-1", 1, lambda x: x[0] ** 3 + x[0] ** 2 + x[0], -1, 1, (), "x^3 + x^2 + x",
         "x1**3 + x1**2 + x1"),
        ("nguyen-2", 1, lambda x: x[0] ** 4 + x[0] ** 3 + x[0] ** 2 + x[0], -1, 1, (),
         "x^4 + x^3 + x^2 + x", "x1**4 + x1**3 + x1**2 + x1"),
        ("nguyen-3", 1, lambda x: sum(x[0] ** k for k in range(1, 6)), -1, 1, (),
         "x^5 + x^4 + x^3 + x^2 + x", "x1**5 + x1**4 + x1**3 + x1**2 + x1"),
        ("nguyen-4", 1, lambda x: sum(x[0] ** k for k in range(1, 7)), -1, 1, (),
         "x^6 + x^5 + x^4 + x^3 + x^2 + x",
         "x1**6 + x1**5 + x1**4 + x1**3 + x1**2 + x1"),
        ("nguyen-5", 1, lambda x: np.sin(x[0] ** 2) * np.cos(x[0]) - 1, -1, 1, (),
         "sin(x^2) cos(x) - 1", "sin(x1**2)*cos(x1) - 1"),
        ("nguyen-6", 1, lambda x: np.sin(x[0]) + np.sin(x[0] + x[0] ** 2), -1, 1, (),
         "sin(x) + sin(x + x^2)", "sin(x1) + sin(x1 + x1**2)"),
        ("nguyen-7", 1, lambda x: np.log(x[0] + 1) + np.log(x[0] ** 2 + 1), 0, 2, ("log",),
         "log(x + 1) + log(x^2 + 1)", "log(x1 + 1) + log(x1**2 + 1)"),
        ("nguyen-8", 1, lambda x: np.sqrt(x[0]), 0, 4, ("sqrt",), "sqrt(x)", "sqrt(x1)"),
        ("nguyen-9", 2, lambda x: np.sin(x[0]) + np.sin(x[1] ** 2), 0, 1, (),
         "sin(x) + sin(y^2)", "sin(x1) + sin(x2**2)"),
        ("nguyen-10", 2, lambda x: 2 * np.sin(x[0]) * np.cos(x[1]), 0, 1, (), "2 sin(x) cos(y)",
         "2*sin(x1)*cos(x2)"),
        ("nguyen-11", 2, lambda x: x[0] ** x[1], 0, 1, ("pow",), "x^y", "x1**x2"),
        ("nguyen-12", 2, lambda x: x[0] ** 4 - x[0] ** 3 + x[1] ** 2 / 2 - x[1], 0, 1, (),
         "x^4 - x^3 + y^2/2 - y", "x1**4 - x1**3 + x2**2/2 - x2"),
    ]
    return [Target(n, v, f, u(lo, hi), t(lo, hi), needs, text=s, truth=truth)
            for n, v, f, lo, hi, needs, s, truth in rows]


def _nguyen_star():
    """Nguyen-12* (issue 45): Nguyen-12's polynomial with its inputs on [0, 10] instead of DSO's
    range, where its terms differ in size by orders of magnitude (x^4 up to 10^4, y up to 10)."""
    n12 = next(t for t in _nguyen() if t.name == "nguyen-12")
    return [Target("nguyen-12star", 2, n12.f, ("U", 0, 10, 20), ("U", 0, 10, 1000),
                   text="Nguyen-12*: x^4 - x^3 + y^2/2 - y, x and y on [0, 10]", truth=n12.truth)]


def _keijzer():
    k1 = lambda x: 0.3 * x[0] * np.sin(2 * PI * x[0])
    k4 = lambda x: (x[0] ** 3 * np.exp(-x[0]) * np.cos(x[0]) * np.sin(x[0])
                    * (np.sin(x[0]) ** 2 * np.cos(x[0]) - 1))
    K1 = ("0.3 x sin(2 pi x)", "0.3*x1*sin(2*pi*x1)")
    g2 = ("U", -3, 3, 20)
    grid2 = ("E", -3, 3, 0.01)
    return [
        Target("keijzer-1", 1, k1, ("E", -1, 1, 0.1), ("E", -1, 1, 0.001), text=K1[0],
               truth=K1[1]),
        Target("keijzer-2", 1, k1, ("E", -2, 2, 0.1), ("E", -2, 2, 0.001), text=K1[0],
               truth=K1[1]),
        Target("keijzer-3", 1, k1, ("E", -3, 3, 0.1), ("E", -3, 3, 0.001), text=K1[0],
               truth=K1[1]),
        Target("keijzer-4", 1, k4, ("E", 0, 10, 0.05), ("E", 0.05, 10.05, 0.05), ("exp",),
               text="x^3 e^-x cos(x) sin(x) (sin(x)^2 cos(x) - 1)",
               truth="x1**3*exp(-x1)*cos(x1)*sin(x1)*(sin(x1)**2*cos(x1) - 1)"),
        Target("keijzer-5", 3, lambda x: 30 * x[0] * x[2] / ((x[0] - 10) * x[1] ** 2),
               [("U", -1, 1, 1000), ("U", 1, 2, 1000), ("U", -1, 1, 1000)],
               [("U", -1, 1, 10000), ("U", 1, 2, 10000), ("U", -1, 1, 10000)],
               text="30 x z / ((x - 10) y^2)",
               truth="30*x1*x3/((x1 - 10)*x2**2)"),
        Target("keijzer-7", 1, lambda x: np.log(x[0]), ("E", 1, 100, 1), ("E", 1, 100, 0.1),
               ("log",), text="ln x", truth="log(x1)"),
        Target("keijzer-8", 1, lambda x: np.sqrt(x[0]), ("E", 0, 100, 1), ("E", 0, 100, 0.1),
               ("sqrt",), text="sqrt(x)", truth="sqrt(x1)"),
        Target("keijzer-9", 1, lambda x: np.arcsinh(x[0]), ("E", 0, 100, 1), ("E", 0, 100, 0.1),
               ("log", "sqrt"), text="arcsinh(x) = ln(x + sqrt(x^2 + 1))",
               truth="log(x1 + sqrt(x1**2 + 1))"),
        Target("keijzer-10", 2, lambda x: x[0] ** x[1], ("U", 0, 1, 100), ("E", 0, 1, 0.01),
               ("pow",), text="x^y", truth="x1**x2"),
        Target("keijzer-11", 2, lambda x: x[0] * x[1] + np.sin((x[0] - 1) * (x[1] - 1)), g2,
               grid2, text="x y + sin((x - 1)(y - 1))",
               truth="x1*x2 + sin((x1 - 1)*(x2 - 1))"),
        Target("keijzer-12", 2, lambda x: x[0] ** 4 - x[0] ** 3 + x[1] ** 2 / 2 - x[1], g2, grid2,
               text="x^4 - x^3 + y^2/2 - y",
               truth="x1**4 - x1**3 + x2**2/2 - x2"),
        Target("keijzer-13", 2, lambda x: 6 * np.sin(x[0]) * np.cos(x[1]), g2, grid2,
               text="6 sin(x) cos(y)",
               truth="6*sin(x1)*cos(x2)"),
        Target("keijzer-14", 2, lambda x: 8 / (2 + x[0] ** 2 + x[1] ** 2), g2, grid2,
               text="8 / (2 + x^2 + y^2)",
               truth="8/(2 + x1**2 + x2**2)"),
        Target("keijzer-15", 2, lambda x: x[0] ** 3 / 5 + x[1] ** 3 / 2 - x[1] - x[0], g2, grid2,
               text="x^3/5 + y^3/2 - y - x",
               truth="x1**3/5 + x2**3/2 - x2 - x1"),
    ]


def _friedman1():
    f = lambda x: (10 * np.sin(PI * x[0] * x[1]) + 20 * (x[2] - 0.5) ** 2 + 10 * x[3]
                   + 5 * x[4])
    return [Target("friedman-1", 10, f, ("U", 0, 1, 200), ("U", 0, 1, 1000), noise=1.0,
                   text="10 sin(pi x1 x2) + 20 (x3 - 1/2)^2 + 10 x4 + 5 x5 + N(0,1); x6..x10 unused",
                   truth="10*sin(pi*x1*x2) + 20*(x3 - 1/2)**2 + 10*x4 + 5*x5")]


def _feynman():
    import feynman
    numpy_names = {"exp": np.exp, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
                   "log": np.log, "asin": np.arcsin, "pi": np.pi}
    targets = []
    for name, (formula, variables) in feynman.EQUATIONS.items():
        names = [v[0] for v in variables]
        code = compile(formula, name, "eval")
        f = (lambda code, names: lambda x: eval(code, dict(numpy_names, **dict(zip(names, x)))))(
            code, names)
        targets.append(Target("feynman-" + name, len(names), f,
                              [("U", lo, hi, 1500) for _, lo, hi in variables],
                              [("U", lo, hi, 500) for _, lo, hi in variables],
                              text=formula, names=names, formula=formula))
    return targets


def _strogatz():
    import strogatz
    return [Target("strogatz-" + name, 2, strogatz.rhs(formula), ("ODE", system, "train"),
                   ("ODE", system, "test"), text=formula, names=["x", "y"], formula=formula)
            for name, (formula, system) in strogatz.EQUATIONS.items()]


SUITES = {"nguyen": _nguyen(), "nguyen-star": _nguyen_star(), "keijzer": _keijzer(), "friedman1": _friedman1(),
          "feynman": _feynman(), "strogatz": _strogatz()}


def target(name):
    for targets in SUITES.values():
        for t in targets:
            if t.name == name:
                return t
    raise KeyError(name)


def is_grid(spec):
    """Whether a sampling spec is an E grid (the same points whatever the seed)."""
    if spec[0] == "ODE":
        return False
    return all(s[0] == "E" for s in (spec if isinstance(spec, list) else [spec]))


def _sample(spec, nvars, rng):
    """Inputs, shape (nvars, cases), rounded to float32 (what glevo reads from the CSV)."""
    specs = spec if isinstance(spec, list) else [spec] * nvars
    kind = specs[0][0]
    if any(s[0] != kind for s in specs):
        raise ValueError("mixed U and E specs")
    if kind == "U":
        n = specs[0][3]
        x = np.stack([rng.uniform(s[1], s[2], n) for s in specs])
    else:
        axes = [np.linspace(s[1], s[2], int(round((s[2] - s[1]) / s[3])) + 1) for s in specs]
        x = np.stack([g.ravel() for g in np.meshgrid(*axes, indexing="ij")])
    return x.astype(np.float32).astype(np.float64)


def draw(t, data_seed, noise_level=0.0):
    """(x_train, y_train, x_test, y_test, y_test_clean): x of shape (nvars, cases), every value
    exactly a float32. Training and test sets come from their own streams of one generator
    seeded by (data_seed, the target's name), so a target's data do not depend on which other
    targets run, and a grid test set does not shift the training draw. noise_level: SRBench's
    noise, on the training target only, Gaussian with sd = level x the target's RMS (a third
    stream)."""
    key = zlib.crc32(t.name.encode())
    rng_tr = np.random.default_rng([data_seed, key, 0])
    rng_te = np.random.default_rng([data_seed, key, 1])
    out = []
    for spec, rng in ((t.train, rng_tr), (t.test, rng_te)):
        if spec[0] == "ODE":  # states along simulated trajectories (strogatz.py)
            import strogatz
            x = strogatz.states(spec[1], data_seed, spec[2])
        else:
            x = _sample(spec, t.nvars, rng)
        clean = t.f(x)
        y = clean + (rng.normal(0.0, t.noise, clean.shape) if t.noise else 0.0)
        out += [x, y.astype(np.float32).astype(np.float64), clean]
    xtr, ytr, _, xte, yte, yte_clean = out
    if noise_level:
        rms = float(np.sqrt(np.mean(ytr ** 2)))
        noise = np.random.default_rng([data_seed, key, 2]).normal(0.0, noise_level * rms, ytr.shape)
        ytr = (ytr + noise).astype(np.float32).astype(np.float64)
    return xtr, ytr, xte, yte, yte_clean


def write_csv(path, x, y, names=None):
    names = list(names or [f"x{i + 1}" for i in range(x.shape[0])])
    names.append("target" if "y" in names else "y")  # II.6.15a has an input y
    # %.9g round-trips every float32 exactly, so glevo reads exactly the values drawn.
    np.savetxt(path, np.column_stack([*x, y]), delimiter=",", header=",".join(names),
               comments="", fmt="%.9g")


def read_csv(path):
    """(x of shape (cases, vars), y) from a CSV that write_csv wrote (target last)."""
    # The 9 digits name a float32 (as glevo reads them), not the nearest float64.
    a = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2).astype(np.float32).astype(np.float64)
    return a[:, :-1], a[:, -1]
