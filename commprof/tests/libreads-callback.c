/* A library call's reads (docs/definitions.md, "A library call reads each
 * byte of the program's memory once") and the callbacks it calls.
 *
 * 1. A callback that writes the bytes the call reads again.  rd_cookie makes
 *    one fgets of a stream made with fopencookie, whose stdio buffer is the
 *    64-byte array vbuf (setvbuf) and whose read function cread fills it with
 *    a plain loop (no call).  The stream is one line of LEN = 1000 bytes
 *    ('\n' last), so the one fgets has cread fill vbuf 16 times (15 x 64 +
 *    40 bytes) and reads every byte it copies once from cread's fill:
 *       cread -> rd_cookie   bytes = 1000, unique addresses = 64 (vbuf)
 *    (before: 64 bytes, the first fill only: cread's stores did not make the
 *    bytes count again) and fgets copies the line into line[]:
 *       rd_cookie -> use_line  bytes = 1000 = unique addresses (use_line reads
 *    each byte of line once).
 *
 * 2. A callback without a node frame that makes a call.  sortit sorts the 16
 *    pointers of words[] with qsort and the comparator cmp, which calls
 *    strcmp.  cmp is a node in libreads-callback(-O2); the -excl tests leave
 *    it out with --fn-exclude=cmp, so its code is charged to sortit, the
 *    innermost node frame.  qsort does the same work either way, so sortit's
 *    counts in the -excl tests are the sums of sortit's and cmp's in the
 *    others (loads, stack loads, bytes read, stack bytes read, and
 *    instructions).  Before, qsort's re-reads of its own frames after a
 *    comparison were taken for reads of the program's memory that the call
 *    had made already: at -O0 sortit had 18 loads (144 bytes) fewer than the
 *    sums.
 *
 *    The .post.exp2 files hold the in-tree build's numbers (tests/intree):
 *    its preload links Valgrind's malloc wrappers built from source, not
 *    Debian's, whose code differs and is counted for its callers: sortit has
 *    one instruction and one 8-byte stack load more there.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define NI __attribute__((noinline))
#define LEN 1000

volatile long sink;
static long pos;
char line[LEN + 16];
static char vbuf[64];

/* the stream's read function: the next bytes of the line, by plain stores */
NI ssize_t cread(void *cookie, char *buf, size_t size)
{
    (void)cookie;
    long n = 0;
    while (n < (long)size && pos < LEN) {
        buf[n++] = pos == LEN - 1 ? '\n' : (char)('a' + pos % 26);
        pos++;
    }
    return n;
}

NI void rd_cookie(FILE *f) { sink = (long)fgets(line, sizeof line, f); }

NI void use_line(void)
{
    long s = 0;
    for (int i = 0; i < LEN; i++) s += ((volatile char *)line)[i];
    sink = s;
}

const char *words[16] = { "pear", "apple", "fig", "kiwi", "plum", "date", "lime", "sloe",
                          "yuzu", "akee", "nut", "bean", "corn", "rice", "oat", "rye" };

int cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

NI void sortit(void) { qsort(words, 16, sizeof words[0], cmp); }

int main(void)
{
    cookie_io_functions_t io = { .read = cread };
    FILE *f = fopencookie(NULL, "r", io);
    if (!f || setvbuf(f, vbuf, _IOFBF, sizeof vbuf) != 0) return 1;
    rd_cookie(f);
    use_line();
    fclose(f);
    sortit();
    printf("%s %s\n", words[0], words[15]);
    return 0;
}
