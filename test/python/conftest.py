"""Each test gets a fresh 8-device runtime (torch_xla's single XLA device)."""

import os

import pytest

import xspmd.runtime as xr


@pytest.fixture(autouse=True)
def fresh_runtime():
    xr.configure(num_devices=8)
    yield


@pytest.fixture
def source_dir():
    return os.environ.get(
        "XSPMD_SOURCE_DIR",
        os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
