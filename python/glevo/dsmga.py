"""DSMGA-II (Hsu & Yu 2015) with its model built on the GPU (Li & Yu 2017): glevo_dsmga_*."""
import numpy as np

from . import context as _context
from ._lib import ffi, lib, check
from ._params import Field, backend_field, convert, fill, read, new
from ._engine import Engine

_MODELS = ("lossless", "lossy")

FIELDS = {
    "pop": Field("int", "default"),
    "selection_pressure": Field("int", "default"),
    "max_generations": Field("int", "default"),
    "max_nfe": Field("int", "plain"),
    "repeat": Field("int", "default"),
    "model": Field(("enum", lambda i: _MODELS[i] if 0 <= i < 2 else "unknown",
                    lambda b: _MODELS.index(b.decode()) if b.decode() in _MODELS else -1)),
    "skip_duplicates": Field("bool"),
    "stall_generations": Field("int", "literal"),
    "backend": backend_field(),
    "seed": Field("seed"),
}


class DSMGA(Engine):
    """DSMGA(problem='trap', ell=50, *, spin_file=None, problem_seed=0, context=None,
    progress=None, **params)

    problem: onemax, trap, ftrap, cyctrap or spin (ell a square; spin_file an instance, else
    one drawn from problem_seed). params: glevo_dsmga_params' fields with the C defaults
    (DSMGA.defaults(ell)): pop, selection_pressure, max_generations, max_nfe, repeat, model,
    skip_duplicates, stall_generations, backend, seed. progress: callable(generation, best,
    nfe) after every generation."""

    def __init__(self, problem="trap", ell=50, *, spin_file=None, problem_seed=0, context=None,
                 progress=None, **params):
        self._build(problem, ell, spin_file, problem_seed, context, progress, params, "DSMGA", None)

    def _build(self, problem, ell, spin_file, problem_seed, context, progress, params, owner, path):
        if not isinstance(problem, str):
            raise TypeError(f"{owner}: problem must be a str, not {type(problem).__name__}")
        if isinstance(ell, bool) or not isinstance(ell, int):
            raise TypeError(f"{owner}: ell must be an int, not {type(ell).__name__}")
        pr = ffi.new("glevo_dsmga_problem **")
        check(lib.glevo_dsmga_problem_create(problem.encode(), ell,
                                             str(spin_file).encode() if spin_file else ffi.NULL,
                                             convert(Field("seed"), problem_seed, owner,
                                                     "problem_seed"), pr))
        self._problem = ffi.gc(pr[0], lib.glevo_dsmga_problem_destroy)
        self.ell = ell
        p = new("glevo_dsmga_params")
        ctx = context if context is not None else _context.current(False)
        if path is None and params.get("backend") is None:
            params = dict(params, backend=ctx.backend if ctx is not None else "auto")
        fill(p, FIELDS, params, owner)
        backend = p.backend
        if path is not None:
            backend, p.backend = self._load_backend(path, params, owner)
        self._setup(backend, context, progress, owner)
        p.progress = self._callback(ffi, "glevo_dsmga_progress_fn",
                                    lambda g, b, n: (int(g), float(b), int(n)))
        out = ffi.new("glevo_dsmga **")
        if path is None:
            self._call(lib.glevo_dsmga_create(self._problem, p, out))
        else:
            self._call(lib.glevo_dsmga_load(str(path).encode(), self._problem, p, out))
        self._own(out[0], lib.glevo_dsmga_destroy)

    @staticmethod
    def defaults(ell=50, **params):
        p = new("glevo_dsmga_params")
        fill(p, FIELDS, params, "DSMGA.defaults")
        return read(lib.glevo_dsmga_params_defaults(p, ell), FIELDS)

    @classmethod
    def load(cls, path, problem="trap", ell=50, *, spin_file=None, problem_seed=0, context=None,
             progress=None, **changes):
        """A run from a checkpoint on the same problem; changes: max_generations, max_nfe,
        stall_generations, backend."""
        self = cls.__new__(cls)
        self._build(problem, ell, spin_file, problem_seed, context, progress, changes,
                    "DSMGA.load", path)
        return self

    def step(self, generations=1):
        """Up to `generations` generations (fewer once a termination criterion holds)."""
        self._generations(generations, "DSMGA.step")
        done = ffi.new("bool *")

        def run(k):
            self._call(lib.glevo_dsmga_step(self._h, done))
            self._finished = bool(done[0])
            return self._finished

        return self._run_chunks(generations, lambda left: 1, run)

    def run(self):
        """Runs to termination; returns the result dict."""
        while not self.done:
            self.step(1 << 30)
        return self.result

    @property
    def done(self):
        """True once a termination criterion held (glevo_dsmga_step said so)."""
        return getattr(self, "_finished", False)

    @property
    def generation(self):
        return lib.glevo_dsmga_generation(self._h)

    @property
    def nfe(self):
        return lib.glevo_dsmga_nfe(self._h)

    @property
    def best(self):
        """The best individual so far, uint8 (ell,) of 0/1 (a copy)."""
        return np.frombuffer(ffi.buffer(lib.glevo_dsmga_best(self._h), self.ell),
                             dtype=np.uint8).copy()

    @property
    def result(self):
        r = ffi.new("glevo_dsmga_result *")
        lib.glevo_dsmga_result_get(self._h, r)
        return {"solved": bool(r.solved), "best_fitness": r.best_fitness, "nfe": r.nfe,
                "generations": r.generations, "dsm_ms": r.dsm_ms, "ils_ms": r.ils_ms,
                "seconds": r.seconds,
                "optimum": lib.glevo_dsmga_problem_optimum(self._problem)}

    @property
    def history(self):
        return self._history(("generation", np.int64), ("best", np.float64), ("nfe", np.int64))

    def save(self, path):
        self._ready()
        self._call(lib.glevo_dsmga_save(self._h, str(path).encode(), ffi.NULL))

    def __repr__(self):
        return f"glevo.DSMGA(ell {self.ell}, generation {self.generation})"
