/* Paper reproductions behind `glevo bench SUITE`: one file per suite. */
#ifndef GLEVO_BENCH_H
#define GLEVO_BENCH_H

int bench_cga(int argc, char **argv);
int bench_de(int argc, char **argv);
int bench_gp(int argc, char **argv);
int bench_dsmga(int argc, char **argv);

#endif
