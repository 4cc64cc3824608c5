/* commprof: VEX IR instrumentation. */
#ifndef CP_INSTRUMENT_H
#define CP_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

void  cp_instrument_init(void);
IRSB* cp_instrument(VgCallbackClosure* closure, IRSB* sbIn,
                    const VexGuestLayout* layout, const VexGuestExtents* vge,
                    const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy);

#endif
