#include "shim.h"
#include <malloc.h>

int bunting_malloc_trim(size_t pad) {
    return malloc_trim(pad);
}
