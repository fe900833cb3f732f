//===- Export.cpp - What a torch.export log says --------------------------===//
//
// docs/IR.md, "Export".
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/Export.h"

#include "llvm/ADT/STLExtras.h"

namespace tlp {

std::string ExportReport::verdict() const {
  size_t Missing = 0, Mismatched = 0;
  for (const ExportEvent *E : FakeKernels)
    (E->Kind == ExportEvent::MissingFakeKernel ? Missing : Mismatched)++;
  auto Count = [](size_t N, const char *One, const char *Many) {
    return std::to_string(N) + " " + (N == 1 ? One : Many);
  };
  std::vector<std::string> Issues;
  if (Missing)
    Issues.push_back(Count(Missing, "operator without a fake kernel",
                           "operators without a fake kernel"));
  if (Mismatched)
    Issues.push_back(Count(Mismatched,
                           "operator whose fake kernel disagrees",
                           "operators whose fake kernels disagree"));
  size_t Errors = llvm::count_if(DataDependent, [](const ShapeEvent *S) {
    return S->Kind == ShapeEvent::DataDependentError;
  });
  if (Errors)
    Issues.push_back(Count(Errors, "data-dependent error",
                           "data-dependent errors"));
  std::string V;
  if (Programs.empty())
    V = "no exported program: the export failed or did not finish";
  else
    V = Programs.size() == 1 ? "exported"
                             : "exported " + std::to_string(Programs.size()) +
                                   " programs";
  for (size_t I = 0; I < Issues.size(); ++I)
    V += (I ? ", " : (Programs.empty() ? "; " : ", with ")) + Issues[I];
  return V;
}

const RawEvent *ExportReport::programText(const Module &M,
                                          const ExportEvent &P) const {
  // An export has no compile id: its texts are the module's raw events
  // (a record's own, should a log give it one).
  const CompileRecord &R = M.Compiles[Record];
  for (const RawEvent &E : R.Raw)
    if (E.Line == P.Line)
      return &E;
  for (const RawEvent &E : M.Raw)
    if (E.Log == R.Log && E.Line == P.Line)
      return &E;
  return nullptr;
}

std::vector<ExportReport> exportReports(const Module &M) {
  std::vector<ExportReport> Out;
  for (size_t I = 0; I < M.Compiles.size(); ++I) {
    const CompileRecord &R = M.Compiles[I];
    if (R.Exports.empty())
      continue;
    ExportReport X;
    X.Record = I;
    for (const ExportEvent &E : R.Exports) {
      switch (E.Kind) {
      case ExportEvent::Start:
        ++X.Starts;
        break;
      case ExportEvent::Program:
        X.Programs.push_back(&E);
        break;
      case ExportEvent::MissingFakeKernel:
      case ExportEvent::MismatchedFakeKernel:
        X.FakeKernels.push_back(&E);
        break;
      }
    }
    for (const ShapeEvent &S : R.Shapes) {
      switch (S.Kind) {
      case ShapeEvent::Symbol:
      case ShapeEvent::UnbackedSymbol:
        X.Symbols.push_back(&S);
        break;
      case ShapeEvent::Guard:
      case ShapeEvent::Specialization:
        X.Guards.push_back(&S);
        break;
      case ShapeEvent::DataDependentError:
      case ShapeEvent::RealTensors:
        X.DataDependent.push_back(&S);
        break;
      }
    }
    Out.push_back(std::move(X));
  }
  return Out;
}

} // namespace tlp
