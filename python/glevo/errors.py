"""Exceptions: one per glevo_status, each carrying glevo_last_error()'s sentence, and
GlslError for a user fitness that does not compile (with the user's line numbers)."""
import re


class GlevoError(Exception):
    """A failing glevo call; .status is the glevo_status code, str() the library's sentence."""
    status = None

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class InvalidError(GlevoError, ValueError):
    """GLEVO_ERR_INVALID: a bad parameter or input (the CLI's exit status 2)."""
    status = 1


class GLError(GlevoError, RuntimeError):
    """GLEVO_ERR_GL: a GL or shader failure."""
    status = 2


class NoDeviceError(GlevoError, RuntimeError):
    """GLEVO_ERR_NO_DEVICE: no usable EGL device."""
    status = 3


class GlevoIOError(GlevoError, OSError):
    """GLEVO_ERR_IO: a file could not be read or written."""
    status = 4


class GlevoMemoryError(GlevoError, MemoryError):
    status = 5


class UnsupportedError(GlevoError, RuntimeError):
    status = 6


class ThreadError(GlevoError, RuntimeError):
    """A context used on a thread other than the one it is current on (GL's rule)."""


class GlslError(GlevoError):
    """User GLSL that failed to compile. .name is the source's name, .lineno the first
    error's line in the user's text (1-based), .errors every (line, text) the driver gave."""

    def __init__(self, message, status, name, errors):
        super().__init__(message, status)
        self.name = name
        self.errors = errors
        self.lineno = errors[0][0] if errors else None


_BY_STATUS = {c.status: c for c in (InvalidError, GLError, NoDeviceError, GlevoIOError,
                                    GlevoMemoryError, UnsupportedError)}


def raise_status(status, message, glsl_names=()):
    for name in glsl_names:
        # The composer rewrites driver logs to "name:LINE: error ..." (src/gl/shader_log.c).
        found = re.findall(re.escape(name) + r":(\d+):(?:\d+:)?\s*(.*)", message)
        if found:
            raise GlslError(message, status, name, [(int(l), t.strip()) for l, t in found])
    cls = _BY_STATUS.get(status, GlevoError)
    raise cls(message, status)
