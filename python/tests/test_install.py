"""`cmake --install` puts the package and its generated cdef where Python finds them: an
installed copy imports from its prefix alone (no source tree) and runs as the checkout's."""
import glob
import os
import shutil
import subprocess
import sys

import pytest

import glevo
from conftest import build_file


def test_installed_package_runs(tmp_path):
    cmake = shutil.which("cmake")
    if not cmake:
        pytest.skip("cmake is not on PATH")
    build = os.path.dirname(build_file("CMakeCache.txt"))
    prefix = tmp_path / "prefix"
    subprocess.run([cmake, "--install", build, "--prefix", str(prefix)], check=True,
                   capture_output=True)
    libs = glob.glob(str(prefix / "lib*" / "**" / "libglevo.so.0"), recursive=True)
    assert len(libs) == 1
    site = prefix / "lib" / "python3" / "dist-packages"
    assert (site / "glevo" / "glevo_cdef.h").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GLEVO_CDEF")}
    env.update(GLEVO_LIBRARY=libs[0], PYTHONPATH=str(site))
    code = ("import glevo; ga = glevo.CellularGA('camel', backend='cpu', width=12, height=5, "
            "seed=6).step(30); print(glevo.__file__); print(repr(ga.best.fitness))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=str(tmp_path),
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0].startswith(str(site))
    here = glevo.CellularGA("camel", backend="cpu", width=12, height=5, seed=6).step(30)
    assert float(out[1]) == here.best.fitness
