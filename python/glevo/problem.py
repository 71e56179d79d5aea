"""Real-coded problems for the cellular GA and DE: the built-in benchmarks by name, or a user
fitness as GLSL text (problem_init / problem_step / problem_finish, as --fitness files)."""
from ._lib import check, ffi, lib, text


class Problem:
    """A problem. Problem('camel') is a built-in one; Problem.from_glsl(source, ...) a user's."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Problem: name must be a str, not {type(name).__name__}")
        ptr = lib.glevo_problem_find(name.encode())
        if ptr == ffi.NULL:
            from ._lib import last_error
            raise ValueError(last_error())
        self._ptr = ptr
        self._keep = None
        self.glsl_name = None

    @classmethod
    def from_glsl(cls, source, dim=2, lower=-1.0, upper=1.0, maximize=False, name="<string>"):
        """A user problem from GLSL text defining problem_init, problem_step and
        problem_finish. Compile errors (when an engine first builds it) raise GlslError with
        the line numbers of `source`. GPU backends only (there is no C twin)."""
        if not isinstance(source, str):
            raise TypeError(f"Problem.from_glsl: source must be a str, not {type(source).__name__}")
        if not isinstance(name, str):
            raise TypeError(f"Problem.from_glsl: name must be a str, not {type(name).__name__}")
        if "\0" in source:
            # C reads the text up to its first NUL: the rest would vanish without a word (the
            # CLI refuses binary --fitness files likewise).
            line = source.count("\n", 0, source.index("\0")) + 1
            raise ValueError(f"Problem.from_glsl: source holds a NUL character on line {line}; "
                             "GLSL text has none")
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise TypeError(f"Problem.from_glsl: dim must be an int, not {type(dim).__name__}")
        for arg, v in (("lower", lower), ("upper", upper)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"Problem.from_glsl: {arg} must be a number, not {type(v).__name__}")
        self = cls.__new__(cls)
        self._keep = ffi.new("glevo_problem *")
        check(lib.glevo_problem_from_glsl_source(source.encode(), name.encode(), dim,
                                                 float(lower), float(upper),
                                                 1 if maximize else 0, self._keep))
        self._ptr = self._keep
        self.glsl_name = text(self._keep.name)
        return self

    @property
    def name(self):
        return text(self._ptr.name)

    @property
    def dim(self):
        """The default dimension (the fixed one for camel and schaffer)."""
        return self._ptr.fixed_dim or self._ptr.default_dim

    @property
    def bounds(self):
        return (self._ptr.lower, self._ptr.upper)

    @property
    def maximize(self):
        return self._ptr.direction == 1

    @property
    def optimum(self):
        """f at the global optimum (for the default dimension), None when unknown."""
        return lib.glevo_problem_optimum(self._ptr, self.dim) if self._ptr.has_optimum else None

    def __repr__(self):
        return f"glevo.Problem({self.name!r})"


def problems():
    """The built-in problems' names."""
    out, table = [], lib.glevo_problems()
    i = 0
    while table[i].name != ffi.NULL:
        out.append(text(table[i].name))
        i += 1
    return out


def as_problem(problem, owner):
    if isinstance(problem, Problem):
        return problem
    if isinstance(problem, str):
        return Problem(problem)
    raise TypeError(f"{owner}: problem must be a str or a glevo.Problem, not "
                    f"{type(problem).__name__}")
