//===- LogEvents.cpp - Looking event names up in LogEvents.def ------------===//
//
// Part of tlp. The reader's one table of event names is
// include/tlp/Parse/LogEvents.def; the lookup here is built from it.
//
//===----------------------------------------------------------------------===//

#include "ReaderInternals.h"

#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace tlp {
namespace reader {

namespace {

/// A name is in the table once for each form (checked when tlp is built).
struct RowName {
  EventForm Form;
  const char *Name;
};

constexpr RowName RowNames[] = {
#define TLP_LOG_EVENT(FORM, NAME, BECOMES, TARGET, FLAGS)                      \
  {EventForm::FORM, NAME},
#include "tlp/Parse/LogEvents.def"
};

constexpr bool sameText(const char *A, const char *B) {
  while (*A && *A == *B)
    ++A, ++B;
  return *A == *B;
}

constexpr bool rowsAreUnique() {
  constexpr size_t N = sizeof(RowNames) / sizeof(RowNames[0]);
  for (size_t I = 0; I < N; ++I)
    for (size_t J = I + 1; J < N; ++J)
      if (RowNames[I].Form == RowNames[J].Form &&
          sameText(RowNames[I].Name, RowNames[J].Name))
        return false;
  return true;
}
static_assert(rowsAreUnique(), "a name has two rows in LogEvents.def");

/// Every artifact kind has a name in the log (checked when tlp is built).
#define TLP_LOG_KIND_Artifact(T) Artifact::T,
#define TLP_LOG_KIND_Compile(T)
#define TLP_LOG_KIND_Health(T)
#define TLP_LOG_KIND_Named(T)
#define TLP_LOG_KIND_Strings(T)
#define TLP_LOG_KIND_Ignored(T)
constexpr Artifact::ArtifactKind RowKinds[] = {
#define TLP_LOG_EVENT(FORM, NAME, BECOMES, TARGET, FLAGS)                      \
  TLP_LOG_KIND_##BECOMES(TARGET)
#include "tlp/Parse/LogEvents.def"
};

constexpr bool hasRow(Artifact::ArtifactKind K) {
  for (Artifact::ArtifactKind R : RowKinds)
    if (R == K)
      return true;
  return false;
}

/// The scheduler IR is written only to TORCH_COMPILE_DEBUG folders
/// (torch/_inductor/debug.py; TORCH_LOGS prints it as text), never to a
/// TORCH_TRACE log.
constexpr bool onlyInDebugFolders(Artifact::ArtifactKind K) {
  return K == Artifact::AK_IRPreFusion || K == Artifact::AK_IRPostFusion;
}

constexpr bool everyKindHasRow() {
#define TLP_ARTIFACT_KIND(KIND, NAME, CLASS, SLOT)                             \
  if (!hasRow(Artifact::KIND) && !onlyInDebugFolders(Artifact::KIND))          \
    return false;
#include "tlp/IR/ArtifactKinds.def"
  return true;
}
static_assert(everyKindHasRow(),
              "an artifact kind of ArtifactKinds.def has no row in "
              "LogEvents.def: the reader would never make one");

// TARGET of each BECOMES (LogEvents.def).
#define TLP_LOG_TARGET_Artifact(T) Info.AK = Artifact::T;
#define TLP_LOG_TARGET_Compile(T) Info.CE = CompileEvent::T;
#define TLP_LOG_TARGET_Health(T) Info.HK = HealthKind::T;
#define TLP_LOG_TARGET_Named(T) Info.Names = EventForm::T;
#define TLP_LOG_TARGET_Strings(T)
#define TLP_LOG_TARGET_Ignored(T)

struct Registry {
  StringMap<LogEventInfo> Names[NumEventForms];

  Registry() {
#define TLP_LOG_EVENT(FORM, NAME, BECOMES, TARGET, FLAGS)                      \
  {                                                                            \
    LogEventInfo Info;                                                         \
    Info.Class = EventClass::BECOMES;                                          \
    TLP_LOG_TARGET_##BECOMES(TARGET) Info.Flags =                              \
        static_cast<uint8_t>(FLAGS);                                           \
    Names[static_cast<unsigned>(EventForm::FORM)].try_emplace(NAME, Info);     \
  }
#include "tlp/Parse/LogEvents.def"
  }
};

const Registry &registry() {
  static const Registry R;
  return R;
}

} // namespace

const LogEventInfo *lookupLogEvent(EventForm Form, StringRef Name) {
  const StringMap<LogEventInfo> &M =
      registry().Names[static_cast<unsigned>(Form)];
  auto It = M.find(Name);
  return It == M.end() ? nullptr : &It->second;
}

StringRef nearLogEvent(EventForm Form, StringRef Name) {
  const StringMap<LogEventInfo> &M =
      registry().Names[static_cast<unsigned>(Form)];
  // A short name ("artifact", "export") is near a known one only when it
  // differs in case alone, or in one byte of the same length from six bytes
  // on: PyTorch writes its names in lower case, and a new name one
  // substitution from a short one it has is less likely than a damaged
  // byte. Shorter still ("str", "link"): case alone.
  if (Name.size() < 10) {
    StringRef SameLetters, OneByte;
    for (const auto &E : M) {
      StringRef Known = E.getKey();
      if (Known.size() != Name.size() || Known == Name)
        continue;
      // The first of equally near names in name order: the same on every
      // run, whatever the map's order.
      if (Known.equals_insensitive(Name)) {
        if (SameLetters.empty() || Known < SameLetters)
          SameLetters = Known;
        continue;
      }
      if (Name.size() < 6)
        continue;
      unsigned Diff = 0;
      for (size_t I = 0; I < Name.size() && Diff < 2; ++I)
        Diff += Name[I] != Known[I];
      if (Diff == 1 && (OneByte.empty() || Known < OneByte))
        OneByte = Known;
    }
    return SameLetters.empty() ? OneByte : SameLetters;
  }
  StringRef Best;
  unsigned BestDistance = 3;
  for (const auto &E : M) {
    StringRef Known = E.getKey();
    if (Known.size() + 2 < Name.size() || Name.size() + 2 < Known.size())
      continue;
    unsigned D = Name.edit_distance(Known, /*AllowReplacements=*/true,
                                    /*MaxEditDistance=*/2);
    // The first of equally near names in name order: the same on every run.
    if (D && (D < BestDistance || (D == BestDistance && Known < Best))) {
      BestDistance = D;
      Best = Known;
    }
  }
  return Best;
}

} // namespace reader
} // namespace tlp
