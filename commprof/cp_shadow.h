/* commprof: the shadow map of last writers.
 *
 * For every aligned block of 2^gran_log2 application bytes the map holds a
 * 32-bit producer context id (see cp_nodes.h); 0 means "never written since
 * mapped" and is what unwritten memory reads as.
 *
 * Layout (a hybrid, as in MCProf and memcheck):
 *   - a directly indexed primary table covering [0, 2^CP_DIRECT_BITS), the
 *     address range Valgrind hands to clients on amd64-linux, one entry per
 *     64 KiB chunk of application memory;
 *   - secondary chunks of (64 KiB >> gran_log2) entries, allocated on the first
 *     write into the chunk, so only memory that was written costs shadow;
 *   - one shared chunk of zeroes that every never-written chunk points to; it
 *     is never written (writers replace it by a fresh chunk first);
 *   - for addresses at or above 2^CP_DIRECT_BITS, a hash table from chunk
 *     number to chunk.
 * At granularity 1 the shadow costs 4 bytes per application byte of every
 * chunk that was written, and nothing for the rest.
 *
 * This module is pure: it compiles into the tool and into the host unit
 * tests (tests/unit/test_shadow.c).
 */
#ifndef CP_SHADOW_H
#define CP_SHADOW_H

#include "cp_port.h"

#define CP_CHUNK_BITS     16
#define CP_CHUNK_SIZE     ((Addr)1 << CP_CHUNK_BITS)
#define CP_DIRECT_BITS    37                       /* 128 GiB */
#define CP_PRIMARY_SIZE   ((Addr)1 << (CP_DIRECT_BITS - CP_CHUNK_BITS))

typedef UInt CpWriter;        /* producer context id; 0 = unwritten */

extern UInt*  cp_shadow_primary[CP_PRIMARY_SIZE];
extern UInt*  cp_shadow_zero_chunk;                 /* the shared chunk of zeroes */
extern UInt   cp_shadow_gran_log2;                  /* 0..3 */

/* Set up the map for blocks of 2^gran_log2 bytes.  Call once. */
void   cp_shadow_init(UInt gran_log2);
/* Forget everything (all memory becomes unwritten) and release every chunk. */
void   cp_shadow_reset(void);

/* Slow paths, out of line. */
UInt*  cp_shadow_high_chunk_rd(Addr chunk_no);
UInt*  cp_shadow_chunk_for_write(Addr chunk_no);

/* Pointer to the entry of the block holding a, for reading.  The entries of
   the rest of a's chunk follow it. */
static inline UInt* cp_shadow_rd_ptr(Addr a)
{
   Addr  cn = a >> CP_CHUNK_BITS;
   UInt* ch = CP_LIKELY(cn < CP_PRIMARY_SIZE) ? cp_shadow_primary[cn]
                                              : cp_shadow_high_chunk_rd(cn);
   return ch + ((a & (CP_CHUNK_SIZE - 1)) >> cp_shadow_gran_log2);
}

/* Pointer to the entry of the block holding a, for writing: allocates the
   chunk if it was never written. */
static inline UInt* cp_shadow_wr_ptr(Addr a)
{
   Addr  cn = a >> CP_CHUNK_BITS;
   UInt* ch = CP_LIKELY(cn < CP_PRIMARY_SIZE) ? cp_shadow_primary[cn] : NULL;
   if (CP_UNLIKELY(ch == cp_shadow_zero_chunk || ch == NULL))
      ch = cp_shadow_chunk_for_write(cn);
   return ch + ((a & (CP_CHUNK_SIZE - 1)) >> cp_shadow_gran_log2);
}

/* Producer of the block holding byte a. */
static inline CpWriter cp_shadow_get(Addr a)
{
   return *cp_shadow_rd_ptr(a);
}

/* Make w the producer of every block that [a, a+len) touches. */
void   cp_shadow_set_range(Addr a, SizeT len, CpWriter w);
/* Copy the producers of [src, src+len) to [dst, dst+len), block by block
   (the ranges may overlap). */
void   cp_shadow_copy_range(Addr dst, Addr src, SizeT len);

/* Statistics. */
typedef struct {
   ULong chunks_live;        /* chunks currently allocated */
   ULong chunks_peak;
   ULong bytes_live;         /* shadow bytes in live chunks */
   ULong bytes_peak;
   ULong high_chunks_live;   /* of which above the direct range */
} CpShadowStats;
void   cp_shadow_get_stats(CpShadowStats* st);

#endif /* CP_SHADOW_H */
