//===- Memory.cpp - The allocator, giving freed memory back ---------------===//

#include "tlp/Support/Memory.h"

#include <string>

#if defined(TLP_USE_MIMALLOC)
#include <mimalloc.h>
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tlp {

void returnFreedMemory() {
#if defined(TLP_USE_MIMALLOC)
  mi_collect(/*force=*/true);
#elif defined(__GLIBC__)
  malloc_trim(0);
#endif
}

std::string allocatorName() {
#if defined(TLP_USE_MIMALLOC)
  // mi_version(): major * 100 + minor * 10 + patch (209 for 2.0.9).
  int V = mi_version();
  return "mimalloc " + std::to_string(V / 100) + "." +
         std::to_string(V / 10 % 10) + "." + std::to_string(V % 10);
#else
  return "libc malloc";
#endif
}

} // namespace tlp
