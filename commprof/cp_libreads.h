/* commprof: what one call of a run-time library function has read.
 *
 * A call of the C library reads the caller's bytes more than once when its
 * code looks at them twice: printf("%s") and puts take the string's length,
 * then copy it; strdup calls strlen, then memcpy; sscanf finds the end of
 * its input, then parses it; vfprintf scans the format for '%', then copies
 * the text between.  The program read each of those bytes once, and so does
 * its profile: a library call counts a byte of the caller's memory at its
 * first read only, until something writes the byte again (see docs/definitions.md,
 * "Library calls").
 *
 * A library call starts at each call the program's own code makes (the
 * code of node functions and of the other objects that are not run-time
 * libraries, see cp_instrument.c): generated code adds one to `call` and
 * sets `sp` and `target` there.  The library's own frames lie below that stack pointer;
 * their reads count as usual.
 *
 * The bytes read are kept as at most CP_LIBREADS_MAX disjoint ranges, which
 * covers a scan and the copy after it of a few strings at once.  When a
 * call reads more scattered memory, the oldest ranges are forgotten: the
 * bytes in them count again at their next read.  The ranges therefore hold
 * a subset of the bytes the call has read and nobody has written since;
 * never a byte outside it.
 *
 * Pure data structure: also compiled into the host-side unit tests
 * (tests/unit/test_libreads.c). */
#ifndef CP_LIBREADS_H
#define CP_LIBREADS_H

#include "cp_port.h"

#define CP_LIBREADS_MAX 4

typedef struct {
   ULong call;          /* library calls the thread has made (generated code adds 1) */
   Addr  sp;            /* the stack pointer at the latest: the library's frames are below */
   Addr  target;        /* where the latest went (a PLT stub, then the function) */
   Addr  cb_sp;         /* the stack pointer (the return address on top) at the
                           latest indirect call of a run-time library's code, or 0:
                           code that runs below it may be the library's callback
                           (a qsort comparator), whose return the library call
                           goes on after (cp_callstack.h, CpLibNest) */
   ULong ranges_call;   /* the call whose reads the ranges hold */
   UInt  n;             /* ranges in use */
   Addr  lo[CP_LIBREADS_MAX], hi[CP_LIBREADS_MAX];   /* [lo, hi) read: disjoint, never
                                                       adjacent, the most recent first */
} CpLibReads;

/* A read of sz bytes (1..64) at a in the current call: returns which of its
   bytes the call reads for the first time (bit i: byte a + i) and records
   them all as read. */
ULong cp_libreads_load(CpLibReads* r, Addr a, UInt sz);

/* A write of sz bytes at a (any size): its bytes count again at their next
   read. */
void cp_libreads_store(CpLibReads* r, Addr a, SizeT sz);

/* Has the current call recorded any reads (are there ranges to cut)? */
static inline Bool cp_libreads_any(const CpLibReads* r)
{
   return r->n != 0 && r->ranges_call == r->call;
}

#endif
