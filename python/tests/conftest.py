"""Shared fixtures. Run from a source checkout after the CMake build:
    GLEVO_LIBRARY=build/libglevo.so.0 PYTHONPATH=python /usr/bin/python3 -m pytest python/tests
The CLI and the ABI-size program are found beside the library (override: GLEVO_CLI)."""
import json
import os
import subprocess

import pytest

import glevo

BUILD = os.path.dirname(os.path.realpath(glevo.LIBRARY)) if os.path.isabs(glevo.LIBRARY) else None
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "data")


def build_file(*parts):
    if BUILD is None:
        pytest.skip("the library is not a build tree's (set GLEVO_LIBRARY=build/libglevo.so.0)")
    path = os.path.join(BUILD, *parts)
    if not os.path.exists(path):
        pytest.skip(f"{path} is not built")
    return path


@pytest.fixture(scope="session")
def cli():
    """Runs build/glevo with --json and returns the object it printed."""
    path = os.environ.get("GLEVO_CLI") or build_file("glevo")

    def run(*args):
        out = subprocess.run([path, *map(str, args), "--json"], capture_output=True, text=True,
                             check=True)
        return json.loads(out.stdout)
    return run


@pytest.fixture(scope="session")
def ctx():
    """One headless context for the whole session (llvmpipe without a GPU)."""
    try:
        c = glevo.Context()
    except glevo.NoDeviceError as e:
        pytest.skip(f"no EGL device: {e}")
    yield c
    c.close()


@pytest.fixture
def data_csv():
    return os.path.join(DATA, "examples", "data.csv")
