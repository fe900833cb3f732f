//===- ChromeTraceEmitter.cpp - Chrome Trace Event JSON ---------*- C++ -*-===//
//
// Part of tlp. Writes the chromium_event spans of the compile records as a
// Chrome Trace Event Format document ({"traceEvents": [...]}) that
// Perfetto and chrome://tracing open: one process (pid) per rank (1000 +
// the log index for a log without a rank), named by process_name and
// ordered by process_sort_index metadata events, each thread named by a
// thread_name event; each span a complete "X" event with its duration,
// instants "i", a begin whose end never came "B" with args.unfinished.
// Times are the microseconds of the log. Within a process the events are
// sorted by start, the longer span first, so that parents precede their
// children. args carry the compile id and its status (for a span of a
// compile) and the log line. Only the compile records are read: the units
// are not needed.
//
//===----------------------------------------------------------------------===//

#include "EmitSupport.h"

#include "tlp/Emit/Emitter.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/ADT/STLExtras.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>

using namespace llvm;
using ojson = nlohmann::ordered_json;

namespace tlp {

namespace {

struct TraceEvent {
  const Span *S;
  const CompileRecord *R;
};

struct Process {
  std::string Name;
  std::set<int64_t> Threads;
  std::vector<TraceEvent> Events;
};

class ChromeTraceEmitter : public Emitter {
public:
  using Emitter::Emitter;

  EmitterTraits traits() const override {
    EmitterTraits T;
    T.NeedsUnits = false;
    return T;
  }

  Error unit(const Module &, const CompileUnit &) override {
    return Error::success();
  }

  Error end(const Module &M) override {
    raw_ostream *OS = &out();

    // One process per rank; a log without a rank is its own process.
    std::map<int64_t, Process> Procs;
    for (const CompileRecord &R : M.Compiles) {
      int64_t Pid = R.Rank ? *R.Rank : 1000 + static_cast<int64_t>(R.Log);
      auto Ins = Procs.try_emplace(Pid);
      Process &P = Ins.first->second;
      if (Ins.second)
        P.Name = R.Rank ? "rank " + std::to_string(*R.Rank)
                        : M.logName(R.Log);
      for (const Span &S : R.Spans) {
        P.Threads.insert(S.Tid);
        P.Events.push_back({&S, &R});
      }
    }

    *OS << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [";
    bool First = true;
    auto Emit = [&](const ojson &E) {
      *OS << (First ? "\n" : ",\n")
          << E.dump(-1, ' ', false, ojson::error_handler_t::replace);
      First = false;
    };
    auto Meta = [&](const char *Name, int64_t Pid, Optional<int64_t> Tid,
                    ojson Args) {
      ojson E = ojson::object();
      E["name"] = Name;
      E["ph"] = "M";
      E["pid"] = Pid;
      if (Tid)
        E["tid"] = *Tid;
      E["args"] = std::move(Args);
      Emit(E);
    };
    for (auto &KV : Procs) {
      int64_t Pid = KV.first;
      Process &P = KV.second;
      Meta("process_name", Pid, None, {{"name", P.Name}});
      Meta("process_sort_index", Pid, None, {{"sort_index", Pid}});
      for (int64_t Tid : P.Threads)
        Meta("thread_name", Pid, Tid,
             {{"name", "thread " + std::to_string(Tid)}});
      // Parents first: by start, then the longer span, then log order.
      llvm::stable_sort(P.Events, [](const TraceEvent &A,
                                     const TraceEvent &B) {
        if (A.S->Start != B.S->Start)
          return A.S->Start < B.S->Start;
        return A.S->Duration > B.S->Duration;
      });
      for (const TraceEvent &T : P.Events) {
        const Span &S = *T.S;
        const CompileRecord &R = *T.R;
        ojson E = ojson::object();
        E["name"] = S.Name.str();
        E["cat"] = S.Category.empty() ? std::string("tlp") : S.Category.str();
        E["ph"] = std::string(1, S.Phase);
        E["ts"] = S.Start;
        if (S.Phase == 'X')
          E["dur"] = S.Duration;
        else if (S.Phase == 'i')
          E["s"] = "t";
        E["pid"] = Pid;
        E["tid"] = S.Tid;
        ojson Args = ojson::object();
        if (R.Id) {
          Args["compile_id"] = R.Id->str();
          if (R.Ordinal)
            Args["compile"] = R.idName();
          Args["status"] = compileStatusName(R.Status).str();
        }
        Args["log_line"] = S.Line;
        if (S.Phase == 'B')
          Args["unfinished"] = true;
        E["args"] = std::move(Args);
        Emit(E);
      }
    }
    *OS << "\n]}\n";
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Emitter> createChromeTraceEmitter(const EmitOptions &Opts,
                                                  DiagnosticEngine &Diags) {
  return std::make_unique<ChromeTraceEmitter>(Opts, Diags);
}

} // namespace tlp
