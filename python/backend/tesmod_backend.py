"""The PEP 517 build backend behind `pip install .` (pyproject.toml): builds the Python module
with the project's own CMake and packs the package folder CMake assembles (BUILD/python/tesmod:
the compiled _tesmod, __init__.py, the _tesmod.pyi stubs and py.typed) into a wheel. Standard
library only, so pip's isolated build environment needs nothing downloaded.

Where it builds:
  - by default in build-wheel/ beside pyproject.toml: configured once (Release, the module only,
    libtesmod linked into it statically, for the Python running pip), later builds incremental;
  - with TESMOD_WHEEL_BUILD_DIR=DIR, in DIR: a build folder already configured from this source
    with -DTESMOD_PYTHON=ON for this Python (scripts/test.sh's build/, say). The module is
    brought up to date there (`cmake --build DIR --target _tesmod`) and packed as DIR built it.

The version is CMakeLists.txt's `project(tesmod VERSION ...)`; the other metadata is
pyproject.toml's [project] table.
"""
import base64
import gzip
import hashlib
import io
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_FILES = ("__init__.py", "_tesmod.pyi", "py.typed")  # beside the compiled module
# Archive members get one fixed time (SOURCE_DATE_EPOCH, else 1980-01-01, the first a zip can
# hold), so the same files pack to the same bytes.
EPOCH = max(int(os.environ.get("SOURCE_DATE_EPOCH", "0")), 315532800)


class BuildError(Exception):
    pass


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    found = re.search(r"project\(\s*tesmod\s+VERSION\s+([0-9][0-9.]*)", text)
    if not found:
        raise BuildError(f"{ROOT / 'CMakeLists.txt'}: no `project(tesmod VERSION x.y.z)`")
    return found.group(1)


def project_table():
    """pyproject.toml's [project] table: tomllib where there is one (3.11), else the plain
    `key = "string"` lines this file uses."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
        return tomllib.loads(text)["project"]
    except ImportError:
        table = {}
        section = text.split("[project]", 1)[1].split("\n[", 1)[0]
        for key, value in re.findall(r'^([\w-]+)\s*=\s*"([^"]*)"', section, re.M):
            table[key] = value
        license_text = re.search(r'^license\s*=\s*\{\s*text\s*=\s*"([^"]*)"', section, re.M)
        if license_text:
            table["license"] = {"text": license_text.group(1)}
        return table


def metadata_text():
    project = project_table()
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project_version()}",
             f"Summary: {project['description']}"]
    if "license" in project:
        lines.append(f"License: {project['license']['text']}")
    lines.append(f"Requires-Python: {project['requires-python']}")
    return "\n".join(lines) + "\n"


def wheel_tag():
    if sys.implementation.name != "cpython":
        raise BuildError(f"tesmod's module is built for CPython, not {sys.implementation.name}")
    python = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    abi = python + ("d" if sysconfig.get_config_var("Py_DEBUG") else "")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python}-{abi}-{platform}"


def dist_name():
    return f"{project_table()['name']}-{project_version()}"


def wheel_text():
    return f"Wheel-Version: 1.0\nGenerator: tesmod_backend\nRoot-Is-Purelib: false\nTag: {wheel_tag()}\n"


def cache_values(build):
    values = {}
    for line in (build / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace").splitlines():
        found = re.match(r"([A-Za-z_][\w.-]*):\w+=(.*)", line)
        if found:
            values[found.group(1)] = found.group(2)
    return values


def cmake(*args):
    print("tesmod_backend: cmake " + " ".join(str(a) for a in args), flush=True)
    subprocess.run(["cmake", *map(str, args)], check=True)


def build_module():
    """Builds _tesmod and returns the folder holding the package files."""
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
    given = os.environ.get("TESMOD_WHEEL_BUILD_DIR")
    if given:
        build = Path(given).resolve()
        if not (build / "CMakeCache.txt").is_file():
            raise BuildError(f"TESMOD_WHEEL_BUILD_DIR={given}: not a configured CMake build folder")
        cache = cache_values(build)
        if Path(cache.get("CMAKE_HOME_DIRECTORY", "")).resolve() != ROOT:
            raise BuildError(f"TESMOD_WHEEL_BUILD_DIR={given} was configured from "
                             f"{cache.get('CMAKE_HOME_DIRECTORY')}, not {ROOT}")
        if cache.get("TESMOD_PYTHON") != "ON":
            raise BuildError(f"TESMOD_WHEEL_BUILD_DIR={given} was configured without -DTESMOD_PYTHON=ON")
        if cache.get("BUILD_SHARED_LIBS") == "ON":
            raise BuildError(f"TESMOD_WHEEL_BUILD_DIR={given} builds a shared libtesmod, which the wheel "
                             "would not carry: use a build with the static library")
    else:
        build = ROOT / "build-wheel"
        cmake("-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DTESMOD_PYTHON=ON",
              "-DTESMOD_TESTS=OFF", "-DBUILD_SHARED_LIBS=OFF", f"-DPython_EXECUTABLE={sys.executable}")
    cmake("--build", build, "--target", "_tesmod", "-j", jobs)
    package = build / "python" / "tesmod"
    module = package / ("_tesmod" + sysconfig.get_config_var("EXT_SUFFIX"))
    if not module.is_file():
        built = sorted(p.name for p in package.glob("_tesmod*.so"))
        raise BuildError(f"{build} holds {built or 'no module'}, not {module.name} for {sys.executable} "
                         f"(it was configured for Python_EXECUTABLE={cache_values(build).get('Python_EXECUTABLE')})")
    return package, module


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def zip_member(archive, name, data, executable=False):
    info = zipfile.ZipInfo(name, date_time=time.gmtime(EPOCH)[:6])
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o100755 if executable else 0o100644) << 16
    archive.writestr(info, data)


# PEP 517 hooks.

def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = Path(metadata_directory) / f"{dist_name()}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(metadata_text(), encoding="utf-8")
    (info / "WHEEL").write_text(wheel_text(), encoding="utf-8")
    return info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package, module = build_module()
    members = [(f"tesmod/{name}", (package / name).read_bytes(), False) for name in PACKAGE_FILES]
    members.append((f"tesmod/{module.name}", module.read_bytes(), True))
    info = f"{dist_name()}.dist-info"
    members += [(f"{info}/METADATA", metadata_text().encode(), False),
                (f"{info}/WHEEL", wheel_text().encode(), False),
                (f"{info}/LICENSE", (ROOT / "LICENSE").read_bytes(), False)]
    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, data, _ in members)
    record += f"{info}/RECORD,,\n"
    name = f"{dist_name()}-{wheel_tag()}.whl"
    Path(wheel_directory).mkdir(parents=True, exist_ok=True)
    target = Path(wheel_directory) / name
    partial = target.with_name(name + ".partial")
    with zipfile.ZipFile(partial, "w") as archive:
        for member, data, executable in members:
            zip_member(archive, member, data, executable)
        zip_member(archive, f"{info}/RECORD", record.encode())
    os.replace(partial, target)
    return name


def source_files():
    """The files of the source tree: git's list in a clone, else every file outside build
    folders and caches."""
    if (ROOT / ".git").exists():
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True)
        return sorted(p for p in listed.stdout.decode().split("\0") if p and (ROOT / p).is_file())
    files = []
    for folder, dirs, names in os.walk(ROOT):
        relative = Path(folder).relative_to(ROOT)
        dirs[:] = [d for d in dirs if not (d.startswith((".", "__pycache__"))
                                           or (relative == Path(".") and d.startswith("build")))]
        files += [str(relative / n) for n in names]
    return sorted(files)


def build_sdist(sdist_directory, config_settings=None):
    name = f"{dist_name()}.tar.gz"
    Path(sdist_directory).mkdir(parents=True, exist_ok=True)
    target = Path(sdist_directory) / name
    partial = target.with_name(name + ".partial")

    def add(archive, member, data, mode=0o644):
        info = tarfile.TarInfo(f"{dist_name()}/{member}")
        info.size, info.mtime, info.mode = len(data), EPOCH, mode
        archive.addfile(info, io.BytesIO(data))

    with open(partial, "wb") as file, gzip.GzipFile("", "wb", fileobj=file, mtime=EPOCH) as packed, \
            tarfile.open(fileobj=packed, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for path in source_files():
            mode = 0o755 if os.access(ROOT / path, os.X_OK) else 0o644
            add(archive, path, (ROOT / path).read_bytes(), mode)
        add(archive, "PKG-INFO", metadata_text().encode())
    os.replace(partial, target)
    return name
