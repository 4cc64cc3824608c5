/* cflags: -ldl */
/* dlreuse: an object loaded where another was unloaded (dlclose, then dlopen) is seen as
 * itself, and a node object loaded again has the same nodes (run with --node-objs=dlreuse-a.so; the plugins are built from
 * dlreuse-plugin.c.in by the prereq line).
 *
 * docs/definitions.md, Nodes: a function is identified by its first instruction's
 * address, so two functions in different objects are distinct nodes, and only the node
 * objects' functions are nodes; the run-time libraries (libnss_* among them) are told by
 * their file names.  Before, what commprof had decided of an address stayed with it when
 * the object there was unloaded: a plugin loaded later at the same address ran as the
 * first one's nodes, or as a run-time library.
 *
 * The plugins have the same code at the same offsets; Valgrind maps each dlopen where
 * the last dlclose unmapped (the program prints "same address: yes" when it did):
 *   1. dlreuse-a.so (a node object): wa calls a_write (250 int stores to its static buf),
 *      ra calls a_read (250 int loads): a_write -> a_read 1000 bytes, 1000 addresses
 *   2. dlreuse-b.so (no node object): b's code is charged to its callers:
 *      wb -> rb 1000, 1000 (before: a_write -> a_read 2000, and a_write, a_read 2 calls)
 *   3. libnss_dlreuse.so (a run-time library): its accesses to its own buf are
 *      (library data)'s: no wn -> rn edge
 *   4. dlreuse-b.so again: wb2 -> rb2 1000, 1000 (before: nothing, taken for the run-time
 *      library's own data)
 *   5. dlreuse-a.so again: its a_write and a_read are the nodes of step 1 (a function is
 *      its object's, by name, whenever the object is loaded): a_write -> a_read gets the
 *      step's 1000 bytes over the same 1000 addresses of buf: 2000 bytes, 1000 addresses
 *      (before: a second a_write and a_read, a second edge of 1000, 1000)
 * Calls: a_write 2, a_read 2 (the only plugin functions that are nodes).
 *
 * Heap objects (--objects=yes): in steps 1, 2, 4 and 5 main has the plugin's <P>_alloc
 * allocate 16, 32, 64 and 128 bytes and frees the block.  dlreuse-a.so calls malloc at line
 * 32 of dlreuse-plugin.c.in, dlreuse-b.so (#line) at line 203, from the same code address:
 *   dlreuse-plugin.c.in:32  [a_alloc:32 main:110]: blocks 2 (steps 1, 5), total 16 + 128 =
 *                           144 bytes, peak 128, size 128 (the last block's)
 *   dlreuse-plugin.c.in:203 [main:110] (b_alloc is no node): blocks 2 (steps 2, 4), total
 *                           32 + 64 = 96, peak 64, size 64
 * nothing read or written.  Before, the frames of a return address stayed with it after
 * dlclose: all four blocks were :32's.
 *
 * stdout: "sums 32125 32125 32125 32125 32125 same address: yes" (sum of v + i, i < 250,
 * for v = 4: 250 x 4 + 31125).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NI __attribute__((noipa))

static void *h;
static void (*w)(int);
static int (*r)(void);

static const char *prog;        /* dlreuse or dlreuse-O2: the plugins' names start so */

static int load(const char *fmt, const char *wn, const char *rn)
{
    char so[256];
    snprintf(so, sizeof so, fmt, prog);
    h = dlopen(so, RTLD_NOW);
    if (!h)
        return 0;
    w = (void (*)(int))dlsym(h, wn);
    r = (int (*)(void))dlsym(h, rn);
    return w && r;
}

NI void wa(void) { w(4); }
NI int ra(void) { return r(); }
NI void wb(void) { w(4); }
NI int rb(void) { return r(); }
NI void wn(void) { w(4); }
NI int rn(void) { return r(); }
NI void wb2(void) { w(4); }
NI int rb2(void) { return r(); }
NI void wa2(void) { w(4); }
NI int ra2(void) { return r(); }

/* the five steps: a plugin, the program's functions that call it, the plugin's allocating
   function and the size the program has it allocate (and frees) */
static const struct {
    const char *so, *wn, *rn;
    void (*writer)(void);
    int (*reader)(void);
    const char *an;
    unsigned size;
} steps[5] = {
    {"./%s-a.so", "a_write", "a_read", wa, ra, "a_alloc", 16},
    {"./%s-b.so", "b_write", "b_read", wb, rb, "b_alloc", 32},
    {"./libnss_%s.so", "nss_write", "nss_read", wn, rn, NULL, 0},
    {"./%s-b.so", "b_write", "b_read", wb2, rb2, "b_alloc", 64},
    {"./%s-a.so", "a_write", "a_read", wa2, ra2, "a_alloc", 128},
};

int main(int argc, char **argv)
{
    (void)argc;
    prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    int s[5];
    unsigned long at[5];
    for (int i = 0; i < 5; i++) {
        if (!load(steps[i].so, steps[i].wn, steps[i].rn))
            return 1 + i;
        at[i] = (unsigned long)w;
        steps[i].writer();
        s[i] = steps[i].reader();
        if (steps[i].an) {
            void *(*alloc)(unsigned) = (void *(*)(unsigned))dlsym(h, steps[i].an);
            if (!alloc)
                return 10 + i;
            free(alloc(steps[i].size));
        }
        dlclose(h);
    }
    printf("sums %d %d %d %d %d same address: %s\n", s[0], s[1], s[2], s[3], s[4],
           at[0] == at[1] && at[1] == at[2] && at[2] == at[3] && at[3] == at[4] ? "yes" : "no");
    return 0;
}
