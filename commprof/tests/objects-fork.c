/* objects-fork: a forked child's object flows are those of what it does after the fork
 * (run with --objects=yes).
 *
 * docs/manual.md, 7.4 fork: "A forked child starts with empty edges and zeroed counters and
 * writes its own profile of what it does after the fork. It inherits the producers of the
 * memory". The XML file name has no %p, so the parent writes objects-fork.xml and the child
 * objects-fork.xml.<child pid>.
 *
 *   parent, before the fork: writer writes garr[0..64) (256 bytes);
 *                            reader1 reads garr[0..32) (128 bytes)
 *   child:                   reader2 reads garr[0..16) (64 bytes), then _exit
 *   parent, after the fork:  waits for the child
 *
 * Parent's profile: edge writer -> reader1 128/128; flow writer -> garr -> reader1 128/128.
 * Child's profile: the producers are inherited, so edge writer -> reader2 64/64 and flow
 *   writer -> garr -> reader2 64/64; nothing of reader1, which ran before the fork (no edge,
 *   no flow to it).
 * The three functions read nothing else but their own stack; garr is addressed without
 * loads. The post command prints the parent's lines after "parent:" and the child's after
 * "child:".
 *
 * stdout (parent only): garr[i] = 3i + 1: reader1 = 3*496 + 32 = 1520; the child exits
 *   with status 0 if reader2 = 3*120 + 16 = 376.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int garr[64];

__attribute__((noipa)) void writer(void)
{
    for (int i = 0; i < 64; i++)
        garr[i] = 3 * i + 1;
}

__attribute__((noipa)) long reader1(void)
{
    long s = 0;
    for (int i = 0; i < 32; i++)
        s += garr[i];
    return s;
}

__attribute__((noipa)) long reader2(void)
{
    long s = 0;
    for (int i = 0; i < 16; i++)
        s += garr[i];
    return s;
}

int main(void)
{
    writer();
    long r1 = reader1();
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0)
        _exit(reader2() == 376 ? 0 : 3);
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return 1;
    printf("objects-fork reader1=%ld child=%d\n", r1,
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
