# -*- Python -*- lit configuration for tlp.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "TLP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "node_modules"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tlp_obj_root, "test")

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
# In the sanitizer build, a report aborts the tool (a crash, which `not`
# does not accept), so error-path tests cannot hide one behind exit 1.
for var, default in (
        ("ASAN_OPTIONS", "abort_on_error=1:detect_leaks=1"),
        ("UBSAN_OPTIONS", "abort_on_error=1:halt_on_error=1:print_stacktrace=1"),
        ("LSAN_OPTIONS", "abort_on_error=1")):
    llvm_config.with_environment(var, os.environ.get(var, default))
llvm_config.use_default_substitutions()
# A `not` at the start of a RUN line is looked up on PATH (STYLE.md 4.4).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# The fuzz targets, built with a replay driver (fuzz/ReplayMain.cpp) unless
# this is the libFuzzer build.
fuzz_targets = ["tlp-fuzz-" + t for t in (
    "log", "ir", "ir-compact", "fx-graph", "python-wrapper", "cpp-code", "node-mappings",
    "stack-traces", "kernel-info", "node-tree", "kernel-nodes", "scheduler-ir",
    "guards")]
# Every tlp-opt and tlp-emit run verifies the IR after reading and after
# every pass: the tools are substituted with --verify-each (a test may
# give it again), and the scripts that run them pass it themselves.
from lit.llvm.subst import ToolSubst
llvm_config.add_tool_substitutions(
    [ToolSubst(t, extra_args=["--verify-each"])
     for t in ("tlp-opt", "tlp-emit")] +
    ["tlp-docs", "tlp-yaml2log", "split-file"] + fuzz_targets,
    [config.tlp_tools_dir, config.llvm_tools_dir])

inputs = os.path.join(config.test_source_root, "Inputs")
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%examples",
                             os.path.join(config.tlp_src_root, "examples")))
config.substitutions.append(("%srcroot", config.tlp_src_root))
config.substitutions.append(("%objroot", config.tlp_obj_root))
# The libFuzzer build (utils/run-tests.sh's sanitizer build), and any
# ASan + UBSan build.
if config.tlp_libfuzzer.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("libfuzzer")
if config.tlp_sanitizers.upper() in ("ON", "1", "TRUE", "YES") or \
        "libfuzzer" in config.available_features:
    config.available_features.add("sanitizers")
# What the programs allocate through (CMake's TLP_MIMALLOC): their
# --version says so.
config.substitutions.append(
    ("%allocator", "mimalloc" if config.tlp_mimalloc.upper() in
     ("ON", "1", "TRUE", "YES") else "libc"))
config.substitutions.append(("%tlp_tools_dir", config.tlp_tools_dir))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%utils", os.path.join(config.test_source_root,
                                                    "utils")))

# Optional tools become features (REQUIRES: graphviz, ...). The optional
# inputs gate whole folders in their lit.local.cfg: test/Integration/Corpus
# (the corpus logs), test/Integration/Torch (the real PyTorch logs) and
# test/Integration/Browser (Chromium, Node and the harness's npm packages).
if config.tlp_dot and os.path.exists(config.tlp_dot):
    config.available_features.add("graphviz")
    config.substitutions.append(("%dot", config.tlp_dot))
if config.tlp_chromium and os.path.exists(config.tlp_chromium):
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", config.tlp_chromium))
if config.tlp_node and os.path.exists(config.tlp_node):
    config.available_features.add("node")
    config.substitutions.append(("%node", config.tlp_node))
# The browser harness (test/Integration/Browser: a Node project driving
# Debian's Chromium through playwright-core). `browser` is on when Chromium,
# Node and the harness's npm packages (`npm ci` there; utils/install-deps.sh
# --test does it) are all there; the Torch and Corpus folders' page checks
# need it too.
browser = os.path.join(config.test_source_root, "Integration", "Browser")
config.substitutions.append(("%browser", browser))
if "chromium" in config.available_features and \
        "node" in config.available_features and \
        os.path.isdir(os.path.join(browser, "node_modules", "playwright-core")):
    config.available_features.add("browser")
# Browser tests save their screenshots here, for CI.
config.substitutions.append(("%artifacts", os.path.join(
    config.tlp_obj_root, "test", "browser-artifacts")))
