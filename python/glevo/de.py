"""Differential evolution (Storn & Price; cudaDE_i's fused passes): glevo_de_* in Python."""
import numpy as np

from . import context as _context
from ._lib import ffi, lib, check, text
from ._params import Field, backend_field, fill, read, new
from ._engine import Engine
from .problem import as_problem

FIELDS = {
    "dim": Field("int", "default"),
    "pop": Field("int", "default"),
    "F": Field("float", "default"),
    "CR": Field("float", "literal"),
    "strategy": Field(("enum", lib.glevo_de_strategy_name, lib.glevo_de_strategy_parse)),
    "max_evals": Field("int", "default"),
    "seed": Field("seed"),
    "no_shift": Field("bool"),
    "check_every": Field("int", "default"),
    "target_efv": Field("float", "plain"),
    "backend": backend_field(),
    "kernel": Field(("enum", lib.glevo_de_kernel_name, lib.glevo_de_kernel_parse)),
}


class DEResult:
    """best_x (numpy), best_fitness, efv (None without a known optimum), evaluations,
    generations, seconds, renderer, engine."""

    def __init__(self, r):
        self.best_x = np.frombuffer(ffi.buffer(r.best_x, 8 * r.dim), dtype=np.float64).copy()
        self.best_fitness = r.best_fitness
        self.efv = None if r.efv != r.efv else r.efv
        self.evaluations = r.evaluations
        self.generations = r.generations
        self.seconds = r.seconds
        self.renderer = ffi.string(r.renderer).decode()
        self.engine = ffi.string(r.engine).decode()

    def __repr__(self):
        return (f"DEResult(best_fitness={self.best_fitness!r}, efv={self.efv!r}, "
                f"evaluations={self.evaluations}, engine={self.engine!r})")


def _shift_array(shift, dim, owner):
    a = np.asarray(shift)
    if a.dtype.kind not in "iuf":
        raise TypeError(f"{owner}: shift has dtype {a.dtype}, expected numbers")
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.ndim != 1:
        raise ValueError(f"{owner}: shift must be 1-D, it has shape {a.shape}")
    if dim and a.shape[0] != dim:
        raise ValueError(f"{owner}: shift has {a.shape[0]} numbers, dim is {dim}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{owner}: shift holds NaN or infinity")
    return a


class DE(Engine):
    """DE(problem='sphere', *, shift=None, context=None, progress=None, **params)

    params: glevo_de_params' fields with the C defaults (DE.defaults()): dim, pop, F, CR,
    strategy, max_evals, seed, no_shift, check_every, target_efv, backend, kernel. shift: an
    own shift vector (dim numbers). progress: callable(generation, best) at every check."""

    def __init__(self, problem="sphere", *, shift=None, context=None, progress=None, **params):
        owner = "DE"
        self._build(problem, shift, context, progress, params, owner, None)

    def _build(self, problem, shift, context, progress, params, owner, path):
        self.problem = as_problem(problem, owner) if problem is not None else None
        self._glsl_names = (self.problem.glsl_name,) if self.problem and self.problem.glsl_name else ()
        p = new("glevo_de_params")
        p.problem = self.problem._ptr if self.problem else ffi.NULL
        ctx = context if context is not None else _context.current(False)
        if path is None and params.get("backend") is None:
            params = dict(params, backend=ctx.backend if ctx is not None else "auto")
        fill(p, FIELDS, params, owner)
        if shift is not None:
            self._shift = _shift_array(shift, params.get("dim") or (self.problem.dim if self.problem else 0), owner)
            p.shift = ffi.from_buffer("double[]", self._shift)
        backend = p.backend
        self._resolved = read(lib.glevo_de_params_defaults(p), FIELDS)
        if path is not None:
            if not params.get("check_every"):
                v = ffi.new("char[64]")
                check(lib.glevo_checkpoint_param(str(path).encode(), b"param.check_every", v, 64))
                self._resolved["check_every"] = int(ffi.string(v))
            backend, p.backend = self._load_backend(path, params, owner)
        self._setup(backend, context, progress, owner)
        p.progress = self._callback(ffi, "glevo_de_progress_fn",
                                    lambda g, b: (int(g), float(b)))
        out = ffi.new("glevo_de **")
        if path is None:
            self._call(lib.glevo_de_create(p, out))
        else:
            self._call(lib.glevo_de_load(str(path).encode(), p, out))
        self._own(out[0], lib.glevo_de_destroy)
        if self.problem is None:
            from .problem import Problem
            self.problem = Problem(text(lib.glevo_de_problem(self._h).name))

    @staticmethod
    def defaults(problem="sphere", **params):
        p = new("glevo_de_params")
        p.problem = as_problem(problem, "DE.defaults")._ptr
        fill(p, FIELDS, params, "DE.defaults")
        return read(lib.glevo_de_params_defaults(p), FIELDS)

    @classmethod
    def load(cls, path, problem=None, *, context=None, progress=None, **changes):
        """A run from a checkpoint; changes: max_evals, check_every, target_efv, backend,
        kernel (others must match the file). A GLSL problem must be given again."""
        self = cls.__new__(cls)
        self._build(problem, None, context, progress, changes, "DE.load", path)
        return self

    def step(self, generations=1):
        """Up to `generations` generations, never beyond the budget; returns self."""
        self._generations(generations, "DE.step")
        every = self._resolved["check_every"]

        def chunk_of(left):
            return min(left, every - self.generation % every)

        def run(k):
            self._call(lib.glevo_de_step(self._h, k))
            return self.done

        return self._run_chunks(generations, chunk_of, run)

    def run(self):
        """Runs to the end of the budget (or target_efv); returns the result."""
        while not self.done:
            self.step(self._resolved["check_every"])
        return self.result

    @property
    def done(self):
        return bool(lib.glevo_de_done(self._h))

    @property
    def generation(self):
        return lib.glevo_de_generation(self._h)

    @property
    def evaluations(self):
        return lib.glevo_de_evaluations(self._h)

    @property
    def dim(self):
        return lib.glevo_de_dim(self._h)

    @property
    def pop(self):
        return lib.glevo_de_pop(self._h)

    @property
    def result(self):
        self._ready()
        r = ffi.new("glevo_de_result *")
        self._call(lib.glevo_de_result_get(self._h, r))
        try:
            return DEResult(r)
        finally:
            lib.glevo_de_result_free(r)

    @property
    def best(self):
        return self.result

    @property
    def history(self):
        return self._history(("generation", np.int64), ("best", np.float64))

    @property
    def population(self):
        """(x, fitness): x float64 (pop, dim) in the problem's coordinates, fitness float32."""
        self._ready()
        n, d = lib.glevo_de_pop(self._h), lib.glevo_de_dim(self._h)
        x = np.empty((n, d), dtype=np.float64)
        f = np.empty(n, dtype=np.float32)
        self._call(lib.glevo_de_population(self._h, ffi.from_buffer("double[]", x),
                                           ffi.from_buffer("float[]", f)))
        return x, f

    def save(self, path):
        self._ready()
        self._call(lib.glevo_de_save(self._h, str(path).encode(), ffi.NULL))

    def __repr__(self):
        return f"glevo.DE({self.problem.name!r}, generation {self.generation})"


def de(problem="sphere", **kwargs):
    """Runs DE to the end and returns its DEResult (glevo de ... --json's numbers)."""
    return DE(problem, **kwargs).run()
