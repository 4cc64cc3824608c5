/* commprof unit test: which x86-64 instructions have a memory operand
 * (commprof/cp_deadloads.c, cp_insn_mem_operand).
 *
 *   gcc -O2 -g -DCP_HOST_TEST -I commprof tests/unit/test_deadloads.c commprof/cp_deadloads.c
 *
 * The table below holds instructions assembled by GNU as (objdump's bytes)
 * with the answer each must get: loads, stores and read-modify-writes of
 * every encoding family (one- and two-byte opcodes, 0F 38 and 0F 3A, VEX
 * with two and three bytes, x87, prefixes, REX, segment overrides,
 * RIP-relative, moffs) answer True; register forms, LEA, the NOP, prefetch
 * and CLFLUSH forms, instructions with implicit operands only, and VZEROUPPER
 * answer False.  Then every prefix of every encoding (a truncated
 * instruction) must be answered without reading past its length, under
 * the sanitizers (deadloads/truncated).
 */
#include "refmodel.h"
#include "cp_deadloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
   Bool want;
   const char* text;
   UChar bytes[16];
   UInt len;
} Case;

static const Case cases[] = {
   { True, "mov (%rdi),%eax", { 0x8b, 0x07 }, 2 },
   { True, "mov 0x10(%rsp),%rax", { 0x48, 0x8b, 0x44, 0x24, 0x10 }, 5 },
   { True, "movzbl (%rax,%rdx,1),%eax", { 0x0f, 0xb6, 0x04, 0x10 }, 4 },
   { True, "movzwl 0x2(%rdi),%ecx", { 0x0f, 0xb7, 0x4f, 0x02 }, 4 },
   { True, "movsbq -0x1(%rbp),%rax", { 0x48, 0x0f, 0xbe, 0x45, 0xff }, 5 },
   { True, "movslq (%rdi),%rax", { 0x48, 0x63, 0x07 }, 3 },
   { True, "add (%rdi),%eax", { 0x03, 0x07 }, 2 },
   { True, "cmpl $0x5,(%rdi)", { 0x83, 0x3f, 0x05 }, 3 },
   { True, "testb $0x1,(%rdi)", { 0xf6, 0x07, 0x01 }, 3 },
   { True, "addl $0x1,-0xc(%rbp)", { 0x83, 0x45, 0xf4, 0x01 }, 4 },
   { True, "mov %eax,(%rdi)", { 0x89, 0x07 }, 2 },
   { True, "movb $0x1,(%rdi)", { 0xc6, 0x07, 0x01 }, 3 },
   { True, "mov 0x2e54(%rip),%rax", { 0x48, 0x8b, 0x05, 0x54, 0x2e, 0x00, 0x00 }, 7 },
   { True, "mov %fs:0x28,%rax", { 0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00 }, 9 },
   { True, "movdqu (%rax),%xmm0", { 0xf3, 0x0f, 0x6f, 0x00 }, 4 },
   { True, "movups 0x10(%rdi),%xmm1", { 0x0f, 0x10, 0x4f, 0x10 }, 4 },
   { True, "movaps %xmm0,(%rdi)", { 0x0f, 0x29, 0x07 }, 3 },
   { True, "movq (%rdi),%xmm0", { 0xf3, 0x0f, 0x7e, 0x07 }, 4 },
   { True, "movsd 0x8(%rdi),%xmm0", { 0xf2, 0x0f, 0x10, 0x47, 0x08 }, 5 },
   { True, "pcmpeqb (%rdi),%xmm0", { 0x66, 0x0f, 0x74, 0x07 }, 4 },
   { True, "vmovdqu (%rax),%ymm0", { 0xc5, 0xfe, 0x6f, 0x00 }, 4 },
   { True, "vmovdqu %ymm0,(%rax)", { 0xc5, 0xfe, 0x7f, 0x00 }, 4 },
   { True, "vaddps (%rdi),%ymm1,%ymm2", { 0xc5, 0xf4, 0x58, 0x17 }, 4 },
   { True, "vpbroadcastd (%rdi),%ymm0", { 0xc4, 0xe2, 0x7d, 0x58, 0x07 }, 5 },
   { True, "vmovdqu (%r8),%ymm9", { 0xc4, 0x41, 0x7e, 0x6f, 0x08 }, 5 },
   { True, "pshufb (%rdi),%xmm0", { 0x66, 0x0f, 0x38, 0x00, 0x07 }, 5 },
   { True, "roundps $0x1,(%rdi),%xmm0", { 0x66, 0x0f, 0x3a, 0x08, 0x07, 0x01 }, 6 },
   { True, "crc32b (%rdi),%eax", { 0xf2, 0x0f, 0x38, 0xf0, 0x07 }, 5 },
   { True, "popcnt (%rdi),%eax", { 0xf3, 0x0f, 0xb8, 0x07 }, 4 },
   { True, "imul $0x3,(%rdi),%eax", { 0x6b, 0x07, 0x03 }, 3 },
   { True, "shll $0x2,(%rdi)", { 0xc1, 0x27, 0x02 }, 3 },
   { True, "incl (%rdi)", { 0xff, 0x07 }, 2 },
   { True, "notl (%rdi)", { 0xf7, 0x17 }, 2 },
   { True, "lock cmpxchg %ecx,(%rdi)", { 0xf0, 0x0f, 0xb1, 0x0f }, 4 },
   { True, "xchg %eax,(%rdi)", { 0x87, 0x07 }, 2 },
   { True, "call *0x8(%rax)", { 0xff, 0x50, 0x08 }, 3 },
   { True, "jmp *(%rax,%rdx,8)", { 0xff, 0x24, 0xd0 }, 3 },
   { True, "push 0x8(%rdi)", { 0xff, 0x77, 0x08 }, 3 },
   { True, "cmovne (%rdi),%eax", { 0x0f, 0x45, 0x07 }, 3 },
   { True, "flds (%rdi)", { 0xd9, 0x07 }, 2 },
   { True, "fstpl (%rdi)", { 0xdd, 0x1f }, 2 },
   { True, "movabs 0x1234567812345678,%al", { 0xa0, 0x78, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12 }, 9 },
   { True, "movabs 0x1234567812345678,%rax", { 0x48, 0xa1, 0x78, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12 }, 10 },
   { False, "movabs %rax,0x1234567812345678", { 0x48, 0xa3, 0x78, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12 }, 10 },
   { True, "bt %eax,(%rdi)", { 0x0f, 0xa3, 0x07 }, 3 },
   { True, "cmpxchg16b (%rdi)", { 0x48, 0x0f, 0xc7, 0x0f }, 4 },
   { True, "movbe (%rdi),%eax", { 0x0f, 0x38, 0xf0, 0x07 }, 4 },
   { False, "rep movsb %ds:(%rsi),%es:(%rdi)", { 0xf3, 0xa4 }, 2 },
   { False, "lea 0x8(%rdi),%rax", { 0x48, 0x8d, 0x47, 0x08 }, 4 },
   { False, "nopl 0x0(%rax)", { 0x0f, 0x1f, 0x00 }, 3 },
   { False, "nopw 0x0(%rax,%rax,1)", { 0x66, 0x0f, 0x1f, 0x04, 0x00 }, 5 },
   { False, "cs nopw 0x0(%rax,%rax,1)", { 0x2e, 0x66, 0x0f, 0x1f, 0x04, 0x00 }, 6 },
   { False, "prefetcht0 (%rdi)", { 0x0f, 0x18, 0x0f }, 3 },
   { False, "prefetchw (%rdi)", { 0x0f, 0x0d, 0x0f }, 3 },
   { False, "clflush (%rdi)", { 0x0f, 0xae, 0x3f }, 3 },
   /* the 0F AE group is not checked: ldmxcsr's load is never deleted */
   { False, "ldmxcsr (%rdi)", { 0x0f, 0xae, 0x17 }, 3 },
   { False, "endbr64", { 0xf3, 0x0f, 0x1e, 0xfa }, 4 },
   { False, "mov %eax,%ebx", { 0x89, 0xc3 }, 2 },
   { False, "add $0x5,%eax", { 0x83, 0xc0, 0x05 }, 3 },
   { False, "ret", { 0xc3 }, 1 },
   { False, "push %rbp", { 0x55 }, 1 },
   { False, "pop %rbp", { 0x5d }, 1 },
   { False, "call 0x0", { 0xe8, 0x00, 0x00, 0x00, 0x00 }, 5 },
   { False, "jmp 0x0", { 0xe9, 0x00, 0x00, 0x00, 0x00 }, 5 },
   { False, "jne 0x0", { 0x0f, 0x85, 0x00, 0x00, 0x00, 0x00 }, 6 },
   { False, "vzeroupper", { 0xc5, 0xf8, 0x77 }, 3 },
   { False, "vmovdqu %ymm1,%ymm0", { 0xc5, 0xfe, 0x6f, 0xc1 }, 4 },
   { False, "movdqa %xmm1,%xmm0", { 0x66, 0x0f, 0x6f, 0xc1 }, 4 },
   { False, "xor %eax,%eax", { 0x31, 0xc0 }, 2 },
   { False, "syscall", { 0x0f, 0x05 }, 2 },
   { False, "bswap %eax", { 0x0f, 0xc8 }, 2 },
   { False, "cpuid", { 0x0f, 0xa2 }, 2 },
   { False, "rdtsc", { 0x0f, 0x31 }, 2 },
   { False, "mfence", { 0x0f, 0xae, 0xf0 }, 3 },
   { False, "lfence", { 0x0f, 0xae, 0xe8 }, 3 },
   { False, "ud2", { 0x0f, 0x0b }, 2 },
   { False, "imul $0x3,%ecx,%eax", { 0x6b, 0xc1, 0x03 }, 3 },
   { False, "shl $0x2,%eax", { 0xc1, 0xe0, 0x02 }, 3 },
   { False, "fldz", { 0xd9, 0xee }, 2 },
   { False, "leave", { 0xc9 }, 1 },
   { False, "pcmpeqb %xmm0,%xmm0", { 0x66, 0x0f, 0x74, 0xc0 }, 4 },
   { False, "movabs $0x1234567812345678,%rax", { 0x48, 0xb8, 0x78, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12 }, 10 },
};

static void case_table(uintptr_t unused)
{
   (void)unused;
   for (UInt i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const Case* c = &cases[i];
      Bool got = cp_insn_mem_operand(c->bytes, c->len);
      CHECK(got == c->want, "%s: got %d, expected %d", c->text, got, c->want);
   }
}

/* Every encoding cut short, in a heap block of exactly its bytes: the
   sanitized build sees a read past the end. */
static void case_truncated(uintptr_t unused)
{
   (void)unused;
   for (UInt i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const Case* c = &cases[i];
      for (UInt k = 0; k < c->len; k++) {
         UChar* p = malloc(k ? k : 1);
         memcpy(p, c->bytes, k);
         (void)cp_insn_mem_operand(p, k);
         free(p);
      }
   }
}

/* cp_insn_maskmov: the mask register of the masked stores, -1 for the rest
   (the encodings as gas writes them). */
typedef struct { Int want; Bool mmx; const char* text; UChar bytes[8]; UInt len; } MaskCase;
static const MaskCase mask_cases[] = {
   { 2, False, "maskmovdqu %xmm2,%xmm1", { 0x66, 0x0f, 0xf7, 0xca }, 4 },
   { 2, True, "maskmovq %mm2,%mm1", { 0x0f, 0xf7, 0xca }, 3 },
   { 2, False, "vmaskmovdqu %xmm2,%xmm1", { 0xc5, 0xf9, 0xf7, 0xca }, 4 },
   { 10, False, "maskmovdqu %xmm10,%xmm1", { 0x66, 0x41, 0x0f, 0xf7, 0xca }, 5 },
   { 10, False, "vmaskmovdqu %xmm10,%xmm1", { 0xc4, 0xc1, 0x79, 0xf7, 0xca }, 5 },
   { 2, False, "vmaskmovdqu %xmm2,%xmm9", { 0xc5, 0x79, 0xf7, 0xca }, 4 },
   { -1, False, "movdqa (%rdi),%xmm0", { 0x66, 0x0f, 0x6f, 0x07 }, 4 },
   { -1, False, "vpmaskmovd (%rdi),%ymm1,%ymm0", { 0xc4, 0xe2, 0x75, 0x8c, 0x07 }, 5 },
   { -1, False, "psllw (%rdi),%xmm0 (0F F1)", { 0x66, 0x0f, 0xf1, 0x07 }, 4 },
};

static void case_maskmov(uintptr_t unused)
{
   (void)unused;
   for (UInt i = 0; i < sizeof(mask_cases) / sizeof(mask_cases[0]); i++) {
      const MaskCase* c = &mask_cases[i];
      Bool mmx = !c->mmx;
      Int got = cp_insn_maskmov(c->bytes, c->len, &mmx);
      CHECK(got == c->want, "%s: got %d, expected %d", c->text, got, c->want);
      if (c->want >= 0) CHECK(mmx == c->mmx, "%s: mmx %d, expected %d", c->text, mmx, c->mmx);
      /* cut short: never a mask register, never a read past the end */
      for (UInt k = 0; k < c->len; k++) {
         UChar* p = malloc(k ? k : 1);
         memcpy(p, c->bytes, k);
         CHECK(cp_insn_maskmov(p, k, &mmx) == -1, "%s cut to %u bytes", c->text, k);
         free(p);
      }
   }
}

int main(int argc, char** argv)
{
   tc_add("deadloads/maskmov",   case_maskmov,   0, 20);
   tc_add("deadloads/table",     case_table,     0, 20);
   tc_add("deadloads/truncated", case_truncated, 0, 20);
   return tc_run_all("test_deadloads", argc, argv);
}
