/* The CPU's share-out of independent work (interp_cpu.c's programs, const_opt.c's fits): one
 * job that threads take items from (an atomic counter inside it), run on this thread and on
 * threads - 1 more; and a pool of such threads kept for a job run many times over (the linear
 * layer's steps: starting threads for each would cost more than the step). */
#include <pthread.h>
#include <stdlib.h>
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

struct gp_pool {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    long long round;  /* runs begun: a worker takes each once */
    int started, busy;
    bool quit;
    void *(*work)(void *);
    void *job;
    pthread_t tid[GP_THREADS_MAX];
};

static void *pool_thread(void *arg)
{
    gp_pool *p = arg;
    long long seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (p->round == seen && !p->quit) pthread_cond_wait(&p->go, &p->lock);
        if (p->quit) {
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        seen = p->round;
        void *(*work)(void *) = p->work;
        void *job = p->job;
        pthread_mutex_unlock(&p->lock);
        work(job);
        pthread_mutex_lock(&p->lock);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->lock);
    }
}

gp_pool *gp_pool_start(int threads)
{
    if (threads > GP_THREADS_MAX) threads = GP_THREADS_MAX;
    gp_pool *p = threads > 1 ? calloc(1, sizeof *p) : NULL;
    if (!p) return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    /* A thread that cannot be started leaves its share to the others. */
    for (int t = 1; t < threads; ++t)
        if (pthread_create(&p->tid[p->started], NULL, pool_thread, p) == 0) p->started++;
    return p;
}

void gp_pool_run(gp_pool *p, void *(*work)(void *), void *job)
{
    if (p) {
        pthread_mutex_lock(&p->lock);
        p->work = work, p->job = job, p->busy = p->started, p->round++;
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->lock);
    }
    work(job);
    if (p) {
        pthread_mutex_lock(&p->lock);
        while (p->busy) pthread_cond_wait(&p->done, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
}

void gp_pool_stop(gp_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    for (int t = 0; t < p->started; ++t) pthread_join(p->tid[t], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p);
}
