"""The fine-grained (cellular) GA of Li, Chi & Wan 2008: glevo_cga_* as a Python class."""
import numpy as np

from . import context as _context
from ._lib import ffi, lib
from ._params import Field, backend_field, fill, read, new
from ._engine import Engine
from .problem import as_problem

FIELDS = {
    "dim": Field("int", "default"),
    "width": Field("int", "default"),
    "height": Field("int", "default"),
    "bits": Field("int", "default"),
    "pc": Field("float", "literal"),
    "pm": Field("float", "literal"),
    "neighbourhood": Field(("enum", lib.glevo_cga_neighbourhood_name, lib.glevo_cga_neighbourhood_parse)),
    "algorithm": Field(("enum", lib.glevo_cga_algorithm_name, lib.glevo_cga_algorithm_parse)),
    "backend": backend_field(),
    "rng": Field(("enum", lib.glevo_rng_mode_name, lib.glevo_rng_mode_parse)),
    "mutation": Field(("enum", lib.glevo_cga_mutation_name, lib.glevo_cga_mutation_parse)),
    "seed": Field("seed"),
    "report_every": Field("int", "default"),
}


class Best:
    """The best individual so far: fitness, x (numpy, the decoded genes), cell (x, y) and the
    generation it was found in."""

    def __init__(self, fitness, x, cell, generation):
        self.fitness, self.x, self.cell, self.generation = fitness, x, cell, generation

    def __repr__(self):
        return (f"Best(fitness={self.fitness!r}, x={self.x!r}, cell={self.cell}, "
                f"generation={self.generation})")


def _make_params(problem, kwargs, owner, ctx):
    p = new("glevo_cga_params")
    p.problem = problem._ptr
    if "backend" not in kwargs or kwargs["backend"] is None:
        kwargs = dict(kwargs, backend=ctx.backend if ctx is not None else "auto")
    fill(p, FIELDS, kwargs, owner)
    return p


def _progress_args(generation, best):
    return int(generation), float(best)


class CellularGA(Engine):
    """CellularGA(problem='camel', *, context=None, progress=None, **params)

    params are glevo_cga_params' fields with the C defaults (CellularGA.defaults() lists
    them): dim, width, height, bits, pc, pm, neighbourhood, algorithm, backend, rng,
    mutation, seed, report_every. progress: a callable(generation, best) called every
    report_every generations, or True for a tqdm bar."""


    @property
    def _params(self):
        self._h  # the params live in the engine: refused once it is closed
        return self._params_ptr
    def __init__(self, problem="camel", *, context=None, progress=None, **params):
        owner = "CellularGA"
        self.problem = as_problem(problem, owner)
        self._glsl_names = (self.problem.glsl_name,) if self.problem.glsl_name else ()
        ctx = context if context is not None else _context.current(False)
        p = _make_params(self.problem, params, owner, ctx)
        self._setup(p.backend, context, progress, owner)
        p.progress = self._callback(ffi, "glevo_cga_progress_fn", _progress_args)
        out = ffi.new("glevo_cga **")
        self._call(lib.glevo_cga_validate(p))
        self._call(lib.glevo_cga_create(p, out))
        self._own(out[0], lib.glevo_cga_destroy)
        self._params_ptr = lib.glevo_cga_params_of(self._h)

    @staticmethod
    def defaults(problem="camel", **params):
        """The parameters a run would use, every default filled in by the C library."""
        pr = as_problem(problem, "CellularGA.defaults")
        p = _make_params(pr, params, "CellularGA.defaults", None)
        return read(lib.glevo_cga_params_defaults(p), FIELDS)

    @classmethod
    def load(cls, path, problem=None, *, context=None, progress=None, **changes):
        """A run from a checkpoint written by save(); changes: backend, report_every (others
        must match the file). A GLSL problem must be given again."""
        self = cls.__new__(cls)
        owner = "CellularGA.load"
        if problem is None:
            self.problem = None
            pr_ptr = ffi.NULL
        else:
            self.problem = as_problem(problem, owner)
            pr_ptr = self.problem._ptr
        self._glsl_names = (self.problem.glsl_name,) if self.problem and self.problem.glsl_name else ()
        p = new("glevo_cga_params")
        p.problem = pr_ptr
        fill(p, FIELDS, changes, owner)
        backend, p.backend = self._load_backend(path, changes, owner)
        self._setup(backend, context, progress, owner)
        p.progress = self._callback(ffi, "glevo_cga_progress_fn", _progress_args)
        out = ffi.new("glevo_cga **")
        self._call(lib.glevo_cga_load(str(path).encode(), p, out))
        self._own(out[0], lib.glevo_cga_destroy)
        self._params_ptr = lib.glevo_cga_params_of(self._h)
        if self.problem is None:
            from .problem import Problem
            self.problem = Problem(ffi.string(self._params.problem.name).decode())
        return self

    # ---- running ----
    def step(self, generations=1):
        """Runs `generations` generations; returns self. Progress is reported (and
        KeyboardInterrupt taken) every report_every generations."""
        self._generations(generations, "CellularGA.step")
        every = self._params.report_every

        def chunk_of(left):
            return min(left, every - self.generation % every)

        def run(k):
            self._call(lib.glevo_cga_step(self._h, k))
            return False

        return self._run_chunks(generations, chunk_of, run)

    run = step

    @property
    def generation(self):
        return lib.glevo_cga_generation(self._h)

    @property
    def evaluations(self):
        return lib.glevo_cga_evaluations(self._h)

    @property
    def params(self):
        """The run's parameters, every default filled in."""
        return read(self._params, FIELDS)

    @property
    def best(self):
        self._ready()
        b = ffi.new("glevo_cga_best *")
        self._call(lib.glevo_cga_best_get(self._h, b))
        dim = self._params.dim
        x = np.frombuffer(ffi.buffer(b.x), dtype=np.float64, count=dim).copy()
        return Best(b.fitness, x, (b.x_cell, b.y_cell), b.generation)

    @property
    def stats(self):
        """best, mean, worst and diversity of the current population."""
        self._ready()
        s = ffi.new("glevo_cga_stats *")
        self._call(lib.glevo_cga_stats_get(self._h, s))
        return {"best": s.best, "mean": s.mean, "worst": s.worst, "diversity": s.diversity}

    @property
    def history(self):
        """Progress so far: numpy arrays 'generation' and 'best' (the best so far, every
        report_every generations)."""
        return self._history(("generation", np.int64), ("best", np.float64))

    # ---- the population ----
    def read(self):
        """(genes, fitness) read back once: genes float32 (textures, height, width, 4), gene
        4t+c in [t, ..., c], 24-bit integers; fitness float32 (height, width), of the last
        evaluation. Row y is grid row y (GL's order: row 0 at the bottom of a picture)."""
        self._ready()
        p = self._params
        t = (p.dim + 3) // 4
        genes = np.empty((t, p.height, p.width, 4), dtype=np.float32)
        fitness = np.empty((p.height, p.width), dtype=np.float32)
        self._call(lib.glevo_cga_read_population(self._h, ffi.from_buffer("float[]", genes),
                                                 ffi.from_buffer("float[]", fitness)))
        return genes, fitness

    @property
    def genes(self):
        """The raw genes (24-bit integers as float32), shape (height, width, dim): a view of
        the one copy read back when dim <= 4."""
        g, _ = self.read()
        if g.shape[0] == 1:
            return g[0, :, :, :self._params.dim]
        return np.moveaxis(g, 0, 2).reshape(g.shape[1], g.shape[2], -1)[:, :, :self._params.dim]

    @property
    def population(self):
        """The population decoded to the problem's domain, float64 (height, width, dim): the
        same float arithmetic as the fitness pass (lower + gene * step in float32)."""
        p = self._params
        lower = np.float32(p.problem.lower)
        step = np.float32((p.problem.upper - p.problem.lower) / float((1 << p.bits) - 1))
        return (lower + self.genes * step).astype(np.float64)

    @property
    def fitness(self):
        """Fitness of the last evaluation, float32 (height, width)."""
        self._ready()
        p = self._params
        f = np.empty((p.height, p.width), dtype=np.float32)
        self._call(lib.glevo_cga_read_fitness(self._h, ffi.from_buffer("float[]", f)))
        return f

    @population.setter
    def population(self, genes):
        raise AttributeError("set the raw genes with write_genes()")

    def write_genes(self, genes):
        """Replaces the population by raw genes (height, width, dim) of 24-bit integers."""
        p = self._params
        a = np.asarray(genes)
        if a.shape != (p.height, p.width, p.dim):
            raise ValueError(f"CellularGA.write_genes: genes has shape {a.shape}, expected "
                             f"{(p.height, p.width, p.dim)}")
        if a.dtype.kind not in "iuf":
            raise TypeError(f"CellularGA.write_genes: genes has dtype {a.dtype}, expected numbers")
        if not np.all(np.isfinite(a)) or np.any(a < 0) or np.any(a >= (1 << p.bits)) or \
                np.any(a != np.floor(a)):
            raise ValueError(f"CellularGA.write_genes: genes must be integers in 0..2^{p.bits}-1")
        t = (p.dim + 3) // 4
        raw = np.zeros((p.height, p.width, t * 4), dtype=np.float32)
        raw[:, :, :p.dim] = a
        raw = np.ascontiguousarray(np.moveaxis(raw.reshape(p.height, p.width, t, 4), 2, 0))
        self._ready()
        self._call(lib.glevo_cga_write_population(self._h, ffi.from_buffer("float[]", raw)))

    # ---- files ----
    def save(self, path):
        """Writes a checkpoint (atomically); CellularGA.load(path) goes on bit for bit."""
        self._ready()
        self._call(lib.glevo_cga_save(self._h, str(path).encode(), ffi.NULL))

    def snapshot(self, path, scale=0):
        """Writes the labelled PNG of the population (scale N: raw, N x N pixels a cell)."""
        self._ready()
        sp = ffi.new("glevo_snapshot_params *", {"scale": scale})
        self._call(lib.glevo_cga_snapshot_png(self._h, str(path).encode(), sp))

    def __repr__(self):
        p = self._params
        return (f"glevo.CellularGA({self.problem.name!r}, {p.width}x{p.height}, dim {p.dim}, "
                f"generation {self.generation})")
