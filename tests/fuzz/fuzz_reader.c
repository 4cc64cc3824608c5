/* libFuzzer harness of commprof-report's XML reader (tests/fuzz/run).
 *
 * Feeds the input to cpr_load_memory, the same streaming reader and RelaxNG
 * validation as for files, then walks what a valid profile gives the
 * commands: display names, locations, the edges by bytes, the function map. */

#include "cpr.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size)
{
    cpr_profile* p = NULL;
    cpr_error err = {0};
    if (cpr_load_memory((const char*)data, size, "fuzz.xml", &p, &err)) {
        /* an error must be one line with a message */
        if (!err.set || !err.msg[0] || strchr(err.msg, '\n')) abort();
        return 0;
    }
    char buf[1200], loc[1200];
    size_t n = 0;
    for (size_t i = 0; i < p->nfuncs; i++) {
        n += strlen(cpr_display_name(p, i, buf, sizeof buf));
        n += strlen(cpr_location(&p->funcs[i], loc, sizeof loc));
        if (cpr_find_id(p, p->funcs[i].id) != i) abort();
    }
    size_t* order = cpr_edges_by_bytes(p);
    for (size_t k = 0; k + 1 < p->nedges; k++)
        if (p->edges[order[k]].bytes < p->edges[order[k + 1]].bytes) abort();
    free(order);
    cpr_funcmap m;
    cpr_funcmap_init(&m);
    for (size_t i = 0; i < p->nfuncs; i++) cpr_funcmap_get(&m, &p->funcs[i], i, 1);
    cpr_funcmap_free(&m);
    (void)n;
    cpr_profile_free(p);
    return 0;
}
