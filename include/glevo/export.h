/* GLEVO_API marks every function of the public API: the shared library is built with
 * -fvisibility=hidden, so only what carries this mark is exported (a stable ABI: internal
 * helpers can change without breaking programs linked against libglevo.so.0). */
#ifndef GLEVO_EXPORT_H
#define GLEVO_EXPORT_H

#ifndef GLEVO_API
#if defined(__GNUC__)
#define GLEVO_API __attribute__((visibility("default")))
#else
#define GLEVO_API
#endif
#endif

#endif
