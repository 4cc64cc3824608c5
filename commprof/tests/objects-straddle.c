/* objects-straddle: loads and stores that span two adjacent static objects (run with
 * --objects=yes).
 *
 * objA and objB are two 8-byte data objects defined next to each other in .data by the
 * top-level asm below (objB starts where objA ends), so the layout is the same at -O0 and
 * -O2 (nm shows objB = objA + 8).
 *
 *   writer:   8-byte store to objA, 8-byte store to objB, then an 8-byte store at objA+4
 *             (bytes 4..7 of objA and 0..3 of objB)
 *   reader:   one 8-byte load at objA+4 (bytes 4..7 of objA and 0..3 of objB)
 * Every access is volatile (exactly these accesses at -O0 and -O2).
 *
 * An access that spans two objects reads or writes both: it is a load (store) from each
 * object, with the bytes that lie in each (docs/commprof.rng: reads/writes are the loads/
 * stores from the object, flows the bytes a function read from an object that another
 * function had written into it). So
 *   objA: reads = 1, read-bytes = 4, writes = 2, write-bytes = 8 + 4 = 12,
 *         written-bytes = 8, prod-bytes = 4 (bytes 4..7), alloc-pct = 100.0,
 *         prod-pct = 50.0
 *   objB: the same: reads = 1, read-bytes = 4, writes = 2, write-bytes = 12,
 *         written-bytes = 8, prod-bytes = 4 (bytes 0..3), 100.0 and 50.0
 *   flows: writer -> objA -> reader  bytes = 4, unma = 4
 *          writer -> objB -> reader  bytes = 4, unma = 4
 *   function edge: writer -> reader 8/8.
 *
 * stdout: after the stores objA = 0x0000000500000001 (low half from the first store, high
 *   half from the straddling one), objB = 0x0000000400000006; the load at objA+4 reads
 *   05 00 00 00 06 00 00 00 = 0x600000005.
 */
#include <stdio.h>

extern long objA, objB;

__asm__(
    "    .data\n"
    "    .p2align 4\n"
    "    .globl objA\n"
    "    .type objA, @object\n"
    "    .size objA, 8\n"
    "objA:\n"
    "    .quad 0\n"
    "    .globl objB\n"
    "    .type objB, @object\n"
    "    .size objB, 8\n"
    "objB:\n"
    "    .quad 0\n"
    "    .text\n");

__attribute__((noipa)) void writer(void)
{
    *(volatile long *)&objA = 0x0000000200000001L;
    *(volatile long *)&objB = 0x0000000400000003L;
    *(volatile long *)((char *)&objA + 4) = 0x0000000600000005L;
}

__attribute__((noipa)) long reader(void)
{
    return *(volatile long *)((char *)&objA + 4);
}

int main(void)
{
    writer();
    printf("objects-straddle 0x%lx\n", reader());
    return 0;
}
