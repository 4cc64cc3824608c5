/* commprof: loads that Valgrind's IR optimiser removed.
 *
 * VEX optimises a block's IR before a tool instruments it.  A load whose
 * value the block never uses is dead code to it: a discarded volatile read
 * (`(void)*p;`) whose register the next statements overwrite, a vector load
 * into a register that the next instruction clears.  Its statement is gone
 * before commprof sees it, and the read would count nowhere.  VEX keeps
 * every load when it keeps every register write (register updates
 * "allregs-at-each-insn"), which costs 2 to 18% on every block: commprof
 * asks for it only for the blocks that need it.
 *
 * cp_deadloads_check looks at each guest instruction of a block made of one
 * guest extent (the bounce below discards one guest range; a block in which
 * Valgrind followed a jump into a second extent is left as it is, and none
 * that lost a load was found in bzip2, canny, klt, pipeline, the test
 * programs, Python's start-up or ls): one that has a memory operand
 * (decoded from its bytes: cp_insn_mem_operand) but no memory access left
 * in the block's IR lost its load.  The block is then not
 * instrumented: it is replaced by a block that executes no instruction, asks
 * the scheduler to discard its own translation (an Ijk_InvalICache exit over
 * its guest bytes) and continues at its first instruction.  Meanwhile the
 * precise register updates are switched on for file-backed code
 * (VG_(clo_px_file_backed)), so the block is made again with every load,
 * and switched back when that translation arrives.  Code outside file
 * mappings (generated at run time) cannot be made precise this way: its
 * second translation is instrumented as it comes.  The bounce continues at
 * the block's address as an ordinary jump: a block that Valgrind entered
 * without redirection (the original of a function that a wrapper calls:
 * only Valgrind's ifunc wrapper does this for commprof) is entered again
 * through the redirection, so the wrapper runs once more, nested, and
 * returns the same result.
 *
 * cp_insn_mem_operand and cp_insn_maskmov are pure: they compile into the
 * host unit tests (tests/unit/test_deadloads.c).
 */
#ifndef CP_DEADLOADS_H
#define CP_DEADLOADS_H

#include "cp_port.h"

/* Whether the x86-64 instruction of len bytes at code has a memory operand
   that may be read: a ModRM operand that is memory (not LEA, NOP, the
   prefetch and hint forms, CLFLUSH and the like, which access nothing, nor
   the rest of the 0F AE group, whose loads the optimiser never deletes) or
   a moffs load (A0, A1).  Instructions with implicit memory operands only
   (push, pop, string instructions, call, ret) answer False. */
Bool cp_insn_mem_operand(const UChar* code, UInt len);

/* If the instruction is MASKMOVDQU or VMASKMOVDQU (MASKMOVQ: *mmx), the
   number of the register that holds its byte mask (ModRM.rm); else -1.
   Valgrind carries these masked stores out as a load of all the bytes at
   (%rdi) and a store of all of them, the unselected ones unchanged. */
Int cp_insn_maskmov(const UChar* code, UInt len, Bool* mmx);

#ifndef CP_HOST_TEST
#include "pub_tool_tooliface.h"

/* NULL: instrument sbIn as usual.  Else the block to use instead of sbIn
   (see above); vge: sbIn's guest extents. */
IRSB* cp_deadloads_check(IRSB* sbIn, const VexGuestExtents* vge);

/* Statistics for --stats=yes. */
ULong cp_deadloads_bounced(void);
#endif

#endif
