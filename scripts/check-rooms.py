#!/usr/bin/python3
"""Rooms a newcomer can walk (docs/architecture.md): checks that CI runs beside check-layers.sh.
  - no source file in src/, cli/, bench/ or demos/ over 450 lines;
  - no import circle of more than one file in the library: file A imports file B when A's
    object uses a symbol that B's object defines (nm: U against T/D/B/R, from the compiled
    objects under BUILD/CMakeFiles/*/src/), so a call counts whichever header declared it.
Prints every violation (each circle with the symbols on its arrows) and exits 1 if there is one.
Usage: scripts/check-rooms.py [BUILD]   (BUILD: the build folder, `build` if left out)
"""
import os
import subprocess
import sys

MAX_LINES = 450
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def long_files():
    out = []
    for top in ("src", "cli", "bench", "demos"):
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    path = os.path.join(folder, name)
                    with open(path, "rb") as f:
                        lines = f.read().count(b"\n")
                    if lines > MAX_LINES:
                        out.append("%5d %s" % (lines, os.path.relpath(path, ROOT)))
    return sorted(out)


def library_objects(build):
    """{source path under src/: object path} for every object compiled from a source that is
    still there (an object of a moved or deleted file stays in the build folder)."""
    objects = {}
    top = os.path.join(build, "CMakeFiles")
    for target in sorted(os.listdir(top)) if os.path.isdir(top) else []:
        src = os.path.join(top, target, "src")
        for folder, _, names in os.walk(src):
            for name in names:
                if name.endswith(".o"):
                    source = os.path.join(folder, name[:-2])
                    rel = os.path.relpath(source, os.path.join(top, target))
                    if os.path.exists(os.path.join(ROOT, rel)):
                        objects.setdefault(rel, os.path.join(folder, name))
    return objects


def symbols(obj):
    """(defined, used) global symbols of one object file."""
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind in "TDBRVWC":  # global text, data, bss, read-only, weak, common
            defined.add(name)
        elif kind == "U":
            used.add(name)
    return defined, used


def circles(graph):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def import_circles(build):
    objects = library_objects(build)
    if not objects:
        return ["no objects of src/ under %s/CMakeFiles: build first" % build]
    defined, used = {}, {}
    for source, obj in objects.items():
        defined[source], used[source] = symbols(obj)
    owner = {}
    for source in sorted(defined):
        for name in defined[source]:
            owner.setdefault(name, source)
    arrows = {source: {} for source in objects}
    for source in objects:
        for name in used[source]:
            target = owner.get(name)
            if target and target != source:
                arrows[source].setdefault(target, []).append(name)
    report = []
    for component in circles({s: set(t) for s, t in arrows.items()}):
        report.append("a circle of %d files: %s" % (len(component), ", ".join(component)))
        members = set(component)
        for source in component:
            for target in sorted(set(arrows[source]) & members):
                names = ", ".join(sorted(arrows[source][target]))
                report.append("  %s -> %s: %s" % (source, target, names))
    return report


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    bad = False
    checks = (("files over %d lines:" % MAX_LINES, long_files()),
              ("import circles in src/ (A -> B: A uses what B defines):", import_circles(build)))
    for title, lines in checks:
        if lines:
            print("check-rooms: " + title)
            for line in lines:
                print("    " + line)
            bad = True
    if not bad:
        print("check-rooms: ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
