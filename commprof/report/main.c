/* commprof-report: command line, subcommand dispatch, validate. */

#include "cpr.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

static const struct {
    const char* name;
    int (*fn)(int, char**);
    const char* what;
} commands[] = {
    {"summary", cpr_cmd_summary, "ranked tables: edges, functions, objects, threads... (default)"},
    {"graph", cpr_cmd_graph, "graph of functions, objects, threads or phases (DOT, SVG...)"},
    {"matrix", cpr_cmd_matrix, "functions, threads or objects matrix: text, CSV or SVG heatmap"},
    {"timeline", cpr_cmd_timeline, "per-function bandwidth over the time slices: SVG plot or CSV"},
    {"diff", cpr_cmd_diff, "what changed between two profiles"},
    {"merge", cpr_cmd_merge, "combine profiles of several processes or runs into one"},
    {"partition", cpr_cmd_partition, "k-way clustering of functions (balanced load, small cut)"},
    {"validate", cpr_cmd_validate, "check files against the schema and for consistency"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void help(FILE* f)
{
    fprintf(f,
            "Usage: %s [COMMAND] [OPTIONS] PROFILE.xml...\n"
            "\n"
            "Reads the XML profiles written by commprof (valgrind --tool=commprof) and\n"
            "shows what they say: which functions hand data to which others, how much,\n"
            "through how large a buffer; and the other sections: data objects, threads,\n"
            "phases, time slices, the memory-access profile, per-call records.\n"
            "\n"
            "Commands:\n",
            CPR_PROG);
    for (size_t i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-10s  %s\n", commands[i].name, commands[i].what);
    fprintf(f,
            "\n"
            "Without a command, 'summary' is run: %s PROFILE.xml\n"
            "'%s COMMAND --help' describes each command and its options.\n"
            "\n"
            "Options:\n"
            "  -h, --help     this help\n"
            "  -V, --version  version\n"
            "\n"
            "Exit status: 0 success, 1 usage error, 2 unreadable or invalid input, or\n"
            "an output file that cannot be written.  Every input is streamed and\n"
            "validated against the embedded RelaxNG schema (docs/commprof.rng);\n"
            "an invalid one is reported in one line: %s: FILE:LINE: message.\n"
            "See also: man commprof-report.\n",
            CPR_PROG, CPR_PROG, CPR_PROG);
}

/* validate FILE... */
int cpr_cmd_validate(int argc, char** argv)
{
    static const struct option lo[] = {{"help", no_argument, 0, 'h'}, {"quiet", no_argument, 0, 'q'}, {0, 0, 0, 0}};
    int quiet = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hq", lo, NULL)) != -1) {
        switch (c) {
        case 'h':
            printf("Usage: %s validate [-q] PROFILE.xml...\n"
                   "\n"
                   "Checks each file against the commprof RelaxNG schema (embedded in the\n"
                   "program: the installed tool needs no data file) and what the schema\n"
                   "cannot express: numbers are plain decimals that fit their type, function\n"
                   "ids are unique, every edge joins two known functions, no self edge, no\n"
                   "producer/consumer pair twice; thread, object and phase ids are unique and\n"
                   "every thread edge, object flow, phase edge, time-slice record, detected\n"
                   "phase, per-call record and caller context refers to known functions,\n"
                   "objects, threads and phases; a slice's d attribute is parsed strictly\n"
                   "(\"F:I,R,W,C\" records, one space apart) and slices increase.  DOCTYPEs\n"
                   "and entities are refused. Then the sums every profile of commprof (and\n"
                   "of merge) satisfies: per function, bytes-read = in-bytes + self-bytes,\n"
                   "in-bytes and out-bytes are the sums of its edges' bytes, in-unma and\n"
                   "out-unma lie between their largest UnMA and the sum, the stack (heap,\n"
                   "global) parts do not exceed the whole, nor loads bytes-read, stores\n"
                   "bytes-written, mem-instructions instructions, self-unma self-bytes; an\n"
                   "edge's unma, accesses and first-read do not exceed its bytes; <totals>\n"
                   "are the sums over the functions and edges; the threads' instructions and\n"
                   "bytes-read add up to the totals, their in-bytes and out-bytes to the\n"
                   "thread matrix off the diagonal; the thread edges of two functions add up\n"
                   "to their edge's bytes (their accesses to at least the edge's, each at\n"
                   "most it), and those between two threads to their cell (but for\n"
                   "(library data)'s and (dynamic linker)'s); the flows through a data\n"
                   "object add up to its read-bytes, and those between two functions to at\n"
                   "most their edge; the phase edges of two functions add up to their edge's\n"
                   "bytes (of one function to at most its self-bytes); each function's\n"
                   "time-slice records add up to its instructions, bytes-read, bytes-written\n"
                   "and in-bytes, and the detected phases are the maximal runs of\n"
                   "consecutive slices with the same active functions, with the sums of\n"
                   "their slices.  The other commands do not check these sums.\n"
                   "\n"
                   "Prints 'FILE: valid (N functions, N edges)' for each good file (nothing\n"
                   "with -q) and one line 'commprof-report: FILE:LINE: message' for the\n"
                   "first bad one, then exits with status 2.\n"
                   "\n"
                   "  -q, --quiet   print nothing for valid files\n",
                   CPR_PROG);
            return CPR_OK;
        case 'q':
            quiet = 1;
            break;
        default:
            return cpr_opt_error("validate", c, optopt, argv, optind);
        }
    }
    if (optind >= argc) return cpr_usage_error("validate", "no profile given");
    for (int i = optind; i < argc; i++) {
        cpr_profile* p;
        cpr_error err = {0};
        if (cpr_load(argv[i], &p, &err) || cpr_check_sums(p, &err)) {
            cpr_print_error(&err);
            cpr_profile_free(p);
            return CPR_EINPUT;
        }
        if (!quiet) printf("%s: valid (%zu functions, %zu edges)\n", argv[i], p->nfuncs, p->nedges);
        cpr_profile_free(p);
    }
    cpr_error err = {0};
    if (cpr_close_output(stdout, NULL, &err)) {
        cpr_print_error(&err);
        return CPR_EINPUT;
    }
    return CPR_OK;
}

static int looks_like_command(const char* s)
{
    if (!*s) return 0;
    for (const char* c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || *c == '-')) return 0;
    return 1;
}

int main(int argc, char** argv)
{
    int rc;
    if (argc < 2) {
        rc = cpr_usage_error(NULL, "no profile given");
        goto out;
    }
    const char* a = argv[1];
    if (!strcmp(a, "-h") || !strcmp(a, "--help") || !strcmp(a, "help")) {
        if (!strcmp(a, "help") && argc > 2) {
            for (size_t i = 0; i < NCOMMANDS; i++)
                if (!strcmp(argv[2], commands[i].name)) {
                    char* av[] = {argv[2], (char*)"--help", NULL};
                    rc = commands[i].fn(2, av);
                    goto out;
                }
            rc = cpr_usage_error(NULL, "unknown command '%s'", argv[2]);
            goto out;
        }
        help(stdout);
        rc = CPR_OK;
        goto out;
    }
    if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
        printf("%s %s\n", CPR_PROG, PACKAGE_VERSION);
        rc = CPR_OK;
        goto out;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(a, commands[i].name)) {
            rc = commands[i].fn(argc - 1, argv + 1);
            goto out;
        }
    /* no command: summary.  A word that is not an existing file is taken for
     * a mistyped command. */
    struct stat st;
    if (a[0] != '-' && looks_like_command(a) && stat(a, &st) != 0) {
        rc = cpr_usage_error(NULL, "unknown command '%s'", a);
        goto out;
    }
    argv[0] = (char*)"summary";
    rc = cpr_cmd_summary(argc, argv);
out:
    cpr_reader_cleanup();
    return rc;
}
