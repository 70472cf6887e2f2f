#!/usr/bin/env python3
"""Installs the built tesmod into a fresh prefix and builds tests/consumer against it, once
through CMake (find_package) and through pkg-config (plain, and on a static install --static
too); each program must print the record count MANIFEST.tsv gives for corpus plugins of both
games, and the library's error for a file that is not a plugin. When the build has the Python
module, the installed package must import from the prefix and count the same records.

    consumer_test.py BUILD_DIR CXX [--sanitize]
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

CONSUMER = corpus.SOURCE / "tests" / "consumer"
SANITIZE = "-fsanitize=address,undefined"


def run(args, env=None, **kw):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env, **kw)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def check_program(program, plugins, not_a_plugin, env=None):
    for path, game, records in plugins:
        out = run([program, path], env=env).strip()
        want = f"{game} {records} records"
        if out != want:
            raise AssertionError(f"{program} {path}: printed {out!r}, MANIFEST.tsv says {want!r}")
    bad = subprocess.run([str(program), str(not_a_plugin)], capture_output=True, text=True, env=env)
    if bad.returncode != 1 or str(not_a_plugin) not in bad.stderr:
        raise AssertionError(f"{program} on a non-plugin: exit {bad.returncode}, stderr {bad.stderr!r}")


def main():
    build, cxx = Path(sys.argv[1]), sys.argv[2]
    sanitize = "--sanitize" in sys.argv[3:]
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
        chosen = sorted(f for f in counts if f.startswith(folder) and f.endswith(".esp"))[:2]
        if not chosen:
            raise AssertionError(f"no {game} plugin with a record count in MANIFEST.tsv")
        plugins += [(where / f, game, counts[f]) for f in chosen]

    with tempfile.TemporaryDirectory(prefix="tesmod-consumer-") as tmp:
        tmp = Path(tmp)
        prefix = tmp / "prefix"
        run(["cmake", "--install", build, "--prefix", prefix])
        for part in ("include/tesmod/plugin/plugin_file.hpp", "bin/tesmod"):
            if not (prefix / part).exists():
                raise AssertionError(f"install has no {part}")
        configs = list(prefix.glob("lib*/**/cmake/tesmod/tesmodConfig.cmake"))
        pcs = list(prefix.glob("lib*/**/pkgconfig/tesmod.pc"))
        if len(configs) != 1 or len(pcs) != 1:
            raise AssertionError(f"install has {len(configs)} tesmodConfig.cmake and {len(pcs)} tesmod.pc")
        not_a_plugin = tmp / "not a plugin.esp"
        not_a_plugin.write_bytes(b"this is not a plugin")
        flags = [SANITIZE] if sanitize else []
        shared = sorted(prefix.glob("lib*/**/libtesmod.so*"))
        run_env = None
        if shared:
            # A shared install: the real file, the SONAME link (major.minor before 1.0) and the
            # development link; the programs find the library by its SONAME.
            version = config_version(build)
            soname = "libtesmod.so." + ".".join(version.split(".")[:2])
            want = {"libtesmod.so", soname, "libtesmod.so." + version}
            if {p.name for p in shared} != want:
                raise AssertionError(f"shared install has {sorted(p.name for p in shared)}; expected {sorted(want)}")
            run_env = dict(os.environ, LD_LIBRARY_PATH=str(shared[0].parent))

        # CMake: find_package(tesmod 0.2 CONFIG REQUIRED) -> tesmod::tesmod.
        cmake_build = tmp / "cmake-build"
        run(["cmake", "-S", CONSUMER, "-B", cmake_build, f"-DCMAKE_PREFIX_PATH={prefix}",
             f"-DCMAKE_CXX_COMPILER={cxx}", "-DCMAKE_BUILD_TYPE=Release",
             f"-DCMAKE_CXX_FLAGS={' '.join(flags)}", f"-DCMAKE_EXE_LINKER_FLAGS={' '.join(flags)}"])
        run(["cmake", "--build", cmake_build])
        check_program(cmake_build / "count_records", plugins, not_a_plugin, run_env)
        print(f"cmake consumer: {len(plugins)} plugins counted as MANIFEST.tsv says")

        # pkg-config, as most callers run it (no --static): that alone must link, a static
        # libtesmod's own dependencies included; a shared one keeps them private (named only by
        # --static). On the static install the --static line must link too.
        env = dict(os.environ, PKG_CONFIG_PATH=str(pcs[0].parent))
        version = run(["pkg-config", "--modversion", "tesmod"], env=env).strip()
        if version != config_version(build):
            raise AssertionError(f"tesmod.pc says version {version}, the build {config_version(build)}")
        own = "-ldeflate"  # one of libtesmod's own dependencies (libdeflate, zlib, libpng)
        plain = run(["pkg-config", "--cflags", "--libs", "tesmod"], env=env).split()
        if (own in plain) == bool(shared):
            raise AssertionError(f"pkg-config --libs on a {'shared' if shared else 'static'} install: {plain}")
        variants = [("plain", plain)]
        if not shared:
            variants.append(("--static", run(["pkg-config", "--cflags", "--libs", "--static", "tesmod"], env=env).split()))
        for name, pc_flags in variants:
            program = tmp / f"count_records_pc_{name.strip('-')}"
            run([cxx, "-std=c++20", "-O1", *flags, CONSUMER / "count_records.cpp", "-o", program, *pc_flags])
            check_program(program, plugins, not_a_plugin, run_env)
            print(f"pkg-config {name} consumer ({' '.join(pc_flags)}): {len(plugins)} plugins counted as MANIFEST.tsv says")

        # The Python package, when built: installed under the prefix, imported from there (not
        # from the build) by the interpreter it was built for.
        python = cache_value(build, "Python_EXECUTABLE") if cache_value(build, "TESMOD_PYTHON") == "ON" else None
        if python:
            inits = list(prefix.glob("lib*/python3*/*-packages/tesmod/__init__.py"))
            if len(inits) != 1:
                raise AssertionError(f"install has {len(inits)} tesmod Python packages")
            site = inits[0].parent.parent
            for want in ("_tesmod.pyi", "py.typed"):
                if not (inits[0].parent / want).exists():
                    raise AssertionError(f"installed Python package has no {want}")
            py_env = dict(os.environ, PYTHONPATH=str(site))
            py_env.pop("PYTHONHOME", None)
            code = ("import sys, tesmod; p = tesmod.open(sys.argv[1]); "
                    "print(tesmod.__file__); print(p.game, len(p), 'records')")
            for path, game, records in plugins:
                where, printed = run([python, "-c", code, path], env=py_env, cwd=tmp).strip().splitlines()
                if not where.startswith(str(site)):
                    raise AssertionError(f"tesmod imported from {where}, not the install at {site}")
                if printed != f"{game} {records} records":
                    raise AssertionError(f"installed Python module on {path}: {printed!r}")
            print(f"Python package installed in {site.relative_to(prefix)}: {len(plugins)} plugins counted")
    return 0


def cache_value(build, name):
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1]
    return None


def config_version(build):
    return cache_value(build, "CMAKE_PROJECT_VERSION") or "?"


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print(f"FAIL: {e}")
        sys.exit(1)
