/* fault-counts: instructions that fault are not counted, those before them are, whether a
 * handler catches the signal or the signal kills the process (docs/definitions.md,
 * "instructions").
 *
 *   ill:   nop; nop; ud2 -- the SIGILL handler leaves with siglongjmp: 2 instructions
 *          (before: 3, the ud2 that ended the block counted as executed)
 *   crash: two 8-byte stores into g[], three nops, then a load from address 0: the
 *          SIGSEGV has no handler and kills the process; 5 instructions, 2 of them memory
 *          instructions, 2 stores of 16 bytes (before: 0 instructions, the run the fault
 *          interrupted was never counted when the process died)
 *
 * Both functions are naked (their code is the asm, at -O0 and -O2 alike).
 *
 * stdout: caught SIGILL
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

long g[8];
static sigjmp_buf jb;

__attribute__((naked, noinline)) void ill(void)
{
    __asm__ volatile("nop\n\tnop\n\tud2");
}

__attribute__((naked, noinline)) void crash(void)
{
    __asm__ volatile("movq $1, g(%rip)\n\t"
                     "movq $2, g+8(%rip)\n\t"
                     "nop\n\tnop\n\tnop\n\t"
                     "movq 0, %rax\n\t"
                     "ret");
}

static void on_ill(int sig)
{
    (void)sig;
    siglongjmp(jb, 1);
}

int main(void)
{
    signal(SIGILL, on_ill);
    if (sigsetjmp(jb, 1) == 0) ill();
    printf("caught SIGILL\n");
    fflush(stdout);
    crash();
    return 0;
}
