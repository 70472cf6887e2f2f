#!/usr/bin/env python3
"""One-line summary of ctest JUnit reports, and whether the run may count as passed.

Usage: test_summary.py [--corpus DIR] NAME=REPORT.xml [NAME=REPORT.xml ...]

Prints `tests: NAME P passed, F failed, S skipped; ...` and then a verdict line. The run
fails when a test failed, when a report is missing, or when any test skipped although a corpus
was given (--corpus): tests skip only for want of the corpus or its tools, so a skip then means
the suite did not look where it was told to. Skipped tests are listed by name.
"""
import sys
import xml.etree.ElementTree as ET


def count(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    passed, failed, skipped = 0, [], []
    for suite in suites:
        for case in suite.iter("testcase"):
            name = case.get("name", "?")
            status = case.get("status", "")
            if case.find("skipped") is not None or status in ("notrun", "disabled"):
                skipped.append(name)
            elif case.find("failure") is not None or case.find("error") is not None or status == "fail":
                failed.append(name)
            else:
                passed += 1
    return passed, failed, skipped


def main(argv):
    corpus = None
    reports = []
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == "--corpus":
            corpus = args.pop(0) if args else ""
        else:
            name, _, path = a.partition("=")
            reports.append((name, path))
    if not reports:
        print("test_summary: no reports given", file=sys.stderr)
        return 2
    parts, ok, total_skipped = [], True, []
    for name, path in reports:
        try:
            passed, failed, skipped = count(path)
        except (OSError, ET.ParseError) as e:
            parts.append(f"{name}: no report ({e})")
            ok = False
            continue
        parts.append(f"{name} {passed} passed, {len(failed)} failed, {len(skipped)} skipped")
        ok = ok and not failed
        for f in failed:
            print(f"  failed ({name}): {f}")
        for s in skipped:
            print(f"  skipped ({name}): {s}")
        total_skipped += skipped
    line = "tests: " + "; ".join(parts)
    if not ok:
        print(line + " -- FAILED")
        return 1
    if total_skipped and corpus:
        print(line + f" -- FAILED: {len(total_skipped)} tests skipped although the corpus was given ({corpus})")
        return 1
    if total_skipped:
        print(line + f" -- passed, but {len(total_skipped)} tests SKIPPED (no corpus: set TESMOD_CORPUS)")
        return 0
    print(line + " -- all passed, none skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
