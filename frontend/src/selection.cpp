// Backend registry and selection: scope > explicit call > EMBER_BACKEND > persisted file > default.
#include "ember/selection.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <system_error>

#include "ember/backend.hpp"
#include "ember/backend_registry.hpp"
#include "ember/error.hpp"

namespace ember {

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<Backend>> backends;
};

Registry& registry_storage() {
  static Registry registry;
  return registry;
}

Registry& registry() {
  static std::once_flag once;
  std::call_once(once, [] { detail::register_builtin_backends(); });
  return registry_storage();
}

std::string names_list() {
  std::string s;
  for (const auto& n : registered_backends()) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? std::string("none") : s;
}

Backend* find_backend(std::string_view name) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (auto& b : r.backends) {
    if (b->name() == name) return b.get();
  }
  return nullptr;
}

std::atomic<Backend*> explicit_choice{nullptr};
thread_local std::vector<Backend*> scope_stack;

// Identifies a version of a file: rename-replacement changes the inode, in-place edits the size or mtime.
struct FileStamp {
  bool exists = false;
  ::dev_t dev = 0;
  ::ino_t ino = 0;
  ::off_t size = 0;
  ::timespec mtime{};
  bool operator==(const FileStamp& o) const {
    return exists == o.exists && dev == o.dev && ino == o.ino && size == o.size && mtime.tv_sec == o.mtime.tv_sec &&
           mtime.tv_nsec == o.mtime.tv_nsec;
  }
};

FileStamp stamp_of(const std::string& path) {
  struct ::stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {true, st.st_dev, st.st_ino, st.st_size, st.st_mtim};
}

struct PersistedCache {
  std::mutex mutex;
  std::string path;
  FileStamp stamp;
  bool loaded = false;
  std::string name;  // empty: no persisted choice
};
PersistedCache& persisted_cache() {
  static PersistedCache cache;
  return cache;
}

std::string read_persisted_name(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  std::ifstream in(path);
  if (!in) throw BackendError("cannot read the persisted backend choice " + path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw BackendError("the persisted backend choice " + path + " is not valid JSON: " + e.what() +
                       "; fix or delete the file");
  }
  if (!j.is_object() || !j.contains("backend") || !j["backend"].is_string()) {
    throw BackendError("the persisted backend choice " + path +
                       " must be an object with a string \"backend\"; fix or delete the file");
  }
  return j["backend"].get<std::string>();
}

std::string persisted_name() {
  PersistedCache& c = persisted_cache();
  const std::string path = persisted_config_path();
  // Re-read when the file changes (another process may persist a choice while this one runs).
  const FileStamp stamp = stamp_of(path);
  std::lock_guard lock(c.mutex);
  if (!c.loaded || c.path != path || !(stamp == c.stamp)) {
    c.name = stamp.exists ? read_persisted_name(path) : std::string();
    c.path = path;
    c.stamp = stamp;
    c.loaded = true;
  }
  return c.name;
}

void write_persisted_name(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path path = persisted_config_path();
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec)
    throw BackendError("set_backend: cannot create " + path.parent_path().string() + ": " + ec.message());
  nlohmann::json j;
  j["backend"] = name;
  const fs::path tmp = path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << j.dump(2) << "\n";
    out.flush();
    if (!out) {
      fs::remove(tmp, ec);
      throw BackendError("set_backend: cannot write " + tmp.string());
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw BackendError("set_backend: cannot replace " + path.string());
  }
  PersistedCache& c = persisted_cache();
  std::lock_guard lock(c.mutex);
  c.loaded = false;  // re-read (and re-stat) on next use
}

}  // namespace

void register_backend(std::unique_ptr<Backend> backend) {
  if (!backend) throw BackendError("register_backend: null backend");
  Registry& r = registry_storage();
  std::lock_guard lock(r.mutex);
  for (auto& b : r.backends) {
    if (b->name() == backend->name()) {
      throw BackendError("register_backend: a backend named \"" + backend->name() +
                         "\" is already registered");
    }
  }
  r.backends.push_back(std::move(backend));
}

std::vector<std::string> registered_backends() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<std::string> names;
  for (auto& b : r.backends) names.push_back(b->name());
  return names;
}

Backend& get_backend(std::string_view name) {
  if (Backend* b = find_backend(name)) return *b;
  throw BackendError("unknown backend \"" + std::string(name) + "\"; registered backends: " + names_list());
}

namespace {

std::pair<Backend*, const char*> resolve_current() {
  if (!scope_stack.empty()) return {scope_stack.back(), "scope"};
  if (Backend* b = explicit_choice.load()) return {b, "explicit"};
  if (const char* env = std::getenv("EMBER_BACKEND"); env != nullptr && *env != '\0') {
    if (Backend* b = find_backend(env)) return {b, "environment"};
    throw BackendError("EMBER_BACKEND names unknown backend \"" + std::string(env) +
                       "\"; registered backends: " + names_list());
  }
  if (const std::string name = persisted_name(); !name.empty()) {
    if (Backend* b = find_backend(name)) return {b, "persisted"};
    throw BackendError("the persisted backend choice " + persisted_config_path() +
                       " names unknown backend \"" + name + "\"; registered backends: " + names_list());
  }
  if (Backend* b = find_backend("eigen")) return {b, "default"};
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (r.backends.empty()) throw BackendError("no backend is registered");
  return {r.backends.front().get(), "default"};
}

}  // namespace

Backend& current_backend() {
  return *resolve_current().first;
}

BackendChoice current_backend_choice() {
  const auto [backend, source] = resolve_current();
  return {backend->name(), source};
}

std::string current_backend_name() {
  return current_backend().name();
}

void set_backend(std::string_view name, Persist persist) {
  Backend& b = get_backend(name);
  if (persist == Persist::yes) write_persisted_name(b.name());
  explicit_choice.store(&b);
}

void reset_backend() {
  explicit_choice.store(nullptr);
}

std::string persisted_config_path() {
  namespace fs = std::filesystem;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg == '/') {
    return (fs::path(xdg) / "ember" / "config.json").string();
  }
  const char* home = std::getenv("HOME");
  const fs::path base = home != nullptr && *home != '\0' ? fs::path(home) : fs::temp_directory_path();
  return (base / ".config" / "ember" / "config.json").string();
}

BackendScope::BackendScope(std::string_view name) {
  scope_stack.push_back(&get_backend(name));
}
BackendScope::~BackendScope() {
  scope_stack.pop_back();
}

}  // namespace ember
