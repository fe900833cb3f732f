//===- Emitter.cpp - Emitter interface ------------------------------------===//

#include "tlp/Emit/Emitter.h"

#include "tlp/Support/StringUtils.h"

#include "llvm/Support/ErrorHandling.h"

#include <iterator>
#include <utility>

using namespace llvm;

namespace tlp {

PreparedUnit::~PreparedUnit() = default;
Emitter::~Emitter() = default;

#define TLP_EMIT_OPTION(TYPE, FLAG)                                            \
  StringRef emitOptionName(TYPE V) {                                           \
    switch (V) {
#define TLP_EMIT_OPTION_VALUE(TYPE, VALUE, TEXT)                               \
  case TYPE::VALUE:                                                            \
    return TEXT;
#define TLP_EMIT_OPTION_END(TYPE)                                              \
  }                                                                            \
  llvm_unreachable("bad " #TYPE);                                              \
  }
#include "tlp/Emit/EmitOptions.def"

namespace {
/// The words of an option and its flag, from EmitOptions.def.
template <typename T> struct OptionTable;
#define TLP_EMIT_OPTION(TYPE, FLAG)                                            \
  template <> struct OptionTable<TYPE> {                                       \
    static constexpr const char *Flag = FLAG;                                  \
    static constexpr std::pair<TYPE, const char *> Values[] = {
#define TLP_EMIT_OPTION_VALUE(TYPE, VALUE, TEXT) {TYPE::VALUE, TEXT},
#define TLP_EMIT_OPTION_END(TYPE)                                              \
  }                                                                            \
  ;                                                                            \
  }                                                                            \
  ;
#include "tlp/Emit/EmitOptions.def"
} // namespace

template <typename T> Expected<T> parseEmitOption(StringRef Text) {
  using Table = OptionTable<T>;
  std::string Words;
  size_t N = std::size(Table::Values);
  for (size_t I = 0; I < N; ++I) {
    if (Text == Table::Values[I].second)
      return Table::Values[I].first;
    Words += I == 0 ? "" : I + 1 == N ? " or " : ", ";
    Words += Table::Values[I].second;
  }
  return createStringError(std::errc::invalid_argument,
                           "unknown --%s value '%s' (expected %s)",
                           Table::Flag, Text.str().c_str(), Words.c_str());
}

#define TLP_EMIT_OPTION(TYPE, FLAG)                                            \
  template Expected<TYPE> parseEmitOption<TYPE>(StringRef);
#include "tlp/Emit/EmitOptions.def"

bool UnitSelector::matches(const CompileUnit &U, size_t Index) const {
  if (Text.empty())
    return true;
  if (Text == U.Key.slug() || Text == U.Key.displayName())
    return true;
  uint64_t N;
  return parseUnsigned(Text, N) && N == Index;
}

Error UnitSelector::noMatch(ArrayRef<std::string> Units) const {
  std::string Msg = "unknown unit '" + Text + "'";
  if (Units.empty()) {
    Msg += "; the input has no compile units";
  } else {
    Msg += "; the units are: ";
    for (size_t I = 0; I < Units.size(); ++I) {
      if (I)
        Msg += ", ";
      Msg += std::to_string(I) + ": " + Units[I];
    }
  }
  return createStringError(std::errc::invalid_argument, Msg.c_str());
}

bool ModuleFactsBuilder::mayBeSelected(const CompileUnit &U,
                                       size_t Index) const {
  return !Traits.Select || Traits.Select->matches(U, Index);
}

Optional<UnitDigest> ModuleFactsBuilder::digest(const Module &M,
                                                const CompileUnit &U) const {
  if (!Traits.NeedsDigests || !U.Key.Rank)
    return None;
  return digestUnit(M, U, /*KeepCode=*/false);
}

void ModuleFactsBuilder::add(const Module &M, const CompileUnit &U,
                             Optional<UnitDigest> Digest) {
  size_t Index = Facts.Units.size();
  ModuleFacts::Unit F;
  std::string Slug = U.Key.slug();
  F.Id = Slug;
  // One way to make ids unique, for every output: slug-dupN.
  for (unsigned N = 2; !Taken.insert(F.Id).second; ++N)
    F.Id = Slug + "-dup" + std::to_string(N);
  F.Name = U.Key.displayName();
  F.HasCode = U.Code || U.KernelCode || !U.Kernels.empty();
  F.Graph = U.Key.Graph;
  if (const CompileRecord *R = M.findCompile(U)) {
    F.Record = static_cast<size_t>(R - M.Compiles.data());
    Facts.UnitsOfRecord[*F.Record].push_back(Index);
    // Its collective calls, in call order, when its compile logged a
    // schedule to compare them with.
    if (!R->Schedules.empty()) {
      std::vector<std::pair<uint32_t, const std::string *>> Calls;
      for (const Kernel &K : U.Kernels)
        if (K.Kind == KernelKind::Collective)
          for (uint32_t L : K.CallLines)
            Calls.push_back({L, &K.Name});
      llvm::sort(Calls, [](const auto &A, const auto &B) {
        return A.first < B.first;
      });
      std::vector<std::string> &Out = Facts.Collectives[*F.Record];
      for (const auto &C : Calls)
        Out.push_back(*C.second);
    }
  }
  // --unit names a unit by slug, display name, index or unique id.
  F.Selected = (mayBeSelected(U, Index) ||
                (Traits.Select && Traits.Select->text() == F.Id)) &&
               !(Traits.FirstOnly && AnySelected);
  AnySelected |= F.Selected;
  if (Traits.Select && !Traits.Select->empty())
    ListEntries.push_back(Slug + " (" + F.Name + ")");
  if (Digest) {
    Digest->Id = F.Id;
    Facts.Digests.push_back(std::move(*Digest));
  }
  if (Traits.NeedsProfile)
    Facts.ProfileUnits.push_back(profileUnit(M, U, F.Id, F.Name));
  Facts.Units.push_back(std::move(F));
}

Error ModuleFactsBuilder::finish() const {
  if (Traits.Select && !Traits.Select->empty() && !AnySelected)
    return Traits.Select->noMatch(ListEntries);
  return Error::success();
}

Error emitModule(Emitter &E, const Module &M) {
  EmitterTraits Traits = E.traits();
  Expected<std::unique_ptr<EmitTarget>> T =
      EmitTarget::open(Traits, E.options());
  if (!T)
    return T.takeError();
  E.setTarget(T->get());
  ModuleFactsBuilder Facts(Traits);
  E.setFacts(&Facts.facts());
  Error Err = E.begin(M);
  for (const std::unique_ptr<CompileUnit> &U : M.Units) {
    if (Err)
      break;
    Facts.add(M, *U, Facts.digest(M, *U));
    Err = E.unit(M, *U);
  }
  if (!Err)
    Err = Facts.finish();
  if (!Err)
    Err = E.end(M);
  if (!Err)
    Err = (*T)->commit();
  if (Err)
    E.abort();
  E.setTarget(nullptr);
  return Err;
}

} // namespace tlp
