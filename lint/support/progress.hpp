// The progress line of `emberlint check` on a terminal: `[12/40] frontend/src/x.cpp`, rewritten in place as
// units finish and cleared at the end, so the report that follows starts on a clean line. Thread-safe.
#pragma once

#include <cstdio>
#include <filesystem>
#include <mutex>

namespace emberlint {

class Progress {
 public:
  // Disabled, it prints nothing at all (stderr is not a terminal).
  explicit Progress(bool enabled, std::FILE* out = stderr);
  // More units to analyze (the headers parsed on their own are added once the units are done).
  void add(std::size_t units);
  // One unit finished: shows the count and its path (relative to the current folder when under it).
  void done(const std::filesystem::path& file);
  // Clears the line; nothing more is shown afterwards.
  void finish();

 private:
  std::size_t columns() const;

  bool enabled_;
  std::FILE* out_;
  std::filesystem::path cwd_;
  std::mutex mutex_;
  std::size_t done_ = 0, total_ = 0;
  bool shown_ = false;
};

}  // namespace emberlint
