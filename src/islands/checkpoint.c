/* Checkpoints of an archipelago: every island saves its engine into DIR/island-RRRR-gG.ckpt
 * (the family's own checkpoint file, docs/checkpoint.md), then rank 0 writes DIR/manifest.txt
 * naming the generation G and the island model's own state (topology, migrants, K, migrations
 * done, immigrants per island). The manifest is written only once every island has saved,
 * and an island's previous file is removed only after that, so a failure at any step leaves
 * the last complete checkpoint usable. On resume rank 0 reads the manifest and broadcasts it:
 * only the islands' files must be where their ranks can read them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/output_file.h"
#include "islands/islands_internal.h"
#include "core/args.h"

#define MANIFEST_MAGIC "glevo islands checkpoint 1"
#define MANIFEST_MAX (1 << 20)

static void island_file(const char *dir, int rank, long long generation, char *out, size_t size)
{
    snprintf(out, size, "%s/island-%04d-g%lld.ckpt", dir, rank, generation);
}

static glevo_status write_manifest(glevo_islands *is, const char *dir, long long generation)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    output_file o;
    glevo_status st = output_file_open(&o, path);
    if (st) return st;
    const glevo_islands_params *p = &is->params;
    fprintf(o.f, "%s\nislands %d\ntopology %s\nmigrants %d\nmigrate_every %d\ntorus_width %d\n"
            "family %s\ngeneration %lld\nmigrations %lld\nimmigrants", MANIFEST_MAGIC,
            is->count, glevo_topology_name(p->topology), p->migrants, p->migrate_every,
            p->torus_width, is->island.ops->family, generation, is->migrations);
    for (int i = 0; i < is->count; ++i) fprintf(o.f, " %.0f", is->immigrant_counts[i]);
    fprintf(o.f, "\n");
    return output_file_commit(&o);
}

glevo_status islands_checkpoint(glevo_islands *is, const char *dir, long long generation)
{
    char path[4096];
    island_file(dir, is->rank, generation, path, sizeof path);
    glevo_status st = GLEVO_OK;
    if (!is->attached || !is->island.ops->save)
        st = glevo_fail(GLEVO_ERR_UNSUPPORTED, "island %d: its engine cannot be checkpointed",
                        is->rank);
    else
        st = is->island.ops->save(is->island.algo, path);
    glevo_status all = islands_agree(is, st);
    if (!all && is->rank == 0) st = write_manifest(is, dir, generation);
    if (!all) all = islands_agree(is, st);
    if (all) {
        remove(path); /* one island's file is no checkpoint: the last complete one stands */
        return all;
    }
    if (is->checkpoint_generation >= 0 && is->checkpoint_generation != generation) {
        char previous[4096];
        island_file(dir, is->rank, is->checkpoint_generation, previous, sizeof previous);
        remove(previous);
    }
    is->checkpoint_generation = generation;
    is->checkpoints++;
    return GLEVO_OK;
}

/* Rank 0 reads the manifest, every rank gets its text (length first; -1: unreadable). */
static glevo_status broadcast_manifest(glevo_islands *is, const char *dir, char **text)
{
    long long length = -1;
    char *buf = NULL;
    if (is->rank == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/manifest.txt", dir);
        FILE *f = fopen(path, "rb");
        buf = f ? calloc(MANIFEST_MAX + 1, 1) : NULL;
        if (buf) length = (long long)fread(buf, 1, MANIFEST_MAX, f);
        if (f) fclose(f);
    }
    MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, is->comm);
    if (length < 0) {
        free(buf);
        return glevo_fail(GLEVO_ERR_INVALID, "--resume '%s': no islands checkpoint there "
                          "(%s/manifest.txt cannot be read)", dir, dir);
    }
    if (is->rank != 0 && !(buf = calloc((size_t)length + 1, 1)))
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    MPI_Bcast(buf, (int)length, MPI_CHAR, 0, is->comm);
    *text = buf;
    return GLEVO_OK;
}

/* The value after `key ` on its own line, or NULL. */
static const char *field(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *line = text; line && *line;) {
        if (!strncmp(line, key, n) && line[n] == ' ') return line + n + 1;
        line = strchr(line, '\n');
        if (line) line++;
    }
    return NULL;
}

static glevo_status compare(const char *dir, const char *name, long long file, long long job)
{
    if (file == job) return GLEVO_OK;
    return glevo_fail(GLEVO_ERR_INVALID, "glevo_islands_params.%s %lld differs from %lld in the "
                      "checkpoint %s (resume with the same islands)", name, job, file, dir);
}

static glevo_status parse_manifest(glevo_islands *is, const char *dir, const char *text,
                                   long long *generation)
{
    const glevo_islands_params *p = &is->params;
    char topology[64] = "";
    int islands = 0, migrants = 0, every = 0, width = 0;
    long long migrations = 0;
    const char *imm = field(text, "immigrants");
    if (strncmp(text, MANIFEST_MAGIC "\n", strlen(MANIFEST_MAGIC) + 1) || !field(text, "islands") ||
        sscanf(field(text, "islands"), "%d", &islands) != 1 || !field(text, "topology") ||
        sscanf(field(text, "topology"), "%63s", topology) != 1 || !field(text, "migrants") ||
        sscanf(field(text, "migrants"), "%d", &migrants) != 1 || !field(text, "migrate_every") ||
        sscanf(field(text, "migrate_every"), "%d", &every) != 1 || !field(text, "torus_width") ||
        sscanf(field(text, "torus_width"), "%d", &width) != 1 || !field(text, "generation") ||
        sscanf(field(text, "generation"), "%lld", generation) != 1 || !field(text, "migrations") ||
        sscanf(field(text, "migrations"), "%lld", &migrations) != 1 || !imm)
        return glevo_fail(GLEVO_ERR_INVALID, "--resume '%s': %s/manifest.txt is not an islands "
                          "checkpoint manifest", dir, dir);
    glevo_status st = GLEVO_OK;
    if (islands != is->count)
        st = glevo_fail(GLEVO_ERR_INVALID, "--resume '%s' holds %d islands, this job has %d "
                        "(mpirun -np %d)", dir, islands, is->count, islands);
    if (!st && strcmp(topology, glevo_topology_name(p->topology)))
        st = glevo_fail(GLEVO_ERR_INVALID, "glevo_islands_params.topology %s differs from %s in "
                        "the checkpoint %s", glevo_topology_name(p->topology), topology, dir);
    if (!st) st = compare(dir, "migrants", migrants, p->migrants);
    if (!st) st = compare(dir, "migrate_every", every, p->migrate_every);
    if (!st) st = compare(dir, "torus_width", width, p->torus_width);
    if (st) return st;
    /* This island's immigrants: the rank-th number of the list. */
    long long mine = -1;
    const char *q = imm;
    for (int i = 0; i <= is->rank; ++i) {
        char *end;
        mine = strtoll(q, &end, 10);
        if (end == q) return glevo_fail(GLEVO_ERR_INVALID, "--resume '%s': the manifest lists "
                                        "no immigrants for island %d", dir, i);
        q = end;
    }
    is->migrations = migrations;
    is->immigrants = mine;
    return GLEVO_OK;
}

glevo_status glevo_islands_resume(glevo_islands *is, const char *dir, char *path, size_t size,
                                  long long *generation)
{
    glevo_clear_error();
    ARG_NOT_NULL(is);
    ARG_NOT_NULL(dir);
    ARG_NOT_NULL(path);
    char *text = NULL;
    long long g = -1;
    glevo_status st = broadcast_manifest(is, dir, &text);
    if (!st) st = parse_manifest(is, dir, text, &g);
    free(text);
    if (st) return st;
    island_file(dir, is->rank, g, path, size);
    is->checkpoint_generation = g;
    if (generation) *generation = g;
    return GLEVO_OK;
}

long long glevo_islands_checkpoint_generation(const glevo_islands *is)
{
    ARG_NOT_NULL_OR(is, -1);
    return is->checkpoint_generation;
}
