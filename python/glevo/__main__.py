"""python3 -m glevo info [--device N] | --version: what `glevo info` prints, from this package's
library (the test in python/tests/test_main.py holds the two to the same text)."""
import argparse
import sys

from ._lib import ffi, lib, text


def _line(label, value):
    return f"  {label + ':':<18}{value}"


def _device_lines(index):
    d = ffi.new("glevo_device_info *")
    lib.glevo_egl_device_describe(index, d)
    lines = [f"device {d.index}: {text(d.name)}{' (software)' if d.software else ''}"]
    if ffi.string(d.error):
        return lines + [f"  not usable: {text(d.error)}"]
    lines += [_line("vendor", text(d.vendor)), _line("renderer", text(d.renderer)),
              _line("GL version", text(d.gl_version)), _line("GLSL version", text(d.glsl_version)),
              _line("max texture size", d.max_texture_size),
              _line("max draw buffers", d.max_draw_buffers)]
    f = _features(index)
    if f is None:
        return lines
    lines.append(_line("compute shaders", f"{'yes' if f.compute else 'no'} (GL {f.gl_major}."
                       f"{f.gl_minor}{'' if f.compute else '; they need 4.3'})"))
    if not f.compute:
        return lines
    count, size = f.max_work_group_count, f.max_work_group_size
    lines += [_line("work-group count", f"{count[0]} x {count[1]} x {count[2]}"),
              _line("work-group size", f"{size[0]} x {size[1]} x {size[2]}, "
                    f"{f.max_work_group_invocations} invocations"),
              _line("shared memory", f"{f.max_shared_bytes} bytes a work-group"),
              _line("SSBO size", f"{f.max_ssbo_bytes} bytes at most")]
    lines.append(_line("subgroups", f"{f.subgroup_size} invocations" if f.subgroup_size
                       else "not offered (GL_KHR_shader_subgroup)"))
    return lines


def _features(index):
    """The compute limits of device `index` from a short-lived context on it, or None."""
    params = ffi.new("glevo_context_params *")
    params.device_plus_one = index + 1
    ctx = ffi.new("glevo_context **")
    if lib.glevo_context_create(params, ctx) != 0:
        return None
    f = ffi.new("glevo_features *")
    lib.glevo_context_features(ctx[0], f)
    lib.glevo_context_destroy(ctx[0])
    return f


def _multiprocessors(ctx):
    """Where ctx's render passes and compute dispatches run (glevo_context_sm_usage), in words."""
    u = ffi.new("glevo_sm_usage *")
    if lib.glevo_context_sm_usage(ctx, u) != 0:
        return f"not measured ({text(lib.glevo_last_error())})"
    if not u.reported:
        return "not reported by this driver (GL_NV_shader_thread_group)"
    return (f"{u.sm_count}; render passes ran on {u.fragment_sms}, compute dispatches on "
            f"{u.compute_sms}")


def info(device=-1, out=sys.stdout):
    """Prints `glevo info`'s report; returns its exit status (1 when no device can be used)."""
    count = lib.glevo_egl_device_count()
    if count < 0:
        print(f"glevo info: {text(lib.glevo_last_error())}", file=sys.stderr)
        return 1
    if device >= count or device < -1:
        print(f"glevo info: --device {device} does not exist: EGL lists {count} device(s)",
              file=sys.stderr)
        return 2
    params = ffi.new("glevo_context_params *")
    params.device_plus_one = device + 1 if device >= 0 else 0
    ctx = ffi.new("glevo_context **")
    have_default = lib.glevo_context_create(params, ctx) == 0
    auto = lib.GLEVO_BACKEND_AUTO
    print(f"glevo {text(lib.glevo_version_string())}, {count} EGL device(s)", file=out)
    if have_default:
        chosen = ffi.new("glevo_device_info *")
        lib.glevo_context_describe(ctx[0], chosen)
        pick = text(lib.glevo_backend_name(lib.glevo_backend_resolve(auto)))
        pick_gp = text(lib.glevo_backend_name(lib.glevo_gp_backend_resolve(auto)))
        folder = ffi.new("char[]", 4096)
        cache_on = lib.glevo_program_cache(ctx[0], folder, 4096)
        sms = _multiprocessors(ctx[0])
        lib.glevo_context_destroy(ctx[0])
        print(f"default: device {chosen.index} ({text(chosen.renderer)}); --backend auto runs "
              f"{pick} (gp: {pick_gp})", file=out)
        print(f"program cache: {text(folder) or 'none'} ({'on' if cache_on else 'off'})",
              file=out)
        print(f"multiprocessors: {sms}\n", file=out)
    else:
        print(f"default: none ({text(lib.glevo_last_error())})\n", file=out)
    for i in range(count):
        if device < 0 or i == device:
            print("\n".join(_device_lines(i)), file=out)
    return 0 if have_default else 1


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m glevo",
                                     description="glevo's Python package: what it runs on.")
    parser.add_argument("--version", action="store_true", help="print the library's version")
    sub = parser.add_subparsers(dest="command")
    p_info = sub.add_parser("info", help="EGL devices and the GL implementation glevo would use")
    p_info.add_argument("--device", type=int, default=-1, help="describe only this EGL device")
    args = parser.parse_args(argv)
    if args.version:
        print(f"glevo {text(lib.glevo_version_string())}")
        return 0
    if args.command == "info":
        return info(args.device)
    parser.print_usage(sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
