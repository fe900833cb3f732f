//===- Configs.h - The configuration of each compile, and changes -*- C++ -*-===//
//
// Part of tlp. compilation_metrics carries the configuration a compile ran
// with: inductor_config, dynamo_config, compiler_config, functorch_config,
// each a JSON object of hundreds of settings (Module::ConfigTexts holds
// each text once). A setting changed between two runs (max_autotune True
// -> False) is a cache miss nobody sees without reading JSON; this finds,
// for each compile, the settings that differ from the previous compile
// with configuration. See docs/IR.md, "Configuration".
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_CONFIGS_H
#define TLP_ANALYSIS_CONFIGS_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace tlp {

class CompileRecord;
class Module;

/// One setting that differs.
struct ConfigChange {
  /// "inductor_config".
  std::string Config;
  /// "max_autotune".
  std::string Key;
  /// The values as compact JSON; empty when the setting is absent on
  /// that side.
  std::string Before, After;
  /// Both values are JSON arrays of the same items in another order: the
  /// same setting if it is a set (a set dumped in its iteration order, as
  /// in logs of December 2024, comes out in another order in another
  /// process: rank to rank, run to run; PyTorch 2.13 sorts), a change if
  /// its order matters. The dump does not say which.
  bool Reordered = false;
};

/// One configuration dump ("inductor_config", text index) and the
/// records (indices into Module::Compiles) that ran with it.
struct ConfigDump {
  std::string Name;
  uint32_t Text = 0;
  std::vector<size_t> Records;
};
/// The distinct dumps of the records \p Order, in order of first use.
std::vector<ConfigDump> groupConfigs(const Module &M,
                                     const std::vector<size_t> &Order);

/// Compares the configuration of compiles, each text parsed once (a long
/// log's compiles share a few texts of hundreds of settings each: parsing
/// them per compile cost a third of `tlp-emit --json` on a 782 MB log).
/// Thread-safe: the workers that render compile records share one.
class ConfigComparer {
public:
  explicit ConfigComparer(const Module &M) : M(M) {}
  /// The settings of \p After's configuration dumps that differ from
  /// those of \p Before, by config (in \p After's order, those only in
  /// \p Before last), then key (in name order; keys only in \p Before
  /// last). A dump that is not a JSON object is compared as one value (Key
  /// empty).
  std::vector<ConfigChange> changes(const CompileRecord &Before,
                                    const CompileRecord &After);
  /// The changes of record \p Index from the previous record with
  /// configuration, which \p Prev is set to: the one logged last before it
  /// in its log (the compile before it in time: after a graph break a later
  /// frame's compile can come before an earlier frame's recompile), else,
  /// for the first of its log, the record before it in Module::Compiles
  /// (previousWithConfigs: another rank's or log's); empty
  /// (and \p Prev null) when there is none or \p Index has none.
  std::vector<ConfigChange> changesFromPrevious(size_t Index,
                                                const CompileRecord *&Prev);
  /// The settings of \p R's inductor_config dump that its FX graph cache
  /// keys name with another value (`inductor_config[max_autotune]: True`
  /// where the dump has false): what the compile ran with, as
  /// torch.compile's `mode` and `options` patch the configuration for the
  /// compile and PyTorch dumps it outside the patch. Before: the dump's
  /// value (JSON), After: the key's text (Python's str(): `True`, a
  /// string unquoted); scalar settings only (true, false, null, numbers,
  /// strings), compared as the key writes them, in name order.
  std::vector<ConfigChange> patchedSettings(const CompileRecord &R);

private:
  struct Parsed {
    bool IsObject = false;
    std::vector<std::pair<std::string, std::string>> Members;
  };
  const Parsed &parsed(uint32_t Text);
  const CompileRecord *previousInLog(size_t Index);
  const Module &M;
  std::mutex CacheLock;
  std::vector<std::unique_ptr<Parsed>> Cache;
  /// previousInLog: per record, the index of the record with
  /// configuration logged last before it in its log (SIZE_MAX: none).
  std::once_flag LogOrderOnce;
  std::vector<size_t> PrevInLog;
  /// patchedSettings: per key component, the inductor_config setting it
  /// names and its value (empty: none); the answers, by dump and lists.
  std::once_flag SettingsOnce;
  std::vector<std::pair<llvm::StringRef, llvm::StringRef>> Settings;
  std::map<std::string, std::vector<ConfigChange>> PatchedCache;
};

/// The record before \p Index in Module::Compiles that has configuration
/// dumps (the previous compile, in rank, log and compile id order), or
/// null.
const CompileRecord *previousWithConfigs(const Module &M, size_t Index);

/// The settings of one configuration text, a line each ("key: value"), in
/// name order: how reports show a dump of hundreds of settings. The text
/// as it is when it is not a JSON object.
std::string configLines(llvm::StringRef Text);

} // namespace tlp

#endif // TLP_ANALYSIS_CONFIGS_H
