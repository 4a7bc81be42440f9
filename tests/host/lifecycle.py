#!/usr/bin/env python3
"""Lifecycle and privilege tests on the running kernel (root).

- Every way a process can end (SIGINT, SIGTERM, SIGHUP: clean stop;
  SIGSEGV, SIGABRT: a crash; SIGKILL) leaves no BPF program, link or map
  behind, for record, top and daemon (bpftool prog/link/map before, during
  and after).
- While running, the process holds no capability (CapEff, CapPrm, CapBnd).
- A second daemon on a port in use says why it will not start.
- A memcg whose own files cannot be read: its refaults and OOM kills are
  null, not 0.
- Output nobody reads (a FIFO without a reader, a stopped reader) gives
  way to SIGTERM and -d.
- top's / prompt: Esc cancels, Ctrl-C and SIGTERM end top, the terminal
  restored.
- Not root, root without CAP_BPF/CAP_PERFMON/CAP_SYS_ADMIN, no kernel BTF:
  a clear message and exit status 1, never a crash; no tracefs or debugfs:
  the same hooks as with them.

usage: lifecycle.py BIN WORKDIR
"""
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from judge import Judge  # noqa: E402

judge = Judge()
check = judge.check
BIN, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
PORT = int(os.environ.get("RS_TEST_LIFECYCLE_PORT", "19783"))


def bpf_ids():
    out = {}
    for kind in ("prog", "link", "map"):
        r = subprocess.run(["bpftool", "-j", kind, "show"], capture_output=True,
                           text=True, check=True)
        out[kind] = {o["id"] for o in json.loads(r.stdout or "[]")}
    return out


def new_ids(base):
    now = bpf_ids()
    return {k: now[k] - base[k] for k in now}


def caps(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("Cap"):
                k, v = line.split(":")
                out[k] = int(v, 16)
    return out


def leftovers(base, timeout=10):
    """What was loaded since base and is still there after up to timeout
    seconds (the kernel frees a dead process's objects a little later)."""
    left = {}

    def nothing_left():
        left.update(new_ids(base))
        return not any(left.values())
    wait_until(nothing_left, timeout)
    return left


def wait_until(pred, timeout, step=0.05):
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        time.sleep(step)
    return pred()


def healthz_on(connect):
    """Whether /healthz answers on the socket connect() returns."""
    try:
        s = connect()
        s.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
        ok = s.recv(64).startswith(b"HTTP/1.")
        s.close()
        return ok
    except OSError:
        return False


def healthz_unix(path):
    def connect():
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(1)
        s.connect(path)
        return s
    return healthz_on(connect)


def start(kind, tag):
    """Start one instance; returns (process, ready predicate, output path)."""
    out = os.path.join(WORK, f"{kind}-{tag}.out")
    if os.path.exists(out):
        os.unlink(out)
    err = open(os.path.join(WORK, f"{kind}-{tag}.err"), "w")
    if kind == "daemon":
        sock = os.path.join(WORK, f"d-{tag}.sock")
        p = subprocess.Popen([BIN, "daemon", "-i", "0.5", "--listen", f"unix:{sock}"],
                             stdout=subprocess.DEVNULL, stderr=err)
        return p, lambda: healthz_unix(sock), out
    if kind == "record":
        p = subprocess.Popen([BIN, "record", "-q", "-e", "-i", "0.5", "-o", out],
                             stdout=subprocess.DEVNULL, stderr=err)
        return p, lambda: os.path.exists(out) and os.path.getsize(out) > 0, out
    with open(out, "w") as f:
        p = subprocess.Popen([BIN, "top", "-b", "-i", "0.5"], stdout=f, stderr=err)
    return p, lambda: os.path.getsize(out) > 0, out


CLEAN = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
CRASH = (signal.SIGSEGV, signal.SIGABRT, signal.SIGKILL)


def lifecycle(base):
    for kind in ("record", "daemon", "top"):
        for sig in CLEAN + CRASH:
            tag = sig.name
            name = f"{kind} {tag}"
            p, ready, out = start(kind, tag)
            if not check(wait_until(lambda: ready() or p.poll() is not None, 20)
                         and p.poll() is None, f"{name}: started"):
                p.kill()
                p.wait()
                continue
            during = new_ids(base)
            check(during["prog"] and during["link"] and during["map"],
                  f"{name}: its programs, links and maps are loaded "
                  f"({len(during['prog'])}, {len(during['link'])}, {len(during['map'])})")
            c = caps(p.pid)
            check(c["CapEff"] == 0 and c["CapPrm"] == 0 and c["CapBnd"] == 0,
                  f"{name}: holds no capability once attached "
                  f"(eff {c['CapEff']:x} prm {c['CapPrm']:x} bnd {c['CapBnd']:x})")
            p.send_signal(sig)
            try:
                rc = p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
                check(False, f"{name}: ended within 20 s")
            if sig in CLEAN:
                check(rc == 0, f"{name}: clean exit 0 (got {rc})")
                if kind == "record":
                    with open(out) as f:
                        last = (f.read().splitlines() or ["{}"])[-1]
                    check(json.loads(last).get("type") == "summary",
                          f"{name}: the recording ends with its summary")
            else:
                check(rc == -sig, f"{name}: died by {tag} (got {rc})")
            left = leftovers(base)
            check(not any(left.values()), f"{name}: nothing left behind "
                  f"(progs {sorted(left.get('prog', []))[:5]}, "
                  f"links {sorted(left.get('link', []))[:5]}, "
                  f"maps {sorted(left.get('map', []))[:5]})")


def second_daemon():
    first = subprocess.Popen([BIN, "daemon", "--listen", f"127.0.0.1:{PORT}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def up():
            try:
                socket.create_connection(("127.0.0.1", PORT), 1).close()
                return True
            except OSError:
                return False
        check(wait_until(up, 20), "first daemon listens")
        r = subprocess.run([BIN, "daemon", "--listen", f"127.0.0.1:{PORT}"],
                           capture_output=True, text=True, timeout=30)
        check(r.returncode == 1 and "Address already in use" in r.stderr,
              f"a second daemon on the same port says why it will not start "
              f"(exit {r.returncode}: {r.stderr.strip()[:120]})")
        check(first.poll() is None and up(), "... and the first one keeps serving")
    finally:
        first.terminate()
        first.wait()


def refused(what, prefix, args, expect):
    r = subprocess.run(prefix + [BIN] + args, capture_output=True, text=True,
                       timeout=60)
    first = r.stderr.strip().splitlines()[:2]
    check(r.returncode == 1 and all(e in r.stderr for e in expect),
          f"{what}: {' '.join(args[:1])} exits 1 with a clear message "
          f"(exit {r.returncode}: {' / '.join(first)[:160]})")
    check("Traceback" not in r.stderr and "AddressSanitizer" not in r.stderr
          and r.returncode >= 0, f"{what}: {' '.join(args[:1])} did not crash")


def privileges():
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
              "--inh-caps=-all"]
    nocaps = ["setpriv", "--inh-caps=-bpf,-perfmon,-sys_admin",
              "--bounding-set=-bpf,-perfmon,-sys_admin"]
    hint = ["not permitted to load BPF programs", "hint: run as root"]
    for args in (["probe"], ["record", "-d", "1", "-o", "/dev/null"],
                 ["daemon", "--listen", f"127.0.0.1:{PORT}"], ["top", "-b", "-n", "1"]):
        refused("not root", nobody, args, hint)
        refused("no CAP_BPF/CAP_PERFMON", nocaps, args, hint)
    # no kernel BTF: /sys/kernel/btf/vmlinux hidden in a mount namespace
    nobtf = ["unshare", "-m", "sh", "-c",
             'mount --bind /dev/null /sys/kernel/btf/vmlinux && exec "$@"', "sh"]
    for args in (["probe"], ["record", "-d", "1", "-o", "/dev/null"]):
        refused("no BTF", nobtf, args,
                ["cannot load the kernel's BTF", "CONFIG_DEBUG_INFO_BTF"])
    r = subprocess.run(nobtf + [BIN, "probe", "--json"], capture_output=True,
                       text=True)
    try:
        p = json.loads(r.stdout)
        check(p.get("btf") is False and p.get("mode") == "none" and
              all(v["state"] == "missing" for v in p["hooks"].values()),
              "no BTF: probe --json says btf false, mode none, every hook missing")
    except (ValueError, KeyError) as e:
        check(False, f"no BTF: probe --json parses ({e})")
    # a PID namespace of its own: /proc does not show the host's tasks,
    # which the stalls per task and the spare states are judged by
    r = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", BIN,
                        "record", "-d", "1", "-q", "-o", "/dev/null"],
                       capture_output=True, text=True)
    check(r.returncode == 0 and "PID namespace of its own" in r.stderr,
          f"own PID namespace: record warns and runs (exit {r.returncode}; "
          f"{r.stderr.strip()[:160]})")
    r = subprocess.run([BIN, "record", "-d", "1", "-q", "-o", "/dev/null"],
                       capture_output=True, text=True)
    check(r.returncode == 0 and "PID namespace" not in r.stderr,
          "host's PID namespace: no such warning")
    # no tracefs, no debugfs: tp_btf and fentry need neither
    base = subprocess.run([BIN, "probe", "--json"], capture_output=True, text=True)
    bare = subprocess.run(
        ["unshare", "-m", "sh", "-c",
         "for m in /sys/kernel/tracing /sys/kernel/debug/tracing /sys/kernel/debug; "
         "do umount -l $m 2>/dev/null; done; "
         "! grep -qE ' (tracefs|debugfs) ' /proc/self/mounts && exec \"$@\"", "sh",
         BIN, "probe", "--json"], capture_output=True, text=True)
    try:
        check(bare.returncode == base.returncode and
              json.loads(bare.stdout)["hooks"] == json.loads(base.stdout)["hooks"],
              "no tracefs/debugfs mounted: the same hooks attach")
    except (ValueError, KeyError) as e:
        check(False, f"no tracefs: probe --json parses ({e}; {bare.stderr[:100]})")


GARBAGE = ["", "-1", "0", "abc", "1x", "0x10", "1e999", "nan", "inf", "1.5.5",
           "99999999999999999999999", "\x01\x7f", "é", "a" * 5000, "%s%n%s"]
# Options taking a number: each garbage value is refused as a usage error
# (exit 2) naming the value, before anything is loaded.  Values a
# command can take (e.g. 0 for --expire) are left out per option.
NUMERIC = {
    "record": {"-i": (), "-d": (), "--ring-size": (), "--copies": (),
               "--budget-ms": ()},
    "top": {"-i": (), "-n": (), "--budget-ms": ()},
    "daemon": {"-i": (), "--expire": ("0",), "--max-connections": (),
               "--budget-ms": ()},
    "report": {"--budget-ms": ()},
}
# Free-form options: garbage may be taken or refused, never a crash or hang.
FREE = {
    "record": ["-c", "-o"], "top": ["-f", "-s"], "daemon": ["--listen"],
    "report": ["--html"],
}
# What a command needs besides the option to end by itself.
BASE = {
    "record": ["-d", "0.3", "-q", "-o", "/dev/null"],
    "top": ["-b", "-n", "1", "-i", "0.2"],
    "daemon": ["--listen", "unix:/nonexistent/dir/sock"],
    "report": [],
}


def bad_options():
    rec = os.path.join(WORK, "record-SIGINT.out")
    for cmd, opts in NUMERIC.items():
        for opt, allowed in opts.items():
            fails = []
            for value in GARBAGE:
                if value in allowed:
                    continue
                args = [BIN, cmd] + BASE[cmd] + [opt, value] + \
                    ([rec] if cmd == "report" else [])
                r = subprocess.run(args, capture_output=True, timeout=60)
                err = r.stderr.decode(errors="replace")
                if r.returncode != 2 or "Try `reclaimscope" not in err or \
                        "invalid" not in err:
                    fails.append(f"{value[:12]!r}: exit {r.returncode} {err[:80]!r}")
            check(not fails, f"{cmd} {opt}: every garbage value refused as a "
                  f"usage error naming it ({'; '.join(fails[:3])})")
    for cmd, opts in FREE.items():
        for opt in opts:
            fails = []
            for value in GARBAGE:
                base = [a for a in BASE[cmd]]
                if opt in base:  # the garbage replaces the base value
                    i = base.index(opt)
                    del base[i:i + 2]
                args = [BIN, cmd] + base + [opt, value] + \
                    ([rec] if cmd == "report" else [])
                try:
                    r = subprocess.run(args, capture_output=True, timeout=60,
                                       cwd=WORK)
                except subprocess.TimeoutExpired:
                    fails.append(f"{value[:12]!r}: hung")
                    continue
                err = r.stderr.decode(errors="replace")
                if r.returncode < 0 or r.returncode > 2 or \
                        (r.returncode and "reclaimscope" not in err) or \
                        "Sanitizer" in err or "runtime error" in err:
                    fails.append(f"{value[:12]!r}: exit {r.returncode} {err[:80]!r}")
            check(not fails, f"{cmd} {opt}: garbage taken or refused with a "
                  f"message, never a crash ({'; '.join(fails[:3])})")
    r = subprocess.run([BIN, "no-such-command"], capture_output=True, text=True)
    check(r.returncode == 2 and "no-such-command" in r.stderr,
          f"an unknown command is named in the error (exit {r.returncode})")


def early_signal(base):
    """SIGINT before the probes are in, from a shell that starts its
    background jobs with SIGINT ignored: record still stops, exit 0, with a
    whole recording, and leaves nothing behind.

    The signal goes as soon as record has taken SIGINT over (SigCgt in
    /proc), which it does first of all: one sent earlier, while the
    process still execs with SIGINT ignored, is dropped by the kernel
    before any code of ours runs, and no program could see it (a fixed
    sleep raced with a slow exec under the sanitizers)."""
    out = os.path.join(WORK, "early.ndjson")
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.Popen(["sh", "-c", f'"{BIN}" record -q -o "{out}" & '
                          'echo $!; wait $!'], stdout=subprocess.PIPE,
                         text=True)
    pid = int(p.stdout.readline())

    def catches_sigint():
        try:
            # the shell's forked child until it has exec'd us
            if os.readlink(f"/proc/{pid}/exe") != os.path.realpath(BIN):
                return False
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("SigCgt:"):
                        return int(line.split()[1], 16) & (1 << (signal.SIGINT - 1))
        except OSError:
            return True  # gone: wait() below tells how it ended
        return False
    caught = wait_until(catches_sigint, 60, step=0.001)
    try:
        os.kill(pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    try:
        rc = p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        rc = "hung"
        for victim in (pid, p.pid):  # never leave its probes to the next test
            try:
                os.kill(victim, signal.SIGKILL)
            except ProcessLookupError:
                pass
        p.wait()
    kinds = []
    if os.path.exists(out):
        with open(out) as f:
            kinds = [json.loads(line)["type"] for line in f if line.strip()]
    check(caught and rc == 0 and kinds[:1] == ["header"] and
          kinds[-1:] == ["summary"],
          f"record signalled while starting: exit {rc}, a whole recording "
          f"({kinds[:3]}...{kinds[-1:]}, {len(kinds)} records)")
    left = leftovers(base)
    check(not any(left.values()),
          f"... and nothing of it left loaded ({ {k: sorted(v)[:3] for k, v in left.items() if v} })")


def blocked_writer():
    """SIGTERM while record is blocked writing to a full pipe: the write
    goes on once the reader reads (within the 2 s record gives a stalled
    reader after the stop, stalled_output), and the summary is written
    (exit 0)."""
    r_fd, w_fd = os.pipe()
    fcntl.fcntl(w_fd, 1031, 4096)  # F_SETPIPE_SZ: one page fills soon
    p = subprocess.Popen([BIN, "record", "-q", "--events", "-i", "0.1"],
                         stdout=w_fd, stderr=subprocess.PIPE)
    os.close(w_fd)

    def blocked():
        try:
            with open(f"/proc/{p.pid}/wchan") as f:
                return f.read().endswith("pipe_write")
        except OSError:
            return False
    # snapshots every 100 ms fill the page in a second or two
    full = wait_until(blocked, 60)
    time.sleep(0.3)
    p.send_signal(signal.SIGTERM)
    time.sleep(0.5)
    chunks = []
    with os.fdopen(r_fd, "rb") as r:
        while True:
            b = r.read(65536)
            if not b:
                break
            chunks.append(b)
    try:
        rc = p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "hung"
    lines = b"".join(chunks).decode(errors="replace").splitlines()
    last = json.loads(lines[-1]).get("type") if lines else None
    check(full, "record's writes blocked on the full pipe")
    check(rc == 0 and last == "summary",
          f"SIGTERM while blocked on a pipe: exit {rc}, last line {last} "
          f"({p.stderr.read().decode()[:120]})")


def ends_within(p, seconds):
    """p's exit status, or "hung" (then killed) if it runs past seconds."""
    try:
        return p.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return "hung"


def blocked_writing_pipe(pid):
    """Whether pid waits in a write to a full pipe (the kernel function's
    name varies: pipe_write, anon_pipe_write)."""
    try:
        with open(f"/proc/{pid}/wchan") as f:
            return f.read().endswith("pipe_write")
    except OSError:
        return False


def stalled_output(base):
    """Output nobody takes does not hold record forever: a FIFO no reader
    opens, and a pipe whose reader is stopped (SIGSTOP), give way to
    SIGTERM and to -d, within a bound; record exits 1 and says what the
    recording lacks, and leaves nothing loaded."""
    fifo = os.path.join(WORK, "stalled.fifo")
    grace = 15  # record waits 2 s for a stalled reader once told to stop
    for how in ("SIGTERM", "-d"):
        if os.path.exists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo)
        p = subprocess.Popen([BIN, "record", "-q", "-o", fifo] +
                             (["-d", "2"] if how == "-d" else []),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # attached, its capabilities dropped: the output is opened next
        check(wait_until(lambda: p.poll() is not None or
                         caps(p.pid)["CapEff"] == 0, 60),
              f"FIFO without a reader ({how}): record attached")
        if how == "SIGTERM":
            time.sleep(0.5)
            p.send_signal(signal.SIGTERM)
        rc = ends_within(p, grace)
        err = p.stderr.read().decode()
        check(rc == 1 and "no reader" in err,
              f"FIFO without a reader, {how}: record ends, exit {rc} "
              f"({err.strip()[:120]})")
        left = leftovers(base)
        check(not any(left.values()),
              f"FIFO without a reader, {how}: nothing left loaded")
    for how in ("SIGTERM", "-d"):
        # stdout a pipe whose reader is stopped: writes block once it is full
        r_fd, w_fd = os.pipe()
        fcntl.fcntl(w_fd, 1031, 4096)  # F_SETPIPE_SZ: one page fills soon
        reader = subprocess.Popen(["cat"], stdin=r_fd, stdout=subprocess.DEVNULL)
        reader.send_signal(signal.SIGSTOP)
        p = subprocess.Popen([BIN, "record", "-q", "-e", "-i", "0.1"] +
                             (["-d", "5"] if how == "-d" else []),
                             stdout=w_fd, stderr=subprocess.PIPE)
        os.close(r_fd)
        os.close(w_fd)
        full = wait_until(lambda: blocked_writing_pipe(p.pid), 60)
        if how == "SIGTERM":
            p.send_signal(signal.SIGTERM)
        rc = ends_within(p, grace + (5 if how == "-d" else 0))
        reader.send_signal(signal.SIGCONT)
        reader.kill()
        reader.wait()
        err = p.stderr.read().decode()
        check(full and rc == 1 and "summary" in err,
              f"reader stopped, {how}: record's writes blocked, then it "
              f"ends, exit {rc}, and says what is lost ({err.strip()[:120]})")
        left = leftovers(base)
        check(not any(left.values()),
              f"reader stopped, {how}: nothing left loaded")
    os.unlink(fifo)


def tmux_screen(session):
    r = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                       capture_output=True, text=True)
    return r.stdout


def tty_restored(screen):
    """Whether `stty -a` (run after top) shows line editing and echo on."""
    flags = screen.replace(";", " ").split()
    return "icanon" in flags and "echo" in flags and \
        "-icanon" not in flags and "-echo" not in flags


def top_prompt():
    """top's / prompt, in an 80x24 terminal (tmux): Backspace edits, Enter
    takes the filter, Esc leaves it as it was; Ctrl-C and SIGTERM while
    the prompt is open end top (exit 0) with the terminal restored."""
    for how in ("keys", "C-c", "SIGTERM"):
        session = f"rs-prompt-{os.getpid()}-{how}"
        err = os.path.join(WORK, f"top-prompt-{how}.err")
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "80",
                        "-y", "24", f'"{BIN}" top -i 0.5 --all 2>"{err}"; '
                        'echo top-exited-$?; stty -a; sleep 60'], check=True)
        shell = subprocess.run(["tmux", "display", "-p", "-t", session,
                                "#{pane_pid}"], capture_output=True,
                               text=True).stdout.strip()
        top_pid = None

        def screen_has(text, timeout=10):
            return wait_until(lambda: text in tmux_screen(session), timeout)

        def keys(*k):
            subprocess.run(["tmux", "send-keys", "-t", session] + list(k),
                           check=True)
        try:
            if not check(screen_has("h help", 60), f"top prompt ({how}): top is up"):
                continue
            with open(f"/proc/{shell}/task/{shell}/children") as f:
                top_pid = int(f.read().split()[0])
            keys("/")
            if not check(screen_has("filter (path contains):"),
                         f"top prompt ({how}): / opens the prompt"):
                continue
            if how == "keys":
                keys("x", "Enter")
                took = screen_has("filter x")
                keys("/")
                screen_has("filter (path contains):")
                keys("zzz", "Escape")
                time.sleep(1)
                screen = tmux_screen(session)
                bar = (screen.rstrip("\n").splitlines() or [""])[-1]
                check(took and "filter x" in bar and "zzz" not in screen and
                      "^[" not in screen and "path contains" not in bar,
                      f"top prompt: Esc cancels, the filter kept (bar: {bar.strip()!r})")
                keys("/")
                screen_has("filter (path contains):")
                keys("ab", "BSpace", "c", "Enter")
                check(screen_has("filter ac"),
                      "top prompt: Backspace edits, Enter takes the filter")
                keys("T")
                check(screen_has("TASK (tid)"), "top: T shows who stalled")
                keys("T")
                check(screen_has("MEMCG "), "top: T again, the memcgs")
                keys("q")
            elif how == "C-c":
                keys("abc", "C-c")
            else:
                keys("abc")
                time.sleep(0.3)
                os.kill(top_pid, signal.SIGTERM)
            ended = screen_has("top-exited-0")
            # stty runs after the exit line: wait for its flags (either
            # way), or a busy machine reads the screen before they are out
            screen_has("icanon")
            screen = tmux_screen(session)
            check(ended and tty_restored(screen),
                  f"top prompt ({how}): top ends, exit 0, the terminal "
                  f"restored ({'ended' if ended else 'still running'})")
        finally:
            if top_pid:
                try:
                    os.kill(top_pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            subprocess.run(["tmux", "kill-session", "-t", session],
                           capture_output=True)


def output_errors():
    """Output that cannot be written fails the command; a failed start or
    a full disk keeps the file that was there."""
    rec = os.path.join(WORK, "kept.ndjson")
    with open(rec, "w") as f:
        f.write('{"old":"recording"}\n')
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
              "--inh-caps=-all"]
    os.chmod(WORK, 0o777)
    os.chmod(rec, 0o666)
    r = subprocess.run(nobody + [BIN, "record", "-d", "1", "-o", rec],
                       capture_output=True, text=True, timeout=60)
    with open(rec) as f:
        kept = f.read()
    check(r.returncode == 1 and kept == '{"old":"recording"}\n',
          f"record whose start fails keeps the previous recording "
          f"(exit {r.returncode}, {len(kept)} bytes)")
    sample = os.path.join(WORK, "sample.ndjson")
    subprocess.run([BIN, "record", "-q", "-d", "0.5", "-o", sample],
                   check=True, timeout=60)
    for args in (["probe"], ["report", sample], ["diff", sample, sample],
                 ["top", "-b", "-n", "1", "-i", "0.2"], ["--help"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([BIN] + args, stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=60)
        if args == ["--help"]:
            continue  # argp's own exit; listed below instead
        check(r.returncode == 1 and "No space left" in r.stderr,
              f"{args[0]} with stdout on /dev/full: exit 1 and the error "
              f"(exit {r.returncode}: {r.stderr.strip()[:80]})")
    # --html onto a full file system: no truncated page, the old one kept
    mnt = os.path.join(WORK, "tiny")
    os.makedirs(mnt, exist_ok=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", mnt]).returncode == 0:
        try:
            page = os.path.join(mnt, "r.html")
            # an earlier page (report refuses to replace anything else)
            old = "<!DOCTYPE html>\n<p>an earlier page</p>\n"
            with open(page, "w") as f:
                f.write(old)
            r = subprocess.run([BIN, "report", sample, "--html", page],
                               capture_output=True, text=True, timeout=60)
            with open(page) as f:
                kept = f.read()
            check(r.returncode == 1 and kept == old and
                  os.listdir(mnt) == ["r.html"],
                  f"report --html on a full file system: exit 1, the old page "
                  f"kept, no temporary left ({r.returncode}, {os.listdir(mnt)})")
        finally:
            subprocess.run(["umount", "-l", mnt])
    r = run_briefly([BIN, "report", "/dev/zero"], timeout=20)
    check(r.returncode == 1 and "not a file" in r.stderr,
          f"report /dev/zero: refused at once ({r.returncode}: "
          f"{r.stderr.strip()[:80]})")
    # unprivileged probe: says it tried nothing, claims nothing
    r = run_briefly(nobody + [BIN, "probe"])
    check(r.returncode == 1 and "no function to trace" not in r.stdout and
          "copies" not in r.stdout and "not tried: not permitted" in r.stdout,
          "probe without privileges claims no preemption or function finding")
    # top on a terminal that cannot place the cursor: said, not blank
    import pty
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "dumb"
        os.execv(BIN, [BIN, "top"])
    out = b""
    try:
        while True:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            out += chunk
    except OSError:
        pass
    _, status = os.waitpid(pid, 0)
    check(os.waitstatus_to_exitcode(status) == 2 and
          b"cannot place the cursor" in out and b"--batch" in out,
          f"TERM=dumb top: says it cannot draw and points to --batch "
          f"({out[:80]!r})")
    h = subprocess.run([BIN, "--help"], capture_output=True, text=True)
    names = ("probe", "record", "top", "daemon", "report", "diff")
    check(all(f"\n  {n} " in h.stdout for n in names),
          "--help lists all six commands")


def outcome_lines():
    """record --outcome copies only lines the reader takes: each of these
    made the whole recording unreadable when copied (issue 34, item 13),
    while the good line stays."""
    src = os.path.join(WORK, "outcomes.ndjson")
    rec = os.path.join(WORK, "outcomes-rec.ndjson")
    bad = ['{"type":"outcome","workload":"w","oom_killed":1}',
           '{"type":"outcome","workload":"w","worker":-1}',
           '{"type":"outcome","workload":"w","ops":"12"}',
           '{"type":"outcome","workload":""}',
           '{"type":"outcome","workload":"w","lat_hist":[[1000,5]]}',
           '{"type":"outcome","workload":"w","ops_per_s":-4}',
           'not json at all']
    good = '{"type":"outcome","workload":"good","ops":12,"oom_killed":false}'
    with open(src, "w") as f:
        f.write("\n".join(bad + [good]) + "\n")
    p = run_briefly([BIN, "record", "-d", "1", "-q", "--outcome", src, "-o", rec])
    check(p.returncode == 0, f"record --outcome with bad lines exits 0 ({p.stderr[-200:]})")
    left = [l for l in p.stderr.splitlines() if "left out of the recording" in l]
    check(len(left) == len(bad) + 1,
          f"each bad line named, then their count ({len(left)} lines: {left[:2]})")
    r = run_briefly([BIN, "report", rec])
    check(r.returncode == 0 and "good:" in r.stdout,
          f"the recording stays readable, with the good line ({r.stderr.strip()[:200]})")
    with open(rec) as f:
        kept = [l for l in f if '"type":"outcome"' in l.replace(" ", "")]
    check(len(kept) == 1, f"only the good line copied ({len(kept)})")


def run_briefly(args, timeout=30):
    """A command that must end by itself; one that does not is killed and
    counted as exit "hung"."""
    try:
        return subprocess.run(args, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(args, "hung", e.stdout or "",
                                           (e.stderr or b"").decode()
                                           if isinstance(e.stderr, bytes)
                                           else e.stderr or "")


def unix_socket():
    """daemon --listen unix:PATH touches no file it did not make, shares no
    socket with another daemon, and removes only its own."""
    d = os.path.join(WORK, "unix")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o777)
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
              "--inh-caps=-all"]
    plain = os.path.join(d, "plain")
    with open(plain, "w") as f:
        f.write("keep me")
    os.chmod(plain, 0o666)
    for who, prefix in (("root", []), ("nobody", nobody)):
        r = run_briefly(prefix + [BIN, "daemon", "--listen", f"unix:{plain}"])
        try:
            with open(plain) as f:
                kept = f.read()
        except OSError as e:  # it became a socket
            kept = str(e)
        check(r.returncode == 1 and kept == "keep me" and "not a socket" in r.stderr,
              f"unix: a regular file at the path is left alone ({who}: exit "
              f"{r.returncode}, {r.stderr.strip()[:90]})")
    r = run_briefly([BIN, "daemon", "--listen", f"unix:{d}"])
    check(r.returncode == 1 and "directory" in r.stderr and "port" not in r.stderr,
          f"unix: a directory is named as such, no port hint ({r.stderr.strip()[:90]})")
    # a stale socket (its daemon was killed): taken over
    sock = os.path.join(d, "rs.sock")
    s = socket.socket(socket.AF_UNIX)
    s.bind(sock)
    s.close()
    first = subprocess.Popen([BIN, "daemon", "--listen", f"unix:{sock}"],
                             stderr=subprocess.PIPE, text=True)
    up = wait_until(lambda: healthz_unix(sock), 60)
    check(up, "unix: a stale socket is replaced and served")
    second = run_briefly([BIN, "daemon", "--listen", f"unix:{sock}"])
    check(second.returncode == 1 and "another process serves" in second.stderr,
          f"unix: a second daemon on a served socket is refused "
          f"({second.stderr.strip()[:90]})")
    check(os.path.exists(sock) and healthz_unix(sock),
          "unix: ... and the first one still serves on it")
    first.send_signal(signal.SIGTERM)
    first.wait(timeout=60)
    check(not os.path.exists(sock), "unix: the daemon removes its socket at exit")
    # a socket another process made in its place is not removed
    first = subprocess.Popen([BIN, "daemon", "--listen", f"unix:{sock}"],
                             stderr=subprocess.PIPE, text=True)
    wait_until(lambda: healthz_unix(sock), 60)
    os.unlink(sock)
    other = socket.socket(socket.AF_UNIX)
    other.bind(sock)
    first.send_signal(signal.SIGTERM)
    first.wait(timeout=60)
    check(os.path.exists(sock), "unix: a socket made by another process in "
          "its place is left at exit")
    other.close()
    if os.path.exists(sock):
        os.unlink(sock)


def healthz_tcp(port, source="127.0.0.1", timeout=2):
    return healthz_on(lambda: socket.create_connection(
        ("127.0.0.1", port), timeout=timeout, source_address=(source, 0)))


def slow_clients():
    """Slowloris: 100 connections from one address, each sending a header
    line every 4 s, neither hold every slot (a newcomer takes the slot of
    the one waiting longest for its request) nor keep one past the request
    deadline (10 s from the first byte)."""
    port = PORT + 1
    d = subprocess.Popen([BIN, "daemon", "--listen", f"127.0.0.1:{port}"],
                         stderr=subprocess.PIPE, text=True)
    try:
        if not check(wait_until(lambda: healthz_tcp(port), 60),
                     "slowloris: the daemon serves"):
            return
        attackers, opened = [], time.time()
        for _ in range(100):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=2,
                                             source_address=("127.0.0.2", 0))
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
                attackers.append(s)
            except OSError:
                pass
        served, cut = 0, 0
        for tick in range(5):  # 20 s of attack, a line every 4 s
            served += healthz_tcp(port)
            time.sleep(4)
            for s in attackers:
                try:
                    s.sendall(b"X-Slow: %d\r\n" % tick)
                except OSError:
                    pass
        for s in attackers:
            try:
                s.setblocking(False)
                cut += s.recv(1) == b""  # closed by the server
            except BlockingIOError:
                pass
            except OSError:
                cut += 1
            s.close()
        check(served == 5, f"slowloris: /healthz answered throughout the "
              f"attack ({served} of 5)")
        check(cut == len(attackers) and len(attackers) > 0,
              f"slowloris: every slow request cut off by its deadline "
              f"({cut} of {len(attackers)} after {time.time() - opened:.0f} s)")
    finally:
        d.send_signal(signal.SIGTERM)
        d.wait(timeout=60)


def read_response(s, head=False):
    """(status, {lower-case header: value}, body) of one HTTP response
    read from s; status None if the server closed first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return None, {}, data
        data += chunk
    top, body = data.split(b"\r\n\r\n", 1)
    lines = top.decode("latin-1").split("\r\n")
    headers = dict((k.strip().lower(), v.strip()) for k, v in
                   (l.split(":", 1) for l in lines[1:] if ":" in l))
    length = 0 if head else int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def scrape(port, timeout=5):
    """(answered 200, seconds) for one /metrics on a new connection."""
    start = time.time()
    try:
        with socket.create_connection(("127.0.0.1", port),
                                      timeout=timeout) as s:
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
                      b"Connection: close\r\n\r\n")
            status, _, body = read_response(s)
            ok = status == 200 and b"reclaimscope_" in body
    except OSError:
        ok = False
    return ok, time.time() - start


def idle_lockout():
    """A local user holding twice --max-connections connections that send
    nothing (half of them after one request, kept alive), from the
    scraper's own address and another, re-opening each the moment it is
    closed: /metrics from 127.0.0.1 is still answered, every time, within
    2 s."""
    port = PORT + 3
    d = subprocess.Popen([BIN, "daemon", "--listen", f"127.0.0.1:{port}",
                          "--max-connections", "64"],
                         stderr=subprocess.PIPE, text=True)
    flood = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "idle_flood.py")
    try:
        if not check(wait_until(lambda: scrape(port)[0], 60),
                     "idle lockout: the daemon serves"):
            return
        # without any pressure, a connection that sends nothing is cut
        # after the 2 s for a request line, not the 10 s for headers
        with socket.create_connection(("127.0.0.1", port), timeout=15) as s:
            opened = time.time()
            try:
                s.recv(1)
            except OSError:
                pass
            silent = time.time() - opened
        check(1.5 <= silent <= 4, f"idle lockout: a connection that sends "
              f"nothing is closed after 2 s, not 10 (the guard looks every "
              f"second: {silent:.1f} s)")
        seconds = 16
        attackers = [subprocess.Popen(
            [sys.executable, flood, "127.0.0.1", str(port), "64",
             str(seconds), "--source", "127.0.0.1", "--source", "127.0.0.2"]
            + extra, stdout=subprocess.PIPE, text=True)
            for extra in ([], ["--kept"])]
        time.sleep(3)  # the flood holds every slot by now
        results = []
        while any(a.poll() is None for a in attackers) and len(results) < 20:
            results.append(scrape(port))
            time.sleep(0.5)
        stats = [json.loads(a.communicate(timeout=30)[0] or "{}")
                 for a in attackers]
        answered = sum(ok for ok, _ in results)
        worst = max((t for _, t in results), default=0)
        times = sorted(t for _, t in results)
        median = times[len(times) // 2] if times else 0
        print(f"  info  idle lockout: flood {stats}; scrapes answered "
              f"{answered} of {len(results)}, median {median * 1000:.1f} ms, "
              f"worst {worst * 1000:.1f} ms")
        held = sum(s.get("held_avg", 0) for s in stats)
        check(held >= 64, f"idle lockout: the flood held at least "
              f"--max-connections connections ({held:.0f} on average)")
        check(len(results) >= 15 and answered == len(results),
              f"idle lockout: every scrape during the flood answered "
              f"({answered} of {len(results)})")
        check(worst < 2, f"idle lockout: each within 2 s (worst "
              f"{worst:.2f} s)")
    finally:
        d.send_signal(signal.SIGTERM)
        d.wait(timeout=60)


def keep_alive():
    """HTTP/1.1 keep-alive: several requests answered on one connection,
    no "Connection: close" unless the client asks; an idle kept-alive
    connection is still closed by the server after the request deadline
    (10 s)."""
    port = PORT + 4
    d = subprocess.Popen([BIN, "daemon", "--listen", f"127.0.0.1:{port}"],
                         stderr=subprocess.PIPE, text=True)
    try:
        if not check(wait_until(lambda: scrape(port)[0], 60),
                     "keep-alive: the daemon serves"):
            return
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        answers = []
        for method, path in (("GET", "/healthz"), ("GET", "/metrics"),
                             ("HEAD", "/metrics"), ("GET", "/nope"),
                             ("GET", "/api/v1/snapshot")):
            try:
                s.sendall(f"{method} {path} HTTP/1.1\r\nHost: x\r\n\r\n"
                          .encode())
                status, headers, _ = read_response(s, method == "HEAD")
            except OSError as e:
                status, headers = str(e), {}
            answers.append((method, path, status,
                            headers.get("connection", "")))
        check([a[2] for a in answers] == [200, 200, 200, 404, 200],
              f"keep-alive: five requests on one connection all answered "
              f"({[a[2] for a in answers]})")
        check(not any("close" in a[3].lower() for a in answers),
              f"keep-alive: no response says Connection: close "
              f"({[a[3] for a in answers]})")
        # the guards hold for a kept-alive connection's next request: one
        # dribbling its headers, a line every 2 s, is cut as an idle one
        slow = socket.create_connection(("127.0.0.1", port), timeout=30)
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        slow_first = read_response(slow)[0]
        slow_from = time.time()
        slow.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        slow_cut = None
        idle_from = time.time()
        s.setblocking(False)
        slow.setblocking(False)

        def closed(sock):
            try:
                return sock.recv(1) == b""
            except BlockingIOError:
                return False
            except OSError:
                return True
        gone, idle, last_line = False, None, time.time()
        while time.time() - idle_from < 20 and not (gone and slow_cut):
            time.sleep(0.1)
            if slow_cut is None and closed(slow):
                slow_cut = time.time() - slow_from
            elif slow_cut is None and time.time() - last_line >= 2:
                last_line = time.time()
                try:
                    slow.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    pass
            if not gone and closed(s):
                gone, idle = True, time.time() - idle_from
        s.close()
        slow.close()
        check(slow_first == 200 and slow_cut is not None and slow_cut <= 12,
              f"keep-alive: a next request dribbled a header line every 2 s "
              f"is cut off by the 10 s deadline (after "
              f"{slow_cut or 0:.1f} s)")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as big:
            big.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            first = read_response(big)[0]
            big.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " +
                        b"a" * 40000 + b"\r\n\r\n")
            try:
                second = read_response(big)[0]
            except OSError as e:
                second = str(e)
        check(first == 200 and second in (413, 431),
              f"keep-alive: an oversized next request is refused "
              f"({first}, {second})")
        check(gone and 8 <= idle <= 12,
              f"keep-alive: an idle kept-alive connection is closed after "
              f"the 10 s deadline ({'closed' if gone else 'open'} after "
              f"{idle or 20:.1f} s)")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
                      b"Connection: close\r\n\r\n")
            status, headers, _ = read_response(s)
            try:
                closed = s.recv(1) == b""
            except OSError:
                closed = True
        check(status == 200 and headers.get("connection", "").lower() ==
              "close" and closed,
              "keep-alive: a client asking Connection: close is answered "
              "so, and the connection closed")
    finally:
        d.send_signal(signal.SIGTERM)
        d.wait(timeout=60)


def few_descriptors():
    """With few file descriptors and --max-connections far above them, the
    daemon says it serves fewer, serves them, and does not spin or flood
    its log when more clients come."""
    port = PORT + 2
    d = subprocess.Popen(["prlimit", "--nofile=400", BIN, "daemon",
                          "--listen", f"127.0.0.1:{port}",
                          "--max-connections", "1000"],
                         stderr=subprocess.PIPE, text=True)
    try:
        up = wait_until(lambda: healthz_tcp(port), 60)
        check(up, "few descriptors: the daemon serves")
        socks = []
        for i in range(500):
            try:
                socks.append(socket.create_connection(
                    ("127.0.0.1", port), timeout=1,
                    source_address=(f"127.0.1.{i % 250 + 1}", 0)))
            except OSError:
                pass
        time.sleep(3)
        with open(f"/proc/{d.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        for s in socks:
            s.close()
        check(wait_until(lambda: healthz_tcp(port), 15),
              "few descriptors: serves again once the clients leave")
    finally:
        d.send_signal(signal.SIGTERM)
        try:
            _, err = d.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            d.kill()
            _, err = d.communicate()
    ticks = int(fields[11]) + int(fields[12])  # utime + stime
    check("serving at most" in err,
          f"few descriptors: says how many it serves ({err.strip()[:120]})")
    lines = err.count("\n")
    check(lines < 50, f"few descriptors: its log stays short ({lines} lines)")
    check(ticks < 5 * os.sysconf("SC_CLK_TCK"),
          f"few descriptors: it did not spin ({ticks} ticks of CPU)")


def memcg_root():
    """(cgroup version, this process's memcg directory)."""
    try:
        with open("/sys/fs/cgroup/cgroup.controllers") as f:
            if "memory" in f.read().split():
                with open("/proc/self/cgroup") as g:
                    own = [l.split(":", 2)[2].strip() for l in g if l.startswith("0::")][0]
                return 2, "/sys/fs/cgroup" + own.rstrip("/")
    except OSError:
        pass
    with open("/proc/mounts") as f:
        mnt = [l.split()[1] for l in f if l.split()[2] == "cgroup"
               and "memory" in l.split()[3].split(",")]
    with open("/proc/self/cgroup") as g:
        own = [l.split(":", 2)[2].strip() for l in g
               if "memory" in l.split(":")[1].split(",")][0]
    return 1, mnt[0] + own.rstrip("/")


def unreadable_memcg():
    """A memcg whose own files exist but cannot be read (EACCES: mode 000,
    and record without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH): its refaults
    and OOM kills are null in the recording, never 0, while its reclaim
    counts are there; a readable sibling's are numbers."""
    version, parent = memcg_root()
    workload = os.path.join(os.path.dirname(BIN), "rs-workload")
    if not os.path.exists(workload):
        workload = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "build", "rs-workload")
    data = os.path.join(WORK, "unreadable.data")
    out = os.path.join(WORK, "unreadable.ndjson")
    subprocess.run([workload, "write", data, "48"], check=True)
    dirs = {}
    for name in ("rs-unreadable", "rs-readable"):
        d = dirs[name] = os.path.join(parent, f"{name}-{os.getpid()}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "memory.max" if version == 2
                               else "memory.limit_in_bytes"), "w") as f:
            f.write(str(16 << 20))
    hidden = [os.path.join(dirs["rs-unreadable"], f) for f in
              (("memory.stat", "memory.events") if version == 2
               else ("memory.stat", "memory.oom_control"))]
    for f in hidden:
        os.chmod(f, 0)
    drop = ["setpriv", "--inh-caps=-dac_override,-dac_read_search",
            "--bounding-set=-dac_override,-dac_read_search"]
    rec = subprocess.Popen(drop + [BIN, "record", "-q", "-i", "0.5", "-o", out],
                           stderr=subprocess.PIPE)
    try:
        wait_until(lambda: os.path.exists(out) and os.path.getsize(out) > 0, 60)
        for d in dirs.values():
            # out of the page cache, then read through the small memcg:
            # charged to it, reclaimed in it
            fd = os.open(data, os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
            subprocess.run(["sh", "-c", 'echo $$ >"$0/cgroup.procs" && exec "$@"',
                            d, workload, "mmap", data, "2", "0"], check=True)
        time.sleep(1)
    finally:
        rec.send_signal(signal.SIGINT)
        rc = rec.wait(timeout=60)
        for d in dirs.values():
            try:
                os.rmdir(d)
            except OSError:
                pass
    os.unlink(data)
    check(rc == 0, f"record without DAC override exits 0 ({rec.stderr.read().decode()[:160]})")
    with open(out) as f:
        summary = json.loads(f.read().splitlines()[-1])
    by = {m["path"].rsplit("/", 1)[-1].rsplit("-", 1)[0]: m
          for m in summary["memcgs"] if m.get("path") and f"-{os.getpid()}" in m["path"]}
    bad, good = by.get("rs-unreadable"), by.get("rs-readable")
    if check(bad is not None and good is not None,
             f"both memcgs in the summary ({sorted(by)})"):
        check(bad["scanned"] > 0 and good["scanned"] > 0,
              f"both reclaimed in (scanned {bad['scanned']}, {good['scanned']})")
        check(all(bad[k] is None for k in ("refaults_anon", "refaults_file", "oom_kills")),
              "unreadable memcg: refaults and OOM kills null, not 0 "
              f"({bad['refaults_anon']}, {bad['refaults_file']}, {bad['oom_kills']})")
        check(all(isinstance(good[k], int) for k in ("refaults_anon", "refaults_file", "oom_kills")),
              "readable sibling: refaults and OOM kills are numbers")


def main():
    os.makedirs(WORK, exist_ok=True)
    base = bpf_ids()
    # RS_LIFECYCLE_ONLY="blocked_writer output_errors": just those
    only = os.environ.get("RS_LIFECYCLE_ONLY", "").split()
    for name, run in (("blocked_writer", blocked_writer),
                      ("output_errors", output_errors),
                      ("outcome_lines", outcome_lines),
                      ("stalled_output", lambda: stalled_output(base)),
                      ("top_prompt", top_prompt),
                      ("unix_socket", unix_socket),
                      ("slow_clients", slow_clients),
                      ("few_descriptors", few_descriptors),
                      ("idle_lockout", idle_lockout),
                      ("keep_alive", keep_alive),
                      ("early_signal", lambda: early_signal(base)),
                      ("lifecycle", lambda: lifecycle(base)),
                      ("second_daemon", second_daemon),
                      ("privileges", privileges),
                      ("bad_options", bad_options),
                      ("unreadable_memcg", unreadable_memcg)):
        if not only or name in only:
            run()
    return judge.close("lifecycle")


if __name__ == "__main__":
    sys.exit(main())
