/* commprof: VEX IR instrumentation. */
#ifndef CP_INSTRUMENT_H
#define CP_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

void  cp_instrument_init(void);
/* Classify the objects loaded at start-up (the main executable among them)
   before the client's first instruction. */
void  cp_instrument_find_main_exe(void);
/* The function holding a, by the executable's own symbol table, when
   Valgrind read no debug information of it (see cp_instrument_find_main_exe);
   else NULL. */
const HChar* cp_instrument_bare_fn(Addr a);
/* [a, a+len) was unmapped: the objects whose code was there are gone, with
   what was decided of their addresses (nodes by entry, library and
   synchronisation functions), so that another object loaded there later
   (dlclose, then dlopen) is seen as itself. */
void  cp_instrument_code_gone(Addr a, SizeT len);
/* At exit: a warning for each --node-objs pattern that matched no object. */
void  cp_instrument_report_unmatched_objs(void);

/* Features the generated code must support; see cp_instrument_need. */
#define CP_NEED_COLLECT  1u   /* collection switched on and off */
#define CP_NEED_REDIRECT 2u   /* code regions or caller contexts */
#define CP_NEED_SLICES   4u   /* time slices */
/* Make every translation support these from now on. */
void  cp_instrument_need(UInt what);
/* A signal is about to be delivered to thread tid: if an instruction of the
   code running faulted, count the instructions of its straight-line run
   that completed before it (generated code counts a run at its end). */
void  cp_instrument_fault(ThreadId tid);
/* The thread has left generated code for the scheduler: between blocks, or
   in the middle of a run when a fault kills the process (then counted as
   cp_instrument_fault does). */
void  cp_instrument_left_code(ThreadId tid);
IRSB* cp_instrument(VgCallbackClosure* closure, IRSB* sbIn,
                    const VexGuestLayout* layout, const VexGuestExtents* vge,
                    const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy);

#endif
