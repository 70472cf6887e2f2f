#!/usr/bin/env python3
"""`pip install .`, as a Python user does it, without a second compile: pip builds the wheel
from the source tree through pyproject.toml's backend, told (TESMOD_WHEEL_BUILD_DIR) to pack the
module this build folder built; the wheel must hold the package with the project's version and a
RECORD that matches it; installed with pip into a fresh virtual environment, offline (--no-index),
it must import from there (not from the source or the build) and count the records MANIFEST.tsv
gives for corpus plugins of both games; `pip uninstall tesmod` must remove it. The backend's
sdist must hold the source tree and not the build folders.

    wheel_test.py BUILD_DIR PYTHON
"""
import base64
import hashlib
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

BACKEND = corpus.SOURCE / "python" / "backend"


def run(args, env=None, **kw):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env, **kw)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def cache_value(build, name):
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1]
    return None


def check_wheel(wheel, build, version, ext_suffix):
    module = f"tesmod/_tesmod{ext_suffix}"
    info = f"tesmod-{version}.dist-info"
    want = {"tesmod/__init__.py", "tesmod/_tesmod.pyi", "tesmod/py.typed", module,
            f"{info}/METADATA", f"{info}/WHEEL", f"{info}/LICENSE", f"{info}/RECORD"}
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        if names != want:
            raise AssertionError(f"{wheel.name} holds {sorted(names)}; expected {sorted(want)}")
        metadata = archive.read(f"{info}/METADATA").decode()
        if f"\nVersion: {version}\n" not in metadata or "\nName: tesmod\n" not in metadata:
            raise AssertionError(f"{wheel.name}: METADATA is\n{metadata}")
        if "Root-Is-Purelib: false" not in archive.read(f"{info}/WHEEL").decode():
            raise AssertionError(f"{wheel.name}: WHEEL does not say the package is platform-specific")
        for line in archive.read(f"{info}/RECORD").decode().splitlines():
            name, digest, size = line.split(",")
            if name == f"{info}/RECORD":
                continue
            data = archive.read(name)
            mine = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            if (digest, size) != (mine, str(len(data))):
                raise AssertionError(f"{wheel.name}: RECORD says {name} is {digest},{size}; it is {mine},{len(data)}")
        # The module the suite built and tested, not another compile.
        if archive.read(module) != (build / "python" / module).read_bytes():
            raise AssertionError(f"{wheel.name}: {module} is not the one in {build / 'python'}")


def check_sdist(tmp, version):
    sys.path.insert(0, str(BACKEND))
    import tesmod_backend
    name = tesmod_backend.build_sdist(str(tmp / "sdist"))
    if name != f"tesmod-{version}.tar.gz":
        raise AssertionError(f"sdist is named {name}")
    with tarfile.open(tmp / "sdist" / name) as archive:
        members = {m.name.split("/", 1)[1] for m in archive.getmembers()}
        pkg_info = archive.extractfile(f"tesmod-{version}/PKG-INFO").read().decode()
    for want in ("CMakeLists.txt", "pyproject.toml", "python/backend/tesmod_backend.py", "src/CMakeLists.txt",
                 "python/tesmod/_tesmod.pyi", "LICENSE"):
        if want not in members:
            raise AssertionError(f"sdist has no {want}")
    stray = sorted(m for m in members if m.startswith(("build", ".git/")))
    if stray:
        raise AssertionError(f"sdist holds build or git files: {stray[:5]}")
    if f"\nVersion: {version}\n" not in pkg_info:
        raise AssertionError(f"sdist PKG-INFO is\n{pkg_info}")
    return len(members)


def main():
    build, python = Path(sys.argv[1]).resolve(), sys.argv[2]
    try:
        where = corpus.corpus_dir()
    except corpus.CorpusMissing as e:
        print(f"FAIL: {e}")
        return 1
    if where is None:
        print("corpus not found: set TESMOD_CORPUS or place it at ../shared/corpus (skipped)")
        return corpus.SKIP
    counts = corpus.manifest_record_counts(where)
    plugins = []
    for game, folder in (("oblivion", "oblivion/"), ("skyrim", "skyrim/")):
        chosen = sorted(f for f in counts if f.startswith(folder) and f.endswith(".esp"))[:1]
        if not chosen:
            raise AssertionError(f"no {game} plugin with a record count in MANIFEST.tsv")
        plugins += [(where / f, game, counts[f]) for f in chosen]
    version = cache_value(build, "CMAKE_PROJECT_VERSION")

    with tempfile.TemporaryDirectory(prefix="tesmod-wheel-") as tmp:
        tmp = Path(tmp)
        venv = tmp / "venv"
        run([python, "-m", "venv", venv])
        venv_python = venv / "bin" / "python"
        env = dict(os.environ, TESMOD_WHEEL_BUILD_DIR=str(build), PIP_DISABLE_PIP_VERSION_CHECK="1")
        env.pop("PYTHONPATH", None)
        env.pop("PYTHONHOME", None)

        # pip builds the wheel through the backend, in its isolated build environment, offline.
        run([venv_python, "-m", "pip", "wheel", "--no-index", "--no-deps", "-w", tmp / "wheels", corpus.SOURCE],
            env=env, cwd=tmp)
        wheels = list((tmp / "wheels").glob("*.whl"))
        ext_suffix = run([venv_python, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
                         env=env).strip()
        if len(wheels) != 1 or not wheels[0].name.startswith(f"tesmod-{version}-cp"):
            raise AssertionError(f"pip wheel made {[w.name for w in wheels]}; expected one tesmod-{version}-cp*.whl")
        check_wheel(wheels[0], build, version, ext_suffix)
        print(f"{wheels[0].name}: the package, version {version}, RECORD matching, the module this build made")

        run([venv_python, "-m", "pip", "install", "--no-index", "--no-deps", wheels[0]], env=env, cwd=tmp)
        site = Path(run([venv_python, "-c", "import sysconfig; print(sysconfig.get_path('platlib'))"], env=env).strip())
        code = ("import sys, tesmod\n"
                "print(tesmod.__file__)\nprint(tesmod.__version__)\n"
                "for path in sys.argv[1:]:\n"
                "    p = tesmod.open(path)\n"
                "    print(p.game, len(p), 'records')\n")
        out = run([venv_python, "-c", code, *[p for p, _, _ in plugins]], env=env, cwd=tmp).strip().splitlines()
        if Path(out[0]).parent != site / "tesmod":
            raise AssertionError(f"tesmod imported from {out[0]}, not the virtual environment's {site}")
        if out[1] != version:
            raise AssertionError(f"installed tesmod.__version__ is {out[1]}, the project's {version}")
        for (path, game, records), printed in zip(plugins, out[2:]):
            if printed != f"{game} {records} records":
                raise AssertionError(f"installed module on {path}: {printed!r}, MANIFEST.tsv says {records}")
        for name in ("_tesmod.pyi", "py.typed"):
            if not (site / "tesmod" / name).is_file():
                raise AssertionError(f"installed package has no {name}")
        print(f"installed in a fresh virtual environment: imported from {site.relative_to(tmp)}, "
              f"{len(plugins)} plugins counted as MANIFEST.tsv says")

        run([venv_python, "-m", "pip", "uninstall", "-y", "tesmod"], env=env, cwd=tmp)
        left = sorted(p.name for p in site.iterdir() if p.name.startswith("tesmod"))
        if left:
            raise AssertionError(f"pip uninstall tesmod left {left} in {site}")
        gone = subprocess.run([str(venv_python), "-c", "import tesmod"], capture_output=True, text=True, env=env, cwd=tmp)
        if gone.returncode == 0 or "ModuleNotFoundError" not in gone.stderr:
            raise AssertionError(f"tesmod still imports after pip uninstall: {gone.stderr!r}")
        print("pip uninstall tesmod: removed")

        files = check_sdist(tmp, version)
        print(f"sdist: {files} files of the source tree, PKG-INFO version {version}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print(f"FAIL: {e}")
        sys.exit(1)
