/* core/output_file (issue 12, defect 5): outputs appear whole or not at all, devices and FIFOs
 * and links are written in place, write errors are reported, and temporary files can be
 * removed from a signal handler. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/output_file.h"
#include "testutil.h"

static char dir[64];

static const char *path_in_dir(const char *name)
{
    static char path[4][256];
    static int next;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/glevo-out-XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(dir));
    }
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static int entries(void)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

START_TEST(whole_or_nothing)
{
    const char *target = path_in_dir("a.csv");
    output_file o;
    ck_assert_int_eq(output_file_open(&o, target), GLEVO_OK);
    fputs("half", o.f);
    ck_assert_int_eq(access(target, F_OK), -1); /* not there until committed */
    ck_assert_int_eq(output_file_commit(&o), GLEVO_OK);
    FILE *f = fopen(target, "r");
    char text[16] = "";
    ck_assert_ptr_nonnull(fgets(text, sizeof text, f));
    fclose(f);
    ck_assert_str_eq(text, "half");
    ck_assert_int_eq(entries(), 1);
    /* An aborted rewrite leaves the old file and no temporary one. */
    ck_assert_int_eq(output_file_open(&o, target), GLEVO_OK);
    fputs("other", o.f);
    output_file_abort(&o);
    f = fopen(target, "r");
    ck_assert_ptr_nonnull(fgets(text, sizeof text, f));
    fclose(f);
    ck_assert_str_eq(text, "half");
    ck_assert_int_eq(entries(), 1);
    remove(target);
}
END_TEST

START_TEST(links_and_devices_in_place)
{
    const char *real = path_in_dir("real.txt"), *link = path_in_dir("link.txt");
    FILE *f = fopen(real, "w");
    fclose(f);
    ck_assert_int_eq(symlink(real, link), 0);
    output_file o;
    ck_assert_int_eq(output_file_open(&o, link), GLEVO_OK);
    fputs("through", o.f);
    ck_assert_int_eq(output_file_commit(&o), GLEVO_OK);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert_msg(S_ISLNK(st.st_mode), "the link was replaced by a file");
    ck_assert_int_eq(stat(real, &st), 0);
    ck_assert_int_eq(st.st_size, 7);
    remove(link);
    remove(real);
    /* /dev/full: written in place (never replaced), and the error is reported. */
    ck_assert_int_eq(output_file_open(&o, "/dev/full"), GLEVO_OK);
    ck_assert_str_eq(o.tmp, "");
    for (int i = 0; i < 1000; ++i) fputs("0123456789", o.f);
    ck_assert_int_eq(output_file_commit(&o), GLEVO_ERR_IO);
    ck_assert_msg(strstr(glevo_last_error(), "/dev/full"), "%s", glevo_last_error());
    ck_assert_int_eq(stat("/dev/full", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
}
END_TEST

START_TEST(signal_cleanup_removes_temporaries)
{
    output_file a, b;
    ck_assert_int_eq(output_file_open(&a, path_in_dir("x.png")), GLEVO_OK);
    ck_assert_int_eq(output_file_open(&b, path_in_dir("y.png")), GLEVO_OK);
    ck_assert_int_eq(entries(), 2);
    output_file_remove_temps();
    ck_assert_int_eq(entries(), 0);
    output_file_abort(&a);
    output_file_abort(&b);
}
END_TEST

START_TEST(checks_before_work)
{
    ck_assert_int_eq(output_file_check(path_in_dir("new.csv"), "--trace"), GLEVO_OK);
    ck_assert_int_eq(entries(), 0); /* the probe is gone */
    ck_assert_int_eq(output_file_check("/nonexistent/x.csv", "--trace"), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "--trace '/nonexistent/x.csv'"), "%s", glevo_last_error());
    ck_assert_int_eq(output_file_check(dir, "--trace"), GLEVO_ERR_INVALID);
    ck_assert_int_eq(output_file_check("/dev/null", "--trace"), GLEVO_OK);
    ck_assert_int_eq(output_folder_check("/proc/self", "--out"), GLEVO_ERR_INVALID);
}
END_TEST

static void touch(const char *name)
{
    FILE *f = fopen(path_in_dir(name), "w");
    ck_assert_ptr_nonnull(f);
    fputs("left by a writer that was killed\n", f);
    fclose(f);
}

static bool present(const char *name) { return access(path_in_dir(name), F_OK) == 0; }

/* Issue 23: every SIGKILLed checkpointing run left a ".NAME.tmpPID-N" behind, and later runs
 * never removed them. The next writer of NAME removes those of dead processes only. */
START_TEST(stale_temporaries_of_dead_writers_removed)
{
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) _exit(0);
    ck_assert_int_eq(waitpid(child, NULL, 0), child); /* reaped: its PID names no process now */
    char dead[64], alive[64], other[64];
    snprintf(dead, sizeof dead, ".stale.ckpt.tmp%ld-0", (long)child);
    snprintf(alive, sizeof alive, ".stale.ckpt.tmp%ld-7", (long)getpid());
    snprintf(other, sizeof other, ".other.ckpt.tmp%ld-0", (long)child);
    touch(dead);
    touch(alive);
    touch(other);
    touch(".stale.ckpt.tmpnotapid");
    output_file o;
    ck_assert_int_eq(output_file_open(&o, path_in_dir("stale.ckpt")), GLEVO_OK);
    fputs("new\n", o.f);
    ck_assert_int_eq(output_file_commit(&o), GLEVO_OK);
    ck_assert_msg(!present(dead), "%s of a dead process was left", dead);
    ck_assert_msg(present(alive), "%s of a live process was removed", alive);
    ck_assert_msg(present(other), "%s belongs to another output", other);
    ck_assert(present(".stale.ckpt.tmpnotapid"));
    ck_assert(present("stale.ckpt"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("output_file");
    TCase *tc = tcase_create("output_file");
    tcase_add_test(tc, whole_or_nothing);
    tcase_add_test(tc, links_and_devices_in_place);
    tcase_add_test(tc, signal_cleanup_removes_temporaries);
    tcase_add_test(tc, checks_before_work);
    tcase_add_test(tc, stale_temporaries_of_dead_writers_removed);
    suite_add_tcase(s, tc);
    int rc = testutil_run_suite(s);
    if (dir[0]) rmdir(dir);
    return rc;
}
