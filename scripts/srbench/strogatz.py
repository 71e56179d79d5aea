"""The ODE-Strogatz benchmark as SRBench's ground-truth track runs it (La Cava et al. 2021;
the systems of La Cava, Danai & Spector 2016, "Inference of compact nonlinear dynamic models by
epigenetic local search", EAAI, from Strogatz's "Nonlinear dynamics and chaos"): seven
two-state systems, each simulated from 4 initial conditions for 10 time units and sampled
every 0.1 (100 states a trajectory, 400 in all); a problem is one equation of a system, the
target the state's derivative (its right-hand side at the sampled state), the inputs x and y.
SRBench splits the 400 rows 75/25 into training and test; so does states() below.

The reference data were simulated with Simulink from MATLAB's random initial conditions, which
cannot be drawn again; here the same systems are integrated with classical Runge-Kutta (step
0.001) from initial conditions drawn from the same distributions (MATLAB's wgn(1, 1, p) is
Gaussian with variance 10^(p/10)), seeded by the data seed.

    name: (formula in SymPy's syntax over x and y, system)
"""
import functools
import zlib

import numpy as np

PI = np.pi


def _normal(rng, mean, power_db):
    return mean + rng.normal(0.0, np.sqrt(10 ** (power_db / 10)))


# Each system: (its two right-hand sides in SymPy's syntax, a draw of one initial condition).
SYSTEMS = {
    "bacres": (("20 - x - x*y/(1 + 0.5*x**2)", "10 - x*y/(1 + 0.5*x**2)"),
               lambda rng: (_normal(rng, 5, 1), _normal(rng, 10, 0.1))),
    "barmag": (("0.5*sin(x - y) - sin(x)", "0.5*sin(y - x) - sin(y)"),
               lambda rng: (2 * PI * rng.uniform(), 2 * PI * rng.uniform())),
    "glider": (("-0.05*x**2 - sin(y)", "x - cos(y)/x"),
               lambda rng: (_normal(rng, 5, 1), _normal(rng, 0, 0.1))),
    "lv": (("3*x - 2*x*y - x**2", "2*y - x*y - y**2"), None),  # fixed initial conditions
    "predprey": (("x*(4 - x - y/(1 + x))", "y*(x/(1 + x) - 0.075*y)"),
                 lambda rng: (_normal(rng, 5, 1), _normal(rng, 10, 0.1))),
    "shearflow": (("cot(y)*cos(x)", "(cos(y)**2 + 0.1*sin(y)**2)*sin(x)"),
                  lambda rng: (2 * PI * rng.uniform() - PI, PI * rng.uniform() - PI / 2)),
    "vdp": (("10*(y - (x**3/3 - x))", "-x/10"), lambda rng: (rng.uniform(), rng.uniform())),
}
LV_STARTS = [(1, 3), (4, 1), (8, 2), (3, 3)]

EQUATIONS = {f"{s}{k + 1}": (SYSTEMS[s][0][k], s) for s in SYSTEMS for k in range(2)}

NUMPY = {"sin": np.sin, "cos": np.cos, "cot": lambda v: 1 / np.tan(v)}
TRAJECTORIES, SAMPLES, EVERY, STEP = 4, 100, 0.1, 0.001


def rhs(formula):
    """f(x) for x of shape (2, n): the formula through numpy."""
    code = compile(formula, formula, "eval")
    return lambda x: eval(code, dict(NUMPY, x=x[0], y=x[1]))


def _trajectory(f, start):
    """SAMPLES states from start, every EVERY time units (RK4 of step STEP between them)."""
    u = np.array(start, dtype=np.float64).reshape(2, 1)
    out = np.empty((2, SAMPLES))
    per = int(round(EVERY / STEP))
    for k in range(SAMPLES):
        out[:, k] = u[:, 0]
        for _ in range(per):
            k1 = f(u)
            k2 = f(u + STEP / 2 * k1)
            k3 = f(u + STEP / 2 * k2)
            k4 = f(u + STEP * k3)
            u = u + STEP / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return out


@functools.lru_cache(maxsize=None)
def _shuffled_states(system, data_seed):
    """The 400 sampled states of a system's 4 trajectories from data seed's initial
    conditions, shuffled: simulated once for both equations and both parts."""
    key = zlib.crc32(system.encode())
    rng = np.random.default_rng([data_seed, key, 3])
    (fx, fy), start = SYSTEMS[system]
    gx, gy = rhs(fx), rhs(fy)
    f = lambda u: np.vstack([gx(u), gy(u)])
    starts = LV_STARTS if start is None else [start(rng) for _ in range(TRAJECTORIES)]
    x = np.hstack([_trajectory(f, s) for s in starts])
    x = x[:, rng.permutation(x.shape[1])].astype(np.float32).astype(np.float64)
    x.flags.writeable = False  # shared by every caller
    return x


def states(system, data_seed, part):
    """The training (300) or test (100) states of a system, shape (2, n), float32 values: its
    400 sampled states split 75/25 (the same split for both equations of a system)."""
    x = _shuffled_states(system, data_seed)
    cut = x.shape[1] * 3 // 4
    return (x[:, :cut] if part == "train" else x[:, cut:]).copy()
