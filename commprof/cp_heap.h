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

#endif
