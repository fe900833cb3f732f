//===- LogWriter.cpp - Write a log from its YAML description --------------===//
//
// The bytes torch._logging writes for a trace event (FORMAT.md 1.2-1.5):
//
//   V0819 12:00:00.007000 4242 torch/_inductor/compile_fx.py:1000] {JSON}
//   <TAB>payload line
//
// The JSON envelope is the event's name and metadata, then rank, stack or
// the compile id fields, then has_payload (the md5 of the payload).
//
//===----------------------------------------------------------------------===//

#include "tlp/LogYAML/LogYAML.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tlp;
using namespace tlp::logyaml;

static constexpr int64_t MicrosPerDay = 24ll * 3600 * 1000000;

Expected<LogTime> tlp::logyaml::parseTime(StringRef S) {
  // MMDD HH:MM:SS.ffffff
  auto Bad = [&] {
    return createStringError(std::errc::invalid_argument,
                             "'%s' is not a time MMDD HH:MM:SS.ffffff",
                             S.str().c_str());
  };
  if (S.size() != 20 || S[4] != ' ' || S[7] != ':' || S[10] != ':' ||
      S[13] != '.')
    return Bad();
  for (size_t I : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 16, 17, 18, 19})
    if (!isDigit(S[I]))
      return Bad();
  auto Num = [&](size_t At, size_t Len) {
    unsigned V = 0;
    S.substr(At, Len).getAsInteger(10, V);
    return int64_t(V);
  };
  int64_t H = Num(5, 2), M = Num(8, 2), Sec = Num(11, 2);
  if (H > 23 || M > 59 || Sec > 59)
    return Bad();
  LogTime T;
  T.Date = S.substr(0, 4).str();
  T.Micros = ((H * 60 + M) * 60 + Sec) * 1000000 + Num(14, 6);
  return T;
}

Error tlp::logyaml::checkSource(StringRef S) {
  size_t Colon = S.rfind(':');
  StringRef Line = Colon == StringRef::npos ? "" : S.substr(Colon + 1);
  if (Colon == 0 || Line.empty() ||
      !llvm::all_of(Line, [](char C) { return isDigit(C); }) ||
      S.find_first_of("]\n\r") != StringRef::npos)
    return createStringError(std::errc::invalid_argument,
                             "'%s' is not a source path:line",
                             S.str().c_str());
  return Error::success();
}

/// The bytes of \p S: UTF-8, where the encoding of U+DC80..U+DCFF (ED B2 80
/// .. ED B3 BF) stands for the byte 0x80..0xFF (Python's surrogateescape).
static std::string decodeBytes(StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (size_t I = 0; I < S.size(); ++I) {
    unsigned char C0 = S[I];
    if (C0 == 0xED && I + 2 < S.size()) {
      unsigned char C1 = S[I + 1], C2 = S[I + 2];
      if ((C1 == 0xB2 || C1 == 0xB3) && (C2 & 0xC0) == 0x80) {
        unsigned CP = 0xD000 | ((C1 & 0x3F) << 6) | (C2 & 0x3F);
        Out += char(CP & 0xFF);
        I += 2;
        continue;
      }
    }
    Out += char(C0);
  }
  return Out;
}

static void splitLines(StringRef Text, std::vector<std::string> &Lines,
                       StringRef Prefix) {
  SmallVector<StringRef, 64> Parts;
  Text.split(Parts, '\n');
  for (StringRef P : Parts)
    Lines.push_back((Prefix + P).str());
}

Error tlp::logyaml::writeLog(const Log &L, raw_ostream &OS) {
  Expected<LogTime> Start = parseTime(L.Start);
  if (!Start)
    return Start.takeError();
  LogTime Clock = *Start;
  bool First = true;
  std::vector<std::string> Lines;
  for (const Event &E : L.Events) {
    if (E.Raw) {
      splitLines(decodeBytes(*E.Raw), Lines, "");
      continue;
    }
    if (E.Time) {
      Expected<LogTime> T = parseTime(*E.Time);
      if (!T)
        return T.takeError();
      Clock = *T;
    } else if (!First) {
      Clock.Micros += L.StepMs * 1000;
    }
    First = false;
    StringRef Source = E.Source ? StringRef(*E.Source)
                       : E.Name == "str" ? StringRef("torch/_logging/structured.py:28")
                                         : StringRef(L.Source);
    if (Error Err = checkSource(Source))
      return Err;

    std::string Line;
    raw_string_ostream LS(Line);
    int64_t Us = Clock.Micros % MicrosPerDay;
    LS << (E.Level ? *E.Level : std::string("V")) << Clock.Date << ' '
       << format("%02d:%02d:%02d.%06d", int(Us / 3600000000),
                 int(Us / 60000000 % 60), int(Us / 1000000 % 60),
                 int(Us % 1000000))
       << ' ' << (E.Pid ? *E.Pid : L.Pid) << ' ' << Source << "] ";

    Expected<std::string> Name = quoteJSON(E.Name);
    if (!Name)
      return Name.takeError();
    LS << '{' << *Name << ": " << (E.Metadata ? E.Metadata->Text : "{}");
    if (E.Rank)
      LS << ", \"rank\": " << *E.Rank;
    if (E.Stack)
      LS << ", \"stack\": " << E.Stack->Text;
    if (E.CompiledAutogradId)
      LS << ", \"compiled_autograd_id\": " << E.CompiledAutogradId->Text;
    if (E.FrameId)
      LS << ", \"frame_id\": " << *E.FrameId;
    if (E.FrameCompileId)
      LS << ", \"frame_compile_id\": " << *E.FrameCompileId;
    if (E.Attempt)
      LS << ", \"attempt\": " << *E.Attempt;
    std::string Payload;
    if (E.Payload)
      Payload = decodeBytes(*E.Payload);
    if (E.MD5) {
      LS << ", \"has_payload\": \"" << *E.MD5 << '"';
    } else if (E.Payload) {
      MD5 Hash;
      Hash.update(Payload);
      MD5::MD5Result R;
      Hash.final(R);
      LS << ", \"has_payload\": \"" << R.digest() << '"';
    }
    LS << '}';
    Lines.push_back(std::move(LS.str()));
    if (E.Payload)
      splitLines(Payload, Lines, "\t");
  }
  StringRef EOL = L.LineEnding == "crlf" ? "\r\n" : "\n";
  for (size_t I = 0; I < Lines.size(); ++I) {
    OS << Lines[I];
    if (I + 1 < Lines.size() || L.FinalNewline)
      OS << EOL;
  }
  return Error::success();
}

Error tlp::logyaml::convertYAML(yaml::Input &YIn, raw_ostream &OS,
                                unsigned DocNum) {
  unsigned CurDoc = 0;
  while (YIn.setCurrentDocument()) {
    if (++CurDoc == DocNum) {
      Log L;
      yaml::EmptyContext Ctx;
      yamlize(YIn, L, true, Ctx);
      if (YIn.error())
        return createStringError(YIn.error(), "the YAML is not a valid log");
      return writeLog(L, OS);
    }
    YIn.nextDocument();
  }
  if (YIn.error())
    return createStringError(YIn.error(), "the YAML is not a valid log");
  return createStringError(std::errc::invalid_argument,
                           "no document %u (the file has %u)", DocNum, CurDoc);
}
