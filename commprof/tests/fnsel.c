/* fnsel: function selection with --fn-include, --fn-exclude and --fn-include-file.
 *
 * A function that is not a node is charged to the innermost node function on the calling
 * thread's stack (docs/definitions.md, Attribution; commprof --help: "the others are
 * charged to their nearest node caller").
 *
 *   make:   writes src[0..32) (32 ints, 128 bytes)
 *   stage:  calls helper(dst, src, 32)
 *   helper: reads src[0..32), writes dst[0..32) (128 bytes each)
 *   finish: reads dst[0..32)
 * The four functions read nothing else but their own stack; src and dst are globals in
 * .bss, addressed without loads.
 *
 * fnsel (no selection): every function of the program is a node.
 *   make -> helper 128/128, helper -> finish 128/128; calls: each of the four once.
 * fnsel-exclude (--fn-exclude=helper): helper's loads and stores are stage's.
 *   make -> stage 128/128, stage -> finish 128/128; helper is no node (cp_edges prints
 *   calls=0 for a name that is not in the file).
 * fnsel-include-file (--fn-include-file=fnsel-include.in, patterns "make", "sta*" and
 *   "fin?sh" between a comment line, a blank line and blanks around the names): the
 *   nodes are make, stage and finish; helper is charged to stage as above; main matches no
 *   pattern and is no node either.
 *   make -> stage 128/128, stage -> finish 128/128; helper and main calls=0.
 * fnsel-include-exclude (the same file and --fn-exclude=sta*; an exclude pattern wins over
 *   an include pattern): the nodes are make and finish. stage and helper run below main,
 *   which is no node either, so they are charged to (no function), the node of code that
 *   runs while no node function is on the stack.
 *   make -> (no function) 128/128, (no function) -> finish 128/128; stage, helper and main
 *   calls=0.
 *   (make -> (no function) counts only src: when stage, helper and main, all (no
 *   function), reuse the stack make used, they write their slots before reading them;
 *   libc's code run by main after make (printf) does too.)
 *
 * stdout: dst[i] = 2 (5i + 2) = 10i + 4, sum over i < 32 = 10*496 + 128 = 5088.
 */
#include <stdio.h>

#define N 32

int src[N];
int dst[N];

__attribute__((noipa)) void make(int n)
{
    for (int i = 0; i < n; i++)
        src[i] = 5 * i + 2;
}

__attribute__((noipa)) void helper(int *out, const int *in, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = 2 * in[i];
}

__attribute__((noipa)) void stage(void)
{
    helper(dst, src, N);
}

__attribute__((noipa)) long finish(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += dst[i];
    return s;
}

int main(void)
{
    make(N);
    stage();
    long s = finish(N);
    printf("fnsel sum=%ld\n", s);
    return 0;
}
