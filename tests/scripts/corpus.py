"""Where the corpus is, for the Python tests: the rules of tests/support/test_support.cpp.

TESMOD_CORPUS when set (a path that is not a folder is an error, not a skip), else
../shared/corpus beside the source tree. When neither is there the test skips, or fails when
CI=true.
"""
import os
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2]
SKIP = 77  # ctest's SKIP_RETURN_CODE for these tests


class CorpusMissing(Exception):
    """No corpus, and that is a failure (CI=true, or TESMOD_CORPUS names no folder)."""


def corpus_dir():
    """The corpus folder, or None when the test should skip."""
    named = os.environ.get("TESMOD_CORPUS")
    if named:
        path = Path(named)
        if not path.is_dir():
            raise CorpusMissing(f"TESMOD_CORPUS={named} is not a folder")
        return path
    path = SOURCE.parent / "shared" / "corpus"
    if path.is_dir():
        return path
    if os.environ.get("CI") == "true":
        raise CorpusMissing("corpus not found and CI=true")
    return None


def manifest_record_counts(corpus):
    """{relative path: records} from MANIFEST.tsv's notes ("182 records; ...")."""
    counts = {}
    lines = (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    for line in lines[1:]:
        row = dict(zip(header, line.split("\t")))
        words = row.get("notes", "").split()
        if len(words) >= 2 and words[1].rstrip(";") == "records" and words[0].isdigit():
            counts[row["file"]] = int(words[0])
    return counts
