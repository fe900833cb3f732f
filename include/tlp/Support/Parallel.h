//===- Parallel.h - Ordered parallel loops ----------------------*- C++ -*-===//
//
// Part of tlp. The one way tlp runs independent work items on threads:
// parallelFor runs Fn(0..N-1) on a pool of up to Threads threads (0: one
// per core), or on the calling thread when one thread is asked for or there
// is a single item, and returns when all are done. The ordered variant
// gives each item its own DiagnosticEngine and appends them to the caller's
// engine in index order, so diagnostics do not depend on the thread count
// or on scheduling.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_PARALLEL_H
#define TLP_SUPPORT_PARALLEL_H

#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace tlp {

/// The number of threads to use for \p Requested (0: one per core).
unsigned resolveThreadCount(unsigned Requested);

/// Run \p Fn(I) for every I in [0, N), on up to \p Threads threads.
void parallelFor(size_t N, unsigned Threads,
                 llvm::function_ref<void(size_t)> Fn);

/// Run \p Fn(I, Diags_I) for every I in [0, N), on up to \p Threads
/// threads, each item with a fresh engine; then append the engines to
/// \p Diags in index order.
void parallelForOrdered(
    size_t N, unsigned Threads, DiagnosticEngine &Diags,
    llvm::function_ref<void(size_t, DiagnosticEngine &)> Fn);

} // namespace tlp

#endif // TLP_SUPPORT_PARALLEL_H
