/* maip: the memory-access profile of a function whose instructions are pinned down in
 * assembly (run with --objects=yes).
 *
 * kernel(heap, n) is written entirely in assembly (the top-level asm below), so it is the
 * same code at -O0 and -O2 (objdump -d shows exactly these instructions). With rdi = heap
 * (a malloc'ed block of 32 bytes), rsi = n = 100 iterations:
 *
 *   prologue (4 instructions, once)
 *     P1 push %rbx                  store 8, stack
 *     P2 sub  $16, %rsp             -
 *     P3 xor  %eax, %eax            -
 *     P4 mov  %rax, (%rsp)          store 8, stack
 *   loop body (12 instructions, n times)
 *     L1  mov  (%rdi), %rbx         load 8, heap
 *     L2  add  %rbx, gsum(%rip)     load 8 + store 8, global (one instruction)
 *     L3  mov  %rbx, 8(%rsp)        store 8, stack
 *     L4  mov  8(%rsp), %ecx        load 4, stack
 *     L5  mov  %cx, 8(%rdi)         store 2, heap
 *     L6  mov  gflag(%rip), %cl     load 1, global
 *     L7  movdqu 16(%rdi), %xmm0    load 16, heap
 *     L8  lock incl gcount(%rip)    load 4 + store 4, global (locked read-modify-write:
 *                                   a load and a store, docs/definitions.md)
 *     L9  imul $3, %rbx, %rbx       -
 *     L10 add  $1, %rax             -
 *     L11 cmp  %rsi, %rax           -
 *     L12 jne  L1                   -
 *   epilogue (3 instructions, once)
 *     E1 add  $16, %rsp             -
 *     E2 pop  %rbx                  load 8, stack
 *     E3 ret                        the return address load is control flow, not data
 *
 * Per-function numbers (docs/commprof.rng), n = 100:
 *   instructions        = 4 + 12n + 3                      = 1207
 *   mem-instructions    = 2 (P1, P4) + 8n (L1..L8) + 1 (E2) =  803
 *   loads               = 6n (L1 L2 L4 L6 L7 L8) + 1 (E2)  =  601
 *   stores              = 2 (P1 P4) + 4n (L2 L3 L5 L8)     =  402
 *   stack-loads         = n (L4) + 1 (E2)                  =  101
 *   stack-stores        = 2 + n (L3)                       =  102
 *   bytes-read          = n(8+8+4+1+16+4) + 8 = 41n + 8    = 4108
 *   bytes-written       = 16 + n(8+8+2+4) = 16 + 22n       = 2216
 *   stack-bytes-read    = 4n + 8                           =  408
 *   stack-bytes-written = 16 + 8n                          =  816
 *   heap-bytes-read     = n(8+16) (L1 L7)                  = 2400
 *   heap-bytes-written  = 2n (L5)                          =  200
 *   global-bytes-read   = n(8+1+4) (L2 L6 L8)              = 1300
 *   global-bytes-written= n(8+4) (L2 L8)                   = 1200
 * (The call instruction in main and its return-address store are main's.)
 * maip-noobjects runs the same program without --objects: the same numbers, without the
 * heap and global bytes, which only --objects=yes writes.
 *
 * maip-access: first-access and last-access of an object are the instructions executed
 * (all threads) before its first and its last access (docs/commprof.rng). gsum, gflag
 * and gcount are accessed by kernel only (main does not print them), once per iteration,
 * by L2, L6 and L8. Let T0 be the instructions executed before kernel's first
 * instruction; before instruction Lk of iteration i (1..n) kernel has executed
 * 4 + 12(i-1) + (k-1) instructions. So
 *   gsum   (L2): first-access = T0 + 5,  last-access = T0 + 4 + 12*99 + 1 = T0 + 1193
 *   gflag  (L6): first-access = T0 + 9,  last-access = T0 + 1197
 *   gcount (L8): first-access = T0 + 11, last-access = T0 + 1199
 * and relative to the smallest first-access (gsum's), as cp_edges --access-times prints:
 *   gsum +0 +1188, gflag +4 +1192, gcount +6 +1194.
 *
 * stdout: kernel returns n.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long gsum;
int gcount;
char gflag = 1;

long kernel(long *heap, long n);

__asm__(
    "    .text\n"
    "    .globl kernel\n"
    "    .type kernel, @function\n"
    "kernel:\n"
    "    pushq %rbx\n"
    "    subq $16, %rsp\n"
    "    xorl %eax, %eax\n"
    "    movq %rax, (%rsp)\n"
    "1:\n"
    "    movq (%rdi), %rbx\n"
    "    addq %rbx, gsum(%rip)\n"
    "    movq %rbx, 8(%rsp)\n"
    "    movl 8(%rsp), %ecx\n"
    "    movw %cx, 8(%rdi)\n"
    "    movb gflag(%rip), %cl\n"
    "    movdqu 16(%rdi), %xmm0\n"
    "    lock incl gcount(%rip)\n"
    "    imulq $3, %rbx, %rbx\n"
    "    addq $1, %rax\n"
    "    cmpq %rsi, %rax\n"
    "    jne 1b\n"
    "    addq $16, %rsp\n"
    "    popq %rbx\n"
    "    ret\n"
    "    .size kernel, .-kernel\n");

int main(void)
{
    long *heap = malloc(32);
    if (!heap)
        return 1;
    memset(heap, 0, 32);
    heap[0] = 5;
    long r = kernel(heap, 100);
    printf("maip kernel=%ld\n", r);
    free(heap);
    return 0;
}
