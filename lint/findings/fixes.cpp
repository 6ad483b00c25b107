#include "lint/findings/fixes.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include "lint/support/fault_injection.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

bool overlaps(const Replacement& a, const Replacement& b) {
  if (a.file != b.file) return false;
  // Two insertions at one offset would depend on their order: treat them as overlapping.
  if (a.offset == b.offset) return true;
  return a.offset < b.offset + b.length && b.offset < a.offset + a.length;
}

// A YAML double-quoted scalar: quotes, backslashes and control characters are escaped; every other byte
// (UTF-8 included) passes through, so the text reads back exactly.
std::string yaml_quoted(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          static const char* hex = "0123456789ABCDEF";
          out += "\\x";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string read_all(const fs::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  ok = static_cast<bool>(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string errno_text() {
  return std::strerror(errno);
}

// The temporary files of replace_file: ".<name>.emberlint-" and mkstemp's 6 characters.
constexpr std::string_view kTempMark = ".emberlint-";
bool is_temporary_name(std::string_view name) {
  const std::size_t at = name.rfind(kTempMark);
  return name.size() > 1 && name[0] == '.' && at != std::string_view::npos && at > 1 &&
         name.size() == at + kTempMark.size() + 6;
}

}  // namespace

void remove_abandoned_temporaries(const fs::path& folder) {
  static std::mutex mutex;
  static std::set<fs::path> swept;
  std::lock_guard lock(mutex);
  if (!swept.insert(folder).second) return;
  DIR* dir = ::opendir(folder.empty() ? "." : folder.c_str());
  if (dir == nullptr) return;
  while (const dirent* e = ::readdir(dir)) {
    if (!is_temporary_name(e->d_name)) continue;
    const fs::path p = folder / e->d_name;
    const int fd = ::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(p.c_str());
    ::close(fd);
  }
  ::closedir(dir);
}

namespace {

// The process's umask, read without changing it (umask(2) can only be read by setting it, which races with
// other threads creating files): Linux reports it in /proc/self/status; elsewhere it is read once, early.
mode_t process_umask() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  }
  static const mode_t once = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
  }();
  return once;
}

// Writes `text` over `file` atomically, keeping its permissions; an error message, or empty. With `create`,
// a missing file is created with the default permissions (0666 less the umask). Each step is a fault
// injection point (lint/support/fault_injection.hpp).
std::string replace_file(const fs::path& file, const std::string& text, bool create = false) {
  remove_abandoned_temporaries(file.parent_path());
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    if (!create || errno != ENOENT) return file.string() + ": " + errno_text();
    st.st_mode = 0666 & ~process_umask();
  }
  // Appended piece by piece: GCC 12 misreads `"." + std::string&&` as an overlapping copy (-Wrestrict).
  std::string hidden = ".";
  hidden += file.filename().string();
  hidden += ".emberlint-XXXXXX";
  std::string tmpl = (file.parent_path() / hidden).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) return file.string() + ": cannot create a temporary file beside it: " + errno_text();
  ::flock(fd, LOCK_EX);  // ours until renamed: see remove_abandoned_temporaries
  file_write_step();
  std::string error;
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0 && error.empty()) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = file.string() + ": cannot write the new text: " + errno_text();
    } else {
      p += n;
      left -= static_cast<std::size_t>(n);
    }
  }
  if (error.empty() && ::fchmod(fd, st.st_mode & 07777) != 0) error = file.string() + ": " + errno_text();
  if (error.empty() && ::fsync(fd) != 0) error = file.string() + ": " + errno_text();
  if (error.empty()) file_write_step();
  // Renamed while still open and locked, so no sweep of another process takes it for abandoned.
  if (error.empty() && ::rename(name.data(), file.c_str()) != 0) {
    error = file.string() + ": cannot replace the file: " + errno_text();
  }
  if (!error.empty()) ::unlink(name.data());
  ::close(fd);  // after fsync, close has nothing left to report
  if (error.empty()) file_write_step();
  return error;
}

}  // namespace

std::string write_file_atomically(const fs::path& file, const std::string& text) {
  return replace_file(file, text, /*create=*/true);
}

std::string output_file_problem(const fs::path& file) {
  const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::error_code ec;
  if (fs::is_directory(file, ec)) return "cannot write this file: it is a folder";
  if (!fs::exists(folder, ec)) return "cannot write this file: no such folder '" + folder.string() + "'";
  if (!fs::is_directory(folder, ec))
    return "cannot write this file: '" + folder.string() + "' is not a folder";
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return "cannot write this file: " + folder.string() + ": " + errno_text();
  return {};
}

std::string write_output_file(const fs::path& file, const std::string& text) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return write_file_atomically(file, text);
  std::ofstream out(file, std::ios::binary);  // a device, pipe or symbolic link: written through
  out << text;
  out.close();
  return out ? std::string() : file.string() + ": cannot write it";
}

FixPlan plan_fixes(const std::vector<Diagnostic>& diagnostics) {
  FixPlan plan;
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    const auto& fix = diagnostics[i].fix;
    if (fix.empty()) continue;
    bool consistent = true;
    for (const auto& r : fix) {
      const auto& taken = plan.edits[r.file];
      for (const auto& t : taken) {
        if (!(t == r) && overlaps(t, r)) consistent = false;
      }
    }
    if (!consistent) continue;
    for (const auto& r : fix) {
      auto& taken = plan.edits[r.file];
      if (std::find(taken.begin(), taken.end(), r) == taken.end()) taken.push_back(r);
    }
    plan.fixed.insert(i);
  }
  for (auto it = plan.edits.begin(); it != plan.edits.end();) {
    std::sort(it->second.begin(), it->second.end());
    it = it->second.empty() ? plan.edits.erase(it) : std::next(it);
  }
  return plan;
}

std::vector<std::string> apply_fixes(const FixPlan& plan) {
  std::vector<std::string> errors;
  for (const auto& [file, edits] : plan.edits) {
    bool ok = false;
    std::string text = read_all(file, ok);
    if (!ok) {
      errors.push_back(file.string() + ": cannot read the file to fix it");
      continue;
    }
    bool fits = std::all_of(edits.begin(), edits.end(),
                            [&](const Replacement& r) { return r.offset + r.length <= text.size(); });
    if (!fits) {
      errors.push_back(file.string() + ": the file changed since it was analyzed; not fixed");
      continue;
    }
    // From the end, so earlier offsets stay valid.
    for (auto it = edits.rbegin(); it != edits.rend(); ++it)
      text.replace(it->offset, it->length, it->replacement);
    if (std::string e = replace_file(file, text); !e.empty()) errors.push_back(e);
  }
  return errors;
}

void write_fixes_yaml(std::ostream& out, const std::vector<Diagnostic>& diagnostics, const FixPlan& plan) {
  out << "---\nMainSourceFile: \"\"\nDiagnostics:\n";
  std::set<Replacement> written;
  bool any = false;
  for (std::size_t i : plan.fixed) {
    const Diagnostic& d = diagnostics[i];
    std::vector<const Replacement*> fresh;
    for (const auto& r : d.fix) {
      if (written.insert(r).second) fresh.push_back(&r);
    }
    if (fresh.empty()) continue;
    any = true;
    // The diagnostic's own offset: its line and column in the file as it is on disk.
    std::size_t offset = 0;
    if (auto src = SourceText::read(d.file)) offset = src->offset(d.line, d.column);
    out << "  - DiagnosticName: " << yaml_quoted("emberlint-" + d.code) << "\n"
        << "    DiagnosticMessage:\n"
        << "      Message: " << yaml_quoted(d.message) << "\n"
        << "      FilePath: " << yaml_quoted(d.file.string()) << "\n"
        << "      FileOffset: " << offset << "\n"
        << "      Replacements:\n";
    for (const Replacement* r : fresh) {
      out << "        - FilePath: " << yaml_quoted(r->file.string()) << "\n"
          << "          Offset: " << r->offset << "\n"
          << "          Length: " << r->length << "\n"
          << "          ReplacementText: " << yaml_quoted(r->replacement) << "\n";
    }
    out << "    Level: Warning\n";
  }
  if (!any) out << "  []\n";
  out << "...\n";
}

}  // namespace emberlint
