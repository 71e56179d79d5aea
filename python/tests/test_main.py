"""`python3 -m glevo` and the package's metadata: the same report as `glevo info`, the same
version as the C library's."""
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT

import glevo


def test_module_info_prints_what_glevo_info_prints():
    glevo_cli = os.environ.get("GLEVO_CLI") or os.path.join(os.path.dirname(glevo.LIBRARY), "glevo")
    if not os.path.exists(glevo_cli):
        pytest.skip(f"no glevo command at {glevo_cli}")
    expected = subprocess.run([glevo_cli, "info"], capture_output=True, text=True)
    got = subprocess.run([sys.executable, "-m", "glevo", "info"], capture_output=True, text=True)
    assert got.returncode == expected.returncode
    assert got.stdout == expected.stdout


def test_module_rejects_an_unknown_command():
    got = subprocess.run([sys.executable, "-m", "glevo", "nosuch"], capture_output=True, text=True)
    assert got.returncode == 2
    assert "nosuch" in got.stderr


def test_pyproject_version_is_the_library_version():
    with open(os.path.join(ROOT, "python", "pyproject.toml")) as f:
        declared = re.search(r'^version = "([^"]+)"', f.read(), re.M).group(1)
    assert declared == glevo.__version__
