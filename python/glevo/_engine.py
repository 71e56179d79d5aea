"""What every family's engine shares: its context (checked for the calling thread before
each C call), the progress reporter, and stepping in chunks so that an exception raised
during a step (a callback's, or KeyboardInterrupt) ends it between generations."""
from . import context as _context
from ._lib import check
from .progress import Reporter


class Engine:
    _glsl_names = ()

    def _setup(self, backend_value, ctx, progress, owner):
        needs_gl = backend_value != 1  # GLEVO_BACKEND_CPU
        if ctx is not None and not isinstance(ctx, _context.Context):
            raise TypeError(f"{owner}: context must be a glevo.Context, not {type(ctx).__name__}")
        self._ctx = ctx if ctx is not None else _context.current(needs_gl)
        if needs_gl and (self._ctx is None or self._ctx._ptr is None):
            raise ValueError(f"{owner}: backend {_context.BACKENDS[backend_value]} needs a GL "
                             "context, and the Context given was made with backend='cpu'")
        self._reporter = Reporter(progress, owner)
        self._ready()

    def _ready(self):
        if self._ctx is not None:
            self._ctx.check_thread()

    def _call(self, status):
        check(status, self._glsl_names)

    def _run_chunks(self, total, chunk_of, run_chunk, generation):
        """Runs run_chunk(k) for chunks chunk_of(left) until total generations are done or
        run_chunk says the run is over; re-raises what a progress callback raised."""
        r = self._reporter
        r.begin(total, generation())
        try:
            left = total
            while left > 0:
                self._ready()
                k = chunk_of(left)
                over = run_chunk(k)
                r.raise_pending()
                left -= k
                if over:
                    break
        finally:
            r.end()
            r.pending = None
        return self

    @property
    def context(self):
        return self._ctx
