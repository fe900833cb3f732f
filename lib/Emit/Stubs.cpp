//===- Stubs.cpp - Registered emitters not written yet --------------------===//
//
// Each stub is replaced by its own file when the emitter lands.
//
//===----------------------------------------------------------------------===//

#include "tlp/Emit/Emitter.h"

using namespace llvm;

namespace tlp {

namespace {
class NotYetEmitter : public Emitter {
public:
  NotYetEmitter(const EmitOptions &O, DiagnosticEngine &D, StringRef Name)
      : Emitter(O, D), Name(Name.str()) {}
  Error begin(const Module &) override {
    return createStringError(std::errc::function_not_supported,
                             "the %s emitter is not available yet",
                             Name.c_str());
  }
  Error unit(const Module &, const CompileUnit &) override {
    return Error::success();
  }
  Error end(const Module &) override { return Error::success(); }

private:
  std::string Name;
};
} // namespace

std::unique_ptr<Emitter> createMarkdownEmitter(const EmitOptions &O,
                                               DiagnosticEngine &D) {
  return std::make_unique<NotYetEmitter>(O, D, "md");
}
std::unique_ptr<Emitter> createDOTEmitter(const EmitOptions &O,
                                          DiagnosticEngine &D) {
  return std::make_unique<NotYetEmitter>(O, D, "dot");
}
std::unique_ptr<Emitter> createDumpEmitter(const EmitOptions &O,
                                           DiagnosticEngine &D) {
  return std::make_unique<NotYetEmitter>(O, D, "dump");
}

} // namespace tlp
