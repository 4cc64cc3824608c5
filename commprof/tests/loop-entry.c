/* loop-entry: a loop whose head is its function's first instruction is one call, not
 * one per iteration.
 *
 * bump's do-while adds 3 to *p (volatile) 10 times.  At -O2 gcc has nothing to set up
 * before the loop, so its head is bump's first instruction (objdump -d: the loop's
 * jne goes to <bump>): execution reaches bump's entry 10 times, once by the call and
 * 9 times by the loop's jump, which is still the same call.  At -O0 the loop follows
 * the prologue.  Either way: bump calls=1.
 *   count(p, n) adds 1 to *p and returns count(p, n - 1) until n is 0: a tail recursion.
 *   At -O0 it is a recursion: 6 calls for count(p, 5).  At -O2 gcc makes it a loop (one
 *   call, wherever the loop's head lies).
 * Edges among them (a is written by bump, then by count; main prints count's return
 * value, a register):
 *   (unwritten) -> bump 4 / 4 (a's first load), bump -> count 4 / 4 (count's first load
 *   of a; its later loads are its own writes: count -> count, a self edge, not listed),
 *   (unwritten) -> main 15 / 15: printf reads its format "loop-entry %d\n" and the NUL.
 * stdout: 10 x 3 + 5 = 35.
 */
#include <stdio.h>

#define NI __attribute__((noinline))

int a;

NI void bump(volatile int *p, int n)
{
    do {
        *p += 3;
    } while (--n);
}

NI int count(volatile int *p, int n)
{
    if (n == 0) return *p;
    *p += 1;
    return count(p, n - 1);
}

int main(void)
{
    bump(&a, 10);
    printf("loop-entry %d\n", count(&a, 5));
    return 0;
}
