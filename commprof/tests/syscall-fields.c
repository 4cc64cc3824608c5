/* syscall-fields: what the kernel writes that Valgrind's system-call wrappers do not
 * report is (syscall NAME)'s too, and madvise(MADV_DONTNEED) empties private pages.
 *
 * docs/definitions.md: (syscall NAME) "bytes the kernel wrote into client memory for
 * system call NAME"; (unwritten) "zero-filled pages".  Before, these kept the producer of
 * the value the program had stored there (main, message, w_gen):
 *   recvmsg's msg_controllen    message stores 64, the kernel 24 (one SCM_RIGHTS descriptor):
 *                               (syscall recvmsg) -> c_ctl 8 bytes
 *   recvfrom's *addrlen         main stores 28, the kernel 16 (an IPv4 address):
 *                               (syscall recvfrom) -> c_fromlen 4 bytes
 *   select's fd_set             main sets the bits of the pipe's two ends (3 and 4); the
 *                               kernel clears that of the empty read end; glibc's select
 *                               is the pselect6 system call: (syscall pselect6) -> c_fds
 *                               8 bytes (one long)
 *   fcntl(F_GETLK)'s l_type     main stores F_WRLCK, the kernel F_UNLCK (no lock held):
 *                               (syscall fcntl) -> c_lk 2 bytes
 *   madvise(MADV_DONTNEED)      w_gen writes 4096 bytes of a private anonymous page; after
 *                               the madvise c_dn reads 1000 zeroes: (unwritten) -> c_dn
 *                               1000 bytes (before: w_gen -> c_dn 1000)
 *   ... of a shared page        w_sh writes 4096 bytes of a MAP_SHARED anonymous page,
 *                               which keeps its contents: w_sh -> c_sh 1000 bytes
 * Each reading function makes one load of its field (volatile); c_dn and c_sh make 1000
 * one-byte loads.  Unique addresses = bytes.
 *
 * stdout: "controllen 24 fromlen 16 fds 16 l_type 2 dn 0 sh 2000": the pipe is made
 * first (descriptors 3 and 4), the write end's bit is 1 << 4; F_UNLCK is 2; the shared
 * page holds 2s.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#define NI __attribute__((noipa))

NI long c_ctl(struct msghdr *m) { return (long)*(volatile size_t *)&m->msg_controllen; }
NI long c_fromlen(socklen_t *l) { return *(volatile socklen_t *)l; }
NI long c_fds(fd_set *s) { return *(volatile long *)s; }
NI long c_lk(struct flock *f) { return *(volatile short *)&f->l_type; }
NI void w_gen(unsigned char *p) { for (int i = 0; i < 4096; i++) ((volatile unsigned char *)p)[i] = 1; }
NI void w_sh(unsigned char *p) { for (int i = 0; i < 4096; i++) ((volatile unsigned char *)p)[i] = 2; }
NI unsigned long c_dn(const unsigned char *p)
{
    unsigned long s = 0;
    for (int i = 0; i < 1000; i++)
        s += ((const volatile unsigned char *)p)[i];
    return s;
}
NI unsigned long c_sh(const unsigned char *p)
{
    unsigned long s = 0;
    for (int i = 0; i < 1000; i++)
        s += ((const volatile unsigned char *)p)[i];
    return s;
}

/* a message of one byte at *b with a control buffer of len bytes */
static void message(struct msghdr *m, struct iovec *iov, char *b, char *ctl, size_t len)
{
    memset(m, 0, sizeof *m);
    iov->iov_base = b;
    iov->iov_len = 1;
    m->msg_iov = iov;
    m->msg_iovlen = 1;
    m->msg_control = ctl;
    m->msg_controllen = len;
}

int main(void)
{
    int pp[2], sv[2];
    if (pipe(pp) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;

    /* recvmsg: one descriptor passed, the control length shrinks from 64 to 24 */
    char x = 1, sctl[CMSG_SPACE(sizeof(int))];
    memset(sctl, 0, sizeof sctl);
    struct iovec siv;
    struct msghdr sm;
    message(&sm, &siv, &x, sctl, sizeof sctl);
    struct cmsghdr *c = CMSG_FIRSTHDR(&sm);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &pp[0], sizeof(int));
    if (sendmsg(sv[0], &sm, 0) != 1)
        return 2;
    char d, ctl[64];
    struct iovec iv;
    struct msghdr mh;
    message(&mh, &iv, &d, ctl, sizeof ctl);
    if (recvmsg(sv[1], &mh, 0) != 1)
        return 3;
    long r1 = c_ctl(&mh);
    struct cmsghdr *rc = CMSG_FIRSTHDR(&mh);
    if (rc) {
        int passed;
        memcpy(&passed, CMSG_DATA(rc), sizeof passed);
        close(passed);
    }

    /* recvfrom: the address length shrinks from 28 to 16 */
    int u1 = socket(AF_INET, SOCK_DGRAM, 0), u2 = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof a;
    if (bind(u1, (struct sockaddr *)&a, sizeof a) != 0 || getsockname(u1, (struct sockaddr *)&a, &al) != 0)
        return 4;
    if (sendto(u2, "hi", 2, 0, (struct sockaddr *)&a, sizeof a) != 2)
        return 5;
    char ub[8];
    struct sockaddr_in6 from;
    socklen_t fl = sizeof from;
    if (recvfrom(u1, ub, sizeof ub, 0, (struct sockaddr *)&from, &fl) != 2)
        return 6;
    long r2 = c_fromlen(&fl);

    /* select: the empty read end's bit is cleared */
    fd_set rs;
    FD_ZERO(&rs);
    FD_SET(pp[0], &rs);
    FD_SET(pp[1], &rs);
    struct timeval tv = {0, 0};
    if (select(pp[1] + 1, NULL, &rs, NULL, &tv) < 0)
        return 7;
    long r3 = c_fds(&rs);

    /* fcntl(F_GETLK): nobody holds a lock, l_type becomes F_UNLCK */
    char name[] = "/tmp/syscall-fields.XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0)
        return 8;
    unlink(name);
    struct flock f;
    memset(&f, 0, sizeof f);
    f.l_type = F_WRLCK;
    f.l_whence = SEEK_SET;
    f.l_len = 10;
    if (fcntl(fd, F_GETLK, &f) != 0)
        return 9;
    long r4 = c_lk(&f);

    /* madvise(MADV_DONTNEED): a private page reads as zeroes, a shared one keeps its bytes */
    unsigned char *pv = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pv == MAP_FAILED || sh == MAP_FAILED)
        return 10;
    w_gen(pv);
    w_sh(sh);
    madvise(pv, 4096, MADV_DONTNEED);
    madvise(sh, 4096, MADV_DONTNEED);
    unsigned long dn = c_dn(pv), shs = c_sh(sh);

    printf("controllen %ld fromlen %ld fds %ld l_type %ld dn %lu sh %lu\n", r1, r2, r3, r4, dn, shs);
    return 0;
}
