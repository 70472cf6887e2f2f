#include "test_support.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>

#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/plugin.hpp"

namespace tesmod::test {

std::vector<std::uint8_t> tiny_skyrim(std::uint16_t form_version, float hedr, std::uint32_t header_flags) {
  Plugin p = Plugin::create(Game::SkyrimLE, "t.esp");
  p.set_header_flags(header_flags);
  Record r("MISC", 0x800, {Field::zstring("EDID", "Thing")});
  r.set_form_version(form_version);
  p.add(std::move(r));
  auto bytes = p.serialize();
  le::store(bytes.data() + 24 + 6, hedr);  // HEDR's version, after the 24-byte header and the field's 6
  return bytes;
}

std::filesystem::path corpus_dir() {
  if (const char* env = std::getenv("TESMOD_CORPUS"); env && *env) {
    if (std::filesystem::is_directory(env)) return env;
    return {};
  }
  std::filesystem::path beside = std::filesystem::path(TESMOD_SOURCE_DIR) / ".." / "shared" / "corpus";
  if (std::filesystem::is_directory(beside)) return std::filesystem::canonical(beside);
  return {};
}

bool corpus_named_but_missing() {
  const char* env = std::getenv("TESMOD_CORPUS");
  return env && *env && !std::filesystem::is_directory(env);
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

std::vector<std::filesystem::path> corpus_plugins() {
  std::vector<std::filesystem::path> out;
  const auto dir = corpus_dir();
  if (dir.empty()) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::string ext = e.path().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".esp" || ext == ".esm" || ext == ".esl") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "tesmod-test-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

namespace {

std::string slurp_fd(int fd) {
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, std::size_t(n));
  }
  return out;
}

}  // namespace

CommandResult run_cli(const std::vector<std::string>& args) {
  TempDir tmp;
  const std::string out_path = (tmp / "out").string(), err_path = (tmp / "err").string();
  pid_t pid = ::fork();
  if (pid == 0) {
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> argv;
    std::string exe = TESMOD_CLI_PATH;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  int fo = ::open(out_path.c_str(), O_RDONLY), fe = ::open(err_path.c_str(), O_RDONLY);
  r.out = slurp_fd(fo);
  r.err = slurp_fd(fe);
  ::close(fo);
  ::close(fe);
  return r;
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

}  // namespace tesmod::test
