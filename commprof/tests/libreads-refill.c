/* libreads-refill: a library call reads again the bytes the kernel wrote into its buffer
 * while the call was running.
 *
 * A library call counts a byte of the program's memory at its first read only, until
 * something writes the byte again (docs/definitions.md, "Library calls").  The read system
 * call that refills a FILE's buffer in the middle of a fread or fgets is such a write: the
 * bytes the call copies out of the refilled buffer are new data, read for the first time.
 * Before, only the program's own stores made bytes count again, so each of these calls lost
 * the bytes it read a second time at the same addresses of the buffer.
 *
 * main writes a file of 10000 bytes with write(2): two lines of 4999 letters and a newline
 * (file offsets 4999 and 9999 hold '\n').  Each reader opens it and gives the FILE a
 * 4096-byte buffer of the program's own (sbuf, setvbuf), so the buffer size does not depend
 * on the file system.  The bytes that land in sbuf are written by the read system call:
 * producer (syscall read).
 *
 *   rd_fread:  fread(out, 1, 1) then fread(out, 1, 6000), two calls.  The first fills sbuf
 *              with file bytes 0..4095 (one read) and copies sbuf[0]: 1 byte.  The second
 *              copies sbuf[1..4096): 4095 bytes; 1905 are still wanted, fewer than the
 *              buffer holds, so glibc refills sbuf with file bytes 4096..8191 and copies
 *              sbuf[0..1905): 1905 bytes, read again at addresses the call has read before.
 *              (syscall read) -> rd_fread: bytes = 1 + 4095 + 1905 = 6001,
 *              unma = the 4096 addresses of sbuf (the refill reads sbuf[0..1905), all
 *              read before)
 *   rd_fgets:  fgets(line, 6000): the first line, 5000 bytes with its newline: sbuf[0..4096)
 *              (file bytes 0..4095), a refill, then sbuf[0..904) up to the newline (file
 *              byte 4999 is sbuf[903]).  bytes = 4096 + 904 = 5000, unma = 4096
 *   rd_getline: getline: the same line into a buffer getline allocates: bytes = 5000,
 *              unma = 4096
 *   rd_scanf:  fscanf("%5999s"): the 4999 letters and the newline that ends the word (read,
 *              then pushed back): bytes = 5000, unma = 4096
 *
 * stdout: 6000 5000 5000 4999
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the -O0 and -O2 builds run side by side: a file each */
#ifdef __OPTIMIZE__
#define TMP "libreads-refill-O2.tmp"
#else
#define TMP "libreads-refill.tmp"
#endif

static char sbuf[4096] __attribute__((aligned(64)));
static char out[6000];
static char line[6000];
static char* gl;
static size_t gn;

static FILE* open_buffered(void)
{
    FILE* fp = fopen(TMP, "r");
    if (!fp || setvbuf(fp, sbuf, _IOFBF, sizeof sbuf) != 0)
        abort();
    return fp;
}

__attribute__((noinline)) size_t rd_fread(FILE* fp)
{
    size_t n = fread(out, 1, 1, fp);
    return n + fread(out, 1, 6000, fp) - 1;
}

__attribute__((noinline)) size_t rd_fgets(FILE* fp)
{
    if (!fgets(line, sizeof line, fp))
        abort();
    return strlen(line);
}

__attribute__((noinline)) size_t rd_getline(FILE* fp)
{
    return (size_t)getline(&gl, &gn, fp);
}

__attribute__((noinline)) size_t rd_scanf(FILE* fp)
{
    if (fscanf(fp, "%5999s", line) != 1)
        abort();
    return strlen(line);
}

int main(void)
{
    static char d[10000];
    for (int i = 0; i < 10000; i++)
        d[i] = i % 5000 == 4999 ? '\n' : 'a' + i % 26;
    int fd = open(TMP, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, d, sizeof d) != (ssize_t)sizeof d || close(fd) != 0)
        abort();

    size_t r[4];
    FILE* fp = open_buffered();
    r[0] = rd_fread(fp);
    fclose(fp);
    fp = open_buffered();
    r[1] = rd_fgets(fp);
    fclose(fp);
    fp = open_buffered();
    r[2] = rd_getline(fp);
    fclose(fp);
    fp = open_buffered();
    r[3] = rd_scanf(fp);
    fclose(fp);
    remove(TMP);
    printf("%zu %zu %zu %zu\n", r[0], r[1], r[2], r[3]);
    return 0;
}
