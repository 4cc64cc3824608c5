/* cxx-threadlocal: the registration of a thread_local object's destructor is the C++
 * runtime's bookkeeping, not communication between the functions whose objects they are.
 *
 * The first use of a thread_local object with a destructor in a thread registers the
 * destructor: __cxa_thread_atexit (libstdc++) calls glibc's __cxa_thread_atexit_impl, which
 * puts it at the head of the thread's list (tls_dtor_list, a thread-local variable of libc)
 * and counts it in the dynamic linker's record of the object.  The second registration reads
 * the list head the first one wrote: before, set_a -> set_b carried 8 bytes, and the writes
 * of the registrations, charged to set_a and set_b, made edges set_a -> (library data) (32
 * bytes) and set_b -> (library data) (40) when the library ran the destructors.  Those functions are
 * now the library's, like __call_tls_dtors that runs the destructors at the thread's exit.
 *
 *   set_a:   thread_local A a: its constructor writes v[0..4) = 1, 2, 3, 4 (16 bytes; the
 *            constructor is inlined at -O2, a node of its own, A::A(), at -O0: see below),
 *            registers ~A; set_a returns &a
 *   set_b:   the same for thread_local B b, v = 10, 20, 30, 40
 *   use:     sums a.v and b.v: reads 16 + 16 bytes
 *   ~B, ~A:  run at exit, B's first (the list's head is the newest): each reads its v[0]
 *            (4 bytes) into sink
 * Edges, at -O0 (the constructors are functions) and -O2 (inlined into set_a, set_b):
 *   A::A() (set_a at -O2) -> use   bytes = 16, unma = 16
 *   B::B() (set_b at -O2) -> use   bytes = 16, unma = 16
 *   A::A() -> A::~A()              bytes = 4, unma = 4
 *   B::B() -> B::~B()              bytes = 4, unma = 4
 *   set_a -> set_b: none; set_a, set_b -> (library data): none
 *
 * stdout: 110
 */
#include <cstdio>

struct A {
    int v[4];
    A() : v{1, 2, 3, 4} {}
    ~A();
};
struct B {
    int v[4];
    B() : v{10, 20, 30, 40} {}
    ~B();
};

volatile int sink;

__attribute__((noinline)) A::~A() { sink = v[0]; }
__attribute__((noinline)) B::~B() { sink = v[0]; }

__attribute__((noinline)) A* set_a()
{
    thread_local A a;
    return &a;
}

__attribute__((noinline)) B* set_b()
{
    thread_local B b;
    return &b;
}

__attribute__((noinline)) int use(const A* a, const B* b)
{
    int s = 0;
    for (int i = 0; i < 4; i++)
        s += a->v[i] + b->v[i];
    return s;
}

int main()
{
    A* a = set_a();
    B* b = set_b();
    std::printf("%d\n", use(a, b));
    return 0;
}
