/* libFuzzer harness of commprof-report's XML reader (tests/fuzz/run).
 *
 * Feeds the input to cpr_load_memory, the same streaming reader and RelaxNG
 * validation as for files.  An input that is a valid profile goes through
 * validate's sums (cpr_check_sums), and is then also
 * written to a file and run through the commands (summary, both CSV tables,
 * matrix as text and SVG, diff with itself, partition, merge, graph as DOT,
 * without layout; the tables, graphs and matrices of the other sections, the
 * timeline), their output going to /dev/null: they must cope with any
 * numbers, names and shapes the reader accepts. */

#include "cpr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size);

static char path[64], merged[80];

static void run(int (*cmd)(int, char**), int argc, const char* const* argv)
{
    char* av[16];
    for (int i = 0; i < argc && i < 15; i++) av[i] = (char*)argv[i];
    av[argc] = NULL;
    int rc = cmd(argc, av);
    /* the profile is valid: only an output error could fail, and none can */
    if (rc == 1 && cmd != cpr_cmd_partition) abort(); /* a usage error: the harness is wrong */
}

int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/cpr-fuzz-%ld.xml", (long)getpid());
        snprintf(merged, sizeof merged, "/tmp/cpr-fuzz-%ld-merged.xml", (long)getpid());
        if (!freopen("/dev/null", "w", stdout)) abort();
    }
    cpr_profile* p = NULL;
    cpr_error err = {0};
    if (cpr_load_memory((const char*)data, size, "fuzz.xml", &p, &err)) {
        /* an error must be one line with a message */
        if (!err.set || !err.msg[0] || strchr(err.msg, '\n')) abort();
        return 0;
    }
    size_t* order = cpr_edges_by_bytes(p);
    for (size_t k = 0; k + 1 < p->nedges; k++)
        if (p->edges[order[k]].bytes < p->edges[order[k + 1]].bytes) abort();
    free(order);
    for (size_t i = 0; i < p->nfuncs; i++)
        if (cpr_find_id(p, p->funcs[i].id) != i) abort();
    /* validate's sums: any numbers, a one-line message when they do not hold */
    cpr_error serr = {0};
    if (cpr_check_sums(p, &serr) && (!serr.set || !serr.msg[0] || strchr(serr.msg, '\n'))) abort();
    cpr_profile_free(p);

    FILE* f = fopen(path, "wb");
    if (!f) abort();
    fwrite(data, 1, size, f);
    fclose(f);
    run(cpr_cmd_summary, 2, (const char* const[]){"summary", path});
    run(cpr_cmd_summary, 5, (const char* const[]){"summary", "--csv", "--table=edges", "--sort=unma", path});
    run(cpr_cmd_summary, 4, (const char* const[]){"summary", "--threshold=50", "--sort=name", path});
    run(cpr_cmd_matrix, 2, (const char* const[]){"matrix", path});
    run(cpr_cmd_matrix, 3, (const char* const[]){"matrix", "--format=svg", path});
    run(cpr_cmd_diff, 4, (const char* const[]){"diff", "--all", path, path});
    run(cpr_cmd_partition, 4, (const char* const[]){"partition", "-k", "2", path});
    run(cpr_cmd_merge, 5, (const char* const[]){"merge", "-o", merged, path, path});
    run(cpr_cmd_graph, 3, (const char* const[]){"graph", "--max-edges=50", path});
    /* the other sections: a missing one is exit 2, never a crash */
    static const char* const tables[] = {"--table=objects", "--table=threads", "--table=phases", "--table=maip",
                                         "--table=calls"};
    for (int i = 0; i < 5; i++) {
        run(cpr_cmd_summary, 4, (const char* const[]){"summary", "--csv", tables[i], path});
        run(cpr_cmd_summary, 4, (const char* const[]){"summary", "--top=3", tables[i], path});
    }
    run(cpr_cmd_summary, 5, (const char* const[]){"summary", "--table=objects", "--sort=first", "--threshold=50", path});
    run(cpr_cmd_matrix, 4, (const char* const[]){"matrix", "--of=objects", "--format=svg", path});
    run(cpr_cmd_matrix, 4, (const char* const[]){"matrix", "--of=threads", "--csv", path});
    run(cpr_cmd_timeline, 2, (const char* const[]){"timeline", path});
    run(cpr_cmd_timeline, 5, (const char* const[]){"timeline", "--csv", "--field=in", "--top=1", path});
    run(cpr_cmd_graph, 3, (const char* const[]){"graph", "--objects", path});
    run(cpr_cmd_graph, 4, (const char* const[]){"graph", "--threads", "--max-nodes=5", path});
    run(cpr_cmd_graph, 3, (const char* const[]){"graph", "--phases", path});
    run(cpr_cmd_diff, 5, (const char* const[]){"diff", "--table=objects", "--all", path, path});
    run(cpr_cmd_diff, 5, (const char* const[]){"diff", "--csv", "--table=threads", path, path});
    remove(path);
    remove(merged);
    return 0;
}
