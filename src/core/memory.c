/* Host memory for up-front size checks (core/memory.h). */
#include "core/memory.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double parse_limit(const char *text)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || !(v > 0)) return 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': v *= 1024.0; break;
    case 'M': v *= 1024.0 * 1024.0; break;
    case 'G': v *= 1024.0 * 1024.0 * 1024.0; break;
    default: break;
    }
    return v;
}

static double meminfo_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    double kb = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "MemAvailable:", 13)) {
            kb = strtod(line + 13, NULL);
            break;
        }
    fclose(f);
    return kb * 1024.0;
}

double memory_host_available(const char **source)
{
    const char *env = getenv("GLEVO_MEMORY_LIMIT");
    double v = env ? parse_limit(env) : 0;
    if (v > 0) {
        if (source) *source = "GLEVO_MEMORY_LIMIT";
        return v;
    }
    if ((v = meminfo_available()) > 0) {
        if (source) *source = "MemAvailable";
        return v;
    }
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (source) *source = "_SC_AVPHYS_PAGES";
    return pages > 0 && page > 0 ? (double)pages * (double)page : 0;
}

void memory_format(double bytes, char *out, size_t size)
{
    const double mib = 1024.0 * 1024.0;
    if (bytes >= 1024.0 * mib)
        snprintf(out, size, "%.1f GiB", bytes / (1024.0 * mib));
    else
        snprintf(out, size, "%.0f MiB", bytes / mib);
}

glevo_status memory_check_host(double bytes, const char *request)
{
    const char *source = "";
    double available = memory_host_available(&source);
    if (available <= 0 || bytes <= available) return GLEVO_OK;
    char need[32], have[32];
    memory_format(bytes, need, sizeof need);
    memory_format(available, have, sizeof have);
    return glevo_fail(GLEVO_ERR_INVALID, "%s needs %s of host memory, above the %s available "
                      "(%s)", request, need, have, source);
}
