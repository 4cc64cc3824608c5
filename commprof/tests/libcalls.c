/* libcalls: a call of the C library reads the caller's bytes once, however often its code looks at them.
 *
 * glibc's printf("%s"), puts and fputs take the string's length, then copy it into stdout's
 * buffer; strdup calls strlen, then memcpy; sscanf finds the end of its input, then parses
 * it; fread reads the first byte of its buffer twice.  Counted as their code reads, show's
 * three calls made fill -> show 75 bytes (25 a call: 13 for the length, 12 for the copy),
 * fill -> twice 50, fill -> dup 26, fill -> parse 19, dup -> use 33 and (syscall read) ->
 * reader 38.  A library call counts a byte of the caller's memory at its first read only
 * (until its code writes the byte again); a new call counts it again.
 *
 *   fill:   strcpy(msg, "hello, world") (13 bytes with the terminator),
 *           strcpy(nums, "12 345") (7 bytes), out[i] = 'a' + i % 26 for i < 37
 *   show:   printf("%s\n", msg); puts(msg); fputs(msg, stdout): 3 calls, each reads msg's
 *           13 bytes (its end is found by reading the terminator)
 *   twice:  puts(msg); puts(msg): 2 calls, 26 bytes (at -O2 the second is a tail call, a jump
 *           to puts' PLT entry, which starts a call as a call instruction does)
 *   dup:    copy = strdup(msg): reads msg's 13 bytes; writes copy (8) and the new string
 *   parse:  sscanf(nums, "%d %d", &a, &b): reads nums' 7 bytes; writes a and b (4 + 4)
 *   use:    printf("%s %d\n", copy, a + b): reads copy (8), the string it points at (13),
 *           a and b (8)
 *   writer: fwrite(out, 1, 37, f) to libcalls.tmp: reads out's 37 bytes
 *   reader: fread(in, 1, 37, f) from it: reads the 37 bytes the read system call wrote
 *           into the FILE's buffer, writes in[0..37)
 *   check:  sums in[0..37)
 *   main:   calls them in this order, then free(copy) (reads copy: 8 bytes)
 *
 * Edges among these functions and (syscall read):
 *   fill -> show    bytes = 39, unma = 13   (3 calls x 13)
 *   fill -> twice   bytes = 26, unma = 13   (2 calls x 13)
 *   fill -> dup     bytes = 13, unma = 13
 *   fill -> parse   bytes = 7,  unma = 7
 *   fill -> writer  bytes = 37, unma = 37
 *   dup -> use      bytes = 21, unma = 21   (copy 8 + the string 13)
 *   dup -> main     bytes = 8,  unma = 8    (copy, for free)
 *   parse -> use    bytes = 8,  unma = 8    (a, b)
 *   (syscall read) -> reader  bytes = 37, unma = 37
 *   reader -> check bytes = 37, unma = 37
 *
 * stdout: hello, world (five times), then "hello, world 357" and the sum of
 * in[]: 37 letters 'a'..'z','a'..'k' = 26 * 97 + 325 + 11 * 97 + 55 = 3969.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char msg[32];
char nums[16];
char* copy;
int a, b;
char out[37], in[37];

__attribute__((noinline)) void fill(void)
{
    strcpy(msg, "hello, world");
    strcpy(nums, "12 345");
    for (int i = 0; i < 37; i++)
        out[i] = (char)('a' + i % 26);
}

__attribute__((noinline)) void show(void)
{
    printf("%s\n", msg);
    puts(msg);
    fputs(msg, stdout);
    putchar('\n');
}

__attribute__((noinline)) void twice(void)
{
    puts(msg);
    puts(msg);
}

__attribute__((noinline)) void dup(void)
{
    copy = strdup(msg);
}

__attribute__((noinline)) void parse(void)
{
    if (sscanf(nums, "%d %d", &a, &b) != 2)
        abort();
}

__attribute__((noinline)) void use(void)
{
    printf("%s %d\n", copy, a + b);
}

/* the -O0 and -O2 builds run side by side: a file each */
#ifdef __OPTIMIZE__
#define TMP "libcalls-O2.tmp"
#else
#define TMP "libcalls.tmp"
#endif

__attribute__((noinline)) void writer(const char* path)
{
    FILE* f = fopen(path, "w");
    if (!f || fwrite(out, 1, 37, f) != 37)
        abort();
    fclose(f);
}

__attribute__((noinline)) void reader(const char* path)
{
    FILE* f = fopen(path, "r");
    if (!f || fread(in, 1, 37, f) != 37)
        abort();
    fclose(f);
}

__attribute__((noinline)) int check(void)
{
    int s = 0;
    for (int i = 0; i < 37; i++)
        s += in[i];
    return s;
}

int main(void)
{
    fill();
    show();
    twice();
    dup();
    parse();
    use();
    writer(TMP);
    reader(TMP);
    printf("%d\n", check());
    remove(TMP);
    free(copy);
    return 0;
}
