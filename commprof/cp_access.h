/* commprof: the per-access helpers called from generated code (the hot path).
 *
 * "_n" helpers are for code of a node function: the node is a constant
 * resolved at instrumentation time.  "_d" helpers are for other code, charged
 * to the innermost node frame of the running thread (cp_cur_ctx). */
#ifndef CP_ACCESS_H
#define CP_ACCESS_H

#include "pub_tool_basics.h"
#include "cp_nodes.h"
#include "cp_libreads.h"

extern Bool cp_ignore_stack;
extern Bool cp_load_extras;    /* time slices or first-read bytes are on */

/* What the helpers' fast paths must know right now, one bit per fact, so
   that a helper tests the facts that concern it with one instruction: all
   but CP_HOT_REDIRECT make them step aside.  Kept by cp_hot_flags_update(),
   which whoever changes one of the globals behind the bits calls. */
#define CP_HOT_REDIRECT   1    /* cp_redirect_node is set: node helpers look at it */
#define CP_HOT_NOCOLLECT  2    /* collection is off */
#define CP_HOT_LOADEXTRA  4    /* loads do more than credit the edge */
#define CP_HOT_FIRSTREAD  8    /* stores feed the first-read serials */
#define CP_HOT_BOOK      16    /* cp_book_sp is set: the code outside the nodes may
                                  be working for the library's bookkeeping code */
#define CP_HOT_LIBREADS  32    /* the library call in progress has recorded reads
                                  (cp_libreads_any): a store of the program's code
                                  (a callback's) makes its bytes count again, so
                                  stores step aside; cleared (cp_hot_flags_update)
                                  when the call returns, at cp_h_unwind_below */
extern UInt cp_hot_flags;
void cp_hot_flags_update(void);

VG_REGPARM(3) void cp_h_load_n (Addr a, UWord sz, CpNode* n);
VG_REGPARM(2) void cp_h_load_d (Addr a, UWord sz);
VG_REGPARM(3) void cp_h_store_n(Addr a, UWord sz, CpNode* n);
VG_REGPARM(2) void cp_h_store_d(Addr a, UWord sz);
VG_REGPARM(3) void cp_h_modify_n(Addr a, UWord sz, CpNode* n);
VG_REGPARM(2) void cp_h_modify_d(Addr a, UWord sz);
/* The same with --objects=yes. */
VG_REGPARM(3) void cp_h_load_no (Addr a, UWord sz, CpNode* n);
VG_REGPARM(2) void cp_h_load_do (Addr a, UWord sz);
VG_REGPARM(3) void cp_h_store_no(Addr a, UWord sz, CpNode* n);
VG_REGPARM(2) void cp_h_store_do(Addr a, UWord sz);
VG_REGPARM(3) void cp_h_modify_no(Addr a, UWord sz, CpNode* n);
VG_REGPARM(2) void cp_h_modify_do(Addr a, UWord sz);

/* The same without --objects for accesses of SZ = 1, 2, 4, 8, 16 and 32
   bytes: the size is a constant of the helper (cp_h_load_n8 ...). */
#define CP_SIZED_HELPER_DECLS(SZ) \
   VG_REGPARM(2) void cp_h_load_n##SZ  (Addr a, CpNode* n); \
   VG_REGPARM(1) void cp_h_load_d##SZ  (Addr a); \
   VG_REGPARM(2) void cp_h_store_n##SZ (Addr a, CpNode* n); \
   VG_REGPARM(1) void cp_h_store_d##SZ (Addr a); \
   VG_REGPARM(2) void cp_h_modify_n##SZ(Addr a, CpNode* n); \
   VG_REGPARM(1) void cp_h_modify_d##SZ(Addr a);
CP_SIZED_HELPER_DECLS(1)
CP_SIZED_HELPER_DECLS(2)
CP_SIZED_HELPER_DECLS(4)
CP_SIZED_HELPER_DECLS(8)
CP_SIZED_HELPER_DECLS(16)
CP_SIZED_HELPER_DECLS(32)

/* "_l" helpers are for the code of a C or C++ run-time library (libc,
   libm, libstdc++, ...) that is not a node object: an access to the
   library's own data is charged to the special node (library data) instead
   of the innermost node frame, so that two functions that both call printf
   do not communicate through stdout's FILE; any other access is the "_d"
   helper's.  The library's own data is its image [lo, lo + span) (its data
   and tables: stdio's FILE objects and locks, the locale, rand's state) and
   the objects the program's executable holds for it (copy relocations:
   std::cout, stdout, environ), [lo2, lo2 + span2), and the heap blocks it
   allocated for the things it opens (cp_heap.h: a FILE, a DIR).  The generated code
   passes a descriptor whose first range is the whole address space for the
   library's synchronisation and thread functions, and for an address
   computed from the thread pointer (errno, the thread's descriptor), and
   an empty one for commprof's own string and memory functions.
   A load of other memory (the program's) counts only the bytes that the
   running library call has not read yet (cp_libreads.h); a store makes its
   bytes count again. */
typedef struct { Addr lo; UWord span; Addr lo2; UWord span2; } CpLibData;
/* The running thread's descriptor (glibc's struct pthread, at the thread
   pointer: 2368 bytes in glibc 2.36 on amd64), which the library's code also
   reaches through pointers kept in registers across blocks (where the
   instrumenter cannot see the thread pointer in the address): its accesses
   there are (library data)'s too.  cp_cur_tp is set when a thread starts
   running (0: none known). */
#define CP_TP_DESC_SIZE 2368
extern Addr cp_cur_tp;
VG_REGPARM(3) void cp_h_load_l  (Addr a, UWord sz, const CpLibData* d);
VG_REGPARM(3) void cp_h_store_l (Addr a, UWord sz, const CpLibData* d);
VG_REGPARM(3) void cp_h_modify_l(Addr a, UWord sz, const CpLibData* d);
#define CP_SIZED_LIB_HELPER_DECLS(SZ) \
   VG_REGPARM(2) void cp_h_load_l##SZ  (Addr a, const CpLibData* d); \
   VG_REGPARM(2) void cp_h_store_l##SZ (Addr a, const CpLibData* d); \
   VG_REGPARM(2) void cp_h_modify_l##SZ(Addr a, const CpLibData* d);
CP_SIZED_LIB_HELPER_DECLS(1)
CP_SIZED_LIB_HELPER_DECLS(2)
CP_SIZED_LIB_HELPER_DECLS(4)
CP_SIZED_LIB_HELPER_DECLS(8)
CP_SIZED_LIB_HELPER_DECLS(16)
CP_SIZED_LIB_HELPER_DECLS(32)

/* The accesses of an instruction whose one memory operand VEX makes
   several accesses (pieces: FXSAVE/FXRSTOR, XSAVE/XRSTOR, AVX masked moves,
   gathers), or that reads two operands (cmps): cp_h_group_begin before
   them, then cp_h_group_access for each,
   k = 1 (load), 2 (store) or 3 (both), with the node of the code (sn), or
   the library's data (d, sn NULL) as for the "_l" helpers, or neither.  The
   instruction is one load (one store) for each node it is charged to, one
   access for each edge and object; a byte two pieces cover counts once. */
void cp_h_group_begin(void);
void cp_h_group_access(Addr a, UWord sz, CpNode* sn, const CpLibData* d, UWord k);

/* MASKMOVDQU (sz 16) or MASKMOVQ (sz 8) at a: a store of the bytes whose
   mask byte (lo: bytes 0 to 7, hi: 8 to 15) has its top bit set, by the
   code of node function sn, or a library's (d), as cp_h_group_access. */
void cp_h_masked_store(Addr a, UWord sz, ULong lo, ULong hi, CpNode* sn, const CpLibData* d);

/* The running thread's library call and its reads (the generated code
   starts a call, cp_thread_switch keeps one per thread). */
extern CpLibReads cp_libreads;

/* Memory written or released outside the program's stores (the kernel,
   the allocator, mappings): the shadow map and what depends on it. */
void cp_record_write(Addr a, SizeT len, UInt w);
/* The same for a write made for thread t (a system call's, a signal
   frame): its library call in progress reads the bytes again too. */
struct CpThread;
void cp_record_write_for(struct CpThread* t, Addr a, SizeT len, UInt w);
void cp_record_copy(Addr dst, Addr src, SizeT len);

#endif
