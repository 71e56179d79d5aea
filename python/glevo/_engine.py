"""What every family's engine shares: its context (checked for the calling thread before
each C call), the progress reporter, stepping in chunks so that an exception raised during a
step (a callback's, or KeyboardInterrupt) ends it between generations, and destruction on
the engine's own context (GL objects belong to the context that made them)."""
import os
import signal
import threading
import warnings
import weakref

import numpy as np

from . import context as _context
from ._lib import check, ffi, lib
from ._params import ZERO_ENUM, backend_field, convert
from .progress import Reporter


class Engine:
    _glsl_names = ()
    _handle = None

    def _setup(self, backend_value, ctx, progress, owner):
        self._gl = backend_value != 1  # GLEVO_BACKEND_CPU
        if ctx is not None and not isinstance(ctx, _context.Context):
            raise TypeError(f"{owner}: context must be a glevo.Context, not {type(ctx).__name__}")
        self._ctx = ctx if ctx is not None else _context.current(self._gl)
        if self._gl and (self._ctx is None or self._ctx._ptr is None):
            raise ValueError(f"{owner}: backend {_context.BACKENDS[backend_value]} needs a GL "
                             "context, and the Context given was made with backend='cpu'")
        self._reporter = Reporter(progress, owner)
        self._ready()

    @staticmethod
    def _load_backend(path, params, owner):
        """The backend a run from a checkpoint goes on (the one asked for, else the file's)
        and its value in the C changes struct, where zero keeps the file's and GLEVO_ZERO
        asks for fragment."""
        b = params.get("backend")
        if b is None:
            info = ffi.new("glevo_checkpoint_info *")
            check(lib.glevo_checkpoint_info_read(os.fsencode(path), info))
            b = ffi.string(info.backend).decode()
        v = convert(backend_field(), b, owner, "backend")
        return v, v or ZERO_ENUM

    @staticmethod
    def _generations(generations, owner):
        if isinstance(generations, bool) or not isinstance(generations, int):
            raise TypeError(f"{owner}: generations must be an int, not {type(generations).__name__}")
        if generations < 0:
            raise ValueError(f"{owner}: generations {generations} is negative")
        return generations

    def _history(self, *names):
        """The progress reports so far, a numpy array per report field (names in order)."""
        rows = self._reporter.history
        out = {}
        for i, (name, dtype) in enumerate(names):
            col = [r[i] for r in rows]
            out[name] = col if dtype is None else np.array(col, dtype=dtype)
        return out

    def _callback(self, ffi, ctype, convert):
        """A C progress function reaching only the reporter (no reference back to the
        engine, so the engine is freed as soon as it is dropped, on its own context)."""
        reporter = self._reporter

        def call(user, *args):
            reporter.report(*convert(*args))
        self._cb = ffi.callback(ctype, call, onerror=reporter.on_error)
        return self._cb

    def _own(self, handle, destroy):
        self._handle, self._destroy = handle, destroy
        if self._gl:
            self._ctx._engines.add(self)

    def close(self):
        """Frees the engine now (also done when it is dropped, or when its Context closes)."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        if self._gl:
            ctx = self._ctx
            if not ctx.is_open:
                return  # its GL objects went with the context
            try:
                ctx.check_thread()
            except Exception:
                warnings.warn("glevo: an engine dropped on another thread than its context's "
                              "is leaked (GL objects can only be freed where the context is "
                              "current)", ResourceWarning, stacklevel=2)
                return
        self._destroy(handle)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def _h(self):
        """The C handle; ValueError once the engine (or its context) was closed."""
        if self._handle is None:
            raise ValueError(f"glevo.{type(self).__name__} is closed")
        return self._handle

    def _ready(self):
        if self._ctx is not None:
            self._ctx.check_thread()
        if getattr(self, "_destroy", None) is not None:
            self._h

    def _call(self, status):
        check(status, self._glsl_names)

    def _run_chunks(self, total, chunk_of, run_chunk):
        """Runs run_chunk(k) for chunks chunk_of(left) until total generations are done or
        run_chunk says the run is over; re-raises what a progress callback raised, and
        KeyboardInterrupt after the chunk during which SIGINT came."""
        r = self._reporter
        r.begin(total, self.generation)
        sigint = _SigintNoted()
        try:
            left = total
            while left > 0:
                self._ready()
                k = chunk_of(left)
                over = run_chunk(k)
                r.raise_pending()
                sigint.raise_if_noted()
                left -= k
                if over:
                    break
        finally:
            sigint.restore()
            r.end()
            r.pending = None
        return self

    @property
    def context(self):
        return self._ctx


class _SigintNoted:
    """Python's own SIGINT handler, while a step runs on the main thread, replaced by one
    that only notes the signal: Python runs a handler at whatever bytecode comes next, and
    the KeyboardInterrupt the default one raises is lost where that is a finalizer (a
    collection may run an old engine's __del__ inside a progress callback). The step raises
    it itself between chunks. Where another handler is installed, it is left alone."""

    def __init__(self):
        self.noted = False
        self.previous = None
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self.previous = signal.signal(signal.SIGINT, self._note)

    def _note(self, signum, frame):
        self.noted = True

    def raise_if_noted(self):
        if self.noted:
            self.noted = False
            raise KeyboardInterrupt

    def restore(self):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None
        self.raise_if_noted()


class interruptible:
    """Around one long C call on the main thread (a GP run's creation: its enumeration): Ctrl-C
    also asks the library to stop (glevo_interrupt_on_sigint, from C, since Python's own
    handler runs only once the call returns), and the call's GLEVO_ERR_INTERRUPTED becomes
    KeyboardInterrupt. Elsewhere (another thread, a host's own handler) it does nothing."""

    def __enter__(self):
        self.on = (threading.current_thread() is threading.main_thread()
                   and signal.getsignal(signal.SIGINT) is signal.default_int_handler
                   and lib.glevo_interrupt_on_sigint(1) == 0)
        return self

    def __exit__(self, *exc):
        if not self.on:
            return False
        lib.glevo_interrupt_on_sigint(0)
        stopped = lib.glevo_interrupt_pending()
        lib.glevo_interrupt_clear()
        if stopped and exc[0] is None:
            raise KeyboardInterrupt
        return False


def engines_set():
    return weakref.WeakSet()
