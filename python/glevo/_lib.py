"""The C library through cffi in ABI mode: the cdef generated from the public headers at
build time (cmake/python_cdef.cmake), libglevo.so.0 found through GLEVO_LIBRARY, else the
library installed with this package (_installed.py, written by the CMake install), else the
loader's search. No compiled extension: cffi reads the declarations and dlopens the library."""
import ctypes.util
import os

from cffi import FFI

from .errors import raise_status

ffi = FFI()


def _library_path():
    path = os.environ.get("GLEVO_LIBRARY")
    if path:
        if not os.path.exists(path):
            raise ImportError(f"GLEVO_LIBRARY={path!r} does not exist (it should name "
                              "libglevo.so.0, e.g. build/libglevo.so.0 after the CMake build)")
        return os.path.abspath(path)
    try:
        from ._installed import LIBRARY as installed
        if os.path.exists(installed):
            return installed
    except ImportError:  # a source tree or a pip install: no CMake install wrote it
        pass
    return ctypes.util.find_library("glevo") or "libglevo.so.0"


def _cdef_path(library):
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.environ.get("GLEVO_CDEF"),
                  os.path.join(here, "glevo_cdef.h")]  # installed beside the package
    if os.path.isabs(library):
        lib_dir = os.path.dirname(os.path.realpath(library))
        candidates += [os.path.join(lib_dir, "python", "glevo_cdef.h"),  # a build tree
                       os.path.join(lib_dir, "..", "share", "glevo", "glevo_cdef.h"),
                       os.path.join(lib_dir, "..", "..", "share", "glevo", "glevo_cdef.h")]
    candidates += [os.path.join(prefix, "share", "glevo", "glevo_cdef.h")
                   for prefix in ("/usr/local", "/usr")]
    for c in candidates:
        if c and os.path.exists(c):
            return c
    raise ImportError("glevo: the generated cdef glevo_cdef.h was not found (looked in: "
                      + ", ".join(c for c in candidates if c)
                      + "); build with CMake and set GLEVO_LIBRARY=build/libglevo.so.0")


LIBRARY = _library_path()
CDEF = _cdef_path(LIBRARY)
with open(CDEF) as f:
    ffi.cdef(f.read())
try:
    lib = ffi.dlopen(LIBRARY)
except OSError as e:
    raise ImportError(f"glevo: cannot load {LIBRARY}: {e} (set GLEVO_LIBRARY to the path of "
                      "libglevo.so.0)") from None


def last_error():
    """The library's one-sentence message for this thread's last failure."""
    return ffi.string(lib.glevo_last_error()).decode("utf-8", "replace")


def check(status, glsl_names=()):
    """Raises the exception for a failing status, carrying glevo_last_error()."""
    if status != 0:
        raise_status(int(status), last_error(), glsl_names)


def text(ptr):
    if isinstance(ptr, str):
        return ptr
    return ffi.string(ptr).decode("utf-8", "replace") if ptr != ffi.NULL else None


def enum_names(name_fn, limit=16):
    """An enum's names from its *_name function, in value order ("unknown" ends the list)."""
    names = []
    for i in range(limit):
        n = text(name_fn(i))
        if n is None or n == "unknown":
            break
        names.append(n)
    return names
