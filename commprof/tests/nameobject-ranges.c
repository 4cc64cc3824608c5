/* cflags: -I/usr/include/valgrind */
/* nameobject-ranges: one name given to several ranges is one object whose sizes add up like
 * the blocks of a heap site (run with --objects=yes).
 *
 * docs/definitions.md, Data objects: all ranges named alike are one object; for a named
 * object total-bytes is the bytes of every range named over the run, peak-bytes the most
 * bytes named at one time, size the last range's size.  Before, total-bytes and
 * peak-bytes were the last range's size: three namings that wrote 250 of their 400 bytes
 * gave written-bytes=250 of total-bytes=100, alloc-pct=250.0.
 *
 * main:
 *   COMMPROF_NAME_OBJECT(gbuf, 100, "buf")   the global char gbuf[100]: named 100, live 100
 *   fill(gbuf, 100); use(gbuf, 100)          100 1-byte stores, then 100 1-byte loads
 *   blk = malloc(200)
 *   COMMPROF_NAME_OBJECT(blk, 200, "buf")    named 300 so far, live 300 (the peak)
 *   fill(blk, 50); use(blk, 50)              50 stores, 50 loads
 *   free(blk)                                the naming of blk ends: live 100
 *   COMMPROF_NAME_OBJECT(gbuf, 100, "buf")   gbuf named again: its first naming ends (100
 *                                            written bytes to its credit), a new one starts;
 *                                            named 400, live 100
 *   fill(gbuf, 100); use(gbuf, 100)          100 stores, 100 loads
 * Expected object buf: kind=named size=100 (the last range) blocks=0 total-bytes=100 + 200 +
 *   100 = 400 peak-bytes=300 reads=250 read-bytes=250 writes=250 write-bytes=250
 *   written-bytes = 100 (first gbuf naming) + 50 (blk) + 100 (second) = 250
 *   prod-bytes = the bytes read while written, once per range named: 100 + 50 + 100 = 250
 *   alloc-pct = 250 / 400 = 62.5, prod-pct = 62.5
 * Flow fill -> buf -> use: 250 bytes over 150 addresses (gbuf's 100 twice, blk's 50);
 * gbuf is no object of its own (never accessed as gbuf).
 *
 * stdout: 1234
 */
#include <stdio.h>
#include <stdlib.h>
#include "commprof.h"

char gbuf[100];

__attribute__((noipa)) void fill(char* p, int n)
{
    for (int i = 0; i < n; i++)
        ((volatile char*)p)[i] = (char)i;
}

__attribute__((noipa)) int use(const char* p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += ((const volatile char*)p)[i];
    return s;
}

int main(void)
{
    int s = 0;
    COMMPROF_NAME_OBJECT(gbuf, 100, "buf");
    fill(gbuf, 100);
    s += use(gbuf, 100);
    char* blk = malloc(200);
    if (!blk)
        return 1;
    COMMPROF_NAME_OBJECT(blk, 200, "buf");
    fill(blk, 50);
    s += use(blk, 50);
    free(blk);
    COMMPROF_NAME_OBJECT(gbuf, 100, "buf");
    fill(gbuf, 100);
    s += use(gbuf, 100);
    printf("%d\n", s == 4950 + 1225 + 4950 ? 1234 : s);
    return 0;
}
