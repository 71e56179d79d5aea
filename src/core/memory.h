/* How much memory a request may take, asked before allocating it (issue 23: an oversized
 * grid or population is refused at once with one line naming the request and the limit,
 * not after minutes and gigabytes). Internal. */
#ifndef GLEVO_CORE_MEMORY_H
#define GLEVO_CORE_MEMORY_H

#include <stddef.h>

#include "glevo/status.h"

/* Bytes a new allocation of this process can expect to get now: GLEVO_MEMORY_LIMIT (bytes,
 * with an optional K, M or G suffix: for shared machines and tests) when set, else
 * MemAvailable from /proc/meminfo (free memory plus what the kernel can reclaim), else
 * sysconf(_SC_AVPHYS_PAGES) pages; 0 when none of these is known. *source names where the
 * number came from, for messages. */
double memory_host_available(const char **source);
/* GLEVO_OK when `bytes` fit the host's available memory (or it is unknown); otherwise
 * GLEVO_ERR_INVALID: "<request> needs 20.1 GiB of host memory, above the 14.2 GiB available
 * (MemAvailable)". `request` names the parameters that ask for it. */
glevo_status memory_check_host(double bytes, const char *request);
/* "1.5 GiB", "200 MiB": bytes for messages. */
void memory_format(double bytes, char *out, size_t size);

#endif
