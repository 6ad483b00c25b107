// `emberlint layers [PATHS]`: where each C and C++ file lands under the governing config (layer, backends,
// public header, excluded) and which config entry put it there, with the entry's line in the config file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lint/project/config.hpp"
#include "lint/project/project.hpp"

namespace emberlint {

struct ConfigEntry {
  std::string key;             // "layers.backends.cuda", "exclude"
  std::string pattern;         // the glob
  std::filesystem::path file;  // the config file ("" for the built-in default)
  unsigned line = 0;           // the glob's line in it (0: not found)
};

struct FileLayer {
  std::filesystem::path file;          // absolute
  bool folder = false;                 // an excluded folder, listed once
  std::string layer;                   // frontend, backend, tests, glue, excluded, none
  std::vector<std::string> backends;   // for backend: every backend whose folders hold it
  std::vector<std::string> public_of;  // backends whose public headers it is
  std::vector<std::string> libraries;  // for backend files: the libraries its backends may use
  std::vector<ConfigEntry> why;        // the entries that decided it
};

// Every C and C++ file under `paths` (files or folders; hidden ones skipped; an excluded folder listed once,
// not walked), each with the config that governs its folder.
std::vector<FileLayer> list_layers(ConfigLoader& loader, const std::vector<std::filesystem::path>& paths,
                                   const std::filesystem::path& fallback_root);

}  // namespace emberlint
