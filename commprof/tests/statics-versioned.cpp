/* cflags: -no-pie */
/* statics-versioned: a variable of a shared library that a copy relocation puts in the
 * executable (stdout, std::cout) is a static object named as the source names it, without
 * the symbol version the linker appends to its name in the symbol table (run with
 * --objects=yes).
 *
 * Built without PIE, the program's references to libc's stdout and libstdc++'s std::cout
 * are copy relocations: the executable's .bss holds the variables, and its symbol table
 * names them stdout@GLIBC_2.2.5 and _ZSt4cout@GLIBCXX_3.4.  Before, the objects were named
 * so, and the C++ one was not demangled.
 *
 *   main: fputs("a\n", stdout) twice and fflush(stdout): each call loads stdout (the FILE*,
 *         8 bytes) in main's own code: the flow (no function) -> stdout -> main, 24 bytes
 *         over 8 addresses (the dynamic linker's copy relocation wrote stdout before any
 *         function of the program ran: (no function)); then std::cout << "b":
 *         the library's code uses std::cout (size 272, libstdc++'s std::ostream), so an
 *         object std::cout with symbol _ZSt4cout.
 * The post command prints the two objects' names, symbols and sizes, and main's flow from
 * stdout (libstdc++'s start-up code reads stdout too, for std::cout's buffer).
 *
 * stdout: a, a, b (three lines)
 */
#include <cstdio>
#include <iostream>

int main()
{
    std::fputs("a\n", stdout);
    std::fputs("a\n", stdout);
    std::fflush(stdout);
    std::cout << "b" << std::endl;
    return 0;
}
