#include "lint/project/layer_listing.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "lint/compile/compile_db.hpp"
#include "lint/support/glob.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

ConfigEntry entry(const Config& config, std::string key, std::string pattern) {
  ConfigEntry e{std::move(key), std::move(pattern), config.file, 0};
  e.line = config_line(config.file, e.key, e.pattern);
  return e;
}

const char* kind_name(LayerKind k) {
  switch (k) {
    case LayerKind::frontend:
      return "frontend";
    case LayerKind::shared:
      return "shared";
    case LayerKind::backend:
      return "backend";
    case LayerKind::tests:
      return "tests";
    case LayerKind::glue:
      return "glue";
    default:
      return "none";
  }
}

FileLayer describe(const Config& config, const fs::path& file) {
  FileLayer out;
  out.file = file;
  std::vector<LayerMatch> why;
  const Layer layer = classify_path(config, file, &why);
  out.layer = kind_name(layer.kind);
  for (auto& m : why) out.why.push_back(entry(config, m.key, m.pattern));
  if (layer.kind == LayerKind::backend) {
    out.backends.push_back(layer.backend);
    out.backends.insert(out.backends.end(), layer.also.begin(), layer.also.end());
    for (const auto& lib : config.libraries) {
      const bool serves = std::any_of(out.backends.begin(), out.backends.end(), [&](const std::string& b) {
        return lib.backend == b || std::find(lib.also.begin(), lib.also.end(), b) != lib.also.end();
      });
      if (serves) out.libraries.push_back(lib.name);
    }
  }
  for (const auto& b : config.backends) {
    for (const auto& g : b.public_headers) {
      if (!g.matches_path(file)) continue;
      out.public_of.push_back(b.name);
      out.why.push_back(entry(config, "layers.backends." + b.name + ".public", g.pattern()));
      break;
    }
  }
  return out;
}

FileLayer excluded(const Config& config, const fs::path& path) {
  FileLayer out;
  out.file = path;
  out.layer = "excluded";
  for (const auto& g : config.exclude) {
    if (!g.matches_path(path)) continue;
    out.why.push_back(entry(config, "exclude", g.pattern()));
    break;
  }
  return out;
}

}  // namespace

std::vector<FileLayer> list_layers(ConfigLoader& loader, const std::vector<fs::path>& paths,
                                   const fs::path& fallback_root) {
  std::vector<FileLayer> out;
  for (const auto& start : paths) {
    const fs::path root = canonical_path(start);
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
      auto cfg = loader.for_folder(root.parent_path(), fallback_root);
      out.push_back(cfg->excluded(root) ? excluded(*cfg, root) : describe(*cfg, root));
      continue;
    }
    if (auto cfg = loader.for_folder(root, fallback_root); cfg->excluded(root)) {
      out.push_back(excluded(*cfg, root));
      out.back().folder = true;
      continue;
    }
    std::vector<FileLayer> here;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      const fs::path p = it->path();
      if (p.filename().string().rfind('.', 0) == 0) {
        if (it->is_directory(ec)) it.disable_recursion_pending();
        continue;
      }
      auto cfg = loader.for_folder(p.parent_path(), fallback_root);
      if (it->is_directory(ec)) {
        if (cfg->excluded(p)) {
          it.disable_recursion_pending();
          here.push_back(excluded(*cfg, p));
          here.back().folder = true;
        }
        continue;
      }
      if (!is_source_path(p) && !is_header_path(p)) continue;
      here.push_back(cfg->excluded(p) ? excluded(*cfg, p) : describe(*cfg, p));
    }
    std::sort(here.begin(), here.end(),
              [](const FileLayer& a, const FileLayer& b) { return a.file < b.file; });
    out.insert(out.end(), here.begin(), here.end());
  }
  return out;
}

}  // namespace emberlint
