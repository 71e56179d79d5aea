#!/usr/bin/env python3
"""Generates the NULL-argument test of glevo's public API (ctest: test_api_null).

Reads every include/glevo/*.h, lists each public function declaration (an optional GLEVO_API
export macro before it is ignored), and writes a Check suite with one test per function that
calls it once per pointer parameter with NULL there and valid-looking arguments elsewhere
(fixtures from tests/api/null_fixtures.h, integers 1, reals 0.5, enums 0), then once per enum
parameter with values outside the enum (-1, 99) and once per real parameter with NaN. A
function returning glevo_status must return GLEVO_ERR_INVALID with glevo_last_error() naming
the parameter; any other function must not crash (Check forks each test, so a crash fails
that function's test alone). ALLOW lists the pointer parameters documented as optional and
ALLOW_VALUE the enums and reals that take any value: those calls must only not crash.

usage: gen-null-test.py INCLUDE_DIR FIXTURES_H OUT_C
"""
import glob
import os
import re
import sys

# Parameters the headers document as optional ("NULL: none", "either may be NULL").
ALLOW = {
    "glevo_cga_params_defaults:params", "glevo_de_params_defaults:params",
    "glevo_gp_params_defaults:params", "glevo_dsmga_params_defaults:params",
    "glevo_islands_params_defaults:params",
    "glevo_cga_save:extra", "glevo_de_save:extra", "glevo_gp_save:extra",
    "glevo_dsmga_save:extra",
    "glevo_cga_load:changes", "glevo_de_load:changes", "glevo_gp_load:changes",
    "glevo_dsmga_load:changes",
    "glevo_cga_read_population:genes", "glevo_cga_read_population:fitness",
    "glevo_de_population:x", "glevo_de_population:fitness",
    "glevo_context_features:ctx", "glevo_context_finish:ctx",
    "glevo_context_print_profile:stdio_file",
    "glevo_problem_eval_double:shift", "glevo_problem_error:shift",
    "glevo_problem_load_shift:data_dir",
    "glevo_gp_data_load_csv:target", "glevo_gp_data_parse_csv:target",
    "glevo_gp_data_parse_csv:source", "glevo_gp_programs_parse:source",
    "glevo_gp_programs_codes:length", "glevo_gp_population:best",
    "glevo_png_sheet:labels", "glevo_shader_program:vertex_file",
    "glevo_cga_snapshot_png:params", "glevo_dsm_gpu_read_rows:pop_rows",
    "glevo_islands_device:devices", "glevo_fail:fmt",
    "glevo_dsmga_problem_create:spin_file", "glevo_dsmga_run:out",
    "glevo_gp_evaluator_create:params", "glevo_context_create:params",
    "glevo_islands_create:params", "glevo_dsm_gpu_read_rows:rows",
    "glevo_islands_resume:generation", "glevo_gp_programs_add:consts",
    "glevo_context_renderer:ctx", "glevo_problem_from_glsl_source:name",
    "glevo_gp_interpret:d", "glevo_gp_function_set_text:buf", "glevo_gp_program_sexpr:buf", "glevo_gp_program_infix:buf",
}
# Numbers where NaN is meaningful ("no value yet"), and enums whose every value is accepted.
ALLOW_VALUE = {"glevo_islands_sync:best", "glevo_islands_sync:local", "glevo_fail:status"}
# Process-wide MPI set-up: not for a unit test.
SKIP = {"glevo_islands_init", "glevo_islands_finalize", "glevo_islands_abort"}
# Calls that would do real work needing what a unit test lacks (MPI_Init).
SKIP_CALL = {"glevo_islands_create:params"}
# Opaque types with no fixture (islands need MPI_Init): only NULL goes in their place.
NO_FIXTURE = {"glevo_islands"}
# Headers built only with some option.
GUARD = {"islands.h": "GLEVO_HAVE_MPI"}

# Plain structs a function updates in place: given their fixture, not scratch.
INOUT = {"glevo_rng_source"}
INTEGER = {"int", "long long", "unsigned", "uint32_t", "int32_t", "size_t", "long"}
REAL = {"double", "float"}


def strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"#ifdef __cplusplus.*?#endif", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    text = re.sub(r"\bGLEVO_API\b", " ", text)
    text = re.sub(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)", " ", text)
    return text


def types_of(text):
    """Opaque handles, enums and structs by their typedef names."""
    opaque = set(re.findall(r"typedef\s+struct\s+(\w+)\s+\1\s*;", text))
    enums = set(re.findall(r"typedef\s+enum\s+\w*\s*\{[^}]*\}\s*(\w+)\s*;", text))
    structs = set(re.findall(r"\}\s*(\w+)\s*;", text)) - enums
    return opaque, enums, structs


def declarations(text):
    depth, top = 0, []
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            top.append(ch)
    for stmt in "".join(top).split(";"):
        stmt = " ".join(stmt.split())
        if not stmt or stmt.startswith("typedef"):
            continue
        m = re.match(r"^(.*?)\b(glevo_\w+)\s*\((.*)\)$", stmt)
        if not m or "(" in m.group(1):
            continue
        ret, name, args = m.group(1).strip(), m.group(2), m.group(3).strip()
        params = []
        if args and args != "void":
            for i, a in enumerate(args.split(",")):
                a = a.strip()
                if a == "...":
                    params.append(("...", "..."))
                    continue
                pm = re.match(r"^(.*?)(\w+)$", a)
                ptype, pname = (pm.group(1).strip(), pm.group(2)) if pm else (a, "arg%d" % i)
                params.append((" ".join(ptype.replace("*", " * ").split()), pname))
        yield ret, name, params


def base(ptype):
    return " ".join(w for w in ptype.replace("*", " ").split() if w != "const")


def main():
    inc, fixtures_h, out = sys.argv[1:4]
    headers = sorted(glob.glob(os.path.join(inc, "glevo", "*.h")))
    texts = {os.path.basename(h): strip(open(h).read()) for h in headers}
    opaque, enums, structs = set(), set(), set()
    for t in texts.values():
        o, e, s = types_of(t)
        opaque |= o
        enums |= e
        structs |= s
    fixtures = set(re.findall(r"\bfx_(glevo_\w+)\s*\(void\)", open(fixtures_h).read()))

    def value(ptype, pname, k=0):
        """A C expression for a valid-looking argument (k: the parameter's position, so that
        reals in a row make a range: 0.5, 1.5, ...), or None when none can be made."""
        stars = ptype.count("*")
        b = base(ptype)
        if stars == 0:
            if b in INTEGER or b in {"uint8_t", "int8_t"}:
                return "1"
            if b in REAL:
                return "%g" % (0.5 + k)
            if b == "bool":
                return "false"
            if b in enums or b == "glevo_status":
                return "(%s)0" % b
            if b in structs:
                return "(%s){0}" % b
            raise SystemExit("gen-null-test: no value for %s %s" % (ptype, pname))
        if stars == 2 and b == "char" and ptype.startswith("const"):
            return "(%s)fx_texts()" % ptype
        if stars == 2:
            return "(%s)fx_out_slot()" % ptype
        if stars >= 3:
            return None
        if b == "char":
            if ptype.startswith("const"):
                return "fx_text()"
            return "(char *)fx_buf()"
        if b == "void" and pname == "stdio_file":
            return "stderr"
        # Inputs get fixtures; outputs (non-const pointers to plain structs) scratch, so
        # that a call cannot overwrite a fixture (the built-in problems are read-only).
        if b in fixtures and (ptype.startswith("const") or b in opaque or b in INOUT):
            return "(%s)fx_%s()" % (ptype, b)
        if b in NO_FIXTURE:
            return None
        if b in opaque:
            raise SystemExit("gen-null-test: opaque %s has no fx_%s() in %s" % (b, b, fixtures_h))
        return "(%s)fx_buf()" % ptype

    lines = ["/* Generated by scripts/gen-null-test.py from the public headers: do not edit. */",
             '#include "api/null_fixtures.h"', ""]
    tests = []
    for hname, text in texts.items():
        guard = GUARD.get(hname)
        body = []
        for ret, name, params in declarations(text):
            if name in SKIP:
                continue
            ptrs = [i for i, (t, n) in enumerate(params) if "*" in t]
            odd = [(i, bad) for i, (t, n) in enumerate(params) if "*" not in t and t != "..."
                   for bad in (["-1", "99"] if base(t) in enums or base(t) == "glevo_status"
                               else ["NAN"] if base(t) in REAL else [])]
            if not ptrs and not odd:
                continue
            def call_with(i, bad, allowed):
                """Program i's call with `bad` in parameter i, the others valid; a status
                function must refuse it unless name:param is in `allowed`."""
                args = []
                for j, (t, n) in enumerate(params):
                    if t == "...":
                        continue
                    v = bad if j == i else value(t, n, j)
                    if v is None:
                        return None
                    args.append(v)
                pname = params[i][1]
                call = "%s(%s)" % (name, ", ".join(args))
                if ret == "glevo_status" and "%s:%s" % (name, pname) not in allowed:
                    return ('    glevo_clear_error();\n    fx_expect_invalid(%s, "%s", "%s");'
                            % (call, name, pname))
                return "    (void)%s;" % call if ret != "void" else "    %s;" % call

            calls = [call_with(i, "(%s)%s" % (params[i][0], bad), ALLOW_VALUE) for i, bad in odd]
            calls += [call_with(i, "NULL", ALLOW) for i in ptrs
                      if "%s:%s" % (name, params[i][1]) not in SKIP_CALL]
            calls = [c for c in calls if c is not None]
            if not calls:
                continue
            body.append("START_TEST(null_%s)\n{\n%s\n}\nEND_TEST\n" % (name, "\n".join(calls)))
            tests.append((guard, name))
        if guard and body:
            lines.append("#ifdef %s" % guard)
        lines.extend(body)
        if guard and body:
            lines.append("#endif")
    lines.append("int main(void)\n{\n    if (fx_begin()) return 1;\n"
                 "    Suite *s = suite_create(\"api_null\");\n"
                 "    TCase *tc = tcase_create(\"null\");\n    tcase_set_timeout(tc, 60);")
    for guard, name in tests:
        add = "    tcase_add_test(tc, null_%s);" % name
        lines.append("#ifdef %s\n%s\n#endif" % (guard, add) if guard else add)
    lines.append("    suite_add_tcase(s, tc);\n    SRunner *r = srunner_create(s);\n"
                 "    srunner_run_all(r, CK_NORMAL);  /* forked: a crash fails one test */\n"
                 "    int failed = srunner_ntests_failed(r);\n    srunner_free(r);\n"
                 "    fx_end();\n"
                 "    return failed ? 1 : 0;\n}")
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, out)
    print("gen-null-test: %d functions" % len(tests))


main()
