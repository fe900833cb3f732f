//===- DiffReport.cpp - tlp-emit --diff: two sets of units compared -------===//
//
// docs/diff.md.
//
//===----------------------------------------------------------------------===//

#include "tlp/Emit/DiffReport.h"

#include "EmitSupport.h"

#include "tlp/Support/StringUtils.h"

#include "tlp/Analysis/NameMatch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <set>

using namespace llvm;

namespace tlp {

using namespace emit;
using ojson = nlohmann::ordered_json;

namespace {

class DigestCollector : public Emitter {
public:
  DigestCollector(const EmitOptions &Opts, DiagnosticEngine &Diags,
                  std::vector<UnitDigest> &Out)
      : Emitter(Opts, Diags), Out(Out) {}
  Error unit(const Module &M, const CompileUnit &U) override {
    Out.push_back(digestUnit(M, U, /*KeepCode=*/true));
    return Error::success();
  }
  Error end(const Module &M) override { return Error::success(); }

private:
  std::vector<UnitDigest> &Out;
};

} // namespace

std::unique_ptr<Emitter> createDigestCollector(const EmitOptions &Opts,
                                               DiagnosticEngine &Diags,
                                               std::vector<UnitDigest> &Out) {
  return std::make_unique<DigestCollector>(Opts, Diags, Out);
}

Error selectUnits(std::vector<UnitDigest> &Units, StringRef Unit,
                  Optional<int64_t> Rank, StringRef Input) {
  std::vector<UnitDigest> Kept;
  for (size_t I = 0; I < Units.size(); ++I) {
    const UnitDigest &D = Units[I];
    size_t N;
    bool Named = Unit.empty() || Unit == D.Id || Unit == D.Name ||
                 (!Unit.getAsInteger(10, N) && N == I);
    if (Named && (!Rank || D.Key.Rank == Rank))
      Kept.push_back(D);
  }
  if (!Kept.empty()) {
    Units = std::move(Kept);
    return Error::success();
  }
  std::string What = !Unit.empty() ? "unit '" + Unit.str() + "'"
                                   : "unit of rank " + std::to_string(*Rank);
  if (!Unit.empty() && Rank)
    What += " of rank " + std::to_string(*Rank);
  std::string Msg = "no " + What + " in " + Input.str();
  if (Units.empty())
    return createStringError(std::errc::invalid_argument,
                             (Msg + "; it has no compile units").c_str());
  std::set<std::string> Known;
  std::set<int64_t> Ranks;
  for (const UnitDigest &D : Units) {
    Known.insert(D.Id);
    if (D.Key.Rank)
      Ranks.insert(*D.Key.Rank);
  }
  std::vector<std::string> Close =
      Unit.empty() ? std::vector<std::string>() : closeNames(Unit, Known, 3);
  if (!Close.empty()) {
    Msg += "; did you mean ";
    for (size_t I = 0; I < Close.size(); ++I)
      Msg += (I ? (I + 1 == Close.size() ? " or '" : ", '") : "'") +
             Close[I] + "'";
    Msg += "?";
  } else if (!Unit.empty()) {
    Msg += "; its units are: ";
    for (size_t I = 0; I < Units.size() && I < 16; ++I)
      Msg += (I ? ", " : "") + Units[I].Id;
    if (Units.size() > 16)
      Msg += " and " + std::to_string(Units.size() - 16) + " more";
  } else {
    Msg += "; its ranks are: " + rankRanges(std::vector<int64_t>(
                                     Ranks.begin(), Ranks.end()));
    if (Ranks.empty())
      Msg += "none";
  }
  return createStringError(std::errc::invalid_argument, Msg.c_str());
}

static size_t changeCount(ArrayRef<UnitPair> Pairs) {
  size_t N = 0;
  for (const UnitPair &P : Pairs)
    N += P.equal() ? 0 : std::max<size_t>(P.Changes.size(), 1);
  return N;
}

static bool allEqual(ArrayRef<UnitPair> Pairs) {
  return llvm::all_of(Pairs, [](const UnitPair &P) { return P.equal(); });
}

static void writeJSON(raw_ostream &OS, const DiffSide &A, const DiffSide &B,
                      ArrayRef<UnitPair> Pairs, bool Pretty) {
  ojson J = ojson::object();
  J["schema"] = "tlp-diff/1";
  J["a"] = A.Input;
  J["b"] = B.Input;
  J["equal"] = allEqual(Pairs);
  ojson Ps = ojson::array();
  for (const UnitPair &P : Pairs) {
    ojson X = ojson::object();
    X["a"] = P.A ? ojson(P.A->Id) : ojson(nullptr);
    X["b"] = P.B ? ojson(P.B->Id) : ojson(nullptr);
    X["equal"] = P.equal();
    ojson Cs = ojson::array();
    for (const DigestChange &C : P.Changes)
      Cs.push_back(ojson{{"kind", C.Kind},
                         {"change", C.Change},
                         {"what", C.What},
                         {"detail", C.Detail}});
    X["changes"] = std::move(Cs);
    Ps.push_back(std::move(X));
  }
  J["pairs"] = std::move(Ps);
  OS << J.dump(Pretty ? 2 : -1, ' ', false, ojson::error_handler_t::replace)
     << "\n";
}

static std::string side(const UnitDigest *D) {
  return D ? mdCode(D->Id) : std::string("-");
}

static void writeMarkdown(raw_ostream &OS, const DiffSide &A,
                          const DiffSide &B, ArrayRef<UnitPair> Pairs);

void writeDiff(raw_ostream &OS, const DiffSide &A, const DiffSide &B,
               ArrayRef<UnitPair> Pairs, bool JSON, bool Pretty) {
  if (JSON)
    return writeJSON(OS, A, B, Pairs, Pretty);
  // No control character from a log in the text (docs/security.md).
  std::string Text;
  raw_string_ostream S(Text);
  writeMarkdown(S, A, B, Pairs);
  OS << printable(S.str());
}

static void writeMarkdown(raw_ostream &OS, const DiffSide &A,
                          const DiffSide &B, ArrayRef<UnitPair> Pairs) {
  size_t Differ = llvm::count_if(
      Pairs, [](const UnitPair &P) { return !P.equal(); });
  OS << "# tlp diff\n\n"
     << "A: " << mdCode(A.Input, false) << " (" << A.Units.size()
     << (A.Units.size() == 1 ? " unit" : " units") << "), B: "
     << mdCode(B.Input, false) << " (" << B.Units.size()
     << (B.Units.size() == 1 ? " unit" : " units")
     << "). Compared: post-grad nodes, kernels, fusion, source lines and "
        "collectives, with device indices, paths, addresses and buffer and "
        "kernel counters normalised.\n\n";
  if (Pairs.empty())
    OS << "**Equal**: no units on either side.\n\n";
  else if (!Differ)
    OS << "**Equal**: " << Pairs.size()
       << (Pairs.size() == 1 ? " unit pair agrees" : " unit pairs agree")
       << ".\n\n";
  else
    OS << "**Different**: " << Differ << " of " << Pairs.size()
       << (Pairs.size() == 1 ? " unit pair differs" : " unit pairs differ")
       << ", " << changeCount(Pairs)
       << (changeCount(Pairs) == 1 ? " difference" : " differences")
       << ".\n\n";
  if (Pairs.empty())
    return;
  OS << "| A | B | result |\n|---|---|---|\n";
  for (const UnitPair &P : Pairs) {
    OS << "| " << side(P.A) << " | " << side(P.B) << " | ";
    if (!P.A)
      OS << "only in B";
    else if (!P.B)
      OS << "only in A";
    else if (P.Changes.empty())
      OS << "equal";
    else
      OS << P.Changes.size()
         << (P.Changes.size() == 1 ? " difference" : " differences");
    OS << " |\n";
  }
  OS << "\n";
  for (const UnitPair &P : Pairs) {
    if (P.Changes.empty())
      continue;
    OS << "## " << mdCode(P.A->Id, false) << " against "
       << mdCode(P.B->Id, false) << "\n\n"
       << "| kind | change | what | A -> B |\n|---|---|---|---|\n";
    for (const DigestChange &C : P.Changes)
      OS << "| " << C.Kind << " | " << C.Change << " | " << mdCode(C.What)
         << " | " << mdCode(C.Detail) << " |\n";
    OS << "\n";
  }
}

} // namespace tlp
