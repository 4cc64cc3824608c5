/* cflags: -std=c++20 */
/* cxx-coroutine: a C++20 coroutine is one function node, named as the
 * coroutine (its ramp function, the one the program calls).
 *
 * gcc splits counter(int) into the ramp "counter(int)", which allocates the
 * coroutine frame, the body "counter(counter(int)::_Z7counteri.Frame*)
 * [clone .actor]", which runs at each resume, and the destroyer "[clone
 * .destroy]".  The body and the destroyer join the ramp's node, as the
 * copies gcc makes of a function do: no node has the made-up name
 * counter(counter(int)::_Z7counteri.Frame*).
 *
 *   fill():        data[i] = i, 8 int stores (volatile)
 *   counter(8):    co_yield data[i] for i < 8: 8 int loads of data (volatile),
 *                  in the body, resumed by main 9 times, then destroyed
 *
 * Edges between fill() and counter(int): fill() -> counter(int) bytes=32
 * unma=32 (all of data, read once); none the other way.
 * stdout: 0 + 1 + ... + 7 = 28.
 */
#include <coroutine>
#include <cstdio>
struct Gen {
  struct promise_type {
    int v;
    Gen get_return_object() { return Gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int x) { v = x; return {}; }
    void return_void() {}
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> h;
};
static volatile int data[8];
Gen counter(int n)
{
    for (int i = 0; i < n; i++)
        co_yield data[i];
}

__attribute__((noinline)) void fill()
{
    for (int i = 0; i < 8; i++)
        data[i] = i;
}

int main()
{
    fill();
    Gen g = counter(8);
    long s = 0;
    for (;;) {
        g.h.resume();
        if (g.h.done())
            break;
        s += g.h.promise().v;
    }
    g.h.destroy();
    std::printf("cxx-coroutine %ld\n", s);
    return 0;
}
