/* The files one command names (issue 23): no output may share its file with another output
 * or an input (a trace written over the checkpoint, a sheet over the final snapshot, a trace
 * over the --data it learns from), and a picture's extension names its format. */
/* realpath is XSI, beyond the project-wide _POSIX_C_SOURCE */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* dir/base with dir resolved (symbolic links, "..", "."): the file a path names whether it
 * exists or not. False when the folder does not exist (the path's own check says so). */
static bool canonical(const char *path, char *out, size_t size)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base) return false;
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (!realpath(dir, real)) return false;
    return snprintf(out, size, "%s/%s", strcmp(real, "/") ? real : "", base) < (int)size;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    /* A character device (/dev/null, /dev/stdout) is written through, never replaced. */
    if ((ea && S_ISCHR(sa.st_mode)) || (eb && S_ISCHR(sb.st_mode))) return false;
    if (!strcmp(a, b)) return true;
    if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb) return false;
    char ca[PATH_MAX + 256], cb[PATH_MAX + 256];
    return canonical(a, ca, sizeof ca) && canonical(b, cb, sizeof cb) && !strcmp(ca, cb);
}

int cli_paths_distinct(const char *command, const cli_path *paths, int n)
{
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            const cli_path *a = &paths[i], *b = &paths[j];
            if (!a->path || !b->path || (!a->output && !b->output)) continue;
            /* --resume F --checkpoint F continues a run in place: the checkpoint is read
             * whole before it is replaced. */
            if ((!strcmp(a->flag, "--resume") && !strcmp(b->flag, "--checkpoint")) ||
                (!strcmp(b->flag, "--resume") && !strcmp(a->flag, "--checkpoint")))
                continue;
            if (same_file(a->path, b->path))
                return cli_bad_input(command, "'%s' is named by both %s and %s: one file cannot "
                                     "hold both", b->path, a->flag, b->flag);
        }
    return 0;
}

int cli_picture_check(const char *command, const char *flag, const char *path)
{
    size_t n = path ? strlen(path) : 0;
    if (!path || (n > 4 && (!strcmp(path + n - 4, ".png") || !strcmp(path + n - 4, ".svg"))))
        return 0;
    return cli_bad_input(command, "%s '%s' ends neither in .png nor .svg (the extension decides "
                         "the picture's format)", flag, path);
}
