/* glevo bench gp-layouts: the compute evaluator's layouts on given programs and data, timed as
 * EvoGP times its evaluator (programs resident on the GPU, --runs evaluations back to back,
 * then one synchronisation; glevo_gp_evaluate_timed), with the upload and the read-back of
 * GPOCL's definition beside it. One CSV row per layout (invocations a program and case
 * segment x case-quads a walk, and the rule's own pick), for measuring the rule of
 * src/gp/eval/plan.c on the GPU machine (scripts/device/gp_small.sh). Every layout's errors are
 * checked against the first's, bit for bit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "glevo/gp.h"

#define MAX_LIST 16

static int parse_list(const char *s, int *v, int max, int lo, int hi)
{
    int n = 0;
    while (s && *s && n < max) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x < lo || x > hi) return -1;
        v[n++] = (int)x;
        if (*end && *end != ',') return -1;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

int bench_gp_layouts(int argc, char **argv)
{
    const char *cmd = "bench gp-layouts";
    common_opts c = BENCH_OPTS_DEFAULT;
    const char *programs_path = NULL, *data_path = NULL, *tag = "";
    const char *w_arg = "0,1,2,4,8,16,32,64", *q_arg = "1,2,4";
    int runs = 5;
    bool help = false;
    opt_spec specs[] = {
        {"programs", OPT_STRING, &programs_path, "programs, one prefix S-expression per line"},
        {"data", OPT_STRING, &data_path, "CSV with a header row (target: the last column)"},
        {"prog-lanes", OPT_STRING, &w_arg, "invocations per program to time (0: the rule's pick)"},
        {"lanes", OPT_STRING, &q_arg, "case-quads per walk to time with each (the rule's pick "
                                      "and 64 take only the first)"},
        {"runs", OPT_INT, &runs, "evaluations back to back per timing"},
        {"tag", OPT_STRING, &tag, "first column of every row (e.g. the tree set)"},
        COMMON_OPT_SPECS(c),
        {0}};
    int rc = opt_parse(cmd, specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo bench gp-layouts --programs FILE --data FILE.csv [options]",
                       "CSV on stdout: tag,prog_lanes_asked,lanes_asked,prog_lanes,walk_quads,"
                       "programs,cases,nodes,resident_seconds,resident_gpops,upload_seconds,"
                       "readback_seconds,same_errors,renderer", specs);
        return 0;
    }
    int ws[MAX_LIST], qs[MAX_LIST], nw, nq;
    if (!programs_path || !data_path) return cli_bad_input(cmd, "--programs and --data are required");
    if ((nw = parse_list(w_arg, ws, MAX_LIST, 0, 64)) < 1)
        return cli_bad_input(cmd, "--prog-lanes '%s' is not a list of 0..64", w_arg);
    if ((nq = parse_list(q_arg, qs, MAX_LIST, 1, 8)) < 1)
        return cli_bad_input(cmd, "--lanes '%s' is not a list of 1..8", q_arg);
    if (runs < 1 || runs > 1000) return cli_bad_input(cmd, "--runs %d is outside 1..1000", runs);
    glevo_gp_data *data = NULL;
    glevo_gp_programs *progs = NULL;
    glevo_context *ctx = NULL;
    double *errors = NULL, *first = NULL;
    glevo_status st = GLEVO_OK;
    int count = 0;
    if ((rc = cli_gp_programs_load(cmd, data_path, NULL, programs_path, &data, &progs, &count)))
        goto done;
    c.backend = "compute";
    if ((rc = common_context_create(cmd, &c, &ctx))) goto done;
    errors = malloc((size_t)count * sizeof *errors);
    first = malloc((size_t)count * sizeof *first);
    if (!errors || !first) {
        rc = cli_fail(cmd, glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %d errors", count));
        goto done;
    }
    double nodes = (double)glevo_gp_programs_nodes(progs);
    int cases = glevo_gp_data_cases(data), rows = 0;
    printf("tag,prog_lanes_asked,lanes_asked,prog_lanes,walk_quads,programs,cases,nodes,"
           "resident_seconds,resident_gpops,upload_seconds,readback_seconds,same_errors,"
           "renderer\n");
    for (int i = 0; i < nw && !rc; ++i)
        for (int j = 0; j < nq && !rc; ++j) {
            if ((ws[i] == 0 || ws[i] == 64) && j > 0) continue;
            glevo_gp_eval_params ep = {.backend = GLEVO_BACKEND_COMPUTE, .prog_lanes = ws[i],
                                       .lanes = ws[i] == 0 ? 0 : qs[j]};
            glevo_gp_evaluator *ev = NULL;
            glevo_gp_eval_timing t;
            /* One untimed round builds the interpreter and the buffers. */
            st = glevo_gp_evaluator_create(&ep, data, &ev);
            if (!st) st = glevo_gp_evaluate_timed(ev, progs, 1, GLEVO_GP_SAE, errors, &t);
            if (!st) st = glevo_gp_evaluate_timed(ev, progs, runs, GLEVO_GP_SAE, errors, &t);
            glevo_gp_evaluator_destroy(ev);
            if (st) {
                /* A layout this driver cannot hold (shared memory, loop budget): say so, go on. */
                fprintf(stderr, "%s: prog-lanes %d lanes %d: %s\n", cmd, ws[i], qs[j],
                        glevo_last_error());
                continue;
            }
            if (rows++ == 0) memcpy(first, errors, (size_t)count * sizeof *first);
            bool same = memcmp(first, errors, (size_t)count * sizeof *first) == 0;
            printf("%s,%d,%d,%d,%d,%d,%d,%.0f,%.9g,%.6g,%.9g,%.9g,%d,\"%s\"\n", tag, ws[i],
                   ep.lanes, t.prog_lanes, t.walk_quads, count, cases, nodes, t.evaluate,
                   nodes * cases / t.evaluate / 1e9, t.upload, t.readback, same,
                   glevo_context_renderer(ctx));
            fflush(stdout);
        }
    if (!rc && rows == 0) rc = cli_fail(cmd, st);
done:
    glevo_gp_programs_destroy(progs);
    glevo_gp_data_destroy(data);
    if (ctx) glevo_context_destroy(ctx);
    free(errors);
    free(first);
    return rc;
}
