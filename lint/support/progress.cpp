#include "lint/support/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <string>

namespace emberlint {

namespace fs = std::filesystem;

namespace {

// Return to the line's start, and erase from there to its end (ANSI: every terminal emberlint runs in).
constexpr const char* kRewind = "\r\x1b[K";

}  // namespace

Progress::Progress(bool enabled, std::FILE* out) : enabled_(enabled), out_(out) {
  std::error_code ec;
  if (enabled_) cwd_ = fs::current_path(ec);
}

void Progress::add(std::size_t units) {
  std::lock_guard lock(mutex_);
  total_ += units;
}

std::size_t Progress::columns() const {
  struct winsize size {};
  if (::ioctl(::fileno(out_), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

void Progress::done(const fs::path& file) {
  std::lock_guard lock(mutex_);
  if (!enabled_) return;
  ++done_;
  std::string shown = file.string();
  if (!cwd_.empty()) {
    fs::path rel = file.lexically_relative(cwd_);
    if (!rel.empty() && *rel.begin() != "..") shown = rel.string();
  }
  // Appended piece by piece: GCC 12 misreads `"[" + std::string&&` as an overlapping copy (-Wrestrict).
  std::string line = "[";
  line += std::to_string(done_);
  line += '/';
  line += std::to_string(total_);
  line += "] ";
  // One screen line at most, or the carriage return would rewrite only the last of several; the path's
  // end (the file name) is what to keep.
  std::size_t room = columns() > line.size() + 4 ? columns() - line.size() - 1 : 4;
  if (shown.size() > room) shown = std::string("...").append(shown, shown.size() - (room - 3));
  line += shown;
  std::fputs(kRewind, out_);
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
  shown_ = true;
}

void Progress::finish() {
  std::lock_guard lock(mutex_);
  if (shown_) {
    std::fputs(kRewind, out_);
    std::fflush(out_);
  }
  shown_ = false;
  enabled_ = false;
}

}  // namespace emberlint
