#!/usr/bin/env bash
# The shared library's ABI: it exports the public API only (every function of
# include/glevo/*.h carries GLEVO_API; everything else is hidden by -fvisibility=hidden), so
# internal helpers can change without breaking programs linked against it. Every exported
# symbol must be a glevo_ function, the SONAME must be libglevo.so.0, and a few known
# internal symbols must stay hidden. With CDEF (build/python/glevo_cdef.h, the public headers
# preprocessed), every function declared there must be exported: a declaration without
# GLEVO_API would be hidden.
#   test_exports.sh LIBRARY [CDEF]
set -euo pipefail
lib=$1 cdef=${2:-}
# nm -D lists the dynamic symbol table; the linker's own markers (_edata, _end, __bss_start)
# are not code.
symbols=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -vxE '_edata|_end|__bss_start|_init|_fini')
count=$(printf '%s\n' "$symbols" | grep -c . || true)
bad=$(printf '%s\n' "$symbols" | grep -v '^glevo_' || true)
if [ -n "$bad" ]; then
  echo "$lib exports symbols outside the public API (not glevo_*):" >&2
  printf '  %s\n' $bad >&2
  exit 1
fi
if [ "$count" -lt 200 ]; then
  echo "$lib exports only $count glevo_ symbols: the public API is missing (GLEVO_API?)" >&2
  exit 1
fi
for internal in gpu_pass_draw shader_compose names_find cga_init_cpu glevo_embedded_shaders; do
  if printf '%s\n' "$symbols" | grep -qx "$internal"; then
    echo "$lib exports the internal symbol $internal" >&2
    exit 1
  fi
done
if [ -n "$cdef" ]; then
  declared=$(grep -oE '^ ?[A-Za-z_][A-Za-z0-9_ *]*[ *]glevo_[a-z0-9_]+\(' "$cdef" | grep -v '^typedef' |
             grep -oE 'glevo_[a-z0-9_]+\($' | tr -d '(' | sort -u)
  hidden=$(comm -23 <(printf '%s\n' "$declared") <(printf '%s\n' "$symbols" | sort -u))
  if [ -n "$hidden" ]; then
    echo "$lib does not export these functions of include/glevo/*.h (declare them GLEVO_API):" >&2
    printf '  %s\n' $hidden >&2
    echo "  sed -E -i '/^(typedef|GLEVO_API)/! s/^([A-Za-z_][A-Za-z0-9_ *]*[ *]glevo_[A-Za-z0-9_]+\\()/GLEVO_API \\1/' include/glevo/*.h" >&2
    exit 1
  fi
  echo "$(printf '%s\n' "$declared" | grep -c .) functions declared in the public headers, all exported"
fi
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$soname" != "libglevo.so.0" ]; then
  echo "$lib has SONAME '$soname', expected libglevo.so.0" >&2
  exit 1
fi
echo "$lib: $count symbols exported, all glevo_*; SONAME $soname"
