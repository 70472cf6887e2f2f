"""pytest set-up for the Python module's tests: the corpus (the rules of the C++ tests), and a
run that skipped anything exits 77, which ctest reports as skipped, never as passed."""
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scripts"))
sys.path.insert(0, str(HERE))
import corpus as corpus_rules  # noqa: E402


@pytest.fixture(scope="session")
def corpus():
    try:
        where = corpus_rules.corpus_dir()
    except corpus_rules.CorpusMissing as e:
        pytest.fail(str(e))
    if where is None:
        pytest.skip("corpus not found: set TESMOD_CORPUS or place it at ../shared/corpus")
    return where


@pytest.fixture(scope="session")
def record_counts(corpus):
    return corpus_rules.manifest_record_counts(corpus)


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if exitstatus == 0 and reporter is not None and reporter.stats.get("skipped"):
        session.exitstatus = corpus_rules.SKIP
