/* commprof: heap blocks (malloc replacement). */
#ifndef CP_HEAP_H
#define CP_HEAP_H

#include "pub_tool_basics.h"

void cp_heap_init(void);
/* Register the malloc replacement callbacks with the core. */
void cp_heap_register(void);

typedef struct {
   ULong blocks_allocated;     /* over the run */
   ULong bytes_allocated;
   ULong blocks_live, bytes_live;
   ULong bytes_peak;
} CpHeapStats;
void cp_heap_get_stats(CpHeapStats* st);

/* The blocks a run-time library allocates for its own bookkeeping while
   the program calls it (fopen's FILE, opendir's DIR, popen's, ...): their
   bytes are the library's data, as its image is (cp_access.h), for the
   library's code.  cp_libheap_lo and cp_libheap_span bound them all (span
   0: there are none); cp_heap_lib_owned says whether a is in one. */
extern Addr  cp_libheap_lo;
extern UWord cp_libheap_span;
Bool cp_heap_lib_owned(Addr a);
/* The live heap block of at least CP_HEAP_BIG_BLOCK bytes holding address
   a: its start, size and instance in cp_objects (with --objects=yes); for
   stacks in heap blocks (a thread's, a coroutine's), never that small. */
#define CP_HEAP_BIG_BLOCK 1024
Bool cp_heap_block_containing(Addr a, Addr* start, SizeT* size, UInt* inst);
/* Code was unmapped (cp_instrument_code_gone): forget what was decided of
   library call targets by address. */
void cp_heap_code_gone(void);

#endif
