#include "lint/compile/driver_query.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <regex>
#include <sstream>

extern char** environ;

namespace emberlint {

namespace fs = std::filesystem;

namespace {

bool starts_with(const std::string& s, const std::string& p) {
  return s.compare(0, p.size(), p) == 0;
}

// A GCC-compatible compiler driver, by name: gcc, g++, cc, c++, clang, clang++ and Intel's, with a target
// prefix (x86_64-linux-gnu-g++) or a version suffix (g++-12, clang++-19) allowed. Anything else (nvcc, a
// wrapper script) is not run.
bool queryable_name(const std::string& base) {
  static const std::regex kName(
      R"(^([A-Za-z0-9_.]+-)*(gcc|g\+\+|cc|c\+\+|clang|clang\+\+|icx|icpx)(-[0-9.]+)?$)");
  return std::regex_match(base, kName);
}

// The compiler's absolute path: as written when absolute, else found on PATH. A relative path with a folder
// ("./tools/gcc") is a file of the tree being linted and is never run. Empty when not found, with `why`.
std::string resolve_compiler(const std::string& compiler, std::string& why) {
  why = "not a GCC-compatible compiler driver";
  if (compiler.empty() || !queryable_name(fs::path(compiler).filename().string())) return {};
  std::error_code ec;
  why = "not found";
  if (fs::path(compiler).is_absolute())
    return ::access(compiler.c_str(), X_OK) == 0 ? compiler : std::string();
  why = "a relative path: a file of the tree is never run";
  if (compiler.find('/') != std::string::npos) return {};
  why = "not found on PATH";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty() || !fs::path(dir).is_absolute()) continue;
    fs::path candidate = fs::path(dir) / compiler;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate.string();
  }
  return {};
}

// Runs argv with stdin from /dev/null in `directory`; its stdout and stderr, or nullopt when it could not be
// started or did not exit with 0. Read through pipes, not files: nothing is written to the temporary folder,
// which may be full.
std::optional<std::pair<std::string, std::string>> run(const std::vector<std::string>& argv,
                                                       const fs::path& directory) {
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  if (::pipe2(out, O_CLOEXEC) != 0) return std::nullopt;
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]), ::close(out[1]);
    return std::nullopt;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);  // dup2 clears O_CLOEXEC on the copy
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  // In the command's folder: a relative --sysroot or -isysroot is relative to it.
  if (!directory.empty()) posix_spawn_file_actions_addchdir_np(&actions, directory.c_str());
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  ::close(err[1]);
  // Both pipes at once: a compiler that fills one while we wait on the other would never finish.
  std::string text[2];
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  for (int open = spawned == 0 ? 2 : 0; open > 0;) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || fds[k].revents == 0) continue;
      char buffer[8192];
      const ssize_t n = ::read(fds[k].fd, buffer, sizeof buffer);
      if (n > 0) {
        text[k].append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[k].fd = -1;  // poll skips it
        --open;
      }
    }
  }
  ::close(out[0]);
  ::close(err[0]);
  std::optional<std::pair<std::string, std::string>> result;
  if (spawned == 0) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) result.emplace(std::move(text[0]), std::move(text[1]));
  }
  return result;
}

// Flags that pick the instruction set: their macros are what the command adds over the compiler's defaults.
bool instruction_set_flag(const std::string& a) {
  if (a == "-m32" || a == "-m64") return false;
  return starts_with(a, "-m") && !starts_with(a, "-mfloat-abi=");
}

bool has_flag(const std::vector<std::string>& args, const std::vector<std::string>& prefixes) {
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
    return std::any_of(prefixes.begin(), prefixes.end(),
                       [&](const std::string& p) { return starts_with(a, p); });
  });
}

}  // namespace

std::optional<DriverFacts> parse_driver_output(const std::string& defines, const std::string& report) {
  DriverFacts facts;
  std::istringstream in(defines);
  for (std::string line; std::getline(in, line);) {
    if (!starts_with(line, "#define ")) continue;
    std::string rest = line.substr(8);
    std::size_t space = rest.find(' ');
    std::string name = rest.substr(0, space);
    if (name.empty() || name.find('(') != std::string::npos) continue;  // function-like: not a setting
    facts.macros[name] = space == std::string::npos ? std::string() : rest.substr(space + 1);
  }
  if (facts.macros.empty()) return std::nullopt;
  bool cxx = facts.macros.count("__cplusplus") > 0;
  facts.standard = standard_flag(facts.macros, cxx);
  std::istringstream err(report);
  bool in_list = false, after_builtin = false;
  for (std::string line; std::getline(err, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (starts_with(line, "Target: ")) facts.target = line.substr(8);
    if (starts_with(line, "#include <...> search starts here:")) {
      in_list = true;
      continue;
    }
    if (starts_with(line, "End of search list.")) in_list = false;
    if (!in_list || line.empty() || line[0] != ' ') continue;
    std::string dir = line.substr(1);
    if (auto f = dir.find(" (framework directory)"); f != std::string::npos) continue;
    std::error_code ec;
    fs::path p = fs::path(dir).lexically_normal();
    // The compiler's own builtin headers (stddef.h, immintrin.h: GCC's use GCC's builtins) and GCC's fixed
    // copies of C library headers: libclang's resource folder takes their place.
    if (fs::exists(p / "stddef.h", ec) || p.filename() == "include-fixed") {
      after_builtin = true;
      continue;
    }
    (after_builtin ? facts.includes_after : facts.includes_before).push_back(p.string());
  }
  return facts;
}

std::string standard_flag(const std::map<std::string, std::string>& macros, bool cxx) {
  const bool gnu = macros.count("__STRICT_ANSI__") == 0;
  auto value = [&](const char* name) -> long {
    auto it = macros.find(name);
    return it == macros.end() ? 0 : std::strtol(it->second.c_str(), nullptr, 10);
  };
  std::string version;
  if (cxx) {
    long v = value("__cplusplus");
    version = v > 202302   ? "2c"
              : v > 202002 ? "2b"
              : v > 201703 ? "20"
              : v > 201402 ? "17"
              : v > 201103 ? "14"
              : v > 199711 ? "11"
                           : "98";
    return "-std=" + std::string(gnu ? "gnu++" : "c++") + version;
  }
  long v = value("__STDC_VERSION__");
  version = v > 201710 ? "2x" : v > 201112 ? "17" : v > 199901 ? "11" : v > 0 ? "99" : "89";
  return "-std=" + std::string(gnu ? "gnu" : "c") + version;
}

std::optional<DriverFacts> DriverQuery::facts(const std::string& compiler,
                                              const std::vector<std::string>& flags,
                                              const std::string& language, const fs::path& directory) {
  std::string key = compiler + '\n' + language;
  for (const auto& f : flags) key += '\n' + f;
  // A relative sysroot is relative to the command's folder.
  if (has_flag(flags, {"--sysroot", "-isysroot"})) key += '\n' + directory.string();
  if (auto it = answers_.find(key); it != answers_.end()) return it->second;
  std::optional<DriverFacts> answer;
  std::vector<std::string> argv = {compiler};
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (const char* a : {"-x", language.c_str(), "-E", "-dM", "-v", "-"}) argv.emplace_back(a);
  if (auto output = run(argv, directory)) answer = parse_driver_output(output->first, output->second);
  answers_.emplace(key, answer);
  return answer;
}

void DriverQuery::complete(CompileCommand& command) {
  if (!enabled_ || command.compiler.empty()) return;
  const std::string ext = command.file.extension().string();
  if (ext == ".cu" || ext == ".m" || ext == ".mm") return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::string why;
  const std::string compiler = resolve_compiler(command.compiler, why);
  const std::string language = command.driver == "clang" ? "c" : "c++";
  std::optional<DriverFacts> full;
  if (!compiler.empty()) full = facts(compiler, command.driver_flags, language, command.directory);
  if (!full) {
    if (!noted_[command.compiler]) {
      noted_[command.compiler] = true;
      notes_.push_back("could not query the compiler '" + command.compiler + "' for its implicit flags (" +
                       (compiler.empty() ? why : std::string("it did not answer")) +
                       "); its units are parsed with the compile command's own flags only");
    }
    return;
  }
  std::vector<std::string> added;
  std::vector<std::string>& args = command.arguments;
  if (!has_flag(args, {"-std=", "--std="}) && !full->standard.empty()) added.push_back(full->standard);
  if (!has_flag(args, {"--target=", "-target"}) && !full->target.empty())
    added.push_back("--target=" + full->target);
  // The macros the command's instruction-set flags define over the compiler's defaults: GCC-only -m flags
  // would stop libclang, their macros select the same code.
  std::vector<std::string> baseline;
  for (std::size_t i = 0; i < command.driver_flags.size(); ++i) {
    const std::string& f = command.driver_flags[i];
    if (!instruction_set_flag(f)) baseline.push_back(f);
  }
  if (baseline.size() != command.driver_flags.size()) {
    if (auto base = facts(compiler, baseline, language, command.directory)) {
      for (const auto& [name, value] : full->macros) {
        auto it = base->macros.find(name);
        if (it == base->macros.end() || it->second != value)
          added.push_back("-D" + name + (value.empty() ? "" : "=" + value));
      }
    }
  }
  // The compiler's system folders in its order, with libclang's builtin headers where the compiler's were.
  if (!has_flag(args, {"-nostdinc"}) && !full->includes_after.empty()) {
    added.push_back("-nostdlibinc");
    for (const auto& d : full->includes_before) added.insert(added.end(), {"-isystem", d});
    for (const auto& d : full->includes_after)
      added.insert(added.end(), {"-Xclang", "-internal-externc-isystem", "-Xclang", d});
  }
  args.insert(args.end(), added.begin(), added.end());
}

std::vector<std::string> DriverQuery::notes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return notes_;
}

}  // namespace emberlint
