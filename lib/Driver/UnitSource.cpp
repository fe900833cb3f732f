//===- UnitSource.cpp - Where a run's units come from ---------------------===//

#include "tlp/Driver/UnitSource.h"

using namespace llvm;

namespace tlp {

UnitSource::~UnitSource() = default;

namespace {

/// Units taken from a module, handed out in order.
class ModuleUnitSource : public UnitSource {
public:
  explicit ModuleUnitSource(Module &M) : Units(std::move(M.Units)) {
    M.Units.clear();
  }
  std::unique_ptr<UnitInFlight> next() override {
    if (Next == Units.size())
      return nullptr;
    auto W = std::make_unique<UnitInFlight>();
    W->Index = Next;
    W->U = std::move(Units[Next++]);
    return W;
  }

private:
  std::vector<std::unique_ptr<CompileUnit>> Units;
  size_t Next = 0;
};

/// Units grouped from a log read without payloads.
class LogUnitSource : public ModuleUnitSource {
public:
  LogUnitSource(Module &M, const TraceSources &Sources)
      : ModuleUnitSource(M), M(M), Sources(Sources) {}
  void materialize(UnitInFlight &W) override {
    loadUnit(*W.U, M, Sources, W.Diags);
  }

private:
  Module &M;
  const TraceSources &Sources;
};

/// Units already loaded; emitted units go back to the module, in order.
class MemoryUnitSource : public ModuleUnitSource {
public:
  explicit MemoryUnitSource(Module &M) : ModuleUnitSource(M), M(M) {}
  void emitted(std::unique_ptr<CompileUnit> U) override {
    M.Units.push_back(std::move(U));
  }

private:
  Module &M;
};

/// IR documents after the header.
class IRUnitSource : public UnitSource {
public:
  IRUnitSource(Module &M, std::unique_ptr<IRDocumentReader> R, bool Verify,
               DiagnosticEngine &Diags,
               std::function<void(std::vector<Diagnostic>)> Adopt)
      : M(M), R(std::move(R)), Verify(Verify), Diags(Diags),
        Adopt(std::move(Adopt)), InputFile(this->R->name().str()) {
    Read.Compiles = M.Compiles.size();
  }

  std::unique_ptr<UnitInFlight> next() override {
    if (!ReadFailure.empty())
      return nullptr;
    auto W = std::make_unique<UnitInFlight>();
    Expected<bool> More = R->next(W->Doc);
    if (!More) {
      ReadFailure = toString(More.takeError());
      return nullptr;
    }
    if (!*More)
      return nullptr;
    W->DocNo = R->count();
    W->Index = Units++;
    return W;
  }

  void materialize(UnitInFlight &W) override {
    Expected<ParsedIRDocument> D =
        parseIRDocument(W.Doc, InputFile, M, W.Diags);
    W.Doc.Storage.clear();
    W.Doc.Text = StringRef();
    if (!D) {
      W.Failure = toString(D.takeError());
      return;
    }
    switch (D->Kind) {
    case IRDocumentKind::Header:
    case IRDocumentKind::Compile:
      W.Failure = toString(outOfOrder(W.Doc, W.DocNo, InputFile, W.Diags));
      return;
    case IRDocumentKind::Diagnostics:
      W.IsDiagnostics = true;
      W.InputDiags = std::move(D->Diagnostics);
      return;
    case IRDocumentKind::End:
      W.End = D->End;
      return;
    case IRDocumentKind::Unit:
      W.U = std::move(D->Unit);
      return;
    }
  }

  Error check(UnitInFlight &W) override {
    // Nothing but the end may follow the diagnostics, and nothing the end,
    // whatever it holds.
    if (End || (SeenDiags && !W.End))
      return outOfOrder(W.Doc, W.DocNo, InputFile, Diags);
    return Error::success();
  }

  Error accept(UnitInFlight &W, bool &IsUnit) override {
    IsUnit = false;
    if (W.IsDiagnostics) {
      SeenDiags = true;
      Read.Diagnostics = W.InputDiags.size();
      Adopt(std::move(W.InputDiags));
      return Error::success();
    }
    if (W.End) {
      End = W.End;
      EndAt.Line = W.Doc.Line;
      EndAt.Compact = W.Doc.Compact;
      EndAt.Offset = W.Doc.Offset;
      return Error::success();
    }
    if (Verify && LastKey && !(*LastKey < W.U->Key))
      return createStringError(
          inconvertibleErrorCode(),
          "input IR is invalid:\nunit %s: units are not sorted by key or a "
          "key is repeated (after '%s')",
          W.U->Key.slug().c_str(), LastKey->slug().c_str());
    LastKey = W.U->Key;
    ++Read.Units;
    IsUnit = true;
    return Error::success();
  }

  Error finish() override {
    if (!ReadFailure.empty())
      return createStringError(inconvertibleErrorCode(), "%s",
                               ReadFailure.c_str());
    // Cut short: what was read goes on, with an error (as for a cut log).
    checkIREnd(End, EndAt, Read, *R, Diags);
    return Error::success();
  }

private:
  Module &M;
  std::unique_ptr<IRDocumentReader> R;
  bool Verify;
  DiagnosticEngine &Diags;
  std::function<void(std::vector<Diagnostic>)> Adopt;
  std::string InputFile;
  std::string ReadFailure;
  size_t Units = 0;
  bool SeenDiags = false;
  Optional<IREndCounts> End;
  /// Where the end document is (its text is not kept).
  IRDocumentText EndAt;
  IREndCounts Read;
  Optional<UnitKey> LastKey;
};

} // namespace

std::unique_ptr<UnitSource> createLogUnitSource(Module &M,
                                                const TraceSources &Sources) {
  return std::make_unique<LogUnitSource>(M, Sources);
}

std::unique_ptr<UnitSource> createMemoryUnitSource(Module &M) {
  return std::make_unique<MemoryUnitSource>(M);
}

std::unique_ptr<UnitSource> createIRUnitSource(
    Module &M, std::unique_ptr<IRDocumentReader> R, bool Verify,
    DiagnosticEngine &Diags,
    std::function<void(std::vector<Diagnostic>)> AdoptDiagnostics) {
  return std::make_unique<IRUnitSource>(M, std::move(R), Verify, Diags,
                                        std::move(AdoptDiagnostics));
}

} // namespace tlp
