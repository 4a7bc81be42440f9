#!/usr/bin/env python3
"""Run a command the way the systemd unit would confine it, without systemd.

systemd is not PID 1 on the machines the host tests run on, so the unit
cannot be started for real; this applies what of the unit decides whether
the daemon works and what it may write:

- the user: DynamicUser=/User= give a uid other than 0 (an unused one here);
- CapabilityBoundingSet= and AmbientCapabilities= (setpriv), no-new-privs;
- SystemCallFilter= (libseccomp), expanded by systemd-analyze as systemd
  expands it, but stricter than the unit: a call outside it kills the
  process (SIGSYS) instead of SystemCallErrorNumber=, so that a call the
  daemon needs and the filter lacks cannot go unnoticed;
- ReadOnlyPaths=, ProtectKernelTunables= (read-only /proc/sys and /sys,
  /proc/kallsyms and /proc/kcore inaccessible), ProtectControlGroups= and
  ProtectProc=invisible, in a mount namespace of their own;
- LimitMEMLOCK=.

Not applied (they restrict the process further and do not change what it
reads): the rest of the Protect*/Private*/Restrict* settings, UMask=,
IPAddressDeny=.

usage: unit_confine.py UNIT -- CMD [ARG...]
  runs CMD (the ExecStart= binary is not used; give it) confined, and
  exits with its status.  Must run as root.
internal: unit_confine.py --seccomp ACTION NAME,NAME,... -- CMD [ARG...]
"""
import ctypes
import ctypes.util
import errno
import os
import resource
import subprocess
import sys
import tempfile

SCMP_ACT_KILL_PROCESS = 0x80000000
SCMP_ACT_ALLOW = 0x7FFF0000
CLONE_NEWNS = 0x00020000


def unit_settings(path):
    """[Service] settings, in order: [(key, value)]."""
    out, section = [], None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("["):
                section = line
                continue
            if section == "[Service]" and "=" in line:
                key, value = line.split("=", 1)
                out.append((key.strip(), value.strip()))
    return out


def yes(value):
    return value.lower() in ("1", "yes", "true", "on")


def syscall_groups():
    """{'@group': [members]} as this systemd knows them."""
    text = subprocess.run(["systemd-analyze", "--no-pager", "syscall-filter"],
                          capture_output=True, text=True, check=True).stdout
    groups, current = {}, None
    for line in text.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.split()[0], [])
        elif current is not None and line.strip() and not line.strip().startswith("#"):
            current.append(line.split()[0])
    return groups


def expand(names, groups, seen=None):
    seen = set() if seen is None else seen
    out = set()
    for name in names:
        if name.startswith("@"):
            if name in seen:
                continue
            seen.add(name)
            out |= expand(groups.get(name, []), groups, seen)
        else:
            out.add(name.split(":")[0])
    return out


def syscall_allow_list(settings):
    """The unit's SystemCallFilter= as one allow list, or None (no filter)."""
    groups, allowed, is_allow_list = syscall_groups(), None, None
    for key, value in settings:
        if key != "SystemCallFilter":
            continue
        if not value:
            allowed, is_allow_list = None, None
            continue
        deny = value.startswith("~")
        names = expand(value.lstrip("~").split(), groups)
        if is_allow_list is None:
            is_allow_list = not deny
            allowed = set(names) if not deny else None
            if deny:
                raise SystemExit("unit_confine: a deny-list-first "
                                 "SystemCallFilter= is not emulated")
        elif deny:
            allowed -= names
        else:
            allowed |= names
    if allowed is not None:
        # systemd never filters these (the process must be able to exec
        # and exit)
        allowed |= {"execve", "exit", "exit_group", "rt_sigreturn",
                    "getrlimit"}
    return allowed


def last(settings, key, default=""):
    value = default
    for k, v in settings:
        if k == key:
            value = v
    return value


def caps(value):
    """setpriv's form of the capabilities this machine has: a container
    may lack some (it cannot hand out what it has not got)."""
    have = subprocess.run(["setpriv", "--list-caps"], capture_output=True,
                          text=True, check=True).stdout.split()
    with open("/proc/self/status") as f:
        bound = int(next(l.split()[1] for l in f if l.startswith("CapBnd:")), 16)
    out = []
    for c in value.split():
        name = c.lower().removeprefix("cap_")
        if name in have and bound >> have.index(name) & 1:
            out.append("+" + name)
        else:
            print(f"unit_confine: {c} is not this machine's to give: left out",
                  file=sys.stderr)
    return ",".join(out)


def unused_uid():
    for uid in range(61184, 65520):  # systemd's DynamicUser= range
        try:
            __import__("pwd").getpwuid(uid)
        except KeyError:
            return uid
    raise SystemExit("unit_confine: no unused uid")


def mount(*args):
    subprocess.run(["mount", *args], check=True)


def confine_mounts(settings, scratch):
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    if libc.unshare(CLONE_NEWNS):
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
    mount("--make-rprivate", "/")
    read_only = []
    for key, value in settings:
        if key == "ReadOnlyPaths":
            read_only += [p.lstrip("-") for p in value.split()]
    inaccessible = []
    if yes(last(settings, "ProtectKernelTunables", "no")):
        read_only += ["/proc/sys", "/sys"]
        inaccessible += ["/proc/kallsyms", "/proc/kcore"]
    if yes(last(settings, "ProtectControlGroups", "no")):
        read_only += ["/sys/fs/cgroup"]
    protect_proc = last(settings, "ProtectProc", "default")
    if protect_proc in ("invisible", "noaccess", "ptraceable"):
        mount("-t", "proc", "-o", "hidepid=" + protect_proc, "proc", "/proc")
    for path in read_only:
        if os.path.exists(path):
            mount("--rbind", path, path)
            mount("-o", "remount,bind,ro", path)
            # the submounts too (cgroup hierarchies under /sys)
            subprocess.run(["sh", "-c", 'awk -v p="$1" \'index($5, p "/") == 1 { print $5 }\' '
                            '/proc/self/mountinfo | while read -r m; do '
                            'mount -o remount,bind,ro "$m" 2>/dev/null; done', "sh", path],
                           check=False)
    # systemd puts a mode-0000 node over what it hides
    node = os.path.join(scratch, "inaccessible")
    with open(node, "w"):
        pass
    os.chmod(node, 0)
    for path in inaccessible:
        if os.path.exists(path):
            mount("--bind", node, path)


def run_confined(unit, cmd):
    settings = unit_settings(unit)
    user = last(settings, "User", "")
    dynamic = yes(last(settings, "DynamicUser", "no"))
    uid = unused_uid() if dynamic or user not in ("", "root", "0") else 0
    if user not in ("", "root", "0") and not dynamic:
        raise SystemExit("unit_confine: a named User= is not emulated")
    bounding = last(settings, "CapabilityBoundingSet", "")
    ambient = last(settings, "AmbientCapabilities", "")
    allow = syscall_allow_list(settings)
    memlock = last(settings, "LimitMEMLOCK", "")
    if memlock == "infinity":
        try:
            resource.setrlimit(resource.RLIMIT_MEMLOCK,
                               (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        except (ValueError, OSError) as e:  # a container may not allow it
            print(f"unit_confine: LimitMEMLOCK=infinity not applied: {e}",
                  file=sys.stderr)
    with tempfile.TemporaryDirectory() as scratch:
        pid = os.fork()
        if pid == 0:
            try:
                confine_mounts(settings, scratch)
                argv = ["setpriv"]
                if uid:
                    argv += [f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
                if bounding:
                    argv += ["--bounding-set=-all," + caps(bounding)]
                argv += ["--inh-caps=-all" + ("," + caps(ambient) if ambient else "")]
                if ambient:
                    argv += ["--ambient-caps=" + caps(ambient)]
                if yes(last(settings, "NoNewPrivileges", "no")) or allow is not None:
                    argv += ["--no-new-privs"]
                if allow is not None:
                    argv += [sys.executable, os.path.abspath(__file__), "--seccomp",
                             ",".join(sorted(allow)), "--"]
                os.execvp("setpriv", argv + cmd)
            except BaseException as e:  # noqa: BLE001 - report and leave the child
                print(f"unit_confine: {e}", file=sys.stderr)
                os._exit(125)
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)


def seccomp_exec(names, cmd):
    lib = ctypes.CDLL(ctypes.util.find_library("seccomp") or "libseccomp.so.2",
                      use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32,
                                     ctypes.c_int, ctypes.c_uint]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(SCMP_ACT_KILL_PROCESS)
    if not ctx:
        raise OSError(errno.ENOMEM, "seccomp_init")
    for name in names:
        nr = lib.seccomp_syscall_resolve_name(name.encode())
        if nr < 0:
            continue  # not a call of this architecture
        err = lib.seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0)
        if err and err != -errno.EEXIST:
            raise OSError(-err, f"seccomp_rule_add {name}")
    err = lib.seccomp_load(ctx)
    if err:
        raise OSError(-err, "seccomp_load")
    os.execvp(cmd[0], cmd)


def main(argv):
    if len(argv) >= 4 and argv[0] == "--seccomp" and argv[2] == "--":
        seccomp_exec(argv[1].split(","), argv[3:])
    if len(argv) < 3 or argv[1] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    return run_confined(argv[0], argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
