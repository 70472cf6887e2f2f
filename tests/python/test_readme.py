"""The README's Python example runs as written (its /tmp outputs redirected to a test folder),
from the source tree, on the samples it names."""
import contextlib
import io
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_python_example_runs(tmp_path):
    text = (ROOT / "README.md").read_text()
    section = text[text.index("### Python"):]
    start = section.index("```python\n") + len("```python\n")
    code = section[start:section.index("```", start)]
    assert "tesmod.open(" in code and "open_save(" in code
    code = code.replace('"/tmp/', f'"{tmp_path}/')
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md (Python example)", "exec"), {})
    finally:
        os.chdir(cwd)
    printed = out.getvalue()
    assert "GetStage(TesmodSampleQuest)" in printed
    assert "'TesmodSampleCoin'" in printed
    assert (tmp_path / "Out.esp").stat().st_size > 0 and (tmp_path / "Out.ess").stat().st_size > 0
