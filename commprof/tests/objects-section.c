/* objects-section: data of the executable outside any symbol is a section object, with
 * the same numbers as a global (run with --objects=yes).
 *
 * The top-level asm below puts 32 bytes into a section of their own, .cpdata (allocated,
 * writable), behind a label without type or size: no data symbol covers them (the tool
 * takes the sized STT_OBJECT symbols), so they belong to the object of kind "section"
 * named .cpdata, of size 32 (readelf -S), the same at -O0 and -O2.
 *
 *   writer: 2 stores of 8 bytes, bytes [0,16)      -> writes = 2, write-bytes = 16
 *   reader: 3 loads of 8 bytes, bytes [0,24)       -> reads = 3, read-bytes = 24
 *           (bytes [16,24) were never written: (unwritten), from the file)
 *   written-bytes = 16 (distinct bytes the program wrote), prod-bytes = 16 (written, then
 *   read): alloc-pct = prod-pct = 16/32 = 50.0 (total-bytes is the size for a section)
 *   flows: writer      -> .cpdata -> reader  bytes = 16, unma = 16
 *          (unwritten) -> .cpdata -> reader  bytes =  8, unma =  8
 * All accesses are volatile: these loads and stores at -O0 and -O2.
 *
 * stdout: 1 + 2 + 0 = 3.
 */
#include <stdio.h>

extern long cpdata[4];

__asm__(
    "    .section .cpdata,\"aw\",@progbits\n"
    "    .p2align 4\n"
    "    .globl cpdata\n"
    "cpdata:\n"
    "    .zero 32\n"
    "    .text\n");

__attribute__((noipa)) void writer(void)
{
    volatile long *p = cpdata;
    p[0] = 1;
    p[1] = 2;
}

__attribute__((noipa)) long reader(void)
{
    volatile const long *p = cpdata;
    return p[0] + p[1] + p[2];
}

int main(void)
{
    writer();
    printf("objects-section %ld\n", reader());
    return 0;
}
