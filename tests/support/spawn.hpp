// Running the emberlint executable as a child process the way the crash and bad-input tests need: extra
// environment variables, a file size limit (RLIMIT_FSIZE, with SIGXFSZ ignored so a write fails with EFBIG
// instead of killing the child), an optional timeout, and whether it exited or was killed by a signal. Output
// goes through pipes, never through files that a limit or a full disk would cut.
#pragma once

#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace emberlint::test {

struct Spawn {
  std::vector<std::string> args;           // argv[1...] of emberlint
  std::filesystem::path folder;            // the working directory
  std::map<std::string, std::string> env;  // added to (or replacing in) the environment
  std::optional<rlim_t> file_size_limit;   // RLIMIT_FSIZE in bytes
  // Then SIGKILL, and timed_out; nullopt: wait for the child's exit, however long a busy machine takes.
  std::optional<std::chrono::seconds> timeout = std::chrono::seconds(600);
  std::optional<uid_t> user;  // run as this user (and the group of that number): root only
};

struct Ended {
  bool exited = false;  // normally, with exit_code
  int exit_code = -1;
  int signal = 0;  // the signal that ended it, when not exited
  bool timed_out = false;
  std::string out, err;
};

// The child's exit code when `user` cannot reach the executable (a private folder above the build, as in a
// checkout under a 0700 temporary folder): callers skip rather than fail.
inline constexpr int kUnreachableExe = 124;

inline Ended spawn_emberlint(const Spawn& s) {
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    if (s.user && (::setgroups(0, nullptr) != 0 || ::setgid(*s.user) != 0 || ::setuid(*s.user) != 0))
      ::_exit(125);
    if (s.user && ::access(EMBERLINT_EXE, X_OK) != 0) ::_exit(kUnreachableExe);
    if (::chdir(s.folder.c_str()) != 0) ::_exit(126);
    for (const auto& [name, value] : s.env) ::setenv(name.c_str(), value.c_str(), 1);
    if (s.file_size_limit) {
      ::signal(SIGXFSZ, SIG_IGN);  // kept across exec: an ignored signal stays ignored
      const rlimit limit{*s.file_size_limit, *s.file_size_limit};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    std::vector<char*> argv;
    std::string exe = EMBERLINT_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> args = s.args;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  Ended e;
  const auto deadline = std::chrono::steady_clock::now() + s.timeout.value_or(std::chrono::seconds(0));
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&e.out, &e.err};
  int open = 2;
  while (open > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (s.timeout && left.count() <= 0) {
      ::kill(pid, SIGKILL);
      e.timed_out = true;
      break;
    }
    if (::poll(fds, 2, s.timeout ? static_cast<int>(std::min<long long>(left.count(), 1000)) : -1) < 0)
      continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (const auto& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  e.exited = WIFEXITED(status);
  e.exit_code = e.exited ? WEXITSTATUS(status) : -1;
  e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return e;
}

}  // namespace emberlint::test
