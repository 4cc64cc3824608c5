/* commprof: VEX IR instrumentation. */
#ifndef CP_INSTRUMENT_H
#define CP_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

void  cp_instrument_init(void);
/* Classify the objects loaded at start-up (the main executable among them)
   before the client's first instruction. */
void  cp_instrument_find_main_exe(void);

/* Features the generated code must support; see cp_instrument_need. */
#define CP_NEED_COLLECT  1u   /* collection switched on and off */
#define CP_NEED_REDIRECT 2u   /* code regions or caller contexts */
#define CP_NEED_SLICES   4u   /* time slices */
/* Make every translation support these from now on. */
void  cp_instrument_need(UInt what);
IRSB* cp_instrument(VgCallbackClosure* closure, IRSB* sbIn,
                    const VexGuestLayout* layout, const VexGuestExtents* vge,
                    const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy);

#endif
