#!/usr/bin/env python3
"""Copies of shaders/ with gp/interp.glsl (and gp/eval.glsl) changed, for timing only (their
errors are wrong where the walk is cut): OUT/sh-VARIANT for each variant below.
    python3 make_variants.py SHADERS_DIR OUT"""
import os, re, shutil, sys

shaders, out = sys.argv[1], sys.argv[2]
interp = open(os.path.join(shaders, "gp/interp.glsl")).read()
fetch_one = """    uint next = GP_CODE(length);
    for (int i = length; i >= 1; --i) {
        walked++;
        uint code = next;
        next = GP_CODE(i - 1);
"""
window4 = """    uint n1 = GP_CODE(length), n2 = GP_CODE(max(length - 1, 0)), n3 = GP_CODE(max(length - 2, 0)), n4 = GP_CODE(max(length - 3, 0));
    for (int i = length; i >= 1; --i) {
        walked++;
        uint code = n1;
        n1 = n2; n2 = n3; n3 = n4; n4 = GP_CODE(max(i - 4, 0));
"""
window8 = """    uvec4 wa = uvec4(GP_CODE(length), GP_CODE(max(length - 1, 0)), GP_CODE(max(length - 2, 0)), GP_CODE(max(length - 3, 0)));
    uvec4 wb = uvec4(GP_CODE(max(length - 4, 0)), GP_CODE(max(length - 5, 0)), GP_CODE(max(length - 6, 0)), GP_CODE(max(length - 7, 0)));
    for (int i = length; i >= 1; --i) {
        walked++;
        uint code = wa.x;
        wa = uvec4(wa.yzw, wb.x); wb = uvec4(wb.yzw, GP_CODE(max(i - 8, 0)));
"""
switch_at = interp.index("        uint idx = code >> 8u;\n        switch (code & 255u) {")
walk_end = interp.index("    return walked;\n}")
body = {
    "w4": interp.replace(fetch_one, window4),  # codes fetched four nodes ahead
    "w8": interp.replace(fetch_one, window8),  # eight ahead
    "nowalk": interp[:switch_at] + "    }\n" + interp[walk_end:],  # the loop, no node work
    "fetchonly": interp[:switch_at] + "        for (int l = 0; l < GP_LANES; ++l) top[l] += vec4(float(code & 255u));\n    }\n" + interp[walk_end:],
    "nostack": interp.replace("#define S(slot, l) st[(slot) * GP_LANES + (l)]\n#define GP_STACK_DECL vec4 st[(GP_STACK + 1) * GP_LANES]",
                              "#define S(slot, l) st[l]\n#define GP_STACK_DECL vec4 st[GP_LANES]"),
    "cheapops": re.sub(r"UNARY\((.*)\);", "UNARY(a * 1.0001);", re.sub(r"BINARY\((.*)\);", "BINARY(a + b);", interp)),
    # 32 dependent multiply-adds a node and no memory: pure arithmetic in either stage
    "alu": interp[:switch_at] + """        float k = float(code & 255u) * 1e-9;
        for (int r = 0; r < 32; ++r)
            for (int l = 0; l < GP_LANES; ++l) top[l] = top[l] * (top[l] * k + 0.999) + vec4(k);
    }
""" + interp[walk_end:],
    "inl": interp,
}
for name, text in body.items():
    d = os.path.join(out, "sh-" + name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(shaders, d)
    open(os.path.join(d, "gp/interp.glsl"), "w").write(text)
    if name not in ("w4", "w8"):  # every variant but the first two built inlined, as large runs
        e = os.path.join(d, "gp/eval.glsl")
        text = open(e).read().replace("#ifndef GP_INLINE_ALL", "#define GP_INLINE_ALL\n#ifndef GP_INLINE_ALL", 1)
        open(e, "w").write(text)
