//===- EmitSupport.cpp - Helpers shared by the text emitters --------------===//

#include "EmitSupport.h"

#include "tlp/Parse/ChromeTraceReader.h"

#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/StringUtils.h"
#include "tlp/Support/Swar.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

using namespace llvm;

namespace tlp {
namespace emit {

bool readProfile(const EmitOptions &Opts, DiagnosticEngine &Diags,
                 Optional<ProfileTrace> &T) {
  T.reset();
  if (Opts.Profile.empty())
    return true;
  T.emplace();
  if (!readChromeTraceFile(Opts.Profile, *T, Diags)) {
    T.reset();
    return false;
  }
  return true;
}

std::string torchVersionText(const Module &M) {
  std::vector<std::string> Seen;
  bool SomeUnknown = false;
  for (const LogFile &L : M.Logs) {
    if (L.TorchVersion.empty()) {
      SomeUnknown = true;
      continue;
    }
    std::string V = L.TorchVersion;
    if (!L.TorchCommit.empty())
      V += " (commit " + StringRef(L.TorchCommit).take_front(12).str() + ")";
    if (!llvm::is_contained(Seen, V))
      Seen.push_back(std::move(V));
  }
  if (Seen.empty())
    return M.Logs.size() > 1 ? "PyTorch version: not in the logs"
                             : "PyTorch version: not in the log";
  std::string S = "PyTorch " + llvm::join(Seen, ", ");
  if (Seen.size() > 1)
    S += ": the logs were written by different versions";
  if (SomeUnknown)
    S += "; some logs do not say";
  return S;
}

std::string unitCompileName(const Module &M, const CompileUnit &U) {
  if (!U.Key.Id)
    return std::string();
  std::string S = U.Key.Id->str();
  if (const CompileRecord *R = M.findCompile(U))
    if (R->Ordinal)
      S += " #" + std::to_string(R->Ordinal);
  return S;
}

std::string mdText(StringRef S) {
  std::string Out;
  Out.reserve(S.size() + 8);
  for (char C : S) {
    switch (C) {
    case '\\':
    case '`':
    case '*':
    case '_':
    case '[':
    case ']':
    case '<':
    case '>':
    case '#':
    case '!':
    case '|':
    case '~':
    case '&':
    case '@':
    case '$':
      Out += '\\';
      Out += C;
      break;
    case '\n':
    case '\r':
    case '\t':
      Out += ' ';
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::string clip(StringRef S, size_t Max) {
  if (S.size() <= Max)
    return S.str();
  size_t N = Max;
  // Do not cut inside a UTF-8 sequence.
  while (N > 0 && (static_cast<unsigned char>(S[N]) & 0xC0) == 0x80)
    --N;
  return S.take_front(N).str() + "...";
}

std::string clipDifference(StringRef S, StringRef Other, size_t Max) {
  if (S.size() <= Max)
    return S.str();
  size_t Pos = 0;
  while (Pos < S.size() && Pos < Other.size() && S[Pos] == Other[Pos])
    ++Pos;
  if (Pos + 40 <= Max)
    return clip(S, Max);
  size_t Start = Pos > 40 ? Pos - 40 : 0;
  while (Start > 0 && (static_cast<unsigned char>(S[Start]) & 0xC0) == 0x80)
    --Start;
  return "..." + clip(S.drop_front(Start), Max);
}

std::string mdCell(StringRef S, size_t Max) { return mdText(clip(S, Max)); }

std::string timelineStepText(const TimelineStep &S) {
  if (S.Stage == 0)
    return "first stage";
  if (S.SameText)
    return "same text";
  if (S.Changes.empty())
    return "no node changed (the text differs)";
  std::string T;
  auto Add = [&](unsigned N, const char *What) {
    if (!N)
      return;
    T += (T.empty() ? "" : ", ") + std::to_string(N) + " " + What;
  };
  Add(S.Added, "added");
  Add(S.Removed, "removed");
  Add(S.Changed, "changed");
  return T;
}

size_t textFileLines(StringRef Text) {
  return Text.count('\n') + (!Text.empty() && !Text.endswith("\n"));
}

StringRef unitFileTitle(UnitFile::FileKind K) {
  switch (K) {
  case UnitFile::KernelModule:
    return "kernel module";
  case UnitFile::BestConfig:
    return "autotune config";
  case UnitFile::DynamoCode:
    return "Dynamo code";
  }
  return "file";
}

std::string mdCode(StringRef S, bool InTable) {
  std::string Body;
  Body.reserve(S.size());
  size_t Run = 0, MaxRun = 0;
  for (char C : S) {
    if (C == '\n' || C == '\r' || C == '\t')
      C = ' ';
    if (C == '`')
      MaxRun = std::max(MaxRun, ++Run);
    else
      Run = 0;
    if (C == '|' && InTable)
      Body += '\\';
    Body += C;
  }
  if (Body.empty())
    return "` `";
  std::string Fence(MaxRun + 1, '`');
  bool Pad = Body.front() == '`' || Body.back() == '`' ||
             (Body.front() == ' ' && Body.back() == ' ');
  return Fence + (Pad ? " " : "") + Body + (Pad ? " " : "") + Fence;
}

std::string mdFence(StringRef Body, StringRef Info) {
  size_t Run = 0, MaxRun = 0;
  for (char C : Body) {
    if (C == '`')
      MaxRun = std::max(MaxRun, ++Run);
    else
      Run = 0;
  }
  std::string Fence(std::max<size_t>(3, MaxRun + 1), '`');
  std::string Out = Fence + Info.str() + "\n" + Body.str();
  if (!Body.empty() && Body.back() != '\n')
    Out += '\n';
  return Out + Fence + "\n";
}

std::string dotString(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (C == '\n') {
      Out += "\\n";
    } else if ((unsigned char)C < 0x20 || C == 0x7f) {
      continue;
    } else {
      Out += C;
    }
  }
  return Out + "\"";
}

StringRef baseName(StringRef Path) {
  size_t Slash = Path.find_last_of("/\\");
  return Slash == StringRef::npos ? Path : Path.substr(Slash + 1);
}

std::string mdCodeList(ArrayRef<std::string> Names, size_t Max, bool InTable) {
  std::string Out;
  for (size_t I = 0; I < Names.size() && I < Max; ++I) {
    if (I)
      Out += ", ";
    Out += mdCode(Names[I], InTable);
  }
  if (Names.size() > Max)
    Out += " and " + std::to_string(Names.size() - Max) + " more";
  return Out;
}

/// The bytes of \p W that HTML text escapes, as a swar mask: the five,
/// and with \p Pre a line break.
static uint64_t htmlSpecial(uint64_t W, bool Pre) {
  using namespace swar;
  uint64_t M = equal(W, '&') | equal(W, '<') | equal(W, '>') |
               equal(W, '"') | equal(W, '\'');
  return Pre ? M | equal(W, '\n') : M;
}

/// \p S (printable) escaped for HTML, passed to \p Append a piece at a
/// time; with \p Pre each line break as "&#10;".
template <typename AppendFn>
static void escapeHTMLPieces(StringRef S, bool Pre, AppendFn Append) {
  // Runs without a special byte are passed whole; they are found eight
  // bytes at a time (most log text has none), and a word that has one
  // leads straight to it.
  const char *P = S.begin(), *E = S.end(), *Run = P;
  while (P != E) {
    if (E - P >= 8) {
      uint64_t M = htmlSpecial(swar::load(P), Pre);
      if (!M) {
        P += 8;
        continue;
      }
      P += swar::firstFlagged(M);
    }
    StringRef Rep;
    switch (*P) {
    case '&':
      Rep = "&amp;";
      break;
    case '<':
      Rep = "&lt;";
      break;
    case '>':
      Rep = "&gt;";
      break;
    case '"':
      Rep = "&quot;";
      break;
    case '\'':
      Rep = "&#39;";
      break;
    case '\n':
      if (Pre) {
        Rep = "&#10;";
        break;
      }
      ++P;
      continue;
    default:
      ++P;
      continue;
    }
    Append(StringRef(Run, P - Run));
    Append(Rep);
    Run = ++P;
  }
  Append(StringRef(Run, P - Run));
}

static std::string escapeHTMLString(StringRef S, bool Pre) {
  // No control character or invalid UTF-8 from a log in a page either.
  if (!isPrintable(S))
    return escapeHTMLString(printable(S), Pre);
  std::string Out;
  Out.reserve(S.size() + S.size() / 8);
  escapeHTMLPieces(S, Pre, [&](StringRef Piece) {
    Out.append(Piece.data(), Piece.size());
  });
  return Out;
}

std::string escapeHTML(StringRef S) { return escapeHTMLString(S, false); }

std::string escapePreHTML(StringRef S) { return escapeHTMLString(S, true); }

raw_ostream &operator<<(raw_ostream &OS, const HTMLText &T) {
  if (!isPrintable(T.Text)) {
    std::string P = printable(T.Text);
    return OS << HTMLText{P, T.Pre};
  }
  escapeHTMLPieces(T.Text, T.Pre, [&](StringRef Piece) { OS << Piece; });
  return OS;
}

StringRef rawLanguage(const RawEvent &E, StringRef Text) {
  StringRef T = Text.ltrim(" \t\r\n");
  if (E.Encoding == "json" || T.startswith("{") || T.startswith("["))
    return "json";
  // Dynamo's bytecode listings (dis output) are not Python.
  if (StringRef(E.Name).endswith("_BYTECODE"))
    return "text";
  if (T.startswith("#include") || Text.contains("\n#include"))
    return "cpp";
  // torch.export's program: "ExportedProgram:" over its graph module.
  if (T.startswith("ExportedProgram:"))
    return "py";
  for (StringRef P : {"class ", "def ", "import ", "from ", "#", "@",
                      "async def "})
    if (T.startswith(P))
      return "py";
  if (StringRef(E.Name).contains("graph") && Text.contains("torch."))
    return "py";
  return "text";
}

std::string rawFileName(const RawEvent &E, StringRef Lang) {
  StringRef Name = E.Name;
  size_t Colon = Name.find(':');
  if (Colon != StringRef::npos)
    Name = Name.drop_front(Colon + 1);
  std::string Out;
  for (char C : Name)
    Out += isAlnum(C) || C == '_' || C == '-' || C == '.' ? C : '_';
  if (Out.empty() || Out[0] == '.')
    Out.insert(Out.begin(), '_');
  Out += Lang == "py"     ? ".py"
         : Lang == "cpp"  ? ".cpp"
         : Lang == "json" ? ".json"
                          : ".txt";
  return Out;
}

std::string statusCountsText(const Module &M, ArrayRef<size_t> Order) {
  size_t N[4] = {0, 0, 0, 0}, Captures = 0;
  for (size_t I : Order) {
    const CompileRecord &R = M.Compiles[I];
    if (R.Status == CompileStatus::Unknown && R.isCompiledAutogradCapture())
      ++Captures;
    else
      ++N[static_cast<int>(R.Status)];
  }
  std::string S = std::to_string(N[0]) + " succeeded, " +
                  std::to_string(N[2]) + " failed, " + std::to_string(N[1]) +
                  " restarted, " + std::to_string(N[3]) + " unknown";
  if (Captures)
    S += ", " + std::to_string(Captures) +
         (Captures == 1 ? " compiled autograd capture"
                        : " compiled autograd captures");
  return S;
}

std::string ddpSplitText(const CompileRecord &R, bool Markdown) {
  if (R.DdpSubmodules.empty())
    return std::string();
  size_t N = R.DdpSubmodules.size();
  std::string S = "; split by DDPOptimizer into " + std::to_string(N) +
                  (N == 1 ? " submodule: " : " submodules: ");
  for (size_t I = 0; I < N; ++I)
    S += (I ? ", " : "") +
         (Markdown ? mdCode(R.DdpSubmodules[I]) : R.DdpSubmodules[I]);
  return S;
}

} // namespace emit
} // namespace tlp
