#pragma once

#include <filesystem>
#include <string>

namespace emberlint {

// A commented starter .emberlint.json for the tree at `root`: layers from the folders it finds (frontend/,
// backends/<name>/, tests/), libraries for the backends it recognizes, excludes for build folders.
std::string starter_config(const std::filesystem::path& root);

}  // namespace emberlint
