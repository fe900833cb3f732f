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
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <memory>

namespace llvm {
class raw_ostream;
} // namespace llvm

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

/// One item of an ordered window (see runOrderedWindow); derive from it to
/// carry the item's data.
struct WindowItem {
  virtual ~WindowItem();
};

/// The ordered window: the one scheduler of per-unit work. \p Produce, on
/// the calling thread, gives the next item (null: no more); \p Work runs on
/// up to \p Threads workers (0: one per core), at most \p Window items in
/// flight (0: twice the threads, at least 2); \p Consume gets every item
/// on the calling thread in the order produced, and returns false to stop:
/// nothing more is produced, and the items in flight are finished and
/// dropped unconsumed. With one thread each item is worked on when it is
/// consumed, so at most one is in memory beyond the window's queue.
void runOrderedWindow(
    unsigned Threads, size_t Window,
    llvm::function_ref<std::unique_ptr<WindowItem>()> Produce,
    llvm::function_ref<void(WindowItem &)> Work,
    llvm::function_ref<bool(WindowItem &)> Consume);

/// runOrderedWindow with items of type \p T.
template <typename T>
void runOrderedWindow(unsigned Threads, size_t Window,
                      llvm::function_ref<std::unique_ptr<T>()> Produce,
                      llvm::function_ref<void(T &)> Work,
                      llvm::function_ref<bool(T &)> Consume) {
  runOrderedWindow(
      Threads, Window,
      [&]() -> std::unique_ptr<WindowItem> { return Produce(); },
      [&](WindowItem &I) { Work(static_cast<T &>(I)); },
      [&](WindowItem &I) { return Consume(static_cast<T &>(I)); });
}

/// Render the texts of items [0, \p N) on up to \p Threads workers, \p Batch
/// items to a work item of the ordered window, and hand each text to
/// \p Write on the calling thread, in item order, while the next batches
/// render: the end of a run that writes a section per compile record is
/// not one thread's work, and no worker waits for the writing. \p Render
/// runs on the workers and must only read what they share. \p Write
/// returns false to stop (a write failed): nothing more is written and
/// the batches in flight are dropped.
void renderInOrder(
    size_t N, unsigned Threads,
    llvm::function_ref<void(size_t, llvm::raw_ostream &)> Render,
    llvm::function_ref<bool(size_t, llvm::StringRef)> Write,
    size_t Batch = 32);

/// renderInOrder into \p OS: the texts that are not empty, in item order,
/// \p Heading before the first of them (a section that says nothing has
/// no heading). True if any text was written.
bool renderSectionInOrder(
    llvm::raw_ostream &OS, llvm::StringRef Heading, size_t N,
    unsigned Threads,
    llvm::function_ref<void(size_t, llvm::raw_ostream &)> Render);

} // namespace tlp

#endif // TLP_SUPPORT_PARALLEL_H
