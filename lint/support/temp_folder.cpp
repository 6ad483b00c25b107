#include "lint/support/temp_folder.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <vector>

namespace emberlint {

namespace fs = std::filesystem;

namespace {

// The folders a signal handler removes: fixed slots, so that the handler neither allocates nor locks.
constexpr int kFree = 0, kWriting = 1, kReady = 2;
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX] = {};
};
std::array<Slot, 16> slots;

constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
struct sigaction previous[3];

// Removes a flat folder with what it holds, with async-signal-safe calls only (getdents64 is a system call:
// no readdir, whose buffer is malloc'd). A file a thread of the dying run adds meanwhile is met on the next
// pass.
void remove_flat_folder(const char* path) {
  for (int pass = 0; pass < 3; ++pass) {
    const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    alignas(8) char buffer[4096];
    for (;;) {
      const ssize_t n = ::getdents64(fd, buffer, sizeof buffer);
      if (n <= 0) break;
      for (ssize_t at = 0; at < n;) {
        const auto* entry = reinterpret_cast<const dirent64*>(buffer + at);
        at += entry->d_reclen;
        const char* name = entry->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
        ::unlinkat(fd, name, 0);
      }
    }
    ::close(fd);
    if (::rmdir(path) == 0 || errno == ENOENT) return;
  }
}

void on_signal(int signal) {
  const int saved = errno;
  for (Slot& slot : slots) {
    if (slot.state.load() == kReady) remove_flat_folder(slot.path);
  }
  for (std::size_t k = 0; k < kSignals.size(); ++k) {
    if (kSignals[k] == signal) ::sigaction(signal, &previous[k], nullptr);
  }
  errno = saved;
  ::raise(signal);  // delivered when this handler returns, to the disposition before ours: the default dies
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t k = 0; k < kSignals.size(); ++k) {
      ::sigaction(kSignals[k], nullptr, &previous[k]);
      if (previous[k].sa_handler == SIG_IGN) continue;  // nohup's SIGHUP, a shell's background SIGINT
      struct sigaction action {};
      action.sa_handler = on_signal;
      sigemptyset(&action.sa_mask);
      for (int s : kSignals) sigaddset(&action.sa_mask, s);
      ::sigaction(kSignals[k], &action, nullptr);
    }
  });
}

int take_slot(const fs::path& folder) {
  const std::string text = folder.string();
  if (text.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    int expected = kFree;
    if (!slots[i].state.compare_exchange_strong(expected, kWriting)) continue;
    std::memcpy(slots[i].path, text.c_str(), text.size() + 1);
    slots[i].state.store(kReady);
    return static_cast<int>(i);
  }
  return -1;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

fs::path temp_root() {
  for (const char* name : {"TMPDIR", "TMP", "TEMP", "TEMPDIR"}) {
    const char* value = std::getenv(name);
    if (value && *value) return value;
  }
  return "/tmp";
}

std::optional<std::uintmax_t> free_space(const fs::path& folder) {
  struct statvfs s {};
  if (::statvfs(folder.c_str(), &s) != 0) return std::nullopt;
  return static_cast<std::uintmax_t>(s.f_bavail) * s.f_frsize;
}

std::string megabytes(std::uintmax_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

TempFolder::TempFolder(std::string stem) : stem_(std::move(stem)) {}

TempFolder::~TempFolder() {
  if (path_.empty()) return;
  if (slot_ >= 0) slots[static_cast<std::size_t>(slot_)].state.store(kFree);
  std::error_code ec;
  fs::remove_all(path_, ec);
  if (lock_ >= 0) ::close(lock_);
}

const fs::path& TempFolder::path() {
  if (tried_) return path_;
  tried_ = true;
  const fs::path root = temp_root();
  remove_abandoned(root, stem_);
  std::string name = (root / (stem_ + "-XXXXXX")).string();
  if (!::mkdtemp(name.data())) {
    error_ = "cannot make a folder in " + root.string() + ": " + std::strerror(errno);
    return path_;
  }
  // The lock is taken under another name and then renamed to `lock`, so that a sweep never sees a `lock`
  // that nobody holds yet.
  std::string lock = (fs::path(name) / ".lock-XXXXXX").string();
  lock_ = ::mkostemp(lock.data(), O_CLOEXEC);
  if (lock_ < 0 || ::flock(lock_, LOCK_EX) != 0 ||
      ::rename(lock.c_str(), (fs::path(name) / "lock").c_str()) != 0) {
    error_ = "cannot make a lock file in " + name + ": " + std::strerror(errno);
    if (lock_ >= 0) ::close(lock_), lock_ = -1;
    std::error_code ec;
    fs::remove_all(name, ec);
    return path_;
  }
  path_ = name;
  install_handlers();
  slot_ = take_slot(path_);
  return path_;
}

std::size_t TempFolder::remove_abandoned(const fs::path& root, const std::string& stem) {
  DIR* dir = ::opendir(root.c_str());
  if (!dir) return 0;
  const std::string prefix = stem + "-";
  std::vector<fs::path> abandoned;
  while (const dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (!starts_with(name, prefix) || name.size() == prefix.size()) continue;
    const fs::path folder = root / name;
    struct stat st {};
    if (::lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
    const int fd = ::open((folder / "lock").c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
      // Held by a live run (of any process id, in any PID namespace) or free: the run that held it is gone.
      if (::flock(fd, LOCK_EX | LOCK_NB) == 0) abandoned.push_back(folder);
      ::close(fd);
    } else if (errno == ENOENT && st.st_mtime + 24 * 60 * 60 < std::time(nullptr)) {
      abandoned.push_back(folder);
    }
  }
  ::closedir(dir);
  std::size_t removed = 0;
  for (const fs::path& folder : abandoned) {
    std::error_code ec;
    if (fs::remove_all(folder, ec) > 0 && !ec) ++removed;
  }
  return removed;
}

}  // namespace emberlint
