//===- Emitter.cpp - Emitter interface ------------------------------------===//

#include "tlp/Emit/Emitter.h"

#include "tlp/Support/StringUtils.h"

#include "llvm/Support/ErrorHandling.h"

#include <iterator>
#include <utility>

using namespace llvm;

namespace tlp {

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

Error emitModule(Emitter &E, const Module &M) {
  Expected<std::unique_ptr<EmitTarget>> T =
      EmitTarget::open(E.traits(), E.options());
  if (!T)
    return T.takeError();
  E.setTarget(T->get());
  Error Err = E.begin(M);
  for (const std::unique_ptr<CompileUnit> &U : M.Units)
    if (!Err)
      Err = E.unit(M, *U);
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
