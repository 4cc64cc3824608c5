/* tailcall-cap: the frames a chain of tail calls keeps (run with --per-call=yes).
 *
 * chain() calls t1; t1 jumps to t2 (a tail call), t2 to t3, ..., t65 to t66,
 * which returns to chain: 65 tail calls at one stack pointer.  Each tk is
 * naked, its code one jmp (ret in t66), the same at -O0 and -O2.
 *
 * docs/definitions.md: a function that jumped to f's first instruction keeps
 * its frame below f's, so it is f's caller, until more than 64 tail calls
 * follow one another at one stack pointer.  So t65 (the 64th tail call) has
 * t64 as its caller, and t66 (the 65th) replaces the top frame (t65's): its
 * caller is t64.  Per-call records list at most 16 callers, innermost first:
 *   t64: callers t63 .. t48
 *   t65: callers t64 .. t49
 *   t66: callers t64 .. t49 (t65's frame replaced)
 * Records are listed in the order the calls end: t65's when t66 replaces its
 * frame, then t66's, t64's, ..., t1's at t66's return, then chain's; they are
 * numbered in the order the calls began: _start=1, main=2, chain=3, tk = k+3.
 * (Before the fix the 64th tail call, t65, already replaced t64's frame.)
 * stdout: "tailcall-cap ok".
 */
#include <stdio.h>

__attribute__((naked, noinline)) void t1(void) { __asm__("jmp t2"); }
__attribute__((naked, noinline)) void t2(void) { __asm__("jmp t3"); }
__attribute__((naked, noinline)) void t3(void) { __asm__("jmp t4"); }
__attribute__((naked, noinline)) void t4(void) { __asm__("jmp t5"); }
__attribute__((naked, noinline)) void t5(void) { __asm__("jmp t6"); }
__attribute__((naked, noinline)) void t6(void) { __asm__("jmp t7"); }
__attribute__((naked, noinline)) void t7(void) { __asm__("jmp t8"); }
__attribute__((naked, noinline)) void t8(void) { __asm__("jmp t9"); }
__attribute__((naked, noinline)) void t9(void) { __asm__("jmp t10"); }
__attribute__((naked, noinline)) void t10(void) { __asm__("jmp t11"); }
__attribute__((naked, noinline)) void t11(void) { __asm__("jmp t12"); }
__attribute__((naked, noinline)) void t12(void) { __asm__("jmp t13"); }
__attribute__((naked, noinline)) void t13(void) { __asm__("jmp t14"); }
__attribute__((naked, noinline)) void t14(void) { __asm__("jmp t15"); }
__attribute__((naked, noinline)) void t15(void) { __asm__("jmp t16"); }
__attribute__((naked, noinline)) void t16(void) { __asm__("jmp t17"); }
__attribute__((naked, noinline)) void t17(void) { __asm__("jmp t18"); }
__attribute__((naked, noinline)) void t18(void) { __asm__("jmp t19"); }
__attribute__((naked, noinline)) void t19(void) { __asm__("jmp t20"); }
__attribute__((naked, noinline)) void t20(void) { __asm__("jmp t21"); }
__attribute__((naked, noinline)) void t21(void) { __asm__("jmp t22"); }
__attribute__((naked, noinline)) void t22(void) { __asm__("jmp t23"); }
__attribute__((naked, noinline)) void t23(void) { __asm__("jmp t24"); }
__attribute__((naked, noinline)) void t24(void) { __asm__("jmp t25"); }
__attribute__((naked, noinline)) void t25(void) { __asm__("jmp t26"); }
__attribute__((naked, noinline)) void t26(void) { __asm__("jmp t27"); }
__attribute__((naked, noinline)) void t27(void) { __asm__("jmp t28"); }
__attribute__((naked, noinline)) void t28(void) { __asm__("jmp t29"); }
__attribute__((naked, noinline)) void t29(void) { __asm__("jmp t30"); }
__attribute__((naked, noinline)) void t30(void) { __asm__("jmp t31"); }
__attribute__((naked, noinline)) void t31(void) { __asm__("jmp t32"); }
__attribute__((naked, noinline)) void t32(void) { __asm__("jmp t33"); }
__attribute__((naked, noinline)) void t33(void) { __asm__("jmp t34"); }
__attribute__((naked, noinline)) void t34(void) { __asm__("jmp t35"); }
__attribute__((naked, noinline)) void t35(void) { __asm__("jmp t36"); }
__attribute__((naked, noinline)) void t36(void) { __asm__("jmp t37"); }
__attribute__((naked, noinline)) void t37(void) { __asm__("jmp t38"); }
__attribute__((naked, noinline)) void t38(void) { __asm__("jmp t39"); }
__attribute__((naked, noinline)) void t39(void) { __asm__("jmp t40"); }
__attribute__((naked, noinline)) void t40(void) { __asm__("jmp t41"); }
__attribute__((naked, noinline)) void t41(void) { __asm__("jmp t42"); }
__attribute__((naked, noinline)) void t42(void) { __asm__("jmp t43"); }
__attribute__((naked, noinline)) void t43(void) { __asm__("jmp t44"); }
__attribute__((naked, noinline)) void t44(void) { __asm__("jmp t45"); }
__attribute__((naked, noinline)) void t45(void) { __asm__("jmp t46"); }
__attribute__((naked, noinline)) void t46(void) { __asm__("jmp t47"); }
__attribute__((naked, noinline)) void t47(void) { __asm__("jmp t48"); }
__attribute__((naked, noinline)) void t48(void) { __asm__("jmp t49"); }
__attribute__((naked, noinline)) void t49(void) { __asm__("jmp t50"); }
__attribute__((naked, noinline)) void t50(void) { __asm__("jmp t51"); }
__attribute__((naked, noinline)) void t51(void) { __asm__("jmp t52"); }
__attribute__((naked, noinline)) void t52(void) { __asm__("jmp t53"); }
__attribute__((naked, noinline)) void t53(void) { __asm__("jmp t54"); }
__attribute__((naked, noinline)) void t54(void) { __asm__("jmp t55"); }
__attribute__((naked, noinline)) void t55(void) { __asm__("jmp t56"); }
__attribute__((naked, noinline)) void t56(void) { __asm__("jmp t57"); }
__attribute__((naked, noinline)) void t57(void) { __asm__("jmp t58"); }
__attribute__((naked, noinline)) void t58(void) { __asm__("jmp t59"); }
__attribute__((naked, noinline)) void t59(void) { __asm__("jmp t60"); }
__attribute__((naked, noinline)) void t60(void) { __asm__("jmp t61"); }
__attribute__((naked, noinline)) void t61(void) { __asm__("jmp t62"); }
__attribute__((naked, noinline)) void t62(void) { __asm__("jmp t63"); }
__attribute__((naked, noinline)) void t63(void) { __asm__("jmp t64"); }
__attribute__((naked, noinline)) void t64(void) { __asm__("jmp t65"); }
__attribute__((naked, noinline)) void t65(void) { __asm__("jmp t66"); }
__attribute__((naked, noinline)) void t66(void) { __asm__("ret"); }

__attribute__((noinline)) void chain(void)
{
    t1();
    __asm__ volatile("" ::: "memory");
}

int main(void)
{
    chain();
    printf("tailcall-cap ok\n");
    return 0;
}
