/* commprof: first-read bytes (--first-read=yes), QUAD's UnDV and PinComm's
   "perfect caching" count: a byte read by a function counts as a first read
   if that function has not read it since it was last written. */
#ifndef CP_FIRSTREAD_H
#define CP_FIRSTREAD_H

#include "pub_tool_basics.h"

extern Bool cp_clo_first_read;

void cp_firstread_init(void);
/* [a, a+n) was written (by the program, the kernel, the allocator, or
   released). */
void cp_firstread_store(Addr a, SizeT n);
/* Function node reads [a, a+n): how many of these bytes it reads for the
   first time since they were written. */
ULong cp_firstread_load(UInt node, Addr a, SizeT n);

#endif
