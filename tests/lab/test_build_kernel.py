#!/usr/bin/env python3
"""scripts/build-kernel up to the compiler.

usage: python3 tests/lab/test_build_kernel.py [--offline]

Bad input first, on a small git tree made here (no network): patch files
that are missing, empty, not patches, with CRLF line ends or a binary
diff, an mbox of several patches (applied in order, and said), a hunk
that does not apply (named, and nothing left behind), a path that is no
git tree, a revision that does not exist, a '+' inside a file name.
Then the real path (network; --offline skips it): sid's kernel source
fetched through this machine's apt configuration, seed 011's base and
the seed's own patch applied in order, the seed's patch applied twice
(its hunk named), a suite and a version that do not exist, and the guest
configuration generated, every line of the lab's fragment and the base's
LRU_GEN and preemption choices holding in it.  About two minutes with
the source cached, three more to fetch it.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(TOP, "scripts", "build-kernel")
PATCHES = os.path.join(TOP, "scripts", "patches")
BASE_011 = os.path.join(PATCHES, "011-base-7.2-activate-in-fault.patch")
SEED_011 = os.path.join(PATCHES, "011-mm-mglru-use-folio-mark-accessed.patch")
X86_OLD = os.path.join(PATCHES, "x86-old-prefaulted-ptes.patch")
OFFLINE = "--offline" in sys.argv


def build(*args, cache=None):
    env = dict(os.environ)
    if cache:
        env["RECLAIMSCOPE_CACHE"] = cache
    return subprocess.run([BUILD, *args], capture_output=True, text=True,
                          env=env)


def git(tree, *args):
    subprocess.run(["git", "-C", tree, "-c", "user.name=t",
                    "-c", "user.email=t@t.invalid", *args], check=True,
                   capture_output=True)


SWAP_C = "".join(f"line {i}\n" for i in range(1, 21))


def diff(old, new, path="mm/swap.c"):
    """A git-style diff of one file from OLD to NEW (its text)."""
    with tempfile.TemporaryDirectory() as d:
        for side, text in (("a", old), ("b", new)):
            os.makedirs(os.path.join(d, side, os.path.dirname(path)))
            with open(os.path.join(d, side, path), "w") as f:
                f.write(text)
        r = subprocess.run(["diff", "-u", f"a/{path}", f"b/{path}"], cwd=d,
                           capture_output=True, text=True)
    body = re.sub(r"^(--- a/\S+|\+\+\+ b/\S+)\t.*$", r"\1", r.stdout,
                  flags=re.M)
    return f"diff --git a/{path} b/{path}\n" + body


def format_patch(subject, body, sha="0" * 40):
    return (f"From {sha} Mon Sep 17 00:00:00 2001\nFrom: t <t@t.invalid>\n"
            f"Subject: [PATCH] {subject}\n\nwhy\n---\n{body}-- \n2.39\n\n")


class BadInput(unittest.TestCase):
    """Each refused with exit 2 and a message naming the file, before
    anything is fetched or built."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="rs-bk-")
        cls.cache = os.path.join(cls.dir, "cache")
        cls.tree = os.path.join(cls.dir, "linux")
        os.makedirs(os.path.join(cls.tree, "mm"))
        with open(os.path.join(cls.tree, "Makefile"), "w") as f:
            f.write("# not a kernel\n")
        with open(os.path.join(cls.tree, "mm", "swap.c"), "w") as f:
            f.write(SWAP_C)
        git(cls.tree, "init", "-q")
        git(cls.tree, "add", ".")
        git(cls.tree, "commit", "-q", "-m", "base")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def file(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        return path

    def refused(self, spec, *words, until="patch"):
        r = build("--until", until, spec, cache=self.cache)
        self.assertEqual(r.returncode, 2, r.stderr)
        for w in words:
            self.assertIn(w, r.stderr)
        return r

    def test_missing_patch(self):
        self.refused(f"{self.tree}+{self.dir}/nope.patch", "no patch file",
                     "nope.patch")

    def test_empty(self):
        p = self.file("empty.patch", "")
        self.refused(f"{self.tree}+{p}", "empty.patch is empty")

    def test_not_a_patch(self):
        p = self.file("notes.patch", "just some words\n")
        self.refused(f"{self.tree}+{p}", "notes.patch", "not a patch")

    def test_crlf(self):
        text = diff(SWAP_C, SWAP_C.replace("line 5\n", "line five\n"))
        p = self.file("crlf.patch", text.replace("\n", "\r\n").encode())
        self.refused(f"{self.tree}+{p}", "crlf.patch has CRLF line ends")

    def test_binary(self):
        p = self.file("bin.patch", "diff --git a/x.bin b/x.bin\nindex 1..2\n"
                      "GIT binary patch\nliteral 3\nKcmZ?d00001\n\n")
        self.refused(f"{self.tree}+{p}", "bin.patch holds a binary diff")

    def test_hunk_named(self):
        text = diff(SWAP_C.replace("line 9\n", "line nine\n"),
                    SWAP_C.replace("line 9\n", "line 9!\n"))
        p = self.file("stale.patch", format_patch("change line nine", text))
        r = self.refused(f"{self.tree}+{p}", "stale.patch",
                         "\"[PATCH] change line nine\" does not apply",
                         "patch failed: mm/swap.c:", "nothing was built")
        self.assertFalse(os.path.exists(os.path.join(self.cache, "build",
                                                     "src")),
                         "a failed patch leaves no tree behind")
        self.assertFalse(os.path.exists(os.path.join(self.cache, "build",
                                                     "key")),
                         "nor a key that would take the next run past it")
        del r

    def test_mbox_in_order(self):
        one = SWAP_C.replace("line 3\n", "line three\n")
        two = one.replace("line three\n", "line 3 at last\n")
        mbox = (format_patch("first", diff(SWAP_C, one), "1" * 40)
                + format_patch("second", diff(one, two), "2" * 40))
        p = self.file("series.mbox", mbox)
        r = build("--until", "patch", f"{self.tree}+{p}", cache=self.cache)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("2 patches, applied in this order: [PATCH] first; "
                      "[PATCH] second", r.stderr)
        with open(os.path.join(r.stdout.strip().splitlines()[-1], "mm",
                               "swap.c")) as f:
            self.assertIn("line 3 at last\n", f.read())
        # the source tree the build copied is untouched
        commit = subprocess.run(["git", "-C", self.tree, "rev-parse", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        with open(os.path.join(self.cache, "src", f"git-{commit}", "mm",
                               "swap.c")) as f:
            self.assertEqual(f.read(), SWAP_C)

    def test_plus_in_file_name(self):
        text = diff(SWAP_C, SWAP_C.replace("line 7\n", "line seven\n"))
        p = self.file("a+b.patch", text)
        r = build("--until", "patch", f"{self.tree}+{p}", cache=self.cache)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_latin1_patch(self):
        # a patch to a file that is not UTF-8 applies byte for byte
        base = SWAP_C.replace("line 2\n", "caf\xe9\n")
        tree = os.path.join(self.dir, "latin")
        os.makedirs(os.path.join(tree, "mm"))
        with open(os.path.join(tree, "mm", "swap.c"), "wb") as f:
            f.write(base.encode("latin-1"))
        git(tree, "init", "-q")
        git(tree, "add", ".")
        git(tree, "commit", "-q", "-m", "base")
        text = diff(base, base.replace("caf\xe9\n", "caf\xe9 au lait\n"))
        p = self.file("latin.patch", text.encode("latin-1"))
        r = build("--until", "patch", f"{tree}+{p}", cache=self.cache)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(r.stdout.strip().splitlines()[-1], "mm",
                               "swap.c"), "rb") as f:
            self.assertIn(b"caf\xe9 au lait\n", f.read())

    def test_directory_as_patch(self):
        os.makedirs(os.path.join(self.dir, "adir"), exist_ok=True)
        self.refused(f"{self.tree}+{self.dir}/adir", "adir",
                     "is a directory, not a patch file")

    def test_at_in_folder_name(self):
        tree = os.path.join(self.dir, "u@host", "linux")
        shutil.copytree(self.tree, tree, symlinks=True)
        r = build("--until", "patch", tree, cache=self.cache)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_stale_stamp(self):
        # the patched tree gone behind the stamp's back: made again
        r = build("--until", "patch", self.tree, cache=self.cache)
        self.assertEqual(r.returncode, 0, r.stderr)
        ptree = r.stdout.strip().splitlines()[-1]
        shutil.rmtree(ptree)
        r = build("--until", "patch", self.tree, cache=self.cache)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.isfile(os.path.join(ptree, "Makefile")))

    def test_not_a_git_tree(self):
        self.refused(f"{self.dir}", "is it a git tree")

    def test_no_such_revision(self):
        self.refused(f"{self.tree}@v99.1", "no commit 'v99.1'")

    def test_bad_suite_name(self):
        self.refused("Not_A_Suite", "is not a Debian suite name")


@unittest.skipIf(OFFLINE, "--offline")
class DebianSource(unittest.TestCase):
    """The real path: sid's source, 011's patches, the guest config."""

    def test_a_no_such_suite(self):
        with tempfile.TemporaryDirectory() as cache:
            r = build("--until", "source", "nosuchsuite", cache=cache)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("no package index for suite 'nosuchsuite'", r.stderr)

    def test_a_plus_in_version(self):
        # backports' versions carry a '+': taken as the base's, not a patch
        r = build("--until", "source", "sid:7.2.13-1~bpo13+1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("no kernel source 7.2.13-1~bpo13+1 in sid", r.stderr)

    def test_b_no_such_version(self):
        r = build("--until", "source", "sid:3.2")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertRegex(r.stderr, r"no kernel source 3\.2 in sid; it has "
                         r"\d+\.\d+")

    def test_c_seed_twice(self):
        r = build("--until", "patch", f"sid+{BASE_011}+{SEED_011}+{SEED_011}")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("011-mm-mglru-use-folio-mark-accessed.patch "
                      "\"[PATCH] mm/mglru: Use folio_mark_accessed to "
                      "replace folio_set_active in PF\" does not apply",
                      r.stderr)
        self.assertIn("patch failed: mm/swap.c:", r.stderr)

    def test_d_config(self):
        r = build("--until", "config", f"sid+{X86_OLD}+{BASE_011}+{SEED_011}")
        self.assertEqual(r.returncode, 0, r.stderr)
        obj = r.stdout.strip().splitlines()[-1]
        tree = os.path.join(os.path.dirname(obj), "src")
        with open(os.path.join(tree, "mm", "swap.c")) as f:
            swap = f.read()
        # 011 on its base: every folio added in a fault marked accessed
        self.assertRegex(swap, r"PF_MEMALLOC\)\)\n\t\tfolio_mark_accessed")
        with open(os.path.join(tree, "arch/x86/include/asm/pgtable.h")) as f:
            self.assertIn("#define arch_wants_old_prefaulted_pte", f.read())
        with open(os.path.join(obj, ".config")) as f:
            config = f.read()
        self.assert_fragments_hold(config, "x86")
        # the base's own choices (Debian's 7.2 cloud config): MGLRU on,
        # lazy preemption, its tick, THP always, mitigations on, pages
        # zeroed when allocated, block writeback throttling, zram's lz4
        for line in ("CONFIG_LRU_GEN=y", "CONFIG_LRU_GEN_ENABLED=y",
                     "CONFIG_PREEMPT_LAZY=y", "CONFIG_HZ_250=y",
                     "CONFIG_TRANSPARENT_HUGEPAGE_ALWAYS=y",
                     "CONFIG_CPU_MITIGATIONS=y",
                     "CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y", "CONFIG_BLK_WBT=y",
                     "CONFIG_ZRAM_DEF_COMP_LZ4=y"):
            self.assertIn(line + "\n", config)
        # and nothing the guest does not use: allnoconfig's base (no USB,
        # no graphics, no network drivers), not defconfig's
        for key in ("CONFIG_USB", "CONFIG_DRM", "CONFIG_NETDEVICES",
                    "CONFIG_SOUND", "CONFIG_INET"):
            self.assertNotIn(key + "=y\n", config)
        self.assertIn("CONFIG_LRU_GEN=y", r.stderr, "the choices are said")

    def assert_fragments_hold(self, config, arch):
        """Every line of lab.config and lab-ARCH.config in CONFIG."""
        for name in ("lab.config", f"lab-{arch}.config"):
            with open(os.path.join(TOP, "scripts", "kconfig", name)) as f:
                for line in f:
                    line = line.strip()
                    if not line or line.startswith("#"):
                        continue
                    key, _, value = line.partition("=")
                    if value == "n":
                        self.assertIn(f"# {key} is not set", config)
                    elif value != '""':
                        self.assertIn(line + "\n", config)

    def test_e_arm64_config(self):
        """arm64's guest: its machine's fragment and Debian's cloud-arm64
        choices, the hardware access flag among them (without it arm64
        makes no PTE old, and seed 011 has nothing to show)."""
        r = build("--arch", "arm64", "--until", "config", f"sid+{BASE_011}")
        self.assertEqual(r.returncode, 0, r.stderr)
        obj = r.stdout.strip().splitlines()[-1]
        with open(os.path.join(obj, ".config")) as f:
            config = f.read()
        self.assertIn("CONFIG_ARM64=y\n", config)
        self.assert_fragments_hold(config, "arm64")
        for line in ("CONFIG_ARM64_HW_AFDBM=y", "CONFIG_ARM64_4K_PAGES=y",
                     "CONFIG_ARM64_PTR_AUTH=y", "CONFIG_LRU_GEN_ENABLED=y",
                     "CONFIG_PREEMPT_LAZY=y"):
            self.assertIn(line + "\n", config)
        self.assertNotIn("CONFIG_X86", config)


if __name__ == "__main__":
    argv = [a for a in sys.argv if a != "--offline"]
    unittest.main(argv=argv, verbosity=2)
