/* glevo-demo under Xvfb (started here on a free display): --frames/--screenshot writes a
 * non-blank PNG that changes as the population evolves and repeats for the same seed; SIGINT
 * and the window manager's close both end it with status 0. Also the contact sheet
 * (glevo_png_sheet) of real `glevo cga --snapshot` files: valid PNGs of the stated sizes.
 * Without an X server the demo cases print why and pass; the sheet cases always run. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>

#include "glevo/sheet.h"
#include "glevo/snapshot.h"
#include "testutil.h"

static pid_t xvfb_pid;
static int display = -1; /* the Xvfb display number, -1 when none could start */
static char tmpdir[256];

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void xvfb_start(void)
{
    for (int d = 97; d < 140 && display < 0; ++d) {
        char lock[64], sock[64];
        snprintf(lock, sizeof lock, "/tmp/.X%d-lock", d);
        snprintf(sock, sizeof sock, "/tmp/.X11-unix/X%d", d);
        if (access(lock, F_OK) == 0 || access(sock, F_OK) == 0) continue;
        pid_t pid = fork();
        if (pid < 0) break;
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0) dup2(null, 1), dup2(null, 2);
            char name[16];
            snprintf(name, sizeof name, ":%d", d);
            /* -noreset: a server that resets when its last client leaves refuses the next one for a moment */
            execlp("Xvfb", "Xvfb", name, "-screen", "0", "1280x720x24", "-nolisten", "tcp", "-noreset",
                   (char *)NULL);
            _exit(127);
        }
        for (int t = 0; t < 100; ++t) { /* up to 5 s for the socket */
            int status;
            if (waitpid(pid, &status, WNOHANG) == pid) {
                /* died: not installed (127: give up), or the display was taken meanwhile */
                if (WIFEXITED(status) && WEXITSTATUS(status) == 127) d = 140;
                pid = 0;
                break;
            }
            if (access(sock, F_OK) == 0) {
                display = d, xvfb_pid = pid;
                break;
            }
            sleep_ms(50);
        }
        if (display < 0 && pid > 0) kill(pid, SIGTERM), waitpid(pid, NULL, 0);
    }
    if (display < 0)
        printf("test_demo: SKIPPING the demo cases: Xvfb could not start (install xvfb)\n");
    else
        sleep_ms(200);
}

static void xvfb_stop(void)
{
    if (xvfb_pid > 0) kill(xvfb_pid, SIGTERM), waitpid(xvfb_pid, NULL, 0);
    xvfb_pid = 0, display = -1;
}

static const char *demo_path(void)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s", testutil_cli());
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (slash ? (size_t)(slash + 1 - path) : 0),
             "glevo-demo");
    return path;
}

static int screenshot_with(const char *extra, int frames, const char *name, char *path,
                           size_t size)
{
    snprintf(path, size, "%s/%s", tmpdir, name);
    char cmd[8192], out[4096];
    snprintf(cmd, sizeof cmd,
             "DISPLAY=:%d '%s' --size 480x270 --grid 64x48 --seed 7 %s --frames %d "
             "--screenshot '%s' 2>&1",
             display, demo_path(), extra, frames, path);
    int rc = testutil_run(cmd, out, sizeof out);
    if (rc != 0) printf("%s\n-> exit %d\n%s", cmd, rc, out);
    return rc;
}

static int screenshot(int frames, const char *name, char *path, size_t size)
{
    return screenshot_with("", frames, name, path, size);
}

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/glevo-test-demo-XXXXXX");
    ck_assert_msg(mkdtemp(tmpdir) != NULL, "mkdtemp: %s", strerror(errno));
    xvfb_start();
}

static void teardown(void)
{
    xvfb_stop();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    testutil_run(cmd, NULL, 0);
}

START_TEST(screenshot_is_not_blank_changes_and_repeats)
{
    if (display < 0) return;
    char early[512], late[512], again[512];
    ck_assert_int_eq(screenshot(3, "early.png", early, sizeof early), 0);
    ck_assert_int_eq(screenshot(30, "late.png", late, sizeof late), 0);
    ck_assert_int_eq(screenshot(30, "again.png", again, sizeof again), 0);
    int w1, h1, w2, h2, w3, h3;
    unsigned char *a = testutil_png_load(early, &w1, &h1), *b = testutil_png_load(late, &w2, &h2);
    unsigned char *c = testutil_png_load(again, &w3, &h3);
    ck_assert_msg(a && b && c, "screenshots are not readable PNGs (%s, %s)", early, late);
    ck_assert_msg(w1 == 480 && h1 == 270 && w2 == 480 && h2 == 270 && w3 == 480 && h3 == 270,
                  "screenshot sizes %dx%d, %dx%d, %dx%d, want 480x270", w1, h1, w2, h2, w3, h3);
    size_t n = (size_t)w1 * h1;
    /* Not blank: many distinct colours (the population is random colours at first). */
    int distinct = 0;
    static unsigned char seen[1 << 15];
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < n; ++i) {
        const unsigned char *p = a + 3 * i;
        unsigned k = (unsigned)(p[0] >> 3) << 10 | (unsigned)(p[1] >> 3) << 5 | (p[2] >> 3);
        if (!seen[k]) seen[k] = 1, ++distinct;
    }
    ck_assert_msg(distinct > 200, "early screenshot has only %d colours", distinct);
    size_t changed = 0, repeated_diff = 0;
    for (size_t i = 0; i < 3 * n; ++i) changed += a[i] != b[i], repeated_diff += b[i] != c[i];
    ck_assert_msg(changed > n / 20, "frames 3 and 30 differ in only %zu bytes", changed);
    ck_assert_msg(repeated_diff == 0, "two runs with seed 7 differ in %zu bytes", repeated_diff);
    free(a), free(b), free(c);
}
END_TEST

START_TEST(de_view_moves_its_points)
{
    if (display < 0) return;
    char early[512], late[512];
    ck_assert_int_eq(screenshot_with("--de", 2, "de-early.png", early, sizeof early), 0);
    ck_assert_int_eq(screenshot_with("--de", 25, "de-late.png", late, sizeof late), 0);
    int w1, h1, w2, h2;
    unsigned char *a = testutil_png_load(early, &w1, &h1), *b = testutil_png_load(late, &w2, &h2);
    ck_assert_msg(a && b && w1 == w2 && h1 == h2, "DE screenshots unreadable or sized apart");
    size_t n = (size_t)w1 * h1, changed = 0, white = 0;
    for (size_t i = 0; i < n; ++i) {
        changed += memcmp(a + 3 * i, b + 3 * i, 3) != 0;
        white += a[3 * i] == 255 && a[3 * i + 1] == 255 && a[3 * i + 2] == 255;
    }
    ck_assert_msg(white > 60, "only %zu white pixels: the population points are missing", white);
    ck_assert_msg(changed > n / 50, "DE frames 2 and 25 differ in only %zu pixels", changed);
    free(a), free(b);
}
END_TEST

START_TEST(gp_view_draws_data_and_program)
{
    if (display < 0) return;
    char shot[512];
    ck_assert_int_eq(screenshot_with("--gp", 6, "gp.png", shot, sizeof shot), 0);
    int w, h;
    unsigned char *a = testutil_png_load(shot, &w, &h);
    ck_assert_msg(a != NULL, "GP screenshot unreadable");
    size_t white = 0, orange = 0;
    for (size_t i = 0; i < (size_t)w * h; ++i) {
        const unsigned char *p = a + 3 * i;
        white += p[0] == 255 && p[1] == 255 && p[2] == 255;
        orange += p[0] == 255 && p[1] > 120 && p[1] < 160 && p[2] < 40;
    }
    ck_assert_msg(white > 48, "only %zu white pixels: the data points are missing", white);
    ck_assert_msg(orange > 40, "only %zu orange pixels: the program's curve is missing", orange);
    free(a);
}
END_TEST

/* The pass inspector's fitness view shows the fitness on the left and the genes on the right,
 * not the same texture twice. Panels as demo_layout puts them in a 480x270 window: 228 px
 * wide at x = 8 and 244, rows 16..131 from the top (labels in the first ~20 rows). */
START_TEST(fitness_view_shows_two_pictures)
{
    if (display < 0) return;
    char shot[512];
    ck_assert_int_eq(screenshot_with("--view fitness", 3, "fitness.png", shot, sizeof shot), 0);
    int w, h;
    unsigned char *a = testutil_png_load(shot, &w, &h);
    ck_assert_msg(a && w == 480 && h == 270, "fitness-view screenshot unreadable or sized apart");
    int same = 0, total = 0;
    for (int y = 40; y < 130; ++y)
        for (int x = 8; x < 8 + 228; ++x, ++total)
            same += !memcmp(a + ((size_t)y * w + x) * 3, a + ((size_t)y * w + x + 236) * 3, 3);
    ck_assert_msg(same < total / 5, "left and right panels agree in %d of %d pixels: one texture twice?",
                  same, total);
    free(a);
}
END_TEST

static pid_t demo_spawn(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        char dsp[16];
        snprintf(dsp, sizeof dsp, ":%d", display);
        setenv("DISPLAY", dsp, 1);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        execl(demo_path(), "glevo-demo", "--size", "320x180", "--grid", "32x16", (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Waits up to ms for pid; returns its wait status, or -1 (and kills it) on time out. */
static int wait_for(pid_t pid, int ms)
{
    for (int t = 0; t < ms; t += 20) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) return status;
        sleep_ms(20);
    }
    kill(pid, SIGKILL), waitpid(pid, NULL, 0);
    return -1;
}

/* 1 when pid still runs after ms; 0 (reaped) when it ended before. */
static int still_running_after(pid_t pid, int ms)
{
    for (int t = 0; t < ms; t += 20) {
        if (waitpid(pid, NULL, WNOHANG) == pid) return 0;
        sleep_ms(20);
    }
    return 1;
}

static void expect_clean_exit(pid_t pid, const char *how)
{
    int status = wait_for(pid, 8000);
    ck_assert_msg(status != -1, "glevo-demo did not exit within 8 s of %s", how);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "glevo-demo after %s: %s %d", how,
                  WIFEXITED(status) ? "exit status" : "killed by signal",
                  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

START_TEST(sigint_exits_zero)
{
    if (display < 0) return;
    pid_t pid = demo_spawn();
    ck_assert(pid > 0);
    ck_assert_msg(still_running_after(pid, 1500), "glevo-demo ended by itself (no --frames)");
    kill(pid, SIGINT);
    expect_clean_exit(pid, "SIGINT");
}
END_TEST

/* The window manager's close button: a WM_DELETE_WINDOW client message, sent through Xlib
 * loaded at run time (the tests link no X library themselves). */
typedef struct xlib {
    void *so;
    Display *(*open)(const char *);
    int (*close)(Display *);
    Status (*query_tree)(Display *, Window, Window *, Window *, Window **, unsigned *);
    Status (*fetch_name)(Display *, Window, char **);
    Atom (*intern)(Display *, const char *, Bool);
    Status (*send)(Display *, Window, Bool, long, XEvent *);
    int (*flush)(Display *);
    int (*free)(void *);
} xlib;

static Window find_glevo_window(xlib *x, Display *dpy, Window w, int depth)
{
    char *name = NULL;
    if (depth > 0 && x->fetch_name(dpy, w, &name) && name) {
        int match = strncmp(name, "glevo", 5) == 0;
        x->free(name);
        if (match) return w;
    }
    Window root, parent, *kids = NULL, found = 0;
    unsigned n = 0;
    if (depth < 3 && x->query_tree(dpy, w, &root, &parent, &kids, &n)) {
        for (unsigned i = 0; i < n && !found; ++i) found = find_glevo_window(x, dpy, kids[i], depth + 1);
        if (kids) x->free(kids);
    }
    return found;
}

START_TEST(window_close_exits_zero)
{
    if (display < 0) return;
    xlib x = {.so = dlopen("libX11.so.6", RTLD_NOW)};
    if (!x.so) {
        printf("test_demo: window close case skipped: no libX11.so.6 (%s)\n", dlerror());
        return;
    }
    *(void **)&x.open = dlsym(x.so, "XOpenDisplay");
    *(void **)&x.close = dlsym(x.so, "XCloseDisplay");
    *(void **)&x.query_tree = dlsym(x.so, "XQueryTree");
    *(void **)&x.fetch_name = dlsym(x.so, "XFetchName");
    *(void **)&x.intern = dlsym(x.so, "XInternAtom");
    *(void **)&x.send = dlsym(x.so, "XSendEvent");
    *(void **)&x.flush = dlsym(x.so, "XFlush");
    *(void **)&x.free = dlsym(x.so, "XFree");
    ck_assert(x.open && x.close && x.query_tree && x.fetch_name && x.intern && x.send &&
              x.flush && x.free);
    char name[16];
    snprintf(name, sizeof name, ":%d", display);
    Display *dpy = x.open(name);
    ck_assert_msg(dpy != NULL, "cannot open display %s", name);
    pid_t pid = demo_spawn();
    ck_assert(pid > 0);
    ck_assert_msg(still_running_after(pid, 1500), "glevo-demo ended by itself (no --frames)");
    Window w = 0;
    for (int t = 0; t < 50 && !w; ++t, sleep_ms(100))
        w = find_glevo_window(&x, dpy, DefaultRootWindow(dpy), 0);
    if (!w) kill(pid, SIGKILL), waitpid(pid, NULL, 0);
    ck_assert_msg(w != 0, "no window titled glevo* on display %s", name);
    XEvent ev;
    memset(&ev, 0, sizeof ev);
    ev.xclient.type = ClientMessage;
    ev.xclient.window = w;
    ev.xclient.message_type = x.intern(dpy, "WM_PROTOCOLS", False);
    ev.xclient.format = 32;
    ev.xclient.data.l[0] = (long)x.intern(dpy, "WM_DELETE_WINDOW", False);
    ev.xclient.data.l[1] = CurrentTime;
    x.send(dpy, w, False, NoEventMask, &ev);
    x.flush(dpy);
    expect_clean_exit(pid, "the window's close message");
    x.close(dpy);
    dlclose(x.so);
}
END_TEST

static void write_tile(const char *path, int w, int h, unsigned char r, unsigned char g,
                       unsigned char b)
{
    unsigned char *rgb = malloc((size_t)w * h * 3);
    ck_assert(rgb != NULL);
    for (int i = 0; i < w * h; ++i) rgb[3 * i] = r, rgb[3 * i + 1] = g, rgb[3 * i + 2] = b;
    rgb[0] = 255 - r; /* GL order: the bottom-left pixel, to check orientation below */
    ck_assert_msg(glevo_png_write_rgb(path, rgb, w, h) == GLEVO_OK, "%s", glevo_last_error());
    free(rgb);
}

static const unsigned char *pixel(const unsigned char *rgb, int w, int x, int y)
{
    return rgb + ((size_t)y * w + x) * 3;
}

START_TEST(sheet_tiles_in_order_with_right_size)
{
    char paths[3][512];
    const char *list[3];
    static const unsigned char colour[3][3] = {{200, 0, 0}, {0, 200, 0}, {0, 0, 200}};
    /* Tiles wider than their labels, so that the tile sizes alone set the geometry. */
    static const int size[3][2] = {{140, 100}, {90, 70}, {140, 100}};
    for (int i = 0; i < 3; ++i) {
        snprintf(paths[i], sizeof paths[i], "%s/tile%d.png", tmpdir, i);
        write_tile(paths[i], size[i][0], size[i][1], colour[i][0], colour[i][1], colour[i][2]);
        list[i] = paths[i];
    }
    char out[512];
    snprintf(out, sizeof out, "%s/sheet.png", tmpdir);
    const char *labels[3] = {"first", NULL, "third"}; /* NULL: from the file name */
    ck_assert_msg(glevo_png_sheet(list, labels, 3, 2, out) == GLEVO_OK, "%s", glevo_last_error());
    int w, h, g = GLEVO_SHEET_GAP, lh = GLEVO_SHEET_LABEL_HEIGHT;
    unsigned char *rgb = testutil_png_load(out, &w, &h);
    ck_assert_msg(rgb != NULL, "sheet %s is not a readable PNG", out);
    ck_assert_int_eq(w, 2 * 140 + 3 * g);
    ck_assert_int_eq(h, 2 * (lh + 100) + 3 * g);
    /* Tile i at column i % 2, row i / 2, top-left aligned under its label strip; each image's
     * bottom-left marker lands at the tile's bottom-left (PNG rows go top down). */
    const unsigned char *bg = pixel(rgb, w, 0, 0);
    for (int i = 0; i < 3; ++i) {
        int x0 = g + (i % 2) * (140 + g), y0 = g + (i / 2) * (lh + 100 + g);
        const unsigned char *p = pixel(rgb, w, x0 + 1, y0 + lh);
        ck_assert_msg(p[0] == colour[i][0] && p[1] == colour[i][1] && p[2] == colour[i][2],
                      "tile %d top-left is %d,%d,%d", i, p[0], p[1], p[2]);
        const unsigned char *m = pixel(rgb, w, x0, y0 + lh + size[i][1] - 1);
        ck_assert_msg(m[0] == 255 - colour[i][0], "tile %d is upside down or misplaced", i);
        int ink = 0; /* the label strip holds text */
        for (int y = y0; y < y0 + lh; ++y)
            for (int x = x0; x < x0 + 140; ++x) ink += pixel(rgb, w, x, y)[0] < 128;
        ck_assert_msg(ink > 20, "tile %d's label strip is blank (%d dark pixels)", i, ink);
    }
    const unsigned char *empty = pixel(rgb, w, g + 140 + g + 3, g + lh + 100 + g + lh + 3);
    ck_assert_msg(!memcmp(empty, bg, 3), "the empty slot is %d,%d,%d", empty[0], empty[1],
                  empty[2]);
    free(rgb);
    /* A missing input fails and names it; nothing is written. */
    char missing[512], out2[512];
    snprintf(missing, sizeof missing, "%s/nope.png", tmpdir);
    snprintf(out2, sizeof out2, "%s/sheet2.png", tmpdir);
    const char *bad[2] = {paths[0], missing};
    ck_assert(glevo_png_sheet(bad, NULL, 2, 2, out2) == GLEVO_ERR_IO);
    ck_assert_msg(strstr(glevo_last_error(), "nope.png") != NULL, "%s", glevo_last_error());
    ck_assert(access(out2, F_OK) != 0);
    ck_assert(glevo_png_sheet(list, NULL, 0, 2, out2) == GLEVO_ERR_INVALID);
    ck_assert(glevo_png_sheet(list, NULL, 3, 0, out2) == GLEVO_ERR_INVALID);
}
END_TEST

START_TEST(sheet_of_cli_snapshots)
{
    char cmd[4096], out[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' cga --problem rastrigin --dim 3 --grid 24x10 --generations 40 --seed 3 "
             "--snapshot '%s/snaps' --every 10 --snapshot-scale 3 2>&1",
             testutil_cli(), tmpdir);
    int rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "%s -> %d\n%s", cmd, rc, out);
    char paths[4][600];
    const char *list[4];
    for (int i = 0; i < 4; ++i) {
        snprintf(paths[i], sizeof paths[i], "%s/snaps/generation-%06d.png", tmpdir, 10 * (i + 1));
        int w = 0, h = 0;
        ck_assert_msg(glevo_png_size(paths[i], &w, &h) == GLEVO_OK, "%s", glevo_last_error());
        ck_assert_msg(w == 144 && h == 30, "%s is %dx%d, want 144x30 (2W x H, scale 3)", paths[i], w, h);
        list[i] = paths[i];
    }
    char sheet[512];
    snprintf(sheet, sizeof sheet, "%s/snaps-sheet.png", tmpdir);
    ck_assert_msg(glevo_png_sheet(list, NULL, 4, 2, sheet) == GLEVO_OK, "%s", glevo_last_error());
    int w = 0, h = 0;
    ck_assert(glevo_png_size(sheet, &w, &h) == GLEVO_OK);
    ck_assert_int_eq(w, 2 * 144 + 3 * GLEVO_SHEET_GAP);
    ck_assert_int_eq(h, 2 * (GLEVO_SHEET_LABEL_HEIGHT + 30) + 3 * GLEVO_SHEET_GAP);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("viz_demo");
    TCase *tc = tcase_create("demo");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, screenshot_is_not_blank_changes_and_repeats);
    tcase_add_test(tc, de_view_moves_its_points);
    tcase_add_test(tc, gp_view_draws_data_and_program);
    tcase_add_test(tc, fitness_view_shows_two_pictures);
    tcase_add_test(tc, sigint_exits_zero);
    tcase_add_test(tc, window_close_exits_zero);
    tcase_add_test(tc, sheet_tiles_in_order_with_right_size);
    tcase_add_test(tc, sheet_of_cli_snapshots);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
