// Helpers shared by emberlint's fuzz targets: a private scratch folder per process and file writing.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace emberlint::fuzz {

// The input as text (libFuzzer hands bytes).
inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A folder of its own under $TMPDIR (or /tmp), created once per process and removed at a normal exit (a
// crash leaves it: fuzz/run.sh points TMPDIR into its own working folder).
inline const std::filesystem::path& scratch_folder() {
  static const std::filesystem::path* folder = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/emberlint-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a scratch folder: " + pattern);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_folder(), ec);
    });
    return new std::filesystem::path(pattern);  // never destroyed: the exit handler still needs it
  }();
  return *folder;
}

// Writes (replaces) a file, creating its folder; throws when it cannot.
inline void write_file(const std::filesystem::path& file, std::string_view text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace emberlint::fuzz
