#!/usr/bin/env python3
"""scripts/lab and tests/vm/boot driven without a guest.

usage: python3 tests/lab/test_lab.py [RECLAIMSCOPE]   (default build/reclaimscope)

scripts/lab is loaded as a module and its main() run on fake local kernels
(an image file and a modules folder) with a fake tests/vm/boot that writes
a small recording per run instead of booting, a check that passes, and the
real `reclaimscope diff` on those recordings.  tests/vm/boot itself is run
from a copy in a scratch tree, with a fake qemu that records what it was
given, to see which initramfs each kernel folder boots with.  Seconds.
"""
import contextlib
import ctypes
import glob
import gzip
import importlib.machinery
import importlib.util
import io
import json
import mmap
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAB = os.path.join(TOP, "scripts", "lab")
BOOT = os.path.join(TOP, "tests", "vm", "boot")
TEMPLATE = os.path.join(TOP, "tests", "fuzz", "corpus", "outcome.ndjson")
BIN = os.path.join(TOP, "build", "reclaimscope")


def load_lab():
    loader = importlib.machinery.SourceFileLoader("rs_lab", LAB)
    spec = importlib.util.spec_from_loader("rs_lab", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    mod.BIN = BIN
    return mod


# The fake tests/vm/boot: --prepare and --accel say what the real one
# would; a boot logs what it was given, and leaves the results a guest
# would: a recording whose throughput (mb_per_s) is the number written in
# the kernel image plus the run's number, so that a mean says which runs
# and which image went into it.  FAKE_BOOT_FAIL names run folders (ends
# of their paths) whose guest script "exits 1" after recording.
FAKE_BOOT = r'''#!/usr/bin/env python3
import json, os, sys
log = os.environ["FAKE_BOOT_LOG"]
if sys.argv[1] in ("--prepare", "--accel"):
    print("tcg" if sys.argv[1] == "--accel" else "")
    sys.exit(0)
kdir, d = sys.argv[1], sys.argv[2]
image = os.path.realpath(os.path.join(kdir, "vmlinuz"))
base = float(open(image).read().split()[0])
version = open(os.path.join(kdir, "version")).read().strip()
run = int(os.path.basename(d).split("-")[1])
with open(log, "a") as f:
    f.write(json.dumps({"kdir": kdir, "image": image, "dir": d,
                        "args": sys.argv[3:],
                        "clock": os.environ.get("RS_VM_CLOCK"),
                        "timeout": os.environ.get("RS_VM_TIMEOUT")}) + "\n")
os.makedirs(os.path.join(d, "results"), exist_ok=True)
lines = []
for line in open(os.environ["FAKE_TEMPLATE"]):
    rec = json.loads(line)
    if rec["type"] == "header":
        rec["kernel"] = version
    if rec["type"] == "outcome" and "mb_per_s" in rec:
        rec["mb_per_s"] = base + run
    lines.append(json.dumps(rec))
with open(os.path.join(d, "results", "rec.ndjson"), "w") as f:
    f.write("\n".join(lines) + "\n")
fail = [x for x in os.environ.get("FAKE_BOOT_FAIL", "").split(",") if x]
with open(os.path.join(d, "results", "status"), "w") as f:
    f.write("1\n" if any(d.endswith(x) for x in fail) else "0\n")
with open(os.path.join(d, "console.log"), "w") as f:
    f.write("rs-vm: kernel\nrs-vm: scenario lab exited 0\n")
'''


class Make:
    """subprocess for the lab, with `make` (its builds) left out."""

    def __getattr__(self, name):
        return getattr(subprocess, name)

    @staticmethod
    def run(cmd, *args, **kw):
        if cmd and cmd[0] == "make":
            return subprocess.CompletedProcess(cmd, 0, "", "")
        return subprocess.run(cmd, *args, **kw)


class LabTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rs-labtest-")
        self.lab = load_lab()
        self.lab.subprocess = Make()
        boot = os.path.join(self.tmp, "boot")
        with open(boot, "w") as f:
            f.write(FAKE_BOOT.replace("/usr/bin/env python3", sys.executable, 1))
        os.chmod(boot, 0o755)
        check = os.path.join(self.tmp, "check.py")
        with open(check, "w") as f:
            f.write("import sys\nsys.exit(0)\n")
        self.lab.BOOT, self.lab.CHECK = boot, check
        self.log = os.path.join(self.tmp, "boots.ndjson")
        self.env = {"FAKE_BOOT_LOG": self.log, "FAKE_TEMPLATE": TEMPLATE,
                    "RS_VM_ACCEL": "tcg", "FAKE_BOOT_FAIL": ""}
        self.saved_env = {k: os.environ.get(k) for k in self.env}
        os.environ.update(self.env)
        self.out = os.path.join(self.tmp, "out")

    def tearDown(self):
        for k, v in self.saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(self.tmp, ignore_errors=True)

    def kernel(self, name, version, mbps, arm64=False):
        """A local build: TMP/name/bzImage (its content: mbps; with arm64,
        an arm64 Image's magic at 0x38) and TMP/name/lib/modules/VERSION;
        its -k spec."""
        root = os.path.join(self.tmp, name)
        mods = os.path.join(root, "lib", "modules", version)
        os.makedirs(mods, exist_ok=True)
        with open(os.path.join(root, "bzImage"), "w") as f:
            head = f"{mbps} {name}\n"
            f.write(head.ljust(0x38) + "ARM\x64\n" if arm64 else
                    head.ljust(0x202) + "HdrS\n")
        return f"{os.path.join(root, 'bzImage')}:{mods}"

    def lab_main(self, *args):
        """main(), its stdout and stderr; SystemExit is raised through."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = self.lab.main(["scripts/lab", "-o", self.out, "-j", "1",
                                    *args])
            except SystemExit as e:
                e.stderr = err.getvalue()
                raise
        return rc, out.getvalue(), err.getvalue()

    def boots(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return [json.loads(line) for line in f]

    def assert_booted_once(self, runs):
        """runs guests booted, no run folder twice."""
        dirs = [b["dir"] for b in self.boots()]
        self.assertEqual(len(dirs), len(set(dirs)), dirs)
        self.assertEqual(len(dirs), runs)

    def groups_json(self):
        """{group name: its "groups" entry} over every diff --json the lab
        wrote."""
        seen = {}
        for path in glob.glob(os.path.join(self.out, "*.json")):
            with open(path) as f:
                for g in json.load(f)["groups"]:
                    seen.setdefault(os.path.basename(g["name"].rstrip("/")), []).append(g)
        return seen

    def mean_mb_per_s(self, workload, group):
        with open(os.path.join(self.out, f"{workload}.json")) as f:
            js = json.load(f)
        names = [os.path.basename(g["name"].rstrip("/")) for g in js["groups"]]
        k = names.index(group)
        total = [m for m in js["memcgs"] if m["path"] == "(total)"][0]
        return total["metrics"]["mb_per_s"]["groups"][k]

    # 2
    def test_diff_counts_only_the_runs_the_table_counts(self):
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        # an earlier lab of 5 runs, run 3 of b failing after it recorded
        os.environ["FAKE_BOOT_FAIL"] = "b-mglru/run-3"
        self.lab_main("-k", f"a={a}", "-k", f"b={b}", "-w", "writeback",
                      "-l", "mglru", "-n", "5", "-s", "smoke")
        # now the report of 3 runs: a's runs 1-3, b's runs 1 and 2
        rc, _, _ = self.lab_main("-k", f"a={a}", "-k", f"b={b}", "-w",
                                 "writeback", "-l", "mglru", "-n", "3",
                                 "-s", "smoke", "--report-only")
        with open(os.path.join(self.out, "report.md")) as f:
            report = f.read()
        self.assertIn("| 2 of 3 |", report)
        groups = self.groups_json()
        self.assertEqual([g["n"] for g in groups["a-mglru"]], [3])
        self.assertEqual([g["n"] for g in groups["b-mglru"]], [2])
        got = self.mean_mb_per_s("writeback", "b-mglru")
        self.assertAlmostEqual(got["mean"], 50 + 1.5, places=6)
        got = self.mean_mb_per_s("writeback", "a-mglru")
        self.assertAlmostEqual(got["mean"], 10 + 2, places=6)

    def test_runs_made_by_another_build_of_the_tool_are_said(self):
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        args = ["-k", f"a={a}", "-k", f"b={b}", "-w", "writeback", "-l",
                "mglru", "-s", "smoke"]
        self.lab_main(*args, "-n", "2")
        with open(os.path.join(self.out, "report.md")) as f:
            self.assertNotIn("builds of reclaimscope", f.read())
        # reclaimscope rebuilt while the lab runs: the next runs boot it
        other = os.path.join(self.tmp, "reclaimscope")
        shutil.copy(BIN, other)
        with open(other, "ab") as f:
            f.write(b"\0")
        self.lab.BIN = other
        try:
            self.lab_main(*args, "-n", "3")
        finally:
            self.lab.BIN = BIN
        with open(os.path.join(self.out, "report.md")) as f:
            report = f.read()
        first, second = self.lab.tool_build(), None
        self.lab.BIN = other
        try:
            second = self.lab.tool_build()
        finally:
            self.lab.BIN = BIN
        self.assertIn(f"made by 2 builds of reclaimscope (rebuilt while the "
                      f"lab ran; the workload and the kernel are the same): "
                      f"runs 1 2 by {first}, runs 3 by {second}", report)
        # runs kept from before the lab noted the build
        for k in (1, 2):
            path = os.path.join(self.out, "runs", "writeback", "b-mglru",
                                f"run-{k}", "run.json")
            with open(path) as f:
                info = json.load(f)
            del info["tool"]
            with open(path, "w") as f:
                json.dump(info, f)
        self.lab_main(*args, "-n", "3", "--report-only")
        with open(os.path.join(self.out, "report.md")) as f:
            self.assertIn(f"made by builds of reclaimscope not all known "
                          f"(rebuilt while the lab ran; the workload and the "
                          f"kernel are the same): runs 3 by {second}, runs 1 "
                          f"2 by a build not noted (made before the lab noted "
                          f"it)", f.read())

    def test_recheck_judges_kept_runs_again(self):
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        args = ["-k", f"a={a}", "-k", f"b={b}", "-w", "writeback", "-l",
                "mglru", "-s", "smoke", "-n", "2"]
        # a checker at fault when the runs were made
        with open(self.lab.CHECK, "w") as f:
            f.write("import sys\nprint('  FAIL  a faulty check')\nsys.exit(1)\n")
        self.lab_main(*args)
        with open(os.path.join(self.out, "report.md")) as f:
            self.assertIn("run 1 counted, but checks failed: FAIL  a faulty "
                          "check", f.read())
        # mended: --recheck judges the kept runs again, boots nothing
        with open(self.lab.CHECK, "w") as f:
            f.write("import sys\nsys.exit(0)\n")
        booted = len(self.boots())
        rc, _, err = self.lab_main(*args, "--recheck")
        self.assertEqual(rc, 0)
        self.assertEqual(len(self.boots()), booted)
        self.assertIn("checked again: unchecked -> ok", err)
        with open(os.path.join(self.out, "report.md")) as f:
            self.assertNotIn("checks failed", f.read())
        # a failed run stays failed: its guest did not finish
        info = os.path.join(self.out, "runs", "writeback", "a-mglru", "run-1",
                            "run.json")
        with open(info) as f:
            j = json.load(f)
        j.update(status="failed", why="the guest crashed")
        with open(info, "w") as f:
            json.dump(j, f)
        rc, _, _ = self.lab_main(*args, "--recheck", "--report-only")
        with open(info) as f:
            self.assertEqual(json.load(f)["status"], "failed")

    # 3
    def test_two_local_builds_of_one_version_are_two_kernels(self):
        k1 = self.kernel("k1", "7.2.0", 10)
        k2 = self.kernel("k2", "7.2.0", 50)
        os.makedirs(self.out)
        before = self.lab.Kernel(f"before={k1}", self.out)
        after = self.lab.Kernel(f"after={k2}", self.out)
        self.assertNotEqual(before.kdir, after.kdir)
        self.assertEqual(os.path.realpath(os.path.join(before.kdir, "vmlinuz")),
                         os.path.realpath(k1.split(":")[0]))
        self.assertEqual(os.path.realpath(os.path.join(after.kdir, "vmlinuz")),
                         os.path.realpath(k2.split(":")[0]))
        self.assertEqual(before.version, after.version)
        # each side's runs booted its own image
        self.lab_main("-k", f"before={k1}", "-k", f"after={k2}", "-w",
                      "writeback", "-l", "mglru", "-n", "2", "-s", "smoke")
        for b in self.boots():
            want = "k1" if "/before-mglru/" in b["dir"] else "k2"
            self.assertEqual(os.path.basename(os.path.dirname(b["image"])), want, b)
        self.assertAlmostEqual(self.mean_mb_per_s("writeback", "after-mglru")["mean"], 51.5)

    # 3: the same image rebuilt in place is another kernel
    def test_a_rebuilt_image_is_another_kernel(self):
        k1 = self.kernel("k1", "7.2.0", 10)
        os.makedirs(self.out)
        first = self.lab.Kernel(f"mine={k1}", self.out)
        self.kernel("k1", "7.2.0", 11)
        second = self.lab.Kernel(f"mine={k1}", self.out)
        self.assertNotEqual(first.kdir, second.kdir)

    # 4
    def test_kept_runs_of_another_version_are_not_kept(self):
        a = self.kernel("k1", "6.18.0", 10)
        old = self.kernel("old", "7.2.13", 50)
        new = self.kernel("new", "7.2.14", 70)
        common = ["-w", "writeback", "-l", "mglru", "-n", "2", "-s", "smoke"]
        self.lab_main("-k", f"a={a}", "-k", f"b={old}", *common)
        self.assertEqual(len(self.boots()), 4)
        with self.assertRaises(SystemExit) as e:
            self.lab_main("-k", f"a={a}", "-k", f"b={new}", *common)
        self.assertEqual(e.exception.code, 2)
        self.assertIn("7.2.13", e.exception.stderr)
        self.assertEqual(len(self.boots()), 4, "refused before booting")
        # the report alone would attribute them to 7.2.14 as well
        with self.assertRaises(SystemExit):
            self.lab_main("-k", f"a={a}", "-k", f"b={new}", *common, "--report-only")
        # asked to, it makes them again; a's runs are kept
        self.lab_main("-k", f"a={a}", "-k", f"b={new}", *common, "--redo-mismatched")
        again = self.boots()[4:]
        self.assertEqual(sorted(os.path.basename(b["dir"]) for b in again), ["run-1", "run-2"])
        self.assertTrue(all("/b-mglru/" in b["dir"] for b in again))
        for run in glob.glob(os.path.join(self.out, "runs", "writeback", "b-mglru", "run-*")):
            with open(os.path.join(run, "run.json")) as f:
                self.assertEqual(json.load(f)["kernel"], "7.2.14")
        self.assertAlmostEqual(self.mean_mb_per_s("writeback", "b-mglru")["mean"], 71.5)

    def test_arm64_guests_boot_arm64_kernels_only(self):
        a = self.kernel("a64", "7.2.0", 10, arm64=True)
        b = self.kernel("b64", "7.2.0", 50, arm64=True)
        x86 = self.kernel("x86", "7.2.0", 30)
        common = ["-w", "stride", "-l", "mglru", "-n", "1", "-s", "smoke"]
        # the guests' build is arm64's (the test's stand-in for it)
        self.lab.guest_bin = lambda arch: BIN
        with self.assertRaises(SystemExit) as e:
            self.lab_main("--arch", "arm64", "-k", f"a={a}", "-k", f"x={x86}", *common)
        self.assertIn(f"kernel x={x86} is an x86 kernel and this lab's "
                      f"guests are arm64's", e.exception.stderr)
        with self.assertRaises(SystemExit) as e:
            self.lab_main("-k", f"a={a}", "-k", f"x={x86}", *common)
        self.assertIn("is an arm64 kernel and this lab's guests are x86's: "
                      "--arch arm64", e.exception.stderr)
        self.assertEqual(self.boots(), [], "refused before booting")
        # a compressed Image (or anything else) is no image a guest boots
        gz = os.path.join(self.tmp, "Image.gz")
        with open(gz, "wb") as f:
            f.write(b"\x1f\x8b" + b"\0" * 0x300)
        with self.assertRaises(SystemExit) as e:
            self.lab_main("--arch", "arm64", "-k", f"a={a}", "-k",
                          f"z={gz}:{a.split(':')[1]}", *common)
        self.assertIn(f"{gz} is not a kernel image the guests boot",
                      e.exception.stderr)
        self.lab_main("--arch", "arm64", "-k", f"a={a}", "-k", f"b={b}", *common)
        self.assertEqual(len(self.boots()), 2)
        for run in glob.glob(os.path.join(self.out, "runs", "stride", "*", "run-1")):
            with open(os.path.join(run, "run.json")) as f:
                self.assertEqual(json.load(f)["arch"], "arm64")
        with open(os.path.join(self.out, "report.md")) as f:
            self.assertIn("- guest: arm64, 2 vCPUs", f.read())
        # x86 runs are not arm64's: a folder of one is refused to the other
        x86b = self.kernel("x86b", "7.2.0", 60)
        with self.assertRaises(SystemExit) as e:
            self.lab_main("-k", f"a={x86}", "-k", f"b={x86b}", *common)
        self.assertIn("arm64 guests, not x86", e.exception.stderr)

    def test_arm64_kernels_are_fetched_and_built_for_arm64(self):
        """A suite names its arm64 cloud kernel, src: builds for arm64."""
        asked = []
        kdir = os.path.join(self.tmp, "fetched")
        os.makedirs(kdir)
        with open(os.path.join(kdir, "vmlinuz"), "w") as f:
            f.write("10".ljust(0x38) + "ARM\x64\n")
        for name, text in (("version", "7.2.13+deb14-cloud-arm64\n"),
                           ("source.txt", "base: debian-sid-7.2.13-1\narch: arm64\n")):
            with open(os.path.join(kdir, name), "w") as f:
                f.write(text)

        class Tools(Make):
            @staticmethod
            def run(cmd, *args, **kw):
                if os.path.basename(cmd[0]) in ("fetch-kernel.sh", "build-kernel"):
                    asked.append([os.path.basename(cmd[0])] + cmd[1:])
                    return subprocess.CompletedProcess(cmd, 0, kdir + "\n", "")
                return Make.run(cmd, *args, **kw)

        self.lab.subprocess = Tools()
        os.makedirs(self.out)
        self.lab.Kernel("a=trixie-backports:6.18", self.out, "arm64")
        self.lab.Kernel("b=src:sid+scripts/patches/011.patch", self.out, "arm64")
        # x86's asks for amd64's, and refuses what came (the stand-in
        # gives arm64's)
        with self.assertRaises(SystemExit):
            with contextlib.redirect_stderr(io.StringIO()):
                self.lab.Kernel("c=sid", self.out)
        self.assertEqual(asked, [
            ["fetch-kernel.sh", "trixie-backports:6.18", "linux-image-cloud-arm64"],
            ["build-kernel", "--arch", "arm64", "sid+scripts/patches/011.patch"],
            ["fetch-kernel.sh", "sid", "linux-image-cloud-amd64"]])
        # a local image of the other architecture is refused before any
        # kernel is built (a source build takes an hour)
        del asked[:]
        a64 = self.kernel("a64", "7.2.0", 10, arm64=True)
        with self.assertRaises(SystemExit) as e:
            self.lab_main("-k", "a=src:sid+scripts/patches/011.patch", "-k", f"b={a64}")
        self.assertIn("is an arm64 kernel", e.exception.stderr)
        self.assertEqual(asked, [])

    def test_kept_runs_of_another_size_are_not_kept(self):
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        common = ["-k", f"a={a}", "-k", f"b={b}", "-w", "writeback", "-l", "mglru", "-n", "1"]
        self.lab_main(*common, "-s", "smoke")
        with self.assertRaises(SystemExit) as e:
            self.lab_main(*common, "-s", "full")
        self.assertIn("smoke", e.exception.stderr)
        self.assertEqual(len(self.boots()), 2)
        # the same size again: kept
        self.lab_main(*common, "-s", "smoke")
        self.assertEqual(len(self.boots()), 2)

    def test_writeback_is_judged_on_the_real_clock(self):
        """Its outcome races a slow device, which the counted clock does not
        time as the device takes it: --clock auto runs its runs on the
        real clock (the lab's others counted), and says why; --clock
        icount still counts."""
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        common = ["-k", f"a={a}", "-k", f"b={b}", "-l", "mglru", "-n", "1"]
        o1 = os.path.join(self.tmp, "o1")
        _, _, err = self.lab_main(*common, "-w", "writeback", "-w", "aging", "-o", o1)
        clocks = {(next(x for x in b["args"] if x.startswith("rs.workload=")), b["clock"])
                  for b in self.boots()}
        self.assertEqual(clocks, {("rs.workload=writeback", "real"),
                                  ("rs.workload=aging", "icount")})
        self.assertIn("clock real, not counted, for writeback", err)
        with open(os.path.join(o1, "report.md")) as f:
            self.assertIn("writeback on the real clock", f.read())
        # kept as made: run again, nothing boots
        self.lab_main(*common, "-w", "writeback", "-w", "aging", "-o", o1)
        self.assertEqual(len(self.boots()), 4)
        self.lab_main(*common, "-w", "writeback", "--clock", "icount",
                      "-o", os.path.join(self.tmp, "o2"))
        self.assertEqual([x["clock"] for x in self.boots()[4:]], ["icount", "icount"])
        _, _, err = self.lab_main(*common, "-w", "aging", "-o", os.path.join(self.tmp, "o3"))
        self.assertEqual([x["clock"] for x in self.boots()[6:]], ["icount", "icount"])
        self.assertNotIn("clock real, not counted", err)

    def test_kept_runs_of_another_clock_are_not_kept(self):
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        common = ["-k", f"a={a}", "-k", f"b={b}", "-w", "aging", "-l", "mglru", "-n", "1"]
        # under TCG the counted clock is the default
        self.lab_main(*common)
        self.assertEqual([x["clock"] for x in self.boots()], ["icount", "icount"])
        self.lab_main(*common, "--clock", "icount")
        self.assertEqual(len(self.boots()), 2, "kept")
        self.lab_main(*common, "--clock", "real", "--redo-mismatched")
        self.assertEqual([x["clock"] for x in self.boots()[2:]], ["real", "real"])
        with self.assertRaises(SystemExit) as e:
            self.lab_main(*common, "--clock", "icount")
        self.assertIn("clock real, not icount", e.exception.stderr)
        self.assertEqual(len(self.boots()), 4, "refused before booting")
        # a run made before the lab had --clock ran on the real clock
        for meta in glob.glob(os.path.join(self.out, "runs", "*", "*", "*", "run.json")):
            with open(meta) as f:
                info = json.load(f)
            del info["clock"]
            with open(meta, "w") as f:
                json.dump(info, f)
        self.lab_main(*common, "--clock", "real")
        self.assertEqual(len(self.boots()), 4, "kept")
        self.lab_main(*common, "--redo-mismatched")
        self.assertEqual([x["clock"] for x in self.boots()[4:]], ["icount", "icount"])
        with open(os.path.join(self.out, "report.md")) as f:
            self.assertIn("clock icount (2^3 ns per instruction)", f.read())
        meta = glob.glob(os.path.join(self.out, "runs", "*", "*", "*", "run.json"))[0]
        with open(meta) as f:
            info = json.load(f)
        self.assertEqual((info["accel"], info["icount_shift"]), ("tcg", 3))
        # another length of an instruction is another clock
        os.environ["RS_VM_ICOUNT_SHIFT"] = "5"
        try:
            with self.assertRaises(SystemExit) as e:
                self.lab_main(*common)
            self.assertIn("2^3 ns per instruction, not 2^5", e.exception.stderr)
            os.environ["RS_VM_ICOUNT_SHIFT"] = "x"
            with self.assertRaises(SystemExit) as e:
                self.lab_main(*common)
            self.assertIn("RS_VM_ICOUNT_SHIFT is 0 to 10", e.exception.stderr)
        finally:
            del os.environ["RS_VM_ICOUNT_SHIFT"]
        self.assertEqual(len(self.boots()), 6, "refused before booting")
        # and another accelerator another machine
        info["accel"] = "kvm"
        with open(meta, "w") as f:
            json.dump(info, f)
        with self.assertRaises(SystemExit) as e:
            self.lab_main(*common)
        self.assertIn("qemu KVM, not TCG", e.exception.stderr)

    # 5
    def test_every_kernel_and_lru_booted_is_reported(self):
        specs = [f"{n}={self.kernel(n, v, m)}" for n, v, m in
                 (("ka", "6.18.0", 10), ("kb", "7.2.0", 50), ("kc", "7.3.0", 90))]
        args = [a for s in specs for a in ("-k", s)]
        self.lab_main(*args, "-w", "writeback", "-n", "2", "-s", "smoke")
        booted = {os.path.basename(os.path.dirname(b["dir"])) for b in self.boots()}
        self.assertEqual(len(booted), 6)
        reported = self.groups_json()
        self.assertEqual(booted - set(reported), set(), "booted, never compared")
        with open(os.path.join(self.out, "report.md")) as f:
            report = f.read()
        for g in booted:
            self.assertIn(f": {g} |", report)

    def test_a_full_aging_run_gets_a_longer_timeout(self):
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        runs = ("-k", f"a={a}", "-k", f"b={b}", "-l", "mglru", "-n", "1")
        self.lab_main(*runs, "-w", "aging", "-w", "writeback", "-s", "full")
        by_workload = {}
        for boot in self.boots():
            workload = os.path.basename(os.path.dirname(os.path.dirname(boot["dir"])))
            by_workload.setdefault(workload, set()).add(boot["timeout"])
        self.assertEqual(by_workload, {"aging": {"3000"}, "writeback": {"900"}})
        # smoke runs, and a --timeout given, take the same for every run
        os.remove(self.log)
        shutil.rmtree(self.out)
        self.lab_main(*runs, "-w", "aging", "-s", "smoke")
        self.assertEqual({b["timeout"] for b in self.boots()}, {"900"})
        os.remove(self.log)
        shutil.rmtree(self.out)
        self.lab_main(*runs, "-w", "aging", "-s", "full", "--timeout", "60")
        self.assertEqual({b["timeout"] for b in self.boots()}, {"60"})
        with self.assertRaises(SystemExit) as e:
            self.lab_main(*runs, "--timeout", "0")
        self.assertIn("--timeout", e.exception.stderr)

    # 7
    def test_duplicate_lrus_and_workloads_schedule_each_run_once(self):
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        self.lab_main("-k", f"a={a}", "-k", f"b={b}",
                      "-w", "writeback", "-w", "writeback",
                      "-l", "mglru,mglru", "-n", "2", "-s", "smoke")
        self.assert_booted_once(4)

    def test_lru_given_twice_is_both_lrus(self):
        a = self.kernel("k1", "6.18.0", 10)
        self.lab_main("-k", f"a={a}", "-w", "writeback", "-l", "classic",
                      "-l", "mglru", "-l", "classic", "-n", "1", "-s", "smoke")
        booted = sorted(os.path.basename(os.path.dirname(b["dir"]))
                        for b in self.boots())
        self.assertEqual(booted, ["a-classic", "a-mglru"])

    def test_oom_generations_while_mglru_is_off_are_left_out(self):
        run = type("Run", (), {"dir": os.path.join(self.tmp, "run")})()
        os.makedirs(os.path.join(run.dir, "results"))
        gens = [{"seq": 3, "age_ms": 742639, "anon": 0, "file": 0}]
        lines = [{"type": "header", "mglru": True},
                 {"type": "event", "kind": "oom", "t": 1, "generations": gens},
                 {"type": "snapshot", "t": 2, "memcgs": [], "mglru": False},
                 {"type": "event", "kind": "oom", "t": 3, "generations": gens}]
        with open(self.lab.recording(run), "w") as f:
            f.write("".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines))
        got = self.lab.oom_records(run)
        self.assertEqual([("generations" in e) for e in got], [True, False])

    def test_oom_mib_are_in_the_recordings_own_pages(self):
        """The MiB on the LRU at an OOM: pages times the header's page size
        (an arm64 guest's 16 KiB), 4 KiB where a recording does not say."""
        rows = {}
        for name, header in (("x86", {}), ("arm16k", {"page_size": 16384})):
            run = type("Run", (), {"dir": os.path.join(self.tmp, name), "k": 1})()
            os.makedirs(os.path.join(run.dir, "results"))
            gens = [{"seq": 3, "age_ms": 1000, "anon": 256, "file": 512}]
            lines = [dict({"type": "header", "mglru": True}, **header),
                     {"type": "event", "kind": "oom", "t": 1, "generations": gens,
                      "killed": True, "path": "/w"}]
            with open(self.lab.recording(run), "w") as f:
                f.write("".join(json.dumps(x, separators=(",", ":")) + "\n"
                                for x in lines))
            rows[name] = [l for l in self.lab.oom_ages({name: ([run], 1)})
                          if l.startswith(f"| {name} |")]
        self.assertIn("3: 1.00 s, 1.0 / 2.0 |", rows["x86"][0])
        self.assertIn("3: 1.00 s, 4.0 / 8.0 |", rows["arm16k"][0])

    def test_the_same_kernel_twice_is_one_kernel(self):
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        self.lab_main("-k", f"a={a}", "-k", f"b={b}", "-k", f"b={b}",
                      "-w", "writeback", "-l", "mglru", "-n", "2", "-s", "smoke")
        self.assert_booted_once(4)

    def test_all_and_a_workload_schedule_each_run_once(self):
        a = self.kernel("k1", "6.18.0", 10)
        b = self.kernel("k2", "7.2.0", 50)
        self.lab_main("-k", f"a={a}", "-k", f"b={b}", "-w", "all", "-w",
                      "writeback", "-l", "mglru", "-n", "1", "-s", "smoke")
        self.assert_booted_once(2 * len(self.lab.WORKLOADS))

    # 8
    def test_a_version_with_a_plus_is_a_label(self):
        rc1 = self.kernel("k1", "7.2.0-rc1+", 10)
        deb = self.kernel("k2", "7.2.13+deb14-cloud-amd64", 50)
        self.lab_main("-k", rc1, "-k", deb, "-w", "writeback", "-l", "mglru",
                      "-n", "1", "-s", "smoke")
        groups = self.groups_json()
        self.assertIn("7.2.0-rc1+-mglru", groups)
        self.assertIn("7.2.13+deb14-cloud-amd64-mglru", groups)
        with open(os.path.join(self.out, "report.md")) as f:
            self.assertIn("| A: 7.2.0-rc1+-mglru | 7.2.0-rc1+ |", f.read())

    def test_labels_that_break_paths_are_refused(self):
        k = self.kernel("k1", "7.2.0", 10)
        os.makedirs(self.out)
        for label in ("..", ".", "a/b", "", "a\tb", "a\x01", "-x", "a b", "a|b"):
            with self.subTest(label=label):
                with self.assertRaises(SystemExit), \
                        contextlib.redirect_stderr(io.StringIO()):
                    self.lab.Kernel(f"{label}={k}", self.out)
        for label in ("mine", "v7.2+fix", "a_b-c.d"):
            self.assertEqual(self.lab.Kernel(f"{label}={k}", self.out).label, label)


# The fake qemu: records its command line, and leaves on the results
# disk (the first -drive) a tar with status 0, as a guest would.
FAKE_QEMU = r'''#!/usr/bin/env python3
import io, json, os, sys, tarfile
args = sys.argv[1:]
with open(os.environ["FAKE_QEMU_LOG"], "a") as f:
    f.write(json.dumps(args) + "\n")
drive = [args[i + 1] for i, a in enumerate(args) if a == "-drive"][0]
path = drive.split("file=", 1)[1].split(",")[0]
with tarfile.open(path, "w") as t:
    data = b"0\n"
    info = tarfile.TarInfo("status")
    info.size = len(data)
    t.addfile(info, io.BytesIO(data))
print("rs-vm: kernel fake, scenario lab")
'''


def newc_files(path):
    """{name: bytes} of a gzip'd newc cpio archive."""
    with gzip.open(path) as f:
        data = f.read()
    files, off = {}, 0
    while off + 110 <= len(data):
        h = data[off:off + 110]
        assert h[:6] in (b"070701", b"070702"), h[:6]
        size = int(h[54:62], 16)
        namesize = int(h[94:102], 16)
        name = data[off + 110:off + 110 + namesize - 1].decode()
        off = (off + 110 + namesize + 3) & ~3
        files[name] = data[off:off + size]
        off = (off + size + 3) & ~3
        if name == "TRAILER!!!":
            break
    return files


class BootTest(unittest.TestCase):
    """tests/vm/boot from a copy in a scratch tree (its own build/vm)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rs-boottest-")
        top = self.top = os.path.join(self.tmp, "top")
        vm = os.path.join(top, "tests", "vm")
        for d in ("scenarios", "workloads"):
            os.makedirs(os.path.join(vm, d))
            with open(os.path.join(vm, d, "x.sh"), "w") as f:
                f.write("true\n")
        shutil.copy(BOOT, os.path.join(vm, "boot"))
        with open(os.path.join(vm, "init"), "w") as f:
            f.write("#!/bin/sh\n")
        os.makedirs(os.path.join(top, "build"))
        for name in ("reclaimscope", "rs-workload", "rs-labload", "rs-bench"):
            path = os.path.join(top, "build", name)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(path, 0o755)
        bindir = os.path.join(self.tmp, "bin")
        os.makedirs(bindir)
        qemu = os.path.join(bindir, "qemu-system-x86_64")
        with open(qemu, "w") as f:
            f.write(FAKE_QEMU.replace("/usr/bin/env python3", sys.executable, 1))
        os.chmod(qemu, 0o755)
        # what goes into the image from the machine: small stand-ins
        for tool in ("busybox", "bpftool", "dmsetup"):
            with open(os.path.join(bindir, tool), "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(os.path.join(bindir, tool), 0o755)
        self.log = os.path.join(self.tmp, "qemu.ndjson")
        self.env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
                        FAKE_QEMU_LOG=self.log, RS_VM_ACCEL="tcg",
                        # the tools disk copies the host's PostgreSQL:
                        # a minute per test, and not what these tests test
                        RS_VM_TOOLS="none")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def kdir(self, name, version):
        """A kernel folder whose modules say which folder they are from."""
        kdir = os.path.join(self.tmp, "kernels", name)
        mods = os.path.join(kdir, "modules", "kernel")
        os.makedirs(mods)
        for m in ("virtio_blk", "loop", "dm-mod", "dm-delay", "zram"):
            with open(os.path.join(mods, m + ".ko"), "wb") as f:
                f.write(f"{name} {m}\0depends=\0".encode())
        for f, text in (("vmlinuz", "image"), ("vmlinux", "btf"), ("version", version + "\n")):
            with open(os.path.join(kdir, f), "w") as fh:
                fh.write(text)
        return kdir

    def qemu_args(self, kdir, name, **env):
        """The boot's exit status and stderr, and what qemu was given."""
        d = os.path.join(self.tmp, "runs", name)
        p = subprocess.run([os.path.join(self.top, "tests", "vm", "boot"), kdir, d,
                            "rs.workload=writeback"], env=dict(self.env, **env),
                           capture_output=True, text=True)
        args = None
        if os.path.exists(self.log):
            with open(self.log) as f:
                args = [json.loads(line) for line in f][-1]
            os.remove(self.log)
        return p.returncode, p.stderr, args

    def boot(self, kdir, name):
        rc, err, args = self.qemu_args(kdir, name)
        self.assertEqual(rc, 0, err)
        return args[args.index("-initrd") + 1]

    def test_the_clock_is_real_or_counted_instructions(self):
        k = self.kdir("k1", "7.2.0")
        rc, err, args = self.qemu_args(k, "real")
        self.assertEqual(rc, 0, err)
        self.assertIn("tcg,thread=multi", args)
        self.assertNotIn("-icount", args)
        rc, err, args = self.qemu_args(k, "icount", RS_VM_CLOCK="icount")
        self.assertEqual(rc, 0, err)
        # icount runs on one TCG thread; no host time while idle
        self.assertIn("tcg,thread=single", args)
        self.assertEqual(args[args.index("-icount") + 1], "shift=3,sleep=off")
        rc, err, args = self.qemu_args(k, "shift", RS_VM_CLOCK="icount", RS_VM_ICOUNT_SHIFT="5")
        self.assertEqual(args[args.index("-icount") + 1], "shift=5,sleep=off")
        for env, says in (({"RS_VM_CLOCK": "wall"}, "real or icount, not 'wall'"),
                          ({"RS_VM_CLOCK": "icount", "RS_VM_ACCEL": "kvm"}, "needs TCG"),
                          ({"RS_VM_CLOCK": "icount", "RS_VM_ICOUNT_SHIFT": "11"}, "0 to 10"),
                          ({"RS_VM_CLOCK": "icount", "RS_VM_ICOUNT_SHIFT": "x"}, "0 to 10")):
            rc, err, args = self.qemu_args(k, "bad", **env)
            self.assertEqual((rc, args), (2, None), env)
            self.assertIn(says, err)

    # 3
    def test_initramfs_is_the_kernel_folders_not_the_versions(self):
        k1 = self.kdir("k1", "7.2.0")
        k2 = self.kdir("k2", "7.2.0")
        i1 = self.boot(k1, "r1")
        i2 = self.boot(k2, "r2")
        self.assertNotEqual(i1, i2)
        self.assertEqual(newc_files(i1)["lib/modules/zram.ko"], b"k1 zram\0depends=\0")
        self.assertEqual(newc_files(i2)["lib/modules/zram.ko"], b"k2 zram\0depends=\0")


class StrideJobTest(unittest.TestCase):
    """rs-workload stride, the stride workload's job (seed 011's fio job):
    it reads every zone of the file, not the file's first page over and
    over as Debian's fio's mmap engine did."""

    def test_every_zone_is_read_and_the_figures_add_up(self):
        workload = os.path.join(TOP, "build", "rs-workload")
        if not os.access(workload, os.X_OK):
            subprocess.run(["make", "-s", "-C", TOP, "build/rs-workload"],
                           check=True)
        with tempfile.TemporaryDirectory(dir=os.path.join(TOP, "build")) as tmp:
            path = os.path.join(tmp, "hot")
            zones = 512  # 32 MiB of 64 KiB zones
            with open(path, "wb") as f:
                for _ in range(zones):
                    f.write(os.urandom(65536))
                f.flush()
                os.fsync(f.fileno())
            fd = os.open(path, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                cached = self.resident(fd, zones * 16)
                if any(cached[z * 16] for z in range(zones)):
                    self.skipTest("this filesystem keeps the file cached")
                out = subprocess.run([workload, "stride", path, "1", "64", "1"],
                                     check=True, capture_output=True,
                                     text=True).stdout
                cached = self.resident(fd, zones * 16)
            finally:
                os.close(fd)
        got = json.loads(out)
        self.assertEqual(got["bytes"], got["reads"] * 4096)
        self.assertGreaterEqual(got["reads"], zones)  # a pass at least
        self.assertGreaterEqual(got["seconds"], 1)  # the time measured
        self.assertEqual([z for z in range(zones) if not cached[z * 16]], [])

    @staticmethod
    def resident(fd, pages):
        """Which of the file's pages are in the page cache (mincore)."""
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                              ctypes.c_int, ctypes.c_int, ctypes.c_long]
        size = pages * 4096
        addr = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        if addr in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "mmap")
        vec = (ctypes.c_ubyte * pages)()
        try:
            if libc.mincore(ctypes.c_void_p(addr), ctypes.c_size_t(size), vec):
                raise OSError(ctypes.get_errno(), "mincore")
        finally:
            libc.munmap(ctypes.c_void_p(addr), ctypes.c_size_t(size))
        return [bool(b & 1) for b in vec]


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        BIN = os.path.abspath(sys.argv.pop(1))
    if not os.access(BIN, os.X_OK):
        sys.exit(f"test_lab: no {BIN}: make build/reclaimscope first")
    unittest.main(verbosity=2)
