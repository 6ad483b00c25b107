#include "lint/run/git_diff.hpp"
#include "lint/support/glob.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace emberlint {

namespace fs = std::filesystem;

namespace {

struct GitOutput {
  int status = -1;
  std::string out, err;
};

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "no message" : line;
}

// Runs `git ARGS...` (found on PATH) without a shell, stdin from /dev/null, and collects both outputs.
GitOutput run_git(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c_argv;
  for (auto& a : argv) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);
  // Reading needs no index lock: GIT_OPTIONAL_LOCKS=0 keeps a concurrent commit from failing.
  std::vector<std::string> env = {"GIT_OPTIONAL_LOCKS=0"};
  for (char** e = environ; e && *e; ++e) {
    if (std::strncmp(*e, "GIT_OPTIONAL_LOCKS=", 19) != 0) env.emplace_back(*e);
  }
  std::vector<char*> c_env;
  for (auto& e : env) c_env.push_back(e.data());
  c_env.push_back(nullptr);

  std::array<int, 2> out_pipe{}, err_pipe{};
  if (::pipe2(out_pipe.data(), O_CLOEXEC) != 0)
    throw GitError(std::string("cannot run git: ") + std::strerror(errno));
  if (::pipe2(err_pipe.data(), O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    throw GitError(std::string("cannot run git: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, "git", &actions, nullptr, c_argv.data(), c_env.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    if (rc == ENOENT) throw GitError("--diff needs git, which is not installed or not on PATH");
    throw GitError(std::string("cannot run git: ") + std::strerror(rc));
  }
  GitOutput result;
  std::array<pollfd, 2> fds{{{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}}};
  std::array<std::string*, 2> sinks{&result.out, &result.err};
  std::array<char, 65536> buffer{};
  int open_fds = 2;
  while (open_fds > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::read(fds[k].fd, buffer.data(), buffer.size());
      if (n > 0) {
        sinks[k]->append(buffer.data(), static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[k].fd);
        fds[k].fd = -1;
        --open_fds;
      }
    }
  }
  for (const auto& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

GitOutput git_or_throw(const std::vector<std::string>& args) {
  GitOutput r = run_git(args);
  if (r.status != 0) {
    std::string command = "git";
    for (const auto& a : args) command += " " + a;
    throw GitError("--diff: `" + command + "` failed: " + first_line(r.err));
  }
  return r;
}

std::vector<std::string> split_nul(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = std::min(text.find('\0', begin), text.size());
    if (end > begin) out.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

// A path as git prints it in a patch header: C-style quoted when it holds special bytes; a name with a
// space gets a trailing tab.
std::string unquote_path(std::string_view s) {
  if (s.empty() || s.front() != '"') {
    if (!s.empty() && s.back() == '\t') s.remove_suffix(1);
    return std::string(s);
  }
  std::string out;
  for (std::size_t i = 1; i < s.size() && s[i] != '"'; ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char e = s[++i];
    if (e >= '0' && e <= '7') {
      int value = 0;
      for (int k = 0; k < 3 && i < s.size() && s[i] >= '0' && s[i] <= '7'; ++k, ++i)
        value = value * 8 + (s[i] - '0');
      --i;
      out += static_cast<char>(value);
      continue;
    }
    static const std::string from = "abtnvfr", to = "\a\b\t\n\v\f\r";
    std::size_t k = from.find(e);
    out += k == std::string::npos ? e : to[k];
  }
  return out;
}

// "@@ -12,3 +14,5 @@": the counts of old and new lines and the first new line.
bool parse_hunk_header(std::string_view line, unsigned& old_count, unsigned& new_first, unsigned& new_count) {
  auto number = [&](std::size_t& i) {
    unsigned v = 0;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])))
      v = v * 10 + (line[i++] - '0');
    return v;
  };
  std::size_t i = line.find('-');
  if (i == std::string_view::npos) return false;
  ++i;
  number(i);
  old_count = 1;
  if (i < line.size() && line[i] == ',') old_count = number(++i);
  i = line.find('+', i);
  if (i == std::string_view::npos) return false;
  ++i;
  new_first = number(i);
  new_count = 1;
  if (i < line.size() && line[i] == ',') new_count = number(++i);
  return true;
}

fs::path normalized(const fs::path& p) {
  return canonical_path(p);
}

}  // namespace

bool ChangeSet::touches(const fs::path& file, unsigned first, unsigned last) const {
  auto it = files.find(file);
  if (it == files.end()) return false;
  if (it->second.whole) return true;
  return std::any_of(it->second.lines.begin(), it->second.lines.end(),
                     [&](const auto& range) { return range.first <= last && first <= range.second; });
}

std::map<std::string, LineRanges> parse_unified_diff(std::string_view patch) {
  std::map<std::string, LineRanges> out;
  LineRanges* current = nullptr;
  unsigned old_left = 0, new_left = 0;  // lines of the current hunk still to come
  for (std::size_t begin = 0; begin < patch.size();) {
    std::size_t end = std::min(patch.find('\n', begin), patch.size());
    std::string_view line = patch.substr(begin, end - begin);
    begin = end + 1;
    if (old_left > 0 || new_left > 0) {
      // A hunk's body: "-old", "+new" (which may itself look like "+++ x"), "\ No newline at end of file".
      if (!line.empty() && line[0] == '-' && old_left > 0) {
        --old_left;
        continue;
      }
      if (!line.empty() && line[0] == '+' && new_left > 0) {
        --new_left;
        continue;
      }
      if (!line.empty() && line[0] == '\\') continue;
      old_left = new_left = 0;  // a malformed hunk: read headers again
    }
    if (line.rfind("diff ", 0) == 0) {
      current = nullptr;
    } else if (line.rfind("+++ ", 0) == 0) {
      std::string path = unquote_path(line.substr(4));
      if (path == "/dev/null") {
        current = nullptr;
      } else {
        if (path.rfind("b/", 0) == 0) path.erase(0, 2);
        current = &out[path];
      }
    } else if (line.rfind("@@ ", 0) == 0) {
      unsigned new_first = 0, new_count = 0;
      if (!parse_hunk_header(line, old_left, new_first, new_count)) continue;
      new_left = new_count;
      if (current && new_count > 0) current->emplace_back(new_first, new_first + new_count - 1);
    }
  }
  return out;
}

fs::path repository_top_level(const fs::path& folder) {
  GitOutput top = run_git({"-C", folder.string(), "rev-parse", "--show-toplevel"});
  if (top.status != 0 || top.out.empty()) return folder;
  return normalized(top.out.substr(0, top.out.find('\n')));
}

ChangeSet git_changes(const std::string& rev, const fs::path& folder) {
  ChangeSet changes;
  GitOutput top = run_git({"-C", folder.string(), "rev-parse", "--show-toplevel"});
  if (top.status != 0)
    throw GitError("--diff: " + folder.string() + " is not in a git work tree (git: " + first_line(top.err) +
                   ")");
  std::string top_text = top.out.substr(0, top.out.find('\n'));
  changes.top_level = normalized(top_text);
  GitOutput commit =
      run_git({"-C", top_text, "rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"});
  if (commit.status != 0 || commit.out.empty())
    throw GitError("--diff " + rev + ": unknown revision: no such commit in the repository at " + top_text);
  const std::string sha = commit.out.substr(0, commit.out.find('\n'));

  // One `git diff SHA` compares the commit with the work tree: committed, staged and unstaged changes.
  const std::vector<std::string> diff = {
      "-C", top_text, "diff", "--no-renames", "--no-ext-diff", "--no-textconv", "--ignore-submodules"};
  auto with = [&](std::vector<std::string> args) {
    args.insert(args.begin(), diff.begin(), diff.end());
    args.push_back(sha);
    return args;
  };
  auto names = split_nul(git_or_throw(with({"--name-only", "-z", "--diff-filter=d"})).out);
  auto lines =
      parse_unified_diff(git_or_throw(with({"-U0", "--no-color", "--src-prefix=a/", "--dst-prefix=b/"})).out);
  for (const auto& name : names) {
    FileChange& change = changes.files[normalized(changes.top_level / name)];
    if (auto it = lines.find(name); it != lines.end()) change.lines = it->second;
  }
  for (const auto& name :
       split_nul(git_or_throw({"-C", top_text, "ls-files", "--others", "--exclude-standard", "-z"}).out))
    changes.files[normalized(changes.top_level / name)].whole = true;
  return changes;
}

}  // namespace emberlint
