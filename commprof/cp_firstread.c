/* commprof: first-read bytes (see cp_firstread.h).
 *
 * Every store gets a serial number, kept per byte in a shadow map of its
 * own (4 bytes per byte written).  Every function keeps, per byte it read,
 * the serial it saw plus one (0: never read), in blocks of 64 bytes found
 * through a hash table keyed by (function, block): 4 bytes per byte read by
 * each function.  A read is a first read when the two differ.  This is exact
 * per function, also when two functions alternate (A, B, A counts A's second
 * read of unchanged data as a repeat); a single last-reader slot per byte
 * would not be.  After 2^32 - 2 stores the serials start again and every
 * byte counts as unread. */

#include "cp_global.h"
#include "cp_firstread.h"
#include "cp_access.h"
#include "cp_shadow.h"
#include "cp_options.h"

Bool cp_clo_first_read;

static CpShadowMap* serials;      /* serial of the last store to each byte, 0 = none */
static UInt         next_serial = 1;

#define RB_BITS 6
#define RB_SIZE (1u << RB_BITS)
typedef struct { UInt node; Addr block; UInt seen[RB_SIZE]; } ReadBlock;

static ReadBlock** tab;           /* open addressing by (node, block) */
static UInt        tab_cap, tab_used;
static ReadBlock*  last;          /* one-entry cache */

void cp_firstread_init(void)
{
   cp_clo_first_read = cp_clo.first_read;
   cp_hot_flags_update();
   if (!cp_clo_first_read) return;
   serials = cp_big_alloc(sizeof(CpShadowMap));          /* zeroed */
   cp_shadow_init(serials, 0, False);
}

static inline UInt rb_hash(UInt node, Addr block, UInt cap)
{
   ULong k = ((ULong)node << 40) ^ block;
   return (UInt)((k * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

static ReadBlock* read_block(UInt node, Addr block)
{
   if (last && last->node == node && last->block == block) return last;
   if ((tab_used + 1) * 2 > tab_cap) {
      UInt ncap = tab_cap ? tab_cap * 2 : 4096;
      ReadBlock** nt = VG_(calloc)("cp.fr.tab", ncap, sizeof(ReadBlock*));
      for (UInt i = 0; i < tab_cap; i++) {
         if (!tab[i]) continue;
         UInt j = rb_hash(tab[i]->node, tab[i]->block, ncap);
         while (nt[j]) j = (j + 1) & (ncap - 1);
         nt[j] = tab[i];
      }
      if (tab) VG_(free)(tab);
      tab = nt;
      tab_cap = ncap;
   }
   UInt j = rb_hash(node, block, tab_cap);
   while (tab[j] && !(tab[j]->node == node && tab[j]->block == block)) j = (j + 1) & (tab_cap - 1);
   if (!tab[j]) {
      tab[j] = VG_(calloc)("cp.fr.block", 1, sizeof(ReadBlock));
      tab[j]->node = node;
      tab[j]->block = block;
      tab_used++;
   }
   last = tab[j];
   return last;
}

/* Serials ran out: every byte becomes unread. */
static void restart(void)
{
   for (UInt i = 0; i < tab_cap; i++)
      if (tab[i]) VG_(memset)(tab[i]->seen, 0, sizeof(tab[i]->seen));
   cp_shadow_reset(serials);
   next_serial = 1;
}

void cp_firstread_store(Addr a, SizeT n)
{
   if (next_serial == 0xFFFFFFFEu) restart();
   cp_shadow_set_range(serials, a, n, next_serial++);
}

ULong cp_firstread_load(UInt node, Addr a, SizeT n)
{
   ULong first = 0;
   for (SizeT i = 0; i < n; i++) {
      Addr x = a + i;
      ReadBlock* rb = read_block(node, x >> RB_BITS);
      UInt want = cp_shadow_get(serials, x) + 1;
      UInt* s = &rb->seen[x & (RB_SIZE - 1)];
      if (*s != want) {
         *s = want;
         first++;
      }
   }
   return first;
}
