/* The CPU's share-out of independent work (interp_cpu.c's programs, const_opt.c's fits): one
 * job that threads take items from (an atomic counter inside it), run on this thread and on
 * threads - 1 more. */
#include <pthread.h>
#include <unistd.h>

#include "gp/gp_internal.h"

#define GP_THREADS_MAX 256

int gp_cpu_threads(int requested, int most)
{
    int threads = requested;
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > GP_THREADS_MAX) threads = GP_THREADS_MAX;
    if (threads > most) threads = most;
    return threads < 1 ? 1 : threads;
}

void gp_run_on_threads(int threads, void *(*work)(void *), void *job)
{
    pthread_t tid[GP_THREADS_MAX];
    int started = 0;
    /* A thread that cannot be started leaves its share to the others. */
    for (int t = 1; t < threads && t < GP_THREADS_MAX; ++t)
        if (pthread_create(&tid[started], NULL, work, job) == 0) started++;
    work(job);
    for (int t = 0; t < started; ++t) pthread_join(tid[t], NULL);
}
