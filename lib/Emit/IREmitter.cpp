//===- IREmitter.cpp - The IR text form as an emitter ---------------------===//
//
// Prints the IR document by document (what tlp-opt writes), in the text
// form or, with --compact, the compact one. A file is put in place only
// when complete (OutputFile). Stdout streams, so that `tlp-opt | tlp-emit`
// runs both ends at once; if the run fails after the first document, a
// last `!tlp.error` document says so, which every IR reader refuses: what
// was printed can never pass for a whole module.
//
//===----------------------------------------------------------------------===//

#include "tlp/Emit/Emitter.h"
#include "tlp/IR/IRYAML.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace tlp {

namespace {

class IREmitter : public Emitter {
public:
  IREmitter(const EmitOptions &Opts, DiagnosticEngine &Diags)
      : Emitter(Opts, Diags),
        Form(Opts.CompactIR ? IRForm::Compact : IRForm::Text) {}

  EmitterTraits traits() const override {
    EmitterTraits T;
    T.StreamsStdout = true;
    return T;
  }

  Error begin(const Module &M) override {
    OS = &out();
    // Raw events point into their log when it is a file a reader of the
    // IR can open again; else (stdin, an IR input without texts) or with
    // --raw-texts, the IR carries their texts.
    RawWriteContext Raw;
    Raw.Reader = RawReader;
    for (const LogFile &L : M.Logs)
      Raw.Embed.push_back(Opts.EmbedRawTexts || L.Path == "-" ||
                          L.Path == "<stdin>" ||
                          !sys::fs::is_regular_file(L.Path));
    printModuleHeader(M, *OS, &Raw, Form);
    return Error::success();
  }

  std::unique_ptr<PreparedUnit>
  prepareUnit(const Module &, const CompileUnit &U) const override {
    std::string Text;
    raw_string_ostream S(Text);
    printUnit(U, S, Form);
    S.flush();
    return std::make_unique<PreparedText>(std::move(Text));
  }

  Error preparedUnit(const Module &, const CompileUnit &,
                     std::unique_ptr<PreparedUnit> Prepared) override {
    *OS << static_cast<const PreparedText &>(*Prepared).Text;
    ++Units;
    // A stdout that fails (a full disk, a closed pipe) stops the run at
    // once rather than after the whole input.
    if (Target->streamsStdout() && outs().has_error())
      return createStringError(outs().error(), "cannot write '<stdout>': %s",
                               outs().error().message().c_str());
    return Error::success();
  }

  Error unit(const Module &M, const CompileUnit &U) override {
    return preparedUnit(M, U, prepareUnit(M, U));
  }

  Error end(const Module &M) override {
    printDiagnosticsDocument(M.Diagnostics, *OS, Form);
    // Last: what the stream holds. A reader that does not find it knows
    // the stream was cut short, even at a document boundary.
    printEndDocument({Units, M.Compiles.size(), M.Diagnostics.size()}, *OS,
                     Form);
    return Error::success();
  }

  void abort() override {
    if (Target && Target->streamsStdout()) {
      printErrorDocument("tlp-opt failed before the end of its output; the "
                         "documents above are incomplete",
                         Target->os(), Form);
      Target->os().flush();
      // The failure is reported already; a stdout that cannot take this
      // last document either is not a second error.
      outs().clear_error();
    }
  }

private:
  IRForm Form;
  raw_ostream *OS = nullptr;
  uint64_t Units = 0;
};

} // namespace

std::unique_ptr<Emitter> createIREmitter(const EmitOptions &Opts,
                                         DiagnosticEngine &Diags) {
  return std::make_unique<IREmitter>(Opts, Diags);
}

} // namespace tlp
