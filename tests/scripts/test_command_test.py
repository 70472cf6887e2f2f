#!/usr/bin/env python3
"""The README test command's own rules (scripts/resolve_corpus.sh, scripts/test_summary.py):
a relative TESMOD_CORPUS is taken from where the command started, a TESMOD_CORPUS that is not a
directory stops the run, and a run in which tests skipped although a corpus was given fails,
with a last line that counts passed, failed and skipped tests."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RESOLVE = os.path.join(ROOT, "scripts", "resolve_corpus.sh")
SUMMARY = os.path.join(ROOT, "scripts", "test_summary.py")


def junit(path, cases):
    """cases: (name, 'pass' | 'fail' | 'skip')"""
    body = []
    for name, kind in cases:
        inner = {"pass": "", "fail": "<failure message='x'/>", "skip": "<skipped message='no corpus'/>"}[kind]
        status = {"pass": "run", "fail": "fail", "skip": "notrun"}[kind]
        body.append(f'<testcase name="{name}" classname="{name}" time="0" status="{status}">{inner}</testcase>')
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="t" tests="%d">%s</testsuite>\n'
                % (len(cases), "".join(body)))


class ResolveCorpus(unittest.TestCase):
    def run_resolve(self, env_value, start):
        env = dict(os.environ)
        if env_value is None:
            env.pop("TESMOD_CORPUS", None)
        else:
            env["TESMOD_CORPUS"] = env_value
        return subprocess.run(["bash", RESOLVE, start], env=env, capture_output=True, text=True)

    def test_relative_path_is_taken_from_the_start_directory(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "work", "corpus"))
            r = self.run_resolve("corpus", os.path.join(d, "work"))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.strip(), os.path.realpath(os.path.join(d, "work", "corpus")))
            # The same relative path from elsewhere (the build folder, say) names nothing.
            r = self.run_resolve("corpus", d)
            self.assertEqual(r.returncode, 1)

    def test_a_corpus_that_is_not_a_directory_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.run_resolve(os.path.join(d, "missing"), d)
            self.assertEqual(r.returncode, 1)
            self.assertIn("not a directory", r.stderr)
            self.assertEqual(r.stdout, "")
            open(os.path.join(d, "file"), "w").close()
            self.assertEqual(self.run_resolve(os.path.join(d, "file"), d).returncode, 1)

    def test_absolute_path_is_kept(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.run_resolve(d, "/")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.strip(), os.path.realpath(d))


class Summary(unittest.TestCase):
    def summary(self, *args):
        r = subprocess.run([sys.executable, SUMMARY, *args], capture_output=True, text=True)
        return r.returncode, r.stdout.strip().splitlines()

    def test_all_passed(self):
        with tempfile.TemporaryDirectory() as d:
            junit(os.path.join(d, "a.xml"), [("A", "pass"), ("B", "pass")])
            code, lines = self.summary("--corpus", d, "release=" + os.path.join(d, "a.xml"))
            self.assertEqual(code, 0)
            self.assertIn("release 2 passed, 0 failed, 0 skipped", lines[-1])
            self.assertIn("none skipped", lines[-1])

    def test_a_skip_with_a_corpus_given_fails(self):
        with tempfile.TemporaryDirectory() as d:
            junit(os.path.join(d, "a.xml"), [("A", "pass"), ("Corpus.X", "skip")])
            code, lines = self.summary("--corpus", d, "release=" + os.path.join(d, "a.xml"))
            self.assertEqual(code, 1)
            self.assertIn("1 skipped", lines[-1])
            self.assertIn("FAILED", lines[-1])
            self.assertTrue(any("Corpus.X" in l for l in lines))

    def test_a_skip_without_a_corpus_passes_but_says_so_last(self):
        with tempfile.TemporaryDirectory() as d:
            junit(os.path.join(d, "a.xml"), [("A", "pass"), ("Corpus.X", "skip")])
            code, lines = self.summary("release=" + os.path.join(d, "a.xml"))
            self.assertEqual(code, 0)
            self.assertIn("SKIPPED", lines[-1])
            self.assertNotIn("none skipped", lines[-1])

    def test_failures_and_missing_reports_fail(self):
        with tempfile.TemporaryDirectory() as d:
            junit(os.path.join(d, "a.xml"), [("A", "fail")])
            code, lines = self.summary("release=" + os.path.join(d, "a.xml"))
            self.assertEqual(code, 1)
            self.assertIn("1 failed", lines[-1])
            code, lines = self.summary("asan=" + os.path.join(d, "missing.xml"))
            self.assertEqual(code, 1)
            self.assertIn("no report", lines[-1])

    def test_counts_over_both_halves(self):
        with tempfile.TemporaryDirectory() as d:
            junit(os.path.join(d, "r.xml"), [("A", "pass")])
            junit(os.path.join(d, "s.xml"), [("A", "pass"), ("B", "pass")])
            code, lines = self.summary("--corpus", d, "release=" + os.path.join(d, "r.xml"),
                                       "asan=" + os.path.join(d, "s.xml"))
            self.assertEqual(code, 0)
            self.assertIn("release 1 passed", lines[-1])
            self.assertIn("asan 2 passed", lines[-1])


if __name__ == "__main__":
    unittest.main(verbosity=2)
