/* cflags: -std=c++17 -pthread */
/* cxx-stdlocals: a lambda or a class defined inside a standard-library function is
 * the library's code, charged to the program's function that called it, as the function
 * is; only std::thread's and std::async's _M_run are nodes.
 *
 * docs/definitions.md, Nodes: the functions of namespaces std and __gnu_cxx, the
 * templates the program makes of them, and the lambdas and classes defined in them (their
 * symbols start _ZZNSt..., _ZZSt..., _ZZN9__gnu_cxx...) are not nodes unless
 * --std-nodes=yes.  Before, those local entities were nodes: at -O0, std::variant's copy
 * assignment runs its work in lambdas (_Copy_assign_base::operator=::{lambda}), so
 * copy -> sum below was split among them, and std::string's range constructor has a
 * local _Guard class, whose destructor read make's store.  So are the static functions of
 * libstdc++'s thread headers, __gthread_mutex_lock and its kin (use takes a std::mutex
 * with a lock_guard: at -O0 they were nodes).  The post command counts the nodes with
 * "lambda", "_Guard" or "__gthread" in their name: 0.
 *
 *   fill:        builds a vector of 250 ints (i * 3 + 1) and moves it into src
 *                (variant<int, vector<int>>)
 *   copy:        dst = src: the vector's copy constructor reads src's _M_start and
 *                _M_finish twice (the size to allocate, then the range to copy), memmove
 *                copies the 1000 bytes of elements (commprof's memmove reads them in 16-byte
 *                pieces: 63 loads), and the assignment reads src's index byte once
 *   sum:         std::get<1>(dst) reads dst's index (1 byte), then b[i] for i < 250: at
 *                -O0 each operator[] call reads _M_start (8 bytes) and the element; at -O2
 *                _M_start is read once
 *   write_text:  text[0..40) (40 one-byte stores)
 *   make:        str = new std::string(text, text + 40): the constructor copies the 40
 *                bytes with memcpy (16 + 16 + 8: 3 loads), and stores _M_p and the length
 *   use:         locks a std::mutex (the library's bookkeeping: no edge), then
 *                p = str->data(): str (8 bytes) and _M_p (8), then p[0..40) (40 loads)
 *
 * Edges (bytes, unique addresses, accesses):
 *   fill -> copy        1000 + 2 x 16 + 1 = 1033, 1000 + 16 + 1 = 1017, 63 + 4 + 1 = 68
 *   copy -> sum         -O0: 250 x (8 + 4) + 1 = 3001, 1000 + 8 + 1 = 1009, 501
 *                       -O2: 1000 + 8 + 1 = 1009, 1009, 252
 *   write_text -> make  40, 40, 3
 *   make -> use         8 + 8 + 40 = 56, 56, 42
 *
 * stdout: sum = 3 x (0 + ... + 249) + 250 = 93625; use = the 40 letters 'a'..'z','a'..'n':
 *   97 x 40 + (0 + ... + 25) + (0 + ... + 13) = 3880 + 325 + 91 = 4296.
 */
#include <cstdio>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#define NI __attribute__((noipa))

typedef std::variant<int, std::vector<int>> V;
V src, dst;
char text[40];
std::string *str;

NI void fill()
{
    std::vector<int> b(250);
    for (int i = 0; i < 250; i++)
        b[i] = i * 3 + 1;
    src = std::move(b);
}

NI void copy()
{
    dst = src;
}

NI long sum()
{
    long s = 0;
    const auto &b = std::get<1>(dst);
    for (int i = 0; i < 250; i++)
        s += b[i];
    return s;
}

NI void write_text()
{
    for (int i = 0; i < 40; i++)
        text[i] = (char)('a' + i % 26);
}

NI void make()
{
    str = new std::string(text, text + 40);
}

std::mutex lock;

NI long use()
{
    std::lock_guard<std::mutex> g(lock);
    long s = 0;
    const char *p = str->data();
    for (int i = 0; i < 40; i++)
        s += p[i];
    return s;
}

int main()
{
    fill();
    copy();
    write_text();
    make();
    printf("%ld %ld\n", sum(), use());
    delete str;
    return 0;
}
