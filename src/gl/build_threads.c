/* Program builds on threads of their own, each with a GL context sharing the run's objects:
 * NVIDIA's driver compiles the programs one context is given one after another, even with
 * GL_KHR_parallel_shader_compile's threads asked for (docs/performance.md, first run), but
 * compiles on contexts of different threads at once (the way browsers build shaders off their
 * main thread). A batch's builds (program_batch.c) are queued here; whoever waits for a build
 * no thread has taken builds it on its own context, so a platform that cannot share a context
 * (the GLFW window), a thread that could not make one, or GLEVO_BUILD_THREADS=0 only means
 * the builds run on the caller's thread. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "gl/context_internal.h"
#include "core/clock.h"

#define MAX_BUILD_THREADS 8

struct build_threads {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    gl_build_job *head, *tail; /* queued, oldest first */
    pthread_t threads[MAX_BUILD_THREADS];
    int count;
    int built; /* jobs the threads have finished (build_threads_built) */
    bool stopping;
    struct glevo_context *ctx;
};

void build_job_issue(gl_build_job *job)
{
    for (int i = 0; i < job->stages; ++i) {
        glShaderSource(job->shaders[i], 1, &job->texts[i], NULL);
        glCompileShader(job->shaders[i]);
    }
    for (int i = 0; i < job->stages; ++i) glAttachShader(job->program, job->shaders[i]);
    glLinkProgram(job->program);
}

/* The job's whole build on a build thread: issued, waited for (the status query), and finished
 * on this context so that the others see the linked program (GL 4.6 core, appendix D.3). */
static void build_on_this_thread(gl_build_job *job)
{
    double t0 = core_seconds_now();
    build_job_issue(job);
    GLint linked = GL_FALSE;
    glGetProgramiv(job->program, GL_LINK_STATUS, &linked);
    glFinish();
    job->seconds = core_seconds_now() - t0;
}

static gl_build_job *take_oldest(struct build_threads *b)
{
    gl_build_job *job = b->head;
    b->head = job->next;
    if (!b->head) b->tail = NULL;
    job->next = NULL;
    job->state = BUILD_JOB_RUNNING;
    return job;
}

static void *build_thread(void *arg)
{
    struct build_threads *b = arg;
    void *shared = b->ctx->platform->share_begin(b->ctx);
    if (!shared) return NULL; /* the others, or the waiters, build its share */
    pthread_mutex_lock(&b->lock);
    for (;;) {
        while (!b->head && !b->stopping) pthread_cond_wait(&b->changed, &b->lock);
        if (b->stopping) break;
        gl_build_job *job = take_oldest(b);
        pthread_mutex_unlock(&b->lock);
        build_on_this_thread(job);
        pthread_mutex_lock(&b->lock);
        job->state = BUILD_JOB_IDLE;
        b->built++;
        pthread_cond_broadcast(&b->changed);
    }
    pthread_mutex_unlock(&b->lock);
    b->ctx->platform->share_end(b->ctx, shared);
    return NULL;
}

/* GLEVO_BUILD_THREADS, else one fewer than the processors (at most 4: a GP run builds five). */
static int thread_count(void)
{
    const char *env = getenv("GLEVO_BUILD_THREADS");
    if (env && *env) {
        int n = atoi(env);
        return n < 0 ? 0 : n > MAX_BUILD_THREADS ? MAX_BUILD_THREADS : n;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus <= 1 ? 0 : cpus - 1 < 4 ? (int)cpus - 1 : 4;
}

static struct build_threads *start_threads(struct glevo_context *ctx)
{
    int want = thread_count();
    if (want == 0 || !ctx->platform->share_begin) return NULL;
    struct build_threads *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->changed, NULL);
    b->ctx = ctx;
    for (int i = 0; i < want; ++i)
        if (pthread_create(&b->threads[b->count], NULL, build_thread, b) == 0) b->count++;
    return b;
}

bool build_threads_submit(struct glevo_context *ctx, gl_build_job *job)
{
    if (!ctx->builders && !ctx->builders_tried) {
        ctx->builders_tried = true;
        ctx->builders = start_threads(ctx);
    }
    struct build_threads *b = ctx->builders;
    if (!b || b->count == 0) return false;
    pthread_mutex_lock(&b->lock);
    job->next = NULL;
    job->state = BUILD_JOB_QUEUED;
    if (b->tail) b->tail->next = job;
    else b->head = job;
    b->tail = job;
    pthread_cond_signal(&b->changed);
    pthread_mutex_unlock(&b->lock);
    return true;
}

/* Takes job out of the queue (it is there). */
static void unqueue(struct build_threads *b, gl_build_job *job)
{
    gl_build_job **at = &b->head, *prev = NULL;
    while (*at != job) prev = *at, at = &(*at)->next;
    *at = job->next;
    if (b->tail == job) b->tail = prev;
    job->next = NULL;
}

void build_threads_wait(struct glevo_context *ctx, gl_build_job *job)
{
    struct build_threads *b = ctx->builders;
    if (!b) return;
    pthread_mutex_lock(&b->lock);
    if (job->state == BUILD_JOB_QUEUED) {
        /* No thread has it yet: built here, on the caller's context, checked by the caller. */
        unqueue(b, job);
        job->state = BUILD_JOB_IDLE;
        pthread_mutex_unlock(&b->lock);
        build_job_issue(job);
        return;
    }
    while (job->state != BUILD_JOB_IDLE) pthread_cond_wait(&b->changed, &b->lock);
    pthread_mutex_unlock(&b->lock);
}

int gpu_program_batch_threaded(void)
{
    struct build_threads *b = gl_current ? gl_current->builders : NULL;
    if (!b) return 0;
    pthread_mutex_lock(&b->lock);
    int n = b->built;
    pthread_mutex_unlock(&b->lock);
    return n;
}

void build_threads_stop(struct glevo_context *ctx)
{
    struct build_threads *b = ctx->builders;
    ctx->builders = NULL;
    if (!b) return;
    /* Queued jobs are left to their owners (program_batch_free forgets them). */
    pthread_mutex_lock(&b->lock);
    b->stopping = true;
    pthread_cond_broadcast(&b->changed);
    pthread_mutex_unlock(&b->lock);
    for (int i = 0; i < b->count; ++i) pthread_join(b->threads[i], NULL);
    pthread_cond_destroy(&b->changed);
    pthread_mutex_destroy(&b->lock);
    free(b);
}
