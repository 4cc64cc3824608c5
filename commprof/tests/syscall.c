/* cflags: -Wl,-z,now */
/* syscall: bytes written by the kernel for read() are produced by (syscall read).
 *
 *   main:  pipe(fds); write(fds[1], MSG, M); close(fds[1]).
 *          The kernel reads MSG for write(): that is not a load of the program.
 *          M = strlen(MSG) = 64 (63 visible characters plus '\n'; the program
 *          prints the length it sends and the length read() returned).
 *   load:  n = read(fds[0], buf, sizeof buf) with buf a global char[256] (.bss).
 *          The pipe holds exactly M bytes, written by one write() of less than
 *          PIPE_BUF bytes, so one read() returns all M = 64 bytes; the kernel writes
 *          buf[0..64) -> producer (syscall read).
 *   parse: reads buf[0..n) once, byte by byte (a hash whose recurrence gcc does not
 *          vectorise; either way every byte is read exactly once).
 *
 *   => (syscall read) -> parse bytes = 64, unma = 64
 *   No (unwritten) -> parse: parse reads only buf[0..64), all written by the kernel.
 *   No load -> parse: load writes nothing parse reads (read() is done by the kernel; the
 *   result n is returned in a register).
 *   No (syscall read) -> load: load never reads buf.
 *
 * stdout: the lengths (64, 64) and the hash (h = h*33 ^ c from h = 5381, 32-bit
 *         unsigned, over the 64 message bytes = 2055154797).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NO_TAIL() __asm__ volatile("" ::: "memory")

static const char MSG[] =
    "commprof syscall test: the kernel writes these bytes for read()\n";

static char buf[256];

__attribute__((noipa)) long load(int fd, char *b, size_t cap)
{
    long n = read(fd, b, cap);
    NO_TAIL();
    return n;
}

__attribute__((noipa)) unsigned parse(const char *b, long n)
{
    unsigned h = 5381;
    for (long i = 0; i < n; i++)
        h = (h * 33) ^ (unsigned char)b[i];
    return h;
}

int main(void)
{
    int fds[2];
    size_t m = strlen(MSG);
    if (pipe(fds) != 0)
        return 1;
    if (write(fds[1], MSG, m) != (long)m)
        return 1;
    close(fds[1]);
    long n = load(fds[0], buf, sizeof buf);
    unsigned h = parse(buf, n);
    close(fds[0]);
    printf("syscall msglen=%zu read=%ld hash=%u\n", m, n, h);
    return 0;
}
