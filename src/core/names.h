/* Enum <-> name tables for the library's *_name / *_parse functions (one rule: the index in the
 * table is the enum's value; unknown names parse to -1). Internal. */
#ifndef GLEVO_NAMES_H
#define GLEVO_NAMES_H

#include <string.h>

static inline const char *names_get(const char *const *names, int count, int value)
{
    return value >= 0 && value < count ? names[value] : "unknown";
}

static inline int names_find(const char *const *names, int count, const char *name)
{
    for (int i = 0; name && i < count; ++i)
        if (!strcmp(name, names[i])) return i;
    return -1;
}

#define NAMES_COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))

#endif
