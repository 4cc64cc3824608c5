/* cflags: -Wl,-z,now */
/* segv: the accesses and the instruction of an instruction that faults and runs
 * again count once; the instructions before it in its block count too.
 *
 * A SIGSEGV handler makes a read-only page writable again and returns, so the
 * faulting instruction runs again (the write barrier of a garbage collector,
 * copy-on-write emulation); a second page is never readable, and the handler
 * leaves a read of it with siglongjmp.  (The handler tells the two apart by
 * a flag, not by si_addr: Valgrind 3.19 gives 0x1000 for some faults.)
 *
 *   fill:   writes pg[0..8) (8 ints) and lk[0..4) (4 ints); main then makes pg
 *           read-only and lk inaccessible (PROT_NONE).
 *   bump:   pg[3] += 5.  At -O2 one instruction (addl $5,(mem)) whose load
 *           succeeds and whose store faults; at -O0 a load instruction, then a
 *           store instruction that faults.  Either way the handler makes pg
 *           writable and the store (the whole addl) runs again: bump read
 *           pg[3] once.                         => fill -> bump  bytes = 4, unma = 4
 *   incr:   incl on pg[6] (inline asm: one read-modify-write instruction at
 *           -O0 too): its store faults (pg is read-only again), then the whole
 *           incl runs again.                    => fill -> incr  bytes = 4, unma = 4
 *   atom:   __atomic_fetch_add(&pg[5], 1): lock addl, a load and a
 *           compare-and-swap whose store faults, then again.
 *                                               => fill -> atom  bytes = 4, unma = 4
 *   peek:   reads lk[2]: the load faults and the handler siglongjmps out, so
 *           peek never read anything: no edge into peek.
 *   sum:    reads pg[0..8) once: pg[0,1,2,4,7] from fill (20 bytes), pg[3]
 *           from bump, pg[5] from atom, pg[6] from incr.
 *                                               => fill  -> sum bytes = 20, unma = 20
 *                                                  bump  -> sum bytes = 4,  unma = 4
 *                                                  incr  -> sum bytes = 4,  unma = 4
 *                                                  atom  -> sum bytes = 4,  unma = 4
 *
 * Instructions (--maip, from the disassembly of gcc 12): an instruction counts when
 * it completes, so a faulting one counts once, at its retry, and the ones before it
 * in its block count although the block was abandoned at the fault.  The handler's
 * return goes through glibc's __restore_rt (mov $15,%rax; syscall: 2 instructions,
 * no data access), code outside the nodes, charged to the innermost node frame,
 * which is the interrupted function again (the handler has returned):
 *   -O2  bump  mov pg; movslq; addl; ret                      4 + 2 = 6 instructions,
 *              memory instructions mov, addl = 2; loads pg (8 bytes) and pg[3] (4)
 *              = 2 loads, 12 bytes; 1 store
 *        incr  mov pg; incl; ret                              3 + 2 = 5, mem 2,
 *              loads 2 (12 bytes), stores 1
 *        atom  mov pg; lock addl; ret                         3 + 2 = 5, the same
 *        peek  mov lk (a load of 8 bytes); the faulting mov does not complete and
 *              the handler leaves: 1 instruction, mem 1, 1 load, 8 bytes
 *   -O0  bump  19 instructions + 2 = 21; memory: push, mov %edi to the stack, mov
 *              pg, reload k, the load of pg[3], mov pg, reload k, the store to
 *              pg[3], pop = 9 (ret is control flow); loads pg 8, k 4, pg[3] 4, pg 8,
 *              k 4, pop 8 = 6 loads, 36 bytes; stores push, k, pg[3] = 3
 *        incr  push; mov; mov pg; add; incl; nop; pop; ret   8 + 2 = 10; memory push,
 *              mov pg, incl, pop = 4; loads pg 8, pg[6] 4, pop 8 = 3 loads, 20
 *              bytes; stores push, incl = 2
 *        atom  the same shape with lock addl                  10, 4, 3 (20 bytes), 2
 *        peek  push; mov; mov lk; add; then the faulting load: 4 instructions, mem
 *              push and mov lk = 2, 1 load (8 bytes), 1 store
 *
 * (Not tested: a movs whose store faults.  Valgrind 3.19 itself, --tool=none
 * too, reports such a fault at address 0x1000 and faults again on every
 * retry.)
 *
 * stdout: 4 faults; pg = {0, 1, 2, 3+5, 4, 5+1, 6+1, 7}, sum 35; peek -1 (it
 * returned no value).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int *pg, *lk;
static long psz;
static volatile int faults, peeking;
static sigjmp_buf out;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)si;
    (void)uc;
    faults++;
    if (peeking)                 /* not si_addr: Valgrind 3.19 reports 0x1000 for some */
        siglongjmp(out, 1);
    mprotect(pg, psz, PROT_READ | PROT_WRITE);
}

__attribute__((noipa)) void fill(void)
{
    for (int i = 0; i < 8; i++) pg[i] = i;
    for (int i = 0; i < 4; i++) lk[i] = i;
}

__attribute__((noipa)) void bump(int k) { pg[k] += 5; }

__attribute__((noipa)) void incr(void) { __asm__ volatile("incl %0" : "+m"(pg[6])); }

__attribute__((noipa)) void atom(void) { __atomic_fetch_add(&pg[5], 1, __ATOMIC_SEQ_CST); }

__attribute__((noipa)) int peek(void) { return ((volatile int *)lk)[2]; }

__attribute__((noipa)) long sum(void)
{
    long s = 0;
    for (int i = 0; i < 8; i++) s += pg[i];
    return s;
}

int main(void)
{
    psz = sysconf(_SC_PAGESIZE);
    pg = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    lk = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pg == MAP_FAILED || lk == MAP_FAILED)
        return 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0)
        return 1;
    fill();
    mprotect(lk, psz, PROT_NONE);
    mprotect(pg, psz, PROT_READ);
    bump(3);
    mprotect(pg, psz, PROT_READ);
    incr();
    mprotect(pg, psz, PROT_READ);
    atom();
    int v = -1;
    peeking = 1;
    if (sigsetjmp(out, 1) == 0)
        v = peek();
    peeking = 0;
    printf("segv faults=%d sum=%ld peek=%d\n", faults, sum(), v);
    return 0;
}
