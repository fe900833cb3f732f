//===- Memory.cpp - Giving freed heap memory back -------------------------===//

#include "tlp/Support/Memory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tlp {

void returnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

} // namespace tlp
