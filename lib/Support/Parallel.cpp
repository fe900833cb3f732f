//===- Parallel.cpp - Ordered parallel loops ------------------------------===//

#include "tlp/Support/Parallel.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

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

} // namespace tlp
