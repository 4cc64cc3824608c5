/* cflags: -I/usr/include/valgrind */
/* names-hostile: names that are not plain text in every output (run with
 * --commprof-dot-file; see docs/manual.md, 8.1).
 *
 * Four code regions with hostile names write a buffer each; LONG, a
 * function with a 600-byte name, writes another; g reads all five (16 bytes
 * each, one 4-byte load per int, volatile: the same at -O0 and -O2):
 *   region "  lead"                  -> XML "  lead", callgrind "__lead"
 *   region "tab\tname\nline"         -> XML "tab&#9;name&#10;line", callgrind "tab name line"
 *   region "bad\xff\xfeutf\x01ctl"   -> "bad??utf?ctl" everywhere
 *   region 254 x 'a' then "\xc3\xa9" (e-acute, bytes 255 and 256): cut at 255
 *          bytes before the e-acute, which would not fit whole: 254 x 'a'
 *   LONG (600 bytes)                 -> whole, in the DOT label too
 * Edges: each of the five -> g bytes=16 unma=16.
 * COMMPROF_PHASE(NULL) and COMMPROF_PHASE("") are ignored with the message
 * "commprof: COMMPROF_PHASE needs a name: request ignored" (twice): no phases.
 * callgrind_annotate reads the callgrind file without a warning and dot reads
 * the DOT file without one.  stdout: "names-hostile 76".
 */
#include <stdio.h>
#include "commprof.h"

#define NI __attribute__((noinline))

static volatile int b1[4], b2[4], b3[4], b4[4], b5[4];

NI void f_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(void)
{
    for (int i = 0; i < 4; i++)
        b5[i] = 1;
}

NI int g(void)
{
    int s = 0;
    for (int i = 0; i < 4; i++)
        s += b1[i] + b2[i] + b3[i] + b4[i] + b5[i];
    return s;
}

int main(void)
{
    COMMPROF_PHASE(NULL);
    COMMPROF_PHASE("");
    COMMPROF_REGION_BEGIN("  lead");
    for (int i = 0; i < 4; i++)
        b1[i] = 3;
    COMMPROF_REGION_END("  lead");
    COMMPROF_REGION_BEGIN("tab\tname\nline");
    for (int i = 0; i < 4; i++)
        b2[i] = 5;
    COMMPROF_REGION_END("tab\tname\nline");
    COMMPROF_REGION_BEGIN("bad\xff\xfeutf\x01" "ctl");
    for (int i = 0; i < 4; i++)
        b3[i] = 7;
    COMMPROF_REGION_END("bad\xff\xfeutf\x01" "ctl");
    COMMPROF_REGION_BEGIN("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" "\xc3\xa9");
    for (int i = 0; i < 4; i++)
        b4[i] = 3;
    COMMPROF_REGION_END("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" "\xc3\xa9");
    f_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx();
    printf("names-hostile %d\n", g());
    return 0;
}
