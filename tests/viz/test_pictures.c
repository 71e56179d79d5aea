/* The pictures in docs/images are what scripts/make-pictures.sh makes: the script runs here
 * (llvmpipe, Xvfb for the demo's windows) into a temporary folder and every committed PNG must
 * decode to the same pixels as its fresh twin. Pixels, not bytes: the same drawing compresses
 * to different bytes under another zlib or libpng, and the pixels are what the docs show.
 * Without xvfb-run the case says why and passes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

START_TEST(committed_pictures_are_what_the_script_makes)
{
    if (testutil_run("command -v xvfb-run >/dev/null", NULL, 0) != 0) {
        printf("test_pictures: SKIPPING: no xvfb-run (install xvfb) for the demo's pictures\n");
        return;
    }
    char root[4096], build[4096], dir[] = "/tmp/glevo-test-pictures-XXXXXX", cmd[12288], out[8192];
    snprintf(root, sizeof root, "%s", testutil_data_path("."));
    *strrchr(root, '/') = '\0'; /* .../data/. -> .../data */
    *strrchr(root, '/') = '\0'; /* -> the source tree */
    snprintf(build, sizeof build, "%s", testutil_cli());
    *strrchr(build, '/') = '\0';
    ck_assert(mkdtemp(dir) != NULL);
    snprintf(cmd, sizeof cmd, "cd '%s' && GLEVO_BUILD='%s' scripts/make-pictures.sh '%s' 2>&1", root, build, dir);
    int rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "%s -> %d\n%s", cmd, rc, out);
    static const char *const pictures[] = {"camel-population.png", "sheet.png", "dsmga-speedup.png",
                                           "gp-regression.png", "gp-classification.png", "demo.png",
                                           "demo-de.png", "demo-gp.png", "passes.png",
                                           "scaling-cga.png", "scaling-de.png", "scaling-gp.png",
                                           "scaling-dsmga.png", "scaling-islands.png",
                                           "scaling-gp-evogp.png", "islands-multigpu.png"};
    for (size_t i = 0; i < sizeof pictures / sizeof *pictures; ++i) {
        char fresh[4200], committed[4200];
        snprintf(fresh, sizeof fresh, "%s/%s", dir, pictures[i]);
        snprintf(committed, sizeof committed, "%s/docs/images/%s", root, pictures[i]);
        int w1 = 0, h1 = 0, w2 = 0, h2 = 0;
        unsigned char *a = testutil_png_load(fresh, &w1, &h1), *b = testutil_png_load(committed, &w2, &h2);
        ck_assert_msg(a != NULL, "the script did not make %s", fresh);
        ck_assert_msg(b != NULL, "%s is missing or not a PNG", committed);
        ck_assert_msg(w1 == w2 && h1 == h2, "%s: committed %dx%d, made %dx%d (run scripts/make-pictures.sh)",
                      pictures[i], w2, h2, w1, h1);
        size_t differ = 0;
        for (size_t k = 0; k < (size_t)w1 * h1 * 3; ++k) differ += a[k] != b[k];
        ck_assert_msg(differ == 0, "%s: %zu bytes of pixels differ from a fresh run (run scripts/make-pictures.sh)",
                      pictures[i], differ);
        free(a), free(b);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    testutil_run(cmd, NULL, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("viz_pictures");
    TCase *tc = tcase_create("pictures");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, committed_pictures_are_what_the_script_makes);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
