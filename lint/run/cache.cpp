#include "lint/run/cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "lint/libclang/clang.hpp"
#include "lint/findings/fixes.hpp"
#include "lint/version.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

// Bump when the entry layout or what goes into a key changes: older entries then simply never match.
constexpr std::uint32_t kFormat =
    5;  // 2: partial units (cause, errors); 3: payload; 4: groups; 5: explanations
constexpr char kMagic[8] = {'E', 'L', 'C', 'A', 'C', 'H', 'E', '\n'};
constexpr std::size_t kHeaderSize = sizeof(kMagic) + 4 + 8 + 16;
constexpr const char* kEntrySuffix = ".entry";
constexpr const char* kTagName = "CACHEDIR.TAG";
constexpr const char* kTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by emberlint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n";

// A file modified this close to the start of its parse may have changed while it was parsed: not stored.
constexpr std::int64_t kTooNewNs = 20'000'000;
// A file modified this close to when its state was taken could change again within the same mtime (coarse
// file systems): its mtime is not trusted, its content is compared.
constexpr std::int64_t kRacyNs = 2'000'000'000;
// Dependency::mtime_ns of a file that is gone or has another size than when it was parsed: not stored.
constexpr std::int64_t kChangedSinceParse = -2;

std::int64_t mtime_of(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return s.str();
}

// The emberlint build and libclang in use: a rebuilt tool (rules changed, same version number) or another
// libclang must not reuse results.
const std::string& build_identity() {
  static const std::string id = [] {
    std::string s = clang::version();
    struct stat st {};
    if (::stat("/proc/self/exe", &st) == 0)
      s += " " + std::to_string(st.st_size) + " " + std::to_string(mtime_of(st));
    return s;
  }();
  return id;
}

// Entries are a compact binary: unsigned LEB128 numbers and length-prefixed strings.
class Writer {
 public:
  void number(std::uint64_t v) {
    do {
      unsigned char byte = v & 0x7f;
      v >>= 7;
      out_ += static_cast<char>(v ? byte | 0x80 : byte);
    } while (v);
  }
  void text(std::string_view s) {
    number(s.size());
    out_.append(s);
  }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

// Reads what Writer wrote; any overrun or oversized value makes ok() false (a damaged entry).
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  std::uint64_t number() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64 && pos_ < in_.size(); shift += 7) {
      auto byte = static_cast<unsigned char>(in_[pos_++]);
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return v;
    }
    ok_ = false;
    return 0;
  }
  unsigned small() {
    std::uint64_t v = number();
    if (v > 0xffffffffu) ok_ = false;
    return static_cast<unsigned>(v);
  }
  std::string text() {
    std::uint64_t n = number();
    if (!ok_ || n > in_.size() - pos_) {
      ok_ = false;
      return {};
    }
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  std::string_view in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

void write_diagnostic(Writer& w, const Diagnostic& d) {
  w.text(d.code);
  w.text(d.name);
  w.number(static_cast<std::uint64_t>(d.severity));
  w.text(d.file.native());
  for (unsigned v : {d.line, d.column, d.end_line, d.end_column}) w.number(v);
  w.text(d.message);
  w.number(d.fix.size());
  for (const Replacement& r : d.fix) {
    w.text(r.file.native());
    w.number(r.offset);
    w.number(r.length);
    w.text(r.replacement);
  }
  w.text(d.group);
  w.number(d.explanation.size());
  for (const auto& line : d.explanation) w.text(line);
}

Diagnostic read_diagnostic(Reader& r) {
  Diagnostic d;
  d.code = r.text();
  d.name = r.text();
  std::uint64_t severity = r.number();
  d.severity = severity <= static_cast<std::uint64_t>(Severity::error) ? static_cast<Severity>(severity)
                                                                       : Severity::warning;
  d.file = r.text();
  d.line = r.small();
  d.column = r.small();
  d.end_line = r.small();
  d.end_column = r.small();
  d.message = r.text();
  for (std::uint64_t n = r.number(); r.ok() && n > 0; --n) {
    Replacement f;
    f.file = r.text();
    f.offset = r.number();
    f.length = r.number();
    f.replacement = r.text();
    d.fix.push_back(std::move(f));
  }
  d.group = r.text();
  for (std::uint64_t n = r.number(); r.ok() && n > 0; --n) d.explanation.push_back(r.text());
  return d;
}

// Dependencies are sorted by path; each path is stored as the length it shares with the previous one and
// the rest, which keeps entries of units with hundreds of system headers small.
void write_dependencies(Writer& w, const std::vector<Dependency>& deps) {
  w.number(deps.size());
  std::string_view previous;
  for (const Dependency& d : deps) {
    std::string_view path = d.path.native();
    std::size_t shared = 0;
    while (shared < previous.size() && shared < path.size() && previous[shared] == path[shared]) ++shared;
    w.number(shared);
    w.text(path.substr(shared));
    w.number(d.size);
    w.number(static_cast<std::uint64_t>(d.mtime_ns + 1));  // -1 (not trusted) is stored as 0
    w.text(d.hash);
    previous = path;
  }
}

std::vector<Dependency> read_dependencies(Reader& r) {
  std::vector<Dependency> deps;
  std::string previous;
  for (std::uint64_t n = r.number(); r.ok() && n > 0; --n) {
    std::uint64_t shared = r.number();
    if (shared > previous.size()) return {};
    Dependency d;
    std::string path = previous.substr(0, shared) + r.text();
    d.path = path;
    d.size = r.number();
    d.mtime_ns = static_cast<std::int64_t>(r.number()) - 1;
    d.hash = r.text();
    deps.push_back(std::move(d));
    previous = std::move(path);
  }
  return deps;
}

std::string serialize(const std::string& name, const std::vector<Dependency>& deps,
                      const UnitResult& result) {
  Writer w;
  w.text(name);
  write_dependencies(w, deps);
  w.number(result.diagnostics.size());
  for (const Diagnostic& d : result.diagnostics) write_diagnostic(w, d);
  w.number(result.failure ? 1 : 0);
  if (const auto& f = result.failure) {
    w.text(f->file.native());
    w.text(f->message);
    w.text(f->where.native());
    w.number(f->line);
    w.number(f->column);
    w.text(f->cause);
    w.number(f->partial ? 1 : 0);
    w.number(f->errors.size());
    for (const ParseError& e : f->errors) {
      w.text(e.message);
      w.text(e.where.native());
      w.number(e.line);
      w.number(e.column);
    }
  }
  w.number(result.project_files.size());
  for (const auto& p : result.project_files) w.text(p.native());
  w.text(result.payload);

  std::string entry(kMagic, sizeof(kMagic));
  append_le(entry, kFormat, 4);
  append_le(entry, w.bytes().size(), 8);
  entry += Hash128().add(w.bytes()).digest();
  entry += w.bytes();
  return entry;
}

// The result in an entry's bytes; nullopt when they are not an intact entry named `name`.
std::optional<UnitResult> deserialize(std::string_view entry, const std::string& name) {
  if (entry.size() < kHeaderSize ||
      entry.substr(0, sizeof(kMagic)) != std::string_view(kMagic, sizeof(kMagic)))
    return std::nullopt;
  const auto* header = reinterpret_cast<const unsigned char*>(entry.data()) + sizeof(kMagic);
  std::uint64_t format = load_le(header) & 0xffffffffu;
  std::uint64_t size = load_le(header + 4);
  std::string_view payload = entry.substr(kHeaderSize);
  if (format != kFormat || size != payload.size() ||
      entry.substr(kHeaderSize - 16, 16) != Hash128().add(payload).digest()) {
    return std::nullopt;
  }
  Reader r(payload);
  if (r.text() != name) return std::nullopt;
  UnitResult out;
  out.dependencies = read_dependencies(r);
  for (std::uint64_t n = r.number(); r.ok() && n > 0; --n) out.diagnostics.push_back(read_diagnostic(r));
  if (r.number() == 1) {
    Failure f;
    f.file = r.text();
    f.message = r.text();
    f.where = r.text();
    f.line = r.small();
    f.column = r.small();
    f.cause = r.text();
    f.partial = r.number() == 1;
    for (std::uint64_t n = r.number(); r.ok() && n > 0 && f.errors.size() < 64; --n) {
      ParseError e;
      e.message = r.text();
      e.where = r.text();
      e.line = r.small();
      e.column = r.small();
      f.errors.push_back(std::move(e));
    }
    out.failure = std::move(f);
  }
  for (std::uint64_t n = r.number(); r.ok() && n > 0; --n) out.project_files.emplace_back(r.text());
  out.payload = r.text();
  if (!r.ok() || !r.at_end() || out.dependencies.empty()) return std::nullopt;
  return out;
}

bool is_entry_file(const std::string& name) {
  return name == kTagName || (name.size() > 6 && name.compare(name.size() - 6, 6, kEntrySuffix) == 0) ||
         (name.rfind('.', 0) == 0 && name.find(".emberlint-") != std::string::npos);
}

}  // namespace

// ---- the cache folder ------------------------------------------------------------------------------------

std::int64_t now_ns() {
  using namespace std::chrono;
  return duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
}

std::optional<fs::path> default_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg && fs::path(xdg).is_absolute()) return fs::path(xdg) / "emberlint";
  const char* home = std::getenv("HOME");
  if (home && *home) return fs::path(home) / ".cache" / "emberlint";
  return std::nullopt;
}

std::optional<fs::path> usable_cache_dir(const std::string& requested, std::ostream& warnings) {
  std::optional<fs::path> dir = requested.empty() ? default_cache_dir() : fs::path(requested);
  std::error_code ec;
  if (dir) dir = fs::absolute(*dir, ec);
  std::string error = dir ? ResultCache::prepare(*dir) : "neither XDG_CACHE_HOME nor HOME is set";
  if (error.empty()) return dir;
  warnings << "emberlint: warning: running without the result cache: " << error << "\n";
  return std::nullopt;
}

std::string clean_cache(const fs::path& dir, std::size_t& removed) {
  removed = 0;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return {};
  if (!fs::is_directory(dir, ec)) return dir.string() + ": not a folder";
  bool foreign = false;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!is_entry_file(e.path().filename().string()) || !e.is_regular_file(ec)) {
      foreign = true;
      continue;
    }
    if (!fs::remove(e.path(), ec)) return e.path().string() + ": cannot remove it: " + ec.message();
    if (e.path().filename() != kTagName) ++removed;
  }
  if (ec) return dir.string() + ": cannot list it: " + ec.message();
  if (foreign) return dir.string() + ": left in place: it holds files emberlint did not write";
  if (!fs::remove(dir, ec)) return dir.string() + ": cannot remove it: " + ec.message();
  return {};
}

std::string ResultCache::prepare(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return dir.string() + ": cannot create the cache folder: " + ec.message();
  if (!fs::is_directory(dir, ec)) return dir.string() + ": not a folder";
  fs::path tag = dir / kTagName;
  if (fs::exists(tag, ec)) {
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      return dir.string() + ": cannot write to the cache folder: " + std::strerror(errno);
    return {};
  }
  // The tag marks the folder for backup tools; writing it also proves the folder is writable.
  std::string error = write_file_atomically(tag, kTag);
  return error.empty() ? std::string() : error;
}

fs::path ResultCache::entry_path(const std::string& name) const {
  return dir_ / (name + kEntrySuffix);
}

std::string ResultCache::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

// ---- keys
// --------------------------------------------------------------------------------------------------

std::string ResultCache::config_hash(const Config& config) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = configs_.find(&config); it != configs_.end()) return it->second;
  }
  // The config file itself (also a --config file of any name) and every .emberlint.json above it: that
  // covers the parents an inheriting config merges over. A built-in default config has only its root.
  Hash128 h;
  h.field(config.root.native()).field(config.file.native());
  if (!config.file.empty()) {
    h.field(read_file(config.file).value_or(""));
    for (fs::path dir = config.file.parent_path();; dir = dir.parent_path()) {
      fs::path f = dir / kConfigFileName;
      if (auto text = read_file(f)) h.field(f.native()).field(*text);
      if (dir == dir.parent_path()) break;
    }
  }
  std::string out = h.hex();
  std::lock_guard lock(mutex_);
  configs_.emplace(&config, out);
  return out;
}

std::string ResultCache::entry_name(const UnitKey& key) {
  Hash128 h;
  h.field("emberlint-cache").field(std::to_string(kFormat)).field(kVersion).field(build_identity());
  h.field(key.file.native()).field(key.directory.native()).field(std::to_string(key.arguments.size()));
  for (const auto& a : key.arguments) h.field(a);
  h.field(key.config ? config_hash(*key.config) : std::string());
  h.field(key.rules).field(key.resource_dir).field(key.skip_bodies ? "skip-preamble-bodies" : "all-bodies");
  return h.hex();
}

// ---- file states
// ---------------------------------------------------------------------------------------------

ResultCache::FileState ResultCache::state(const fs::path& path) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = files_.find(path.native()); it != files_.end()) return it->second;
  }
  FileState s;
  // An editor's buffer (lint/support/source_text.hpp) is the file: its size and hash, and no mtime to trust.
  if (const std::string* text = overlay_of(overlays_.get(), path)) {
    s = FileState{true, text->size(), kChangedSinceParse, Hash128().add(*text).digest()};  // never an mtime
    std::lock_guard lock(mutex_);
    return files_.emplace(path.native(), s).first->second;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
    s.exists = true;
    s.size = S_ISDIR(st.st_mode) ? 0 : static_cast<std::uint64_t>(st.st_size);  // a folder: its listing
    s.mtime_ns = mtime_of(st);
  }
  std::lock_guard lock(mutex_);
  return files_.emplace(path.native(), s).first->second;
}

void ResultCache::remember(const fs::path& path, const FileState& s) {
  if (!s.exists || !s.hash || s.mtime_ns >= now_ns() - kRacyNs) return;
  std::lock_guard lock(mutex_);
  files_[path.native()] = s;
}

// A folder's content: the sorted names in it.
static std::optional<std::string> folder_listing(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return std::nullopt;
  std::vector<std::string> names;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().native());
  if (ec) return std::nullopt;
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += n + '\0';
  return out;
}

std::string ResultCache::content_hash(const fs::path& path) {
  FileState s = state(path);
  if (s.hash) return *s.hash;
  auto text = fs::is_directory(path) ? folder_listing(path) : read_file(path);
  if (!text) return {};
  s.hash = Hash128().add(*text).digest();
  if (text->size() == s.size) remember(path, s);
  return *s.hash;
}

bool ResultCache::unchanged(const Dependency& dep) {
  FileState s = state(dep.path);
  if (!s.exists || s.size != dep.size) return false;
  if (dep.mtime_ns >= 0 && s.mtime_ns == dep.mtime_ns) return true;
  return content_hash(dep.path) == dep.hash;  // touched, or too recent to trust its mtime
}

Dependency ResultCache::folder_dependency(const fs::path& folder) {
  Dependency d;
  d.path = folder;
  d.size = 0;
  d.mtime_ns = kChangedSinceParse;
  struct stat st {};
  auto listing = folder_listing(folder);
  if (listing && ::stat(folder.c_str(), &st) == 0) {
    d.mtime_ns = mtime_of(st);
    d.hash = Hash128().add(*listing).digest();
  }
  return d;
}

Dependency ResultCache::dependency(const fs::path& path, std::string_view parsed) {
  Dependency d;
  d.path = path;
  d.size = parsed.size();
  d.mtime_ns = kChangedSinceParse;
  struct stat st {};
  // A buffer's bytes are not the file's: no mtime vouches for them, the size and content are compared.
  if (overlay_of(overlays_.get(), path)) {
    d.mtime_ns = -1;
    d.hash = Hash128().add(parsed).digest();
    return d;
  }
  if (::stat(path.c_str(), &st) == 0 && static_cast<std::uint64_t>(st.st_size) == parsed.size()) {
    d.mtime_ns = mtime_of(st);
    std::lock_guard lock(mutex_);
    auto it = files_.find(path.native());
    if (it != files_.end() && it->second.hash && it->second.size == d.size &&
        it->second.mtime_ns == d.mtime_ns) {
      d.hash = *it->second.hash;  // an old file, hashed already in this run
      return d;
    }
  }
  d.hash = Hash128().add(parsed).digest();
  if (d.mtime_ns != kChangedSinceParse) remember(path, FileState{true, d.size, d.mtime_ns, d.hash});
  return d;
}

// ---- entries
// ------------------------------------------------------------------------------------------------

std::optional<UnitResult> ResultCache::load(const std::string& name) {
  std::optional<UnitResult> out;
  if (auto bytes = read_file(entry_path(name))) out = deserialize(*bytes, name);
  if (out && std::all_of(out->dependencies.begin(), out->dependencies.end(),
                         [&](const Dependency& d) { return unchanged(d); })) {
    ++hits_;
    return out;
  }
  ++misses_;
  return std::nullopt;
}

void ResultCache::store(const std::string& name, const UnitResult& result, std::int64_t started) {
  if (result.dependencies.empty()) return;
  std::vector<Dependency> deps = result.dependencies;
  std::sort(deps.begin(), deps.end(),
            [](const Dependency& a, const Dependency& b) { return a.path < b.path; });
  deps.erase(std::unique(deps.begin(), deps.end(),
                         [](const Dependency& a, const Dependency& b) { return a.path == b.path; }),
             deps.end());
  for (Dependency& d : deps) {
    // It may have changed while it was parsed.
    if (d.mtime_ns == kChangedSinceParse || d.mtime_ns >= started - kTooNewNs) return;
    if (d.mtime_ns >= started - kRacyNs) d.mtime_ns = -1;
  }
  std::string entry = serialize(name, deps, result);
  std::string error;
  {
    std::lock_guard lock(write_mutex_);
    error = write_file_atomically(entry_path(name), entry);
  }
  if (error.empty()) return;
  std::lock_guard lock(mutex_);
  if (error_.empty()) error_ = error;
}

std::vector<fs::path> missing_file_folders(const CompileCommand& command,
                                           const std::vector<ParseError>& errors) {
  std::vector<fs::path> search;
  const auto& args = command.arguments;
  for (std::size_t i = 0; i < args.size(); ++i) {
    for (const char* flag : {"-I", "-isystem", "-iquote", "-idirafter"}) {
      const std::string f = flag;
      if (args[i] == f && i + 1 < args.size()) {
        search.emplace_back(args[i + 1]);
      } else if (args[i].rfind(f, 0) == 0 && args[i].size() > f.size() && f == "-I") {
        search.emplace_back(args[i].substr(2));
      }
    }
  }
  std::vector<fs::path> out;
  for (const auto& e : errors) {
    auto end = e.message.find("' file not found");
    auto begin = e.message.find('\'');
    if (end == std::string::npos || begin == std::string::npos || begin >= end) continue;
    fs::path name = e.message.substr(begin + 1, end - begin - 1);
    std::vector<fs::path> roots = search;
    if (!e.where.empty()) roots.push_back(e.where.parent_path());
    for (fs::path root : roots) {
      if (root.is_relative()) root = command.directory / root;
      fs::path folder = (root / name).parent_path().lexically_normal();
      std::error_code ec;
      while (!folder.empty() && folder != folder.parent_path() && !fs::is_directory(folder, ec))
        folder = folder.parent_path();
      out.push_back(folder);
    }
  }
  return out;
}

}  // namespace emberlint
