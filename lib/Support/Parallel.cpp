//===- Parallel.cpp - Ordered parallel loops ------------------------------===//

#include "tlp/Support/Parallel.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <deque>
#include <future>
#include <memory>
#include <vector>

using namespace llvm;

namespace tlp {

unsigned resolveThreadCount(unsigned Requested) {
  return Requested ? Requested
                   : llvm::hardware_concurrency().compute_thread_count();
}

void parallelFor(size_t N, unsigned Threads, function_ref<void(size_t)> Fn) {
  Threads = resolveThreadCount(Threads);
  if (Threads <= 1 || N < 2) {
    for (size_t I = 0; I < N; ++I)
      Fn(I);
    return;
  }
  ThreadPool Pool(llvm::hardware_concurrency(Threads));
  for (size_t I = 0; I < N; ++I)
    Pool.async([&Fn, I] { Fn(I); });
  Pool.wait();
}

void parallelForOrdered(size_t N, unsigned Threads, DiagnosticEngine &Diags,
                        function_ref<void(size_t, DiagnosticEngine &)> Fn) {
  std::vector<std::unique_ptr<DiagnosticEngine>> Local(N);
  for (auto &L : Local)
    L = std::make_unique<DiagnosticEngine>();
  parallelFor(N, Threads, [&](size_t I) { Fn(I, *Local[I]); });
  for (auto &L : Local)
    Diags.append(*L);
}

WindowItem::~WindowItem() = default;

void runOrderedWindow(unsigned Threads, size_t Window,
                      function_ref<std::unique_ptr<WindowItem>()> Produce,
                      function_ref<void(WindowItem &)> Work,
                      function_ref<bool(WindowItem &)> Consume) {
  Threads = resolveThreadCount(Threads);
  if (!Window)
    Window = std::max<size_t>(2, size_t(Threads) * 2);
  std::unique_ptr<ThreadPool> Pool;
  if (Threads > 1)
    Pool = std::make_unique<ThreadPool>(llvm::hardware_concurrency(Threads));
  struct Slot {
    std::unique_ptr<WindowItem> Item;
    std::shared_future<void> Done;
  };
  std::deque<Slot> Queue;
  bool Exhausted = false, Stopped = false;
  auto Submit = [&] {
    if (Exhausted || Stopped)
      return;
    Slot S;
    S.Item = Produce();
    if (!S.Item) {
      Exhausted = true;
      return;
    }
    if (Pool) {
      WindowItem *Raw = S.Item.get();
      S.Done = Pool->async([&Work, Raw] { Work(*Raw); });
    }
    Queue.push_back(std::move(S));
  };
  for (size_t I = 0; I < Window; ++I)
    Submit();
  while (!Queue.empty()) {
    Slot S = std::move(Queue.front());
    Queue.pop_front();
    if (Pool)
      S.Done.wait();
    else if (!Stopped)
      Work(*S.Item);
    if (Stopped)
      continue;
    Submit();
    if (!Consume(*S.Item))
      Stopped = true;
  }
  if (Pool)
    Pool->wait();
}

void renderInOrder(size_t N, unsigned Threads,
                   function_ref<void(size_t, raw_ostream &)> Render,
                   function_ref<bool(size_t, StringRef)> Write, size_t Batch) {
  struct Texts : WindowItem {
    size_t First = 0, Count = 0;
    std::string Text;
    std::vector<size_t> Ends; // of each item's text in Text
  };
  Batch = std::max<size_t>(1, Batch);
  size_t Next = 0;
  runOrderedWindow<Texts>(
      Threads, 0,
      [&]() -> std::unique_ptr<Texts> {
        if (Next == N)
          return nullptr;
        auto T = std::make_unique<Texts>();
        T->First = Next;
        T->Count = std::min(Batch, N - Next);
        Next += T->Count;
        return T;
      },
      [&](Texts &T) {
        raw_string_ostream OS(T.Text);
        OS.SetBuffered();
        for (size_t I = T.First; I < T.First + T.Count; ++I) {
          Render(I, OS);
          T.Ends.push_back(OS.tell());
        }
        OS.flush();
      },
      [&](Texts &T) {
        StringRef Text = T.Text;
        for (size_t K = 0; K < T.Count; ++K)
          if (!Write(T.First + K, Text.slice(K ? T.Ends[K - 1] : 0, T.Ends[K])))
            return false;
        return true;
      });
}

bool renderSectionInOrder(raw_ostream &OS, StringRef Heading, size_t N,
                          unsigned Threads,
                          function_ref<void(size_t, raw_ostream &)> Render) {
  bool Any = false;
  renderInOrder(N, Threads, Render, [&](size_t, StringRef Text) {
    if (Text.empty())
      return true;
    if (!Any)
      OS << Heading;
    Any = true;
    OS << Text;
    return true;
  });
  return Any;
}

} // namespace tlp
