/* Atomic output files (see output_file.h): temp beside the target, fsync, rename, fsync of
 * the folder; direct writes to anything that is not a regular file; a registry of temporary
 * files for signal handlers. */
#include "core/output_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary files alive now. A signal handler may read the table at any moment: a slot's
 * path is written before it is marked in use, and unmarked before it is reused. */
#define OUTPUT_SLOTS 32
static char registry_path[OUTPUT_SLOTS][4096];
static volatile sig_atomic_t registry_used[OUTPUT_SLOTS];

static int registry_add(const char *path)
{
    for (int i = 0; i < OUTPUT_SLOTS; ++i)
        if (!registry_used[i]) {
            snprintf(registry_path[i], sizeof registry_path[i], "%s", path);
            registry_used[i] = 1;
            return i;
        }
    return -1; /* still written atomically, only not removed by a signal */
}

static void registry_drop(int slot)
{
    if (slot >= 0) registry_used[slot] = 0;
}

void output_file_remove_temps(void)
{
    for (int i = 0; i < OUTPUT_SLOTS; ++i)
        if (registry_used[i]) unlink(registry_path[i]);
}

static void on_signal(int sig)
{
    output_file_remove_temps();
    signal(sig, SIG_DFL);
    raise(sig);
}

void output_file_install_signal_cleanup(void)
{
    static const int signals[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; ++i) {
        /* A signal ignored at start stays ignored: shells start background jobs with SIGINT
         * ignored, and a Ctrl-C meant for the foreground must not reach them. */
        struct sigaction old;
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(signals[i], &sa, NULL);
    }
}

/* Regular files and new paths are replaced by rename; a symbolic link would be replaced by a
 * regular file, and devices or FIFOs by a file in /dev, so those are written in place. */
static bool write_in_place(const char *path, struct stat *existing, bool *exists)
{
    *exists = lstat(path, existing) == 0;
    return *exists && !S_ISREG(existing->st_mode);
}

/* Temporary files of writers that died (SIGKILL, a crash, power loss) stay behind: ".NAME.tmp
 * PID-N" beside NAME, up to a checkpoint's size each. The next writer of NAME removes those
 * whose process is gone; a live PID (this process, a concurrent writer, or an unrelated process
 * that reused the number) keeps its file. */
static void remove_stale_temps(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d) return;
    size_t n = strlen(base);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        if (name[0] != '.' || strncmp(name + 1, base, n) || strncmp(name + 1 + n, ".tmp", 4))
            continue;
        const char *p = name + 1 + n + 4, *digits = p;
        long pid = 0;
        for (; *p >= '0' && *p <= '9' && pid < 1L << 30; ++p) pid = pid * 10 + (*p - '0');
        if (p == digits || *p != '-' || !p[1] || pid <= 0) continue;
        for (++p; *p >= '0' && *p <= '9'; ++p) {}
        if (*p) continue; /* not a name this file makes */
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive, or not ours to know */
        char full[8192];
        if (snprintf(full, sizeof full, "%s/%s", dir, name) < (int)sizeof full) unlink(full);
    }
    closedir(d);
}

glevo_status output_file_open(output_file *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->slot = -1;
    if (!path || !*path) return glevo_fail(GLEVO_ERR_IO, "output file name is empty");
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path)
        return glevo_fail(GLEVO_ERR_IO, "output path '%.64s...' is too long", path);
    struct stat st;
    bool exists;
    if (write_in_place(path, &st, &exists)) {
        o->f = fopen(path, "w");
        if (!o->f) return glevo_fail(GLEVO_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
        return GLEVO_OK;
    }
    /* A hidden name in the same folder (rename is atomic only within one file system); the
     * pid and a counter keep concurrent writers apart, O_EXCL keeps us off others' files. */
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path) + 1 : 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", dir_len ? dir_len : 1, dir_len ? path : ".");
    remove_stale_temps(dir, path + dir_len);
    static unsigned counter;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        if (snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.tmp%ld-%u", dir_len, path, path + dir_len,
                     (long)getpid(), counter++) >= (int)sizeof o->tmp)
            return glevo_fail(GLEVO_ERR_IO, "output path '%.64s...' is too long", path);
        /* 0666 under the umask, as fopen would create the target itself. */
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            int err = errno;
            o->tmp[0] = '\0';
            return glevo_fail(GLEVO_ERR_IO, "cannot write '%s': %s", path, strerror(err));
        }
    }
    /* Registered only once it is ours: a handler must never remove another writer's file. */
    if (fd >= 0) o->slot = registry_add(o->tmp);
    if (fd < 0) {
        o->tmp[0] = '\0';
        return glevo_fail(GLEVO_ERR_IO, "cannot write '%s': no free temporary name", path);
    }
    if (exists) (void)fchmod(fd, st.st_mode & 07777); /* keep the replaced file's permissions */
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int err = errno;
        close(fd);
        output_file_abort(o);
        return glevo_fail(GLEVO_ERR_IO, "cannot write '%s': %s", path, strerror(err));
    }
    return GLEVO_OK;
}

static void folder_of(const char *path, char *dir, size_t size);

static void fsync_folder(const char *path)
{
    char dir[4096];
    folder_of(path, dir, sizeof dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd); /* best effort: some file systems refuse fsync on folders */
        close(fd);
    }
}

glevo_status output_file_commit(output_file *o)
{
    if (!o->f) return glevo_fail(GLEVO_ERR_IO, "'%s' is not open", o->path);
    int err = 0;
    if (fflush(o->f) != 0 || ferror(o->f)) err = errno ? errno : EIO;
    /* Devices and pipes cannot be synced (EINVAL, EROFS): nothing to make durable there. */
    if (!err && fsync(fileno(o->f)) != 0 && errno != EINVAL && errno != EROFS && o->tmp[0]) err = errno;
    if (fclose(o->f) != 0 && !err) err = errno ? errno : EIO;
    o->f = NULL;
    if (!err && o->tmp[0] && rename(o->tmp, o->path) != 0) err = errno;
    if (err) {
        output_file_abort(o);
        return glevo_fail(GLEVO_ERR_IO, "cannot write '%s': %s", o->path, strerror(err));
    }
    if (o->tmp[0]) fsync_folder(o->path);
    registry_drop(o->slot);
    o->slot = -1;
    o->tmp[0] = '\0';
    return GLEVO_OK;
}

void output_file_abort(output_file *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
    registry_drop(o->slot);
    o->slot = -1;
    o->tmp[0] = '\0';
}

static glevo_status folder_check(const char *dir, const char *what, const char *path);

static void folder_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, size, ".");
    else if (slash == path) snprintf(dir, size, "/");
    else snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

glevo_status output_file_check(const char *path, const char *what)
{
    if (!path || !*path) return glevo_fail(GLEVO_ERR_INVALID, "%s: the file name is empty", what);
    struct stat st;
    bool exists;
    bool in_place = write_in_place(path, &st, &exists);
    if (exists && S_ISDIR(st.st_mode))
        return glevo_fail(GLEVO_ERR_INVALID, "%s '%s' is a directory", what, path);
    if (in_place) {
        if (access(path, W_OK) != 0)
            return glevo_fail(GLEVO_ERR_INVALID, "%s '%s' cannot be written: %s", what, path, strerror(errno));
        return GLEVO_OK;
    }
    char dir[4096];
    folder_of(path, dir, sizeof dir);
    return folder_check(dir, what, path);
}

/* `path` (may be NULL) is the file to be written into `dir`, for the message. */
static glevo_status folder_check(const char *dir, const char *what, const char *path)
{
    char name[4200] = "";
    if (path) snprintf(name, sizeof name, " '%s'", path);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return glevo_fail(GLEVO_ERR_INVALID, "%s%s cannot be written: folder '%s' does not exist", what,
                          name, dir);
    /* Permission bits do not tell (root ignores them; read-only mounts, /proc): create and
     * remove a file, as the writer will. */
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.glevo-probe-%ld", dir, (long)getpid());
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    /* ENOENT for a folder that exists: it makes no new names (/proc, /sys). */
    if (fd < 0 && errno == ENOENT)
        return glevo_fail(GLEVO_ERR_INVALID, "%s%s cannot be written: folder '%s' takes no new "
                          "files", what, name, dir);
    if (fd < 0 && errno != EEXIST)
        return glevo_fail(GLEVO_ERR_INVALID, "%s%s cannot be written: folder '%s': %s", what, name, dir,
                          strerror(errno));
    if (fd >= 0) {
        close(fd);
        unlink(probe);
    }
    return GLEVO_OK;
}

glevo_status output_folder_check(const char *dir, const char *what) { return folder_check(dir, what, NULL); }
