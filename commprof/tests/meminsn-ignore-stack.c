/* meminsn-ignore-stack: with --ignore-stack=yes the accesses to the thread's
 * stack count nowhere, mem-instructions included (docs/definitions.md: such
 * loads and stores "credit no edge and no counter of any kind").
 *
 * The functions are naked, their code the inline asm alone (the same at -O0
 * and -O2); ret is control flow, not a load.  g is a global int (.bss).
 *   f:  push %rbx; pop %rbx; ret        two stack accesses
 *   h:  movl $1, g(%rip); ret           a store to g
 *   k:  pushq g(%rip); pop %rax; ret    push loads g and stores to the stack
 * With --ignore-stack=yes:
 *   f instructions=3 mem-instructions=0 loads=0 stores=0
 *   h instructions=2 mem-instructions=1 loads=0 stores=1
 *   k instructions=3 mem-instructions=1 loads=1 stores=0 (push: the load of g
 *     counts, its stack store does not; pop reads the stack only)
 * and the edge h -> k bytes=4 unma=4 (push reads the 4 bytes h wrote, and 4 more
 * of g's neighbours in .bss that nobody wrote: (unwritten) -> k 4/4).
 * stdout: "meminsn-ignore-stack 1".
 */
#include <stdio.h>

int g[2];

__attribute__((naked)) void f(void)
{
    __asm__("push %rbx\n\tpop %rbx\n\tret");
}

__attribute__((naked)) void h(void)
{
    __asm__("movl $1, g(%rip)\n\tret");
}

__attribute__((naked)) void k(void)
{
    __asm__("pushq g(%rip)\n\tpop %rax\n\tret");
}

int main(void)
{
    f();
    h();
    k();
    printf("meminsn-ignore-stack %d\n", g[0]);
    return 0;
}
