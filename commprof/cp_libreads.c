/* commprof: what one call of a run-time library function has read (see
 * cp_libreads.h).  The ranges are kept most recent first: a new range and
 * one a read grows move to the front, and the last one goes when a new one
 * needs its slot. */
#include "cp_libreads.h"

static void drop(CpLibReads* r, UInt i)
{
   for (; i + 1 < r->n; i++) {
      r->lo[i] = r->lo[i + 1];
      r->hi[i] = r->hi[i + 1];
   }
   r->n--;
}

static void push_front(CpLibReads* r, Addr lo, Addr hi)
{
   UInt n = r->n < CP_LIBREADS_MAX ? r->n : CP_LIBREADS_MAX - 1;   /* the last one goes */
   for (UInt i = n; i > 0; i--) {
      r->lo[i] = r->lo[i - 1];
      r->hi[i] = r->hi[i - 1];
   }
   r->lo[0] = lo;
   r->hi[0] = hi;
   r->n = n + 1;
}

/* bits [from, from + w) of a mask (w <= 64, from + w <= 64) */
static inline ULong bits(UInt from, UInt w)
{
   return (w == 64 ? ~0ULL : (1ULL << w) - 1) << from;
}

ULong cp_libreads_load(CpLibReads* r, Addr a, UInt sz)
{
   CP_ASSERT(sz >= 1 && sz <= 64);
   ULong fresh = bits(0, sz);
   if (r->ranges_call != r->call) {
      r->ranges_call = r->call;
      r->n = 0;
   }
   Addr e = a + sz;
   if (CP_UNLIKELY(e < a)) return fresh;     /* the top of the address space: not kept */
   /* the common read: right after the most recent range (a scan), meeting
      no other */
   if (CP_LIKELY(r->n != 0) && r->hi[0] == a) {
      UInt i = 1;
      while (i < r->n && (r->lo[i] > e || r->hi[i] < a)) i++;
      if (i == r->n) {
         r->hi[0] = e;
         return fresh;
      }
   }
   Addr lo = a, hi = e;
   UInt i = 0;
   while (i < r->n) {
      Addr rl = r->lo[i], rh = r->hi[i];
      if (rh < a || rl > e) {        /* neither overlaps nor touches */
         i++;
         continue;
      }
      Addr s = rl > a ? rl : a, t = rh < e ? rh : e;
      if (s < t) fresh &= ~bits((UInt)(s - a), (UInt)(t - s));
      if (rl < lo) lo = rl;
      if (rh > hi) hi = rh;
      drop(r, i);
   }
   push_front(r, lo, hi);
   return fresh;
}

void cp_libreads_store(CpLibReads* r, Addr a, SizeT sz)
{
   if (r->ranges_call != r->call || sz == 0) return;
   Addr e = a + sz;
   if (e < a) e = ~(Addr)0;            /* up to the top (its last byte is never kept) */
   UInt i = 0;
   while (i < r->n) {
      Addr rl = r->lo[i], rh = r->hi[i];
      if (rh <= a || rl >= e) {
         i++;
         continue;
      }
      if (a <= rl && e >= rh) {        /* all of it written */
         drop(r, i);
         continue;
      }
      if (a <= rl) {
         r->lo[i] = e;
      } else if (e >= rh) {
         r->hi[i] = a;
      } else {                          /* written in its middle: two ranges, */
         r->hi[i] = a;                  /* as recent as the one they were, so the */
         UInt n = r->n < CP_LIBREADS_MAX ? r->n : CP_LIBREADS_MAX - 1;  /* oldest goes */
         if (i + 1 < CP_LIBREADS_MAX) { /* (the upper part, if that was the oldest) */
            for (UInt j = n; j > i + 1; j--) {
               r->lo[j] = r->lo[j - 1];
               r->hi[j] = r->hi[j - 1];
            }
            r->lo[i + 1] = e;
            r->hi[i + 1] = rh;
            r->n = n + 1;
            i++;                        /* (the upper part lies above the write) */
         }
      }
      i++;
   }
}
