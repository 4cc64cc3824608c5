/* maip-rep: the memory-access profile of rep-prefixed string instructions (run with
 * --objects=yes).
 *
 * repk(dst, src, n) is written in assembly (the top-level asm below: the same code at -O0
 * and -O2). Called as repk(d, s, 64) with the globals d, s (64 bytes each) and q (8
 * quadwords):
 *     R1 mov  %rdx, %rcx        -
 *     R2 mov  (%rsi), %rax      load 8 (s)
 *     R3 rep movsb              64 iterations, each a 1-byte load (s) and store (d)
 *     R4 lea  q(%rip), %rdi     -
 *     R5 mov  $8, %ecx          -
 *     R6 rep stosq              8 iterations, each an 8-byte store (q)
 *     R7 mov  %rcx, %rax        -
 *     R8 ret                    (the return address load is control flow, not data)
 * A rep-prefixed instruction executes once per iteration and once more when it finds
 * rcx = 0 and ends (as Valgrind's other tools count it): R3 executes 65 times, of which 64
 * access memory; R6 9 times, of which 8 access memory. "mem-instructions" counts the
 * executed instructions that made at least one load or store (docs/commprof.rng).
 *   instructions        = R1 R2 + 65 + R4 R5 + 9 + R7 R8 = 2 + 65 + 2 + 9 + 2 = 80
 *   mem-instructions    = 1 (R2) + 64 (R3) + 8 (R6)                          =  73
 *   loads               = 1 + 64                                             =  65
 *   stores              = 64 + 8                                             =  72
 *   bytes-read          = 8 + 64                                             =  72
 *   bytes-written       = 64 + 8*8                                           = 128
 *   stack loads, stores and bytes: 0
 *   heap-bytes-read/written: 0; global-bytes-read = 72, global-bytes-written = 128
 *
 * stdout: d = s = 64 bytes of 7 (main fills s before the call): d[63] = 7; R2 loads
 *   0x0707070707070707 into rax, which rep stosq stores 8 times: q[7] & 0xff = 7; rcx is 0
 *   at the end: repk returns 0.
 */
#include <stdio.h>
#include <string.h>

unsigned char s[64], d[64];
unsigned long q[8];

long repk(unsigned char *dst, const unsigned char *src, long n);

__asm__(
    "    .text\n"
    "    .globl repk\n"
    "    .type repk, @function\n"
    "repk:\n"
    "    movq %rdx, %rcx\n"
    "    movq (%rsi), %rax\n"
    "    rep movsb\n"
    "    leaq q(%rip), %rdi\n"
    "    movl $8, %ecx\n"
    "    rep stosq\n"
    "    movq %rcx, %rax\n"
    "    ret\n"
    "    .size repk, .-repk\n");

int main(void)
{
    memset(s, 7, sizeof(s));
    long r = repk(d, s, 64);
    printf("maip-rep repk=%ld d63=%d q7=%lu\n", r, d[63], q[7] & 0xff);
    return 0;
}
