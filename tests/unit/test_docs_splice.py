#!/usr/bin/env python3
"""scripts/docs-splice on good and broken markers (make unit).

Run with the rs-docs binary to splice from: tests/unit/test_docs_splice.py
build/rs-docs
"""
import os
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SPLICE = os.path.join(TOP, "scripts", "docs-splice")
RS_DOCS = None


def splice(text):
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([SPLICE, RS_DOCS, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)


class DocsSplice(unittest.TestCase):
    def test_fills_and_keeps_the_rest(self):
        r = splice("a\n<!-- BEGIN generated: top-columns -->\nold\n"
                   "<!-- END generated: top-columns -->\nb\n")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "a")
        self.assertIn("scanned/s", lines[2])
        self.assertNotIn("old", r.stdout)
        self.assertEqual(lines[-1], "b")
        # idempotent
        self.assertEqual(splice(r.stdout).stdout, r.stdout)

    def refused(self, text, why):
        r = splice(text)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn(why, r.stderr)
        self.assertEqual(r.stdout, "")

    def test_broken_markers_are_refused(self):
        b, e = "<!-- BEGIN generated: top-columns -->\n", "<!-- END generated: top-columns -->\n"
        self.refused("a\n" + b + "x\n", "no partner")
        self.refused("a\n" + b + "x\n" + e + e, "no partner")
        self.refused(b + "<!-- END generated: top-columns-old -->\n", "not followed by its END")
        self.refused(b.strip() + " " + e, "not on a line of its own")
        self.refused(e + b, "not followed by its END")
        self.refused("no markers\n", "no markers")
        self.refused("<!-- BEGIN generated: nosuch -->\n<!-- END generated: nosuch -->\n",
                     "no list 'nosuch'")
        self.refused((b + e).replace("\n", "\r\n"), "CRLF")


if __name__ == "__main__":
    RS_DOCS = os.path.abspath(sys.argv.pop(1))
    unittest.main()
