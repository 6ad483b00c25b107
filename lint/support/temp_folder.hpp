// A run's own folder in the system's temporary folder ($TMPDIR, else /tmp), and the free space there.
//
// The folder is removed with what it holds when the run ends, also when it ends by SIGINT, SIGTERM or SIGHUP
// (a handler removes it and dies of the signal as before). A run killed outright (SIGKILL, a crash) cannot:
// the folder holds a file `lock` that the run keeps locked (flock) while it lives, so the next run that makes
// a folder of the same kind removes those whose lock no process holds, whatever their process ids, and leaves
// the others alone. Only flat folders: their files, no subfolders.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace emberlint {

// $TMPDIR, $TMP, $TEMP or $TEMPDIR, else /tmp: the folder libclang and std::filesystem take too.
std::filesystem::path temp_root();

// The bytes an unprivileged process may still write in the file system of `folder` (statvfs); nullopt when
// it cannot be asked.
std::optional<std::uintmax_t> free_space(const std::filesystem::path& folder);

// Megabytes with one decimal, for messages: "1.0 MB".
std::string megabytes(std::uintmax_t bytes);

class TempFolder {
 public:
  // Folders named `<stem>-XXXXXX` in temp_root().
  explicit TempFolder(std::string stem);
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  ~TempFolder();

  // The folder, made on first use (the abandoned folders of killed runs are removed first); empty when it
  // could not be made (why in error()).
  const std::filesystem::path& path();
  const std::string& error() const { return error_; }

  // Removes the folders `<stem>-*` under `root` that a run killed outright left: those whose `lock` no
  // process holds, and those without one (a run killed while making it, or made by an older emberlint) that
  // are older than a day. Folders of other users are left alone. Returns how many it removed.
  static std::size_t remove_abandoned(const std::filesystem::path& root, const std::string& stem);

 private:
  std::string stem_;
  std::filesystem::path path_;
  std::string error_;
  int lock_ = -1;
  int slot_ = -1;  // its place among the folders the signal handler removes
  bool tried_ = false;
};

}  // namespace emberlint
