/* libdata-cxx: functions that print with std::cout and std::endl do not communicate through the stream.
 *
 * std::cout is an object of libstdc++ that the executable holds (a copy relocation,
 * `_ZSt4cout@GLIBCXX_3.4` in its symbol table); its state, and the C library's stdout
 * behind it, are written by the first function's output and read by the next one's.
 * Those accesses, made by libstdc++'s and libc's code, are charged to (library data).
 * Without it (and without (dynamic linker) for the lazy binding of the stream
 * operators), producer() -> consumer() carried 572 bytes instead of 400, and the
 * first two functions fed report().
 *
 *   producer(): data[i] = 7 * i for i < 100 (100 ints); std::cout << "produced" << std::endl
 *   consumer(): sums data[0..100); std::cout << "consumed " << s << std::endl
 *   report():   std::cout << "done" << std::endl (reads nothing of the others)
 *
 * Edges among producer(), consumer(), report() and main:
 *   producer() -> consumer()  bytes = 400, unma = 400   (data, each int read once)
 * and no other (the sum goes back to main in a register).
 *
 * stdout: 7 * (0 + ... + 99) = 34650.
 */
#include <iostream>

#define N 100

int data[N];

__attribute__((noinline)) void producer()
{
    for (int i = 0; i < N; i++)
        data[i] = 7 * i;
    std::cout << "produced" << std::endl;
}

__attribute__((noinline)) long consumer()
{
    long s = 0;
    for (int i = 0; i < N; i++)
        s += data[i];
    std::cout << "consumed " << s << std::endl;
    return s;
}

__attribute__((noinline)) void report()
{
    std::cout << "done" << std::endl;
}

int main()
{
    producer();
    long s = consumer();
    report();
    return s == 34650 ? 0 : 1;
}
