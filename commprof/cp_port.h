/* commprof: portability layer for the pure data structures.
 *
 * The shadow map (cp_shadow.c) and the edge tables (cp_edges.c) are compiled
 * twice: into the Valgrind tool, where only VG_(...) functions exist, and into
 * host-side unit tests (tests/unit), where CP_HOST_TEST is defined and the
 * ordinary C library stands in for Valgrind's.  Nothing else may differ. */
#ifndef CP_PORT_H
#define CP_PORT_H

#ifdef CP_HOST_TEST

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef unsigned char      UChar;
typedef char               HChar;
typedef uint16_t           UShort;
typedef uint32_t           UInt;
typedef int32_t            Int;
typedef uint64_t           ULong;
typedef int64_t            Long;
typedef unsigned long      UWord;
typedef long               Word;
typedef unsigned long      Addr;
typedef unsigned long      SizeT;
typedef unsigned char      Bool;
#define True  ((Bool)1)
#define False ((Bool)0)

static inline void* cp_host_xmalloc(SizeT n)
{
   void* p = malloc(n ? n : 1);
   if (!p) { fprintf(stderr, "out of memory\n"); abort(); }
   return p;
}
static inline void* cp_host_xcalloc(SizeT n)
{
   void* p = calloc(1, n ? n : 1);
   if (!p) { fprintf(stderr, "out of memory\n"); abort(); }
   return p;
}
#define CP_MALLOC(cc, n)     cp_host_xmalloc(n)
#define CP_CALLOC(cc, n)     cp_host_xcalloc(n)
#define CP_FREE(p)           free(p)
/* Large zeroed areas (shadow chunks): plain calloc on the host. */
#define CP_BIG_ALLOC(n)      cp_host_xcalloc(n)
#define CP_BIG_FREE(p, n)    free(p)
#define CP_MEMSET(p, c, n)   memset((p), (c), (n))
#define CP_MEMCPY(d, s, n)   memcpy((d), (s), (n))
#define CP_MEMMOVE(d, s, n)  memmove((d), (s), (n))
#define CP_ASSERT(e)         do { if (!(e)) { fprintf(stderr, "%s:%d: assertion failed: %s\n", \
                                   __FILE__, __LINE__, #e); abort(); } } while (0)
#define CP_LIKELY(x)         __builtin_expect(!!(x), 1)
#define CP_UNLIKELY(x)       __builtin_expect(!!(x), 0)
#define CP_POPCOUNT64(x)     ((UInt)__builtin_popcountll(x))

#else /* inside the Valgrind tool */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcprint.h"

void* cp_big_alloc(SizeT n);            /* zeroed, page-granular, from aspacem; never NULL */
void  cp_big_free(void* p, SizeT n);

#define CP_MALLOC(cc, n)     VG_(malloc)((cc), (n))
#define CP_CALLOC(cc, n)     VG_(calloc)((cc), 1, (n))
#define CP_FREE(p)           VG_(free)(p)
#define CP_BIG_ALLOC(n)      cp_big_alloc(n)
#define CP_BIG_FREE(p, n)    cp_big_free((p), (n))
#define CP_MEMSET(p, c, n)   VG_(memset)((p), (c), (n))
#define CP_MEMCPY(d, s, n)   VG_(memcpy)((d), (s), (n))
#define CP_MEMMOVE(d, s, n)  VG_(memmove)((d), (s), (n))
#define CP_ASSERT(e)         tl_assert(e)
#define CP_LIKELY(x)         LIKELY(x)
#define CP_UNLIKELY(x)       UNLIKELY(x)
#define CP_POPCOUNT64(x)     ((UInt)__builtin_popcountll(x))

#endif

#endif /* CP_PORT_H */
