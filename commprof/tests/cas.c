/* cas: compare-and-swap and locked read-modify-write on a shared 8-byte word.
 *
 *   word: a global long (8 bytes, 8-byte aligned).
 *   init_word: plain store word = 1                        -> producer init_word
 *   cas_win:   __atomic_compare_exchange_n(&word, &exp=1, 2): lock cmpxchg loads the
 *              8 bytes (init_word -> cas_win, 8 bytes) and, since they equal 1, stores 2:
 *              the swap happened, so cas_win becomes the producer.
 *   cas_lose:  __atomic_compare_exchange_n(&word, &exp=99, 3): loads the 8 bytes
 *              (cas_win -> cas_lose, 8 bytes); 2 != 99, so nothing is stored and the
 *              producer stays cas_win (the old value is written to the local exp: stack,
 *              cas_lose's own).
 *   reader:    plain 8-byte load of word -> cas_win -> reader, 8 bytes.
 *   adder:     __atomic_fetch_add(&word, 5): a locked RMW (lock xadd / lock add): one
 *              8-byte load (cas_win -> adder, 8 bytes) and one 8-byte store: adder becomes
 *              the producer.
 *   reader2:   plain 8-byte load of word -> adder -> reader2, 8 bytes.
 *
 *   => init_word -> cas_win  bytes=8 unma=8
 *      cas_win   -> adder    bytes=8 unma=8
 *      cas_win   -> cas_lose bytes=8 unma=8
 *      cas_win   -> reader   bytes=8 unma=8
 *      adder     -> reader2  bytes=8 unma=8
 *   In particular no cas_lose -> reader edge (the failed CAS stored nothing).
 *   None of these functions reads any other memory written by another listed function.
 *   At -O0 and -O2 each function makes exactly one access to `word`, of the size above
 *   (atomics are never elided or merged; the plain accesses go through volatile
 *   pointers). At -O0 the functions also touch their own stack slots (self edges).
 *
 * stdout: win=1 lose=0 after_cas=2 after_add=7
 */
#include <stdio.h>

long word __attribute__((aligned(8)));

__attribute__((noipa)) void init_word(volatile long *p)
{
    *p = 1;
}

__attribute__((noipa)) int cas_win(long *p)
{
    long exp = 1;
    return __atomic_compare_exchange_n(p, &exp, 2, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

__attribute__((noipa)) int cas_lose(long *p)
{
    long exp = 99;
    return __atomic_compare_exchange_n(p, &exp, 3, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

__attribute__((noipa)) long reader(const volatile long *p)
{
    return *p;
}

__attribute__((noipa)) void adder(long *p)
{
    __atomic_fetch_add(p, 5, __ATOMIC_SEQ_CST);
}

__attribute__((noipa)) long reader2(const volatile long *p)
{
    return *p;
}

int main(void)
{
    init_word(&word);
    int a = cas_win(&word);
    int b = cas_lose(&word);
    long c = reader(&word);
    adder(&word);
    long d = reader2(&word);
    printf("cas win=%d lose=%d after_cas=%ld after_add=%ld\n", a, b, c, d);
    return 0;
}
