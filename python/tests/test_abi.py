"""The cdef is the headers' (generated at build time), so cffi's idea of every public struct
must be the C compiler's: sizes and alignments compared with a program CMake built from the
same headers; and every declared function must be exported by the library."""
import subprocess

import glevo
from glevo import ffi, lib

from conftest import build_file


def test_struct_sizes_match_c():
    out = subprocess.run([build_file("python", "glevo_abi_sizes")], capture_output=True,
                         text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines()]
    assert len(rows) >= 25  # every public struct with a body
    for name, size, align in rows:
        assert ffi.sizeof(name) == int(size), name
        assert ffi.alignof(name) == int(align), name


def test_every_declared_function_is_exported():
    # cffi's own parse of the generated cdef: every function it declares.
    functions = sorted(k.split(" ", 1)[1] for k in ffi._parser._declarations
                       if k.startswith("function "))
    assert len(functions) > 200
    missing = [n for n in functions if not hasattr(lib, n)]
    assert missing == []


def test_constants_come_from_the_headers():
    assert lib.GLEVO_CGA_MAX_DIM == 32
    assert lib.GLEVO_ZERO == -1
    assert glevo.__version__.count(".") == 2
