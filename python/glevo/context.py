"""GL contexts for the GPU backends. A context is current on one thread at a time (GL's
rule): glevo.Context remembers the thread that made it current and refuses any other with a
ThreadError, instead of letting the driver crash. Used as a context manager it is also the
default for engines made inside the `with` block."""
import threading

from ._lib import check, ffi, lib, text
from .errors import ThreadError

_tls = threading.local()
BACKENDS = ("auto", "cpu", "compute", "fragment")  # glevo_backend's values


def backend_value(backend, where):
    if backend is None:
        return None
    if not isinstance(backend, str):
        raise TypeError(f"{where}: backend must be a str (one of {', '.join(BACKENDS)}), "
                        f"not {type(backend).__name__}")
    v = lib.glevo_backend_parse(backend.encode())
    if v < 0:
        raise ValueError(f"{where}: backend '{backend}' is unknown (known: {', '.join(BACKENDS)})")
    return v


class Context:
    """Context(backend='auto', device=None, debug=False, profile=False)

    backend: the default backend of engines made with this context: 'auto' (as the CLI's
    default: compute where the device has compute shaders, else fragment; GP's the CPU engine
    on a software rasterizer), 'fragment' (render passes, the 2008 way), 'compute' or 'cpu'.
    device: the EGL device index (None: prefer hardware). With backend
    'cpu' no GL context is made at all."""

    def __init__(self, backend="auto", device=None, debug=False, profile=False):
        self.backend = backend if backend is not None else "auto"
        backend_value(self.backend, "Context")
        if device is not None and (isinstance(device, bool) or not isinstance(device, int)):
            raise TypeError(f"Context: device must be an int, not {type(device).__name__}")
        if device is not None and device < 0:
            raise ValueError(f"Context: device {device} is negative")
        self.device = device
        self._ptr = None
        self._thread = threading.get_ident()
        from ._engine import engines_set
        self._engines = engines_set()  # freed before the context goes
        if self.backend != "cpu":
            params = ffi.new("glevo_context_params *")
            params.device_plus_one = 0 if device is None else device + 1
            params.debug = bool(debug)
            params.profile = bool(profile)
            out = ffi.new("glevo_context **")
            check(lib.glevo_context_create(params, out))
            self._ptr = out[0]
            _tls.gl_current = self  # create makes it current on this thread

    @property
    def renderer(self):
        """The GL renderer string ("cpu" for a CPU-only context)."""
        if self._ptr is None:
            return "cpu"
        return text(lib.glevo_context_renderer(self._ptr))

    @property
    def features(self):
        """What the context can run (GL version, compute shaders, limits) as a dict."""
        self.check_thread()
        if self._ptr is None:
            return {}
        f = ffi.new("glevo_features *")
        lib.glevo_context_features(self._ptr, f)
        return {"gl_version": (f.gl_major, f.gl_minor), "compute": bool(f.compute),
                "max_texture_size": f.max_texture_size, "max_draw_buffers": f.max_draw_buffers}

    @property
    def multiprocessors(self):
        """Where this context's render passes and compute dispatches run
        (glevo_context_sm_usage): {"reported": bool} with, where the driver says (NVIDIA's
        GL_NV_shader_thread_group), "count", "render_passes" and "compute_dispatches", the
        GPU's multiprocessors and those each kind of pass ran on; {} for a CPU-only context."""
        self.check_thread()
        if self._ptr is None:
            return {}
        u = ffi.new("glevo_sm_usage *")
        check(lib.glevo_context_sm_usage(self._ptr, u))
        if not u.reported:
            return {"reported": False}
        return {"reported": True, "count": u.sm_count, "render_passes": u.fragment_sms,
                "compute_dispatches": u.compute_sms}

    def check_thread(self):
        """Raises ThreadError unless this thread is the one the context is current on, and
        makes it current again if another glevo context was made current since."""
        if self._ptr is None:
            return
        if self._ptr == ffi.NULL:
            raise ValueError("glevo.Context is closed")
        me = threading.get_ident()
        if me != self._thread:
            raise ThreadError(f"glevo.Context ({self.renderer}) is current on thread "
                              f"{self._thread} and was used from thread {me}: a GL context is "
                              "current on one thread at a time; call ctx.make_current() on this "
                              "thread first (after the other thread stopped using it), or make "
                              "a Context per thread")
        if getattr(_tls, "gl_current", None) is not self:
            check(lib.glevo_context_make_current(self._ptr))
            _tls.gl_current = self

    def make_current(self):
        """Makes the context current on the calling thread (it moves here from its thread)."""
        if self._ptr is None:
            self._thread = threading.get_ident()
            return self
        if self._ptr == ffi.NULL:
            raise ValueError("glevo.Context is closed")
        check(lib.glevo_context_make_current(self._ptr))
        self._thread = threading.get_ident()
        _tls.gl_current = self
        return self

    def finish(self):
        """Waits until the GPU has done all submitted work."""
        if self._ptr is not None:
            self.check_thread()
            lib.glevo_context_finish(self._ptr)

    @property
    def is_open(self):
        return self._ptr is None or self._ptr != ffi.NULL

    def close(self):
        """Frees the engines made on it, then the context (on its own thread only)."""
        if self._ptr is not None and self._ptr != ffi.NULL:
            self.check_thread()
            for e in list(self._engines):
                e.close()
            lib.glevo_context_destroy(self._ptr)
            self._ptr = ffi.NULL
            if getattr(_tls, "gl_current", None) is self:
                _tls.gl_current = None

    def __enter__(self):
        stack = getattr(_tls, "stack", None)
        if stack is None:
            stack = _tls.stack = []
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _tls.stack.remove(self)
        self.close()
        return False

    def __repr__(self):
        return f"glevo.Context(backend={self.backend!r}, renderer={self.renderer!r})"


def current(backend_needed):
    """The context engines made now use: the innermost `with Context()` of this thread, else a
    default one made on first need (none when every backend needed is the CPU)."""
    stack = getattr(_tls, "stack", None)
    if stack:
        return stack[-1]
    ctx = getattr(_tls, "default", None)
    if ctx is None and backend_needed:
        ctx = _tls.default = Context()
    return ctx


def devices():
    """The EGL devices as dicts (index, name, renderer, software, usable)."""
    n = lib.glevo_egl_device_count()
    out = []
    for i in range(max(n, 0)):
        info = ffi.new("glevo_device_info *")
        if lib.glevo_egl_device_describe(i, info) == 0:
            out.append({"index": info.index, "name": text(info.name), "renderer": text(info.renderer),
                        "software": bool(info.software), "usable": bool(info.usable)})
    _tls.gl_current = None  # describing made a short-lived context current
    return out
