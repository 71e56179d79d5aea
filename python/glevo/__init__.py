"""glevo: evolutionary algorithms as GLSL render passes, from Python.

A pure-Python package over libglevo.so.0 (cffi in ABI mode): numpy in and out, the C
library's defaults and messages. Set GLEVO_LIBRARY to a libglevo.so.0 to use a build tree's.

    import glevo
    with glevo.Context() as ctx:                    # headless EGL (llvmpipe without a GPU)
        ga = glevo.CellularGA("camel", seed=1).step(200)
        print(ga.best.fitness, ga.population.shape)
"""
from ._lib import ffi, lib, last_error, LIBRARY
from .errors import (GlevoError, InvalidError, GLError, NoDeviceError, GlevoIOError,
                     UnsupportedError, ThreadError, GlslError)
from .context import Context, devices
from .problem import Problem, problems
from .cga import CellularGA
from .de import DE, de
from .gp import GP, GPModel, gp_eval
from .dsmga import DSMGA
from .regressor import SymbolicRegressor

__version__ = ffi.string(lib.glevo_version_string()).decode()

__all__ = ["Context", "devices", "Problem", "problems", "CellularGA", "DE", "de", "GP",
           "GPModel", "gp_eval", "DSMGA", "SymbolicRegressor", "GlevoError", "InvalidError", "GLError",
           "NoDeviceError", "GlevoIOError", "UnsupportedError", "ThreadError", "GlslError",
           "last_error", "LIBRARY", "__version__"]
