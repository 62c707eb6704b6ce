# -*- Python -*-
# lit configuration of the xspmd test suite.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "xspmd"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".hlo"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit", "install"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.xspmd_obj_root, "test")

# FileCheck variables do not leak between CHECK-LABEL blocks.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Sanitizer builds (-DXSPMD_SANITIZE=ON, docs/testing.md): every report is
# fatal; the options may be overridden from the environment.
llvm_config.with_system_environment(
    ["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "ASAN_SYMBOLIZER_PATH"])
if getattr(config, "xspmd_sanitize", False):
    for name, value in (("ASAN_OPTIONS", config.xspmd_asan_options),
                        ("UBSAN_OPTIONS", config.xspmd_ubsan_options)):
        if name not in os.environ:
            config.environment[name] = value

config.substitutions.append(("%xspmd_src", config.xspmd_src_root))
config.substitutions.append(("%xspmd_obj", config.xspmd_obj_root))
config.substitutions.append(("%python", "python3"))


def find_numpy_python():
    """A Python with NumPy for the numeric reference tests (Debian's: the
    first python3 on PATH may lack it)."""
    import shutil
    import subprocess
    for candidate in ("/usr/bin/python3", shutil.which("python3")):
        if candidate and subprocess.call(
                [candidate, "-c", "import numpy"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL) == 0:
            return candidate
    # No NumPy: the reference tests fail saying so rather than pass.
    return "/usr/bin/python3"


config.substitutions.append(("%numpy_python", find_numpy_python()))

tools = [
    ToolSubst("xla-opt", unresolved="fatal"),
    ToolSubst("xla-run", unresolved="ignore"),
    ToolSubst("xla-translate", unresolved="fatal"),
    "FileCheck",
    "split-file",
    "not",
    "count",
]
# XSPMD_CHECK_ROUNDTRIP=1 runs every xla-opt test with --verify-roundtrip.
if os.environ.get("XSPMD_CHECK_ROUNDTRIP"):
    tools[0] = ToolSubst("xla-opt", extra_args=["--verify-roundtrip"],
                         unresolved="fatal")
llvm_config.add_tool_substitutions(
    tools, [config.xspmd_tools_dir, config.llvm_tools_dir])
