//===- Memory.h - Giving freed heap memory back ------------------*- C++ -*-===//
//
// Part of tlp. malloc keeps what a program frees for later
// allocations: after the scan of a large log frees its chunks' events, the
// process stays at the scan's peak resident size for the rest of the run
// unless the free pages are handed back (docs/performance.md, "Memory:
// what is kept per compile").
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_MEMORY_H
#define TLP_SUPPORT_MEMORY_H

#include <string>

namespace tlp {

/// Hand the heap's free pages back to the system (mi_collect when the
/// programs are linked with mimalloc, else malloc_trim under glibc; nothing
/// elsewhere). Call after large frees, not in a loop: it walks the
/// whole heap.
void returnFreedMemory();

/// What the program allocates through: "mimalloc 2.0.9" or "libc malloc"
/// (the programs' --version; docs/performance.md, "The allocator").
std::string allocatorName();

} // namespace tlp

#endif // TLP_SUPPORT_MEMORY_H
