/* The in-memory shader files of shader_memory.h: a list guarded by a mutex (front ends may
 * build problems on several threads). Entries live until the process ends: a problem holds
 * the name, and engines read the text whenever they build their programs. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/shader_memory.h"

typedef struct entry {
    struct entry *next;
    char *name, *text;
} entry;

static entry *entries;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static entry *find(const char *name)
{
    for (entry *e = entries; e; e = e->next)
        if (!strcmp(e->name, name)) return e;
    return NULL;
}

glevo_status shader_memory_register(const char *name, const char *text, const char **key)
{
    size_t room = strlen(name) + 16;
    char *candidate = malloc(room);
    entry *e = NULL;
    if (!candidate) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for GLSL source '%s'", name);
    pthread_mutex_lock(&lock);
    for (int n = 1;; ++n) {
        if (n == 1) snprintf(candidate, room, "%s", name);
        else snprintf(candidate, room, "%s#%d", name, n);
        entry *found = find(candidate);
        if (!found) break;
        if (!strcmp(found->text, text)) {
            e = found;
            break;
        }
    }
    glevo_status st = GLEVO_OK;
    if (!e) {
        e = calloc(1, sizeof *e);
        if (e) e->text = strdup(text);
        if (!e || !e->text) {
            if (e) free(e);
            e = NULL;
            st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for GLSL source '%s'", name);
        } else {
            e->name = candidate;
            candidate = NULL;
            e->next = entries;
            entries = e;
        }
    }
    if (e) *key = e->name;
    pthread_mutex_unlock(&lock);
    free(candidate);
    return st;
}

char *shader_memory_text(const char *key)
{
    pthread_mutex_lock(&lock);
    entry *e = find(key);
    char *copy = e ? strdup(e->text) : NULL;
    pthread_mutex_unlock(&lock);
    return copy;
}
