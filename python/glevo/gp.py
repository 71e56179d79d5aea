"""Genetic programming (Augusto & Barbosa 2012's evaluator, the paper's Algorithm 1 around
it): glevo_gp_* in Python, data from numpy arrays or CSV files, models callable on numpy."""
import os

import numpy as np

from . import context as _context
from ._lib import ffi, lib, check, text
from ._params import Field, backend_field, convert, fill, read, new, ZERO_ENUM
from ._engine import Engine, interruptible
from .errors import GlevoIOError

_SETS = ("regression", "classification")


def _set_name(i):
    return _SETS[i] if 0 <= i < len(_SETS) else "unknown"


def _set_parse(b):
    n = b.decode()
    return _SETS.index(n) if n in _SETS else -1


def _status_parse(fn, ctype):
    def parse(b):
        out = ffi.new(ctype + " *")
        return int(out[0]) if fn(b, out) == 0 else -1
    return parse


METRIC = ("enum", lib.glevo_gp_metric_name, _status_parse(lib.glevo_gp_metric_parse, "glevo_gp_metric"))
STRATEGY = ("enum", lib.glevo_gp_strategy_name,
            _status_parse(lib.glevo_gp_strategy_parse, "glevo_gp_strategy"))

FIELDS = {
    "function_set": Field(("enum", _set_name, _set_parse)),
    "pop": Field("int", "default"),
    "generations": Field("int", "literal"),
    "tournament": Field("int", "default"),
    "pc": Field("float", "literal"),
    "pm": Field("float", "literal"),
    "elitism": Field("int", "literal"),
    "max_size": Field("int", "default"),
    "init_min_depth": Field("int", "default"),
    "init_max_depth": Field("int", "default"),
    "const_min": Field("float"),
    "const_max": Field("float"),
    "const_prob": Field("float", "literal"),
    "metric": Field(METRIC),
    "linear_scaling": Field("int", "literal"),
    "const_opt_iters": Field("int", "literal"),
    "const_opt_fraction": Field("float", "default"),
    "const_opt_max": Field("int", "literal"),
    "parsimony": Field("float"),
    "portfolio": Field("float", "literal"),
    "enumeration": Field("int", "literal"),
    "linear_layer": Field("int", "literal"),
    "prune": Field("int", "literal"),
    "backend": backend_field(),
    "strategy": Field(STRATEGY, c="eval.strategy"),
    "threads": Field("int", c="eval.threads"),
    "seed": Field("seed"),
    "target_error": Field("float"),
    "stop_on_target": Field("bool"),
    "report_every": Field("int", "default"),
}


class Data:
    """A GP data set: glevo_gp_data from a CSV path, an (X, y) pair or one 2-D array whose last
    column is the target. Values must be finite numbers. feature_names: the inputs' names, as
    printed models show them (a CSV's header names them otherwise; arrays' are x1, x2, ...)."""

    def __init__(self, data, target=None, owner="GP", arg="data", feature_names=None):
        out = ffi.new("glevo_gp_data **")
        if isinstance(data, (str, bytes, os.PathLike)):
            if target is not None and not isinstance(target, str):
                raise TypeError(f"{owner}: target must be a column name (str)")
            if not os.path.isfile(data):
                # What docs/python.md promises for a file that cannot be read: an OSError.
                raise GlevoIOError(f"{owner}: cannot open data file "
                                   f"'{os.fsdecode(data)}': no such file")
            check(lib.glevo_gp_data_load_csv(os.fsencode(data),
                                             target.encode() if target else ffi.NULL, out))
        else:
            if target is not None:
                raise TypeError(f"{owner}: target names a CSV column; with arrays pass (X, y)")
            if isinstance(data, tuple):
                if len(data) != 2:
                    raise ValueError(f"{owner}: {arg} as a tuple must be (X, y)")
                X, y = as_matrix(data[0], owner, f"{arg}[0] (X)"), as_vector(data[1], owner, f"{arg}[1] (y)")
            else:
                a = as_matrix(data, owner, arg)
                if a.shape[1] < 2:
                    raise ValueError(f"{owner}: {arg} has {a.shape[1]} column; it needs the inputs "
                                     "and the target (the last column)")
                X, y = a[:, :-1], a[:, -1]
            if X.shape[0] != y.shape[0]:
                raise ValueError(f"{owner}: {arg} has {X.shape[0]} rows in X and {y.shape[0]} in y")
            # A float64 beyond float32's range becomes inf here; glevo_gp_data_create refuses
            # it naming the case (the one check at the float32 boundary).
            with np.errstate(over="ignore"):
                xt = np.ascontiguousarray(X.T, dtype=np.float32)
                y32 = np.ascontiguousarray(y, dtype=np.float32)
            check(lib.glevo_gp_data_create(X.shape[1], X.shape[0], ffi.from_buffer("float[]", xt),
                                           ffi.from_buffer("float[]", y32), out))
        self._ptr = ffi.gc(out[0], lib.glevo_gp_data_destroy)
        if feature_names is not None:
            names = [str(n) for n in feature_names]
            if len(names) != self.vars:
                raise ValueError(f"{owner}: feature_names has {len(names)} names for "
                                 f"{self.vars} inputs")
            for v, name in enumerate(names):
                check(lib.glevo_gp_data_set_var_name(self._ptr, v, name.encode()))

    @property
    def names(self):
        """The inputs' names (a CSV's header, feature_names, or x1, x2, ...)."""
        return [text(lib.glevo_gp_data_var_name(self._ptr, v)) for v in range(self.vars)]

    @property
    def vars(self):
        return lib.glevo_gp_data_vars(self._ptr)

    @property
    def cases(self):
        return lib.glevo_gp_data_cases(self._ptr)


def _numeric(a, owner, arg):
    a = np.asarray(a)
    if a.dtype.kind not in "iuf":
        raise TypeError(f"{owner}: {arg} has dtype {a.dtype}; expected real numbers")
    if a.size and not np.all(np.isfinite(a)):
        raise ValueError(f"{owner}: {arg} holds NaN or infinity")
    return a


def as_matrix(a, owner, arg):
    a = _numeric(a, owner, arg)
    if a.ndim != 2:
        raise ValueError(f"{owner}: {arg} must be 2-D (cases x columns), it has shape {a.shape}")
    if a.shape[0] < 1:
        raise ValueError(f"{owner}: {arg} has no rows")
    return a


def as_vector(a, owner, arg):
    a = _numeric(a, owner, arg)
    if a.ndim != 1:
        raise ValueError(f"{owner}: {arg} must be 1-D, it has shape {a.shape}")
    return a


class GPModel:
    """One program: str() its S-expression, .infix, and callable on X (cases x vars) with the
    library's interpreter (the same float arithmetic as every backend)."""

    def __init__(self, programs, index, vars):
        codes_len = ffi.new("int *")
        codes = lib.glevo_gp_programs_codes(programs, index, codes_len)
        own = ffi.new("glevo_gp_programs **")
        check(lib.glevo_gp_programs_create(own))
        self._p = ffi.gc(own[0], lib.glevo_gp_programs_destroy)
        check(lib.glevo_gp_programs_add(self._p, codes, codes_len[0],
                                        lib.glevo_gp_programs_constants(programs)))
        self.vars = vars

    def _print(self, fn):
        n = fn(self._p, 0, ffi.NULL, 0)
        buf = ffi.new("char[]", n + 1)
        fn(self._p, 0, buf, n + 1)
        return ffi.string(buf).decode()

    def __str__(self):
        return self._print(lib.glevo_gp_program_sexpr)

    @property
    def infix(self):
        return self._print(lib.glevo_gp_program_infix)

    @property
    def nodes(self):
        return lib.glevo_gp_programs_nodes(self._p)

    def __getstate__(self):
        # Pickled as its S-expression, which parses back to the same codes and constants.
        return {"program": str(self), "vars": self.vars}

    def __setstate__(self, state):
        own = ffi.new("glevo_gp_programs **")
        check(lib.glevo_gp_programs_create(own))
        self._p = ffi.gc(own[0], lib.glevo_gp_programs_destroy)
        check(lib.glevo_gp_programs_parse(self._p, state["program"].encode(), b"GPModel",
                                          state["vars"]))
        self.vars = state["vars"]

    def __call__(self, X):
        X = as_matrix(X, "GPModel", "X")
        if X.shape[1] < self.vars:
            raise ValueError(f"GPModel: X has {X.shape[1]} columns, the model's data had {self.vars}")
        cases = X.shape[0]
        data = Data((X, np.zeros(cases, dtype=np.float32)), owner="GPModel", arg="X")
        n = ffi.new("int *")
        codes = lib.glevo_gp_programs_codes(self._p, 0, n)
        consts = lib.glevo_gp_programs_constants(self._p)
        out = np.empty(cases, dtype=np.float32)
        interpret = lib.glevo_gp_interpret
        for c in range(cases):
            out[c] = interpret(codes, n[0], consts, data._ptr, c)
        return out

    def __repr__(self):
        return f"GPModel({str(self)!r})"


def _operator_list(params):
    """function_set as `glevo gp --function-set` takes it: a set's name, or a list of
    operators ("+,-,*,pow"), which goes into glevo_gp_params.ops. Returns the params without
    a list and the mask (0: none)."""
    fs = params.get("function_set")
    if not isinstance(fs, str) or fs in _SETS:
        return params, 0
    ops = ffi.new("uint32_t *")
    check(lib.glevo_gp_function_set_parse(fs.encode(), ops))
    return {k: v for k, v in params.items() if k != "function_set"}, int(ops[0])


def _cli_metric(params, ops=0):
    """`glevo gp`'s default metric (cli/cmd_gp.c): mse, with linear scaling, for arithmetic
    operators; sets with if, comparisons or logic keep the library's sae."""
    boolean = lib.glevo_gp_function_set_ops(1) & ~(1 << lib.GLEVO_GP_VAR | 1 << lib.GLEVO_GP_CONST)
    if params.get("metric") is None and params.get("function_set", "regression") != "classification" \
            and not ops & boolean:
        return dict(params, metric="mse")
    return params


class GP(Engine):
    """GP(data, *, target=None, context=None, progress=None, **params)

    data: a CSV path, (X, y) or a 2-D array whose last column is the target. params:
    glevo_gp_params' fields with the C defaults (GP.defaults()), but metric "mse" (with
    linear scaling) for the regression set, as `glevo gp`: function_set, pop,
    generations, tournament, pc, pm, elitism, max_size, init_min_depth, init_max_depth,
    const_min, const_max, const_prob, metric, linear_scaling, const_opt_iters,
    const_opt_fraction, const_opt_max, parsimony, portfolio, enumeration, linear_layer,
    prune, backend, strategy, threads, seed, target_error, stop_on_target, report_every. progress:
    callable(generation, best_error, program), at generation 0, every report_every generations (default 10) and the
    last; history holds those reports."""


    @property
    def _params(self):
        self._h  # the params live in the engine: refused once it is closed
        return self._params_ptr
    def __init__(self, data, *, target=None, context=None, progress=None, feature_names=None,
                 **params):
        self._build(data, target, context, progress, params, "GP", None, feature_names)

    def _build(self, data, target, context, progress, params, owner, path, feature_names=None):
        self.data = data if isinstance(data, Data) else Data(data, target, owner,
                                                             feature_names=feature_names)
        p = new("glevo_gp_params")
        ctx = context if context is not None else _context.current(False)
        if path is None and params.get("backend") is None:
            params = dict(params, backend=ctx.backend if ctx is not None else "auto")
        if params.get("target_error") is not None and params.get("stop_on_target") is None:
            params = dict(params, stop_on_target=True)
        params, ops = _operator_list(params)
        if path is None:
            params = _cli_metric(params, ops)
        fill(p, FIELDS, params, owner)
        if ops:
            p.ops = ops
        backend = p.backend
        if path is not None:
            # In a resume's changes 0 means "not asked": an enum typed as its first value
            # (metric "sae", function_set "regression") goes in as GLEVO_ZERO, as the CLI's, so
            # that the library compares it with the file's.
            for name in ("metric", "function_set"):
                if params.get(name) is not None and getattr(p, name) == 0:
                    setattr(p, name, ZERO_ENUM)
            backend, p.backend = self._load_backend(path, params, owner)
        self._setup(backend, context, progress, owner)
        p.progress = self._callback(ffi, "glevo_gp_progress_fn",
                                    lambda g, b, s: (int(g), float(b), ffi.string(s).decode()))
        out = ffi.new("glevo_gp **")
        with interruptible():  # the enumeration of generation 0 can take seconds
            if path is None:
                status = lib.glevo_gp_create(p, self.data._ptr, out)
            else:
                status = lib.glevo_gp_load(str(path).encode(), p, self.data._ptr, out)
        self._call(status)
        self._own(out[0], lib.glevo_gp_destroy)
        self._params_ptr = lib.glevo_gp_params_of(self._h)

    @staticmethod
    def defaults(**params):
        p = new("glevo_gp_params")
        params, ops = _operator_list(params)
        fill(p, FIELDS, _cli_metric(params, ops), "GP.defaults")
        if ops:
            p.ops = ops
        return read(lib.glevo_gp_params_defaults(p), FIELDS)

    @classmethod
    def load(cls, path, data, *, target=None, context=None, progress=None, **changes):
        """A run from a checkpoint on the same data; changes: generations, backend, strategy,
        threads, target_error, stop_on_target."""
        self = cls.__new__(cls)
        self._build(data, target, context, progress, changes, "GP.load", path)
        return self

    @property
    def params(self):
        return read(self._params, FIELDS)

    def step(self, generations=1):
        self._generations(generations, "GP.step")

        def run(k):
            self._call(lib.glevo_gp_step(self._h, k))
            return self.done

        return self._run_chunks(generations, lambda left: 1, run)

    def run(self):
        """Runs to the end (params generations, or the target); returns the result dict."""
        self.step(max(0, self._params.generations - self.generation))
        return self.result

    @property
    def done(self):
        return bool(lib.glevo_gp_done(self._h))

    @property
    def generation(self):
        return lib.glevo_gp_generation(self._h)

    @property
    def evaluations(self):
        return lib.glevo_gp_evaluations(self._h)

    @property
    def best_error(self):
        return lib.glevo_gp_best_error(self._h)

    @property
    def model(self):
        """The best program of the last evaluated generation as a GPModel: the model a run
        reports (simplified, linear scaling's a and b folded in; a portfolio's best
        search's)."""
        r = ffi.new("glevo_gp_result *")
        self._call(lib.glevo_gp_result_get(self._h, r))
        try:
            return GPModel(r.best, 0, self.data.vars)
        finally:
            lib.glevo_gp_result_free(r)

    @property
    def best(self):
        """The best program as an S-expression."""
        return str(self.model)

    @property
    def programs(self):
        """Every program of the last evaluated generation (S-expressions) and their errors
        (a portfolio's main search)."""
        best = ffi.new("int *")
        progs = lib.glevo_gp_population(self._h, best)
        n = lib.glevo_gp_programs_count(progs)
        out = []
        for i in range(n):
            k = lib.glevo_gp_program_sexpr(progs, i, ffi.NULL, 0)
            buf = ffi.new("char[]", k + 1)
            lib.glevo_gp_program_sexpr(progs, i, buf, k + 1)
            out.append(ffi.string(buf).decode())
        errors = np.empty(n, dtype=np.float64)
        self._call(lib.glevo_gp_read_errors(self._h, ffi.from_buffer("double[]", errors)))
        return out, errors

    @property
    def result(self):
        r = ffi.new("glevo_gp_result *")
        self._call(lib.glevo_gp_result_get(self._h, r))
        try:
            return {"best_error": r.best_error, "best_program": text(r.best_sexpr),
                    "best_infix": text(r.best_infix), "best_sympy": text(r.best_sympy),
                    "train_r2": r.train_r2, "best_nodes": r.best_nodes,
                    "evaluations": r.evaluations, "nodes_evaluated": r.nodes_evaluated,
                    "generations": r.generations, "seconds": r.seconds,
                    "eval_seconds": r.eval_seconds, "variation_seconds": r.variation_seconds,
                    "best_search": text(lib.glevo_gp_search_name(r.best_search))}
        finally:
            lib.glevo_gp_result_free(r)

    @property
    def history(self):
        return self._history(("generation", np.int64), ("best", np.float64), ("program", None))

    def save(self, path):
        self._ready()
        self._call(lib.glevo_gp_save(self._h, str(path).encode(), ffi.NULL))

    def __repr__(self):
        return f"glevo.GP(generation {self.generation}, best_error {self.best_error!r})"


def gp_eval(programs, X, y=None, *, metric="sae", backend=None, strategy="auto", context=None):
    """Errors (float64, one per program) of programs (S-expressions: a list, or one string of
    lines) on X (cases x vars) and y, or on a data set given as X alone (CSV path, (X, y) or
    an array with the target last), evaluated by the backend."""
    owner = "gp_eval"
    if isinstance(programs, str):
        source = programs
    elif isinstance(programs, (list, tuple)) and all(isinstance(s, str) for s in programs):
        if any("\n" in s for s in programs):
            raise ValueError(f"{owner}: a program in programs holds a newline")
        source = "\n".join(programs)
    else:
        raise TypeError(f"{owner}: programs must be a str or a list of str")
    data = Data(X if y is None else (X, y), owner=owner, arg="X" if y is None else "(X, y)")
    m = convert(Field(METRIC), metric, owner, "metric")
    ctx = context if context is not None else _context.current(False)
    b = convert(backend_field(), backend if backend is not None else
                (ctx.backend if ctx is not None else "auto"), owner, "backend")
    engine = Engine()
    engine._setup(b, context, None, owner)
    ev_params = ffi.new("glevo_gp_eval_params *")
    ev_params.backend = b
    ev_params.strategy = convert(Field(STRATEGY), strategy, owner, "strategy")
    progs = ffi.new("glevo_gp_programs **")
    check(lib.glevo_gp_programs_create(progs))
    p = ffi.gc(progs[0], lib.glevo_gp_programs_destroy)
    check(lib.glevo_gp_programs_parse(p, source.encode(), b"programs", data.vars))
    n = lib.glevo_gp_programs_count(p)
    errors = np.empty(n, dtype=np.float64)
    ev = ffi.new("glevo_gp_evaluator **")
    check(lib.glevo_gp_evaluator_create(ev_params, data._ptr, ev))
    try:
        if n:
            check(lib.glevo_gp_evaluate(ev[0], p, m, ffi.from_buffer("double[]", errors)))
    finally:
        lib.glevo_gp_evaluator_destroy(ev[0])
    return errors
