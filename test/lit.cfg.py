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
# Every tool run verifies the IR after reading and after every pass.
llvm_config.with_environment("TLP_VERIFY_EACH", "1")
llvm_config.use_default_substitutions()
# A `not` at the start of a RUN line is looked up on PATH (STYLE.md 4.4).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# The fuzz targets, built with a replay driver (fuzz/ReplayMain.cpp) unless
# this is the libFuzzer build.
fuzz_targets = ["tlp-fuzz-" + t for t in (
    "log", "ir", "fx-graph", "python-wrapper", "cpp-code", "node-mappings",
    "stack-traces", "kernel-info", "node-tree", "kernel-nodes")]
llvm_config.add_tool_substitutions(
    ["tlp-opt", "tlp-emit", "tlp-docs", "split-file"] + fuzz_targets,
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
config.substitutions.append(("%tlp_tools_dir", config.tlp_tools_dir))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%utils", os.path.join(config.test_source_root,
                                                    "utils")))

# Optional inputs and tools become features (REQUIRES: corpus, ...).
if config.tlp_corpus_dir and os.path.isdir(config.tlp_corpus_dir):
    config.available_features.add("corpus")
    config.substitutions.append(("%corpus", config.tlp_corpus_dir))
# Real PyTorch logs made by utils/gen-torch-logs.py (utils/run-tests.sh
# makes them in build/torch-logs; TLP_TORCH_LOGS names another place).
torch_logs = os.environ.get("TLP_TORCH_LOGS") or os.path.join(
    config.tlp_obj_root, "torch-logs")
if os.path.isfile(os.path.join(torch_logs, "manifest.json")):
    config.available_features.add("torch")
    config.substitutions.append(("%torch_logs", torch_logs))
if config.tlp_dot and os.path.exists(config.tlp_dot):
    config.available_features.add("graphviz")
    config.substitutions.append(("%dot", config.tlp_dot))
if config.tlp_chromium and os.path.exists(config.tlp_chromium):
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", config.tlp_chromium))
# Browser tests (test/Chromium) save their screenshots here, for CI.
config.substitutions.append(("%artifacts", os.path.join(
    config.tlp_obj_root, "test", "browser-artifacts")))
if config.tlp_node and os.path.exists(config.tlp_node):
    config.available_features.add("node")
    config.substitutions.append(("%node", config.tlp_node))
