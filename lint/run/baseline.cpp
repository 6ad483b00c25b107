// Baselines: reading (with errors that name the file and the JSON path), deterministic writing, multiset
// matching on fingerprints and the --baseline / --write-baseline / --prune-baseline steps of a run.
#include "lint/run/baseline.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "lint/run/fingerprint.hpp"
#include "lint/findings/fixes.hpp"
#include "lint/support/glob.hpp"
#include "lint/run/runner.hpp"
#include "lint/support/source_text.hpp"
#include "lint/version.hpp"

namespace emberlint {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// "<32 lowercase hex digits>:<n>", n a positive number without leading zeros.
bool well_formed(std::string_view fingerprint) {
  if (fingerprint.size() < 34 || fingerprint[32] != ':') return false;
  auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  if (!std::all_of(fingerprint.begin(), fingerprint.begin() + 32, hex)) return false;
  std::string_view n = fingerprint.substr(33);
  return n.size() <= 9 && n[0] != '0' &&
         std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string_view hash_of(std::string_view fingerprint) {
  return fingerprint.substr(0, fingerprint.find(':'));
}

unsigned long occurrence_of(std::string_view fingerprint) {
  std::size_t colon = fingerprint.find(':');
  return colon == std::string_view::npos ? 0 : std::stoul(std::string(fingerprint.substr(colon + 1)));
}

// Validates the parsed JSON against the format of lint/run/baseline.hpp; every error names the file and the path.
class Reader {
 public:
  explicit Reader(std::string name) : name_(std::move(name)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw BaselineError(name_ + ": " + path + ": " + what);
  }

  // Every required key present, no other key.
  void keys(const json& obj, const std::string& path, const std::vector<std::string>& required) const {
    if (!obj.is_object()) fail(path, std::string("expected an object, found ") + obj.type_name());
    for (const auto& [key, value] : obj.items()) {
      if (std::find(required.begin(), required.end(), key) != required.end()) continue;
      std::string list;
      for (const auto& k : required) list += (list.empty() ? "" : ", ") + k;
      fail(path, "unknown key '" + key + "'; expected: " + list);
    }
    for (const auto& key : required) {
      if (!obj.contains(key)) fail(path, "missing key '" + key + "'");
    }
  }

  std::string string(const json& j, const std::string& path, bool allow_empty = false) const {
    if (!j.is_string()) fail(path, std::string("expected a string, found ") + j.type_name());
    if (!allow_empty && j.get_ref<const std::string&>().empty()) fail(path, "expected a non-empty string");
    return j.get<std::string>();
  }

  unsigned line(const json& j, const std::string& path) const {
    if (!j.is_number_unsigned() || j.get<unsigned long long>() > UINT_MAX)
      fail(path, std::string("expected a line number (0 or more), found ") + j.dump());
    return j.get<unsigned>();
  }

  BaselineEntry entry(const json& j, const std::string& path) const {
    keys(j, path, {"fingerprint", "code", "file", "line", "message"});
    BaselineEntry e;
    e.fingerprint = string(j["fingerprint"], path + ".fingerprint");
    if (!well_formed(e.fingerprint))
      fail(path + ".fingerprint",
           "expected \"<32 lowercase hex digits>:<n>\", found \"" + e.fingerprint + "\"");
    e.code = string(j["code"], path + ".code");
    e.file = string(j["file"], path + ".file");
    e.line = line(j["line"], path + ".line");
    e.message = string(j["message"], path + ".message", /*allow_empty=*/true);
    return e;
  }

 private:
  std::string name_;
};

json parse_json(std::string_view text, const std::string& name) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    SourceText src{std::string(text)};
    std::size_t byte = e.byte > 0 ? e.byte - 1 : 0;
    auto [line, col] = src.position(std::min(byte, text.size()));
    std::string what = e.what();
    if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    throw BaselineError(name + ":" + std::to_string(line) + ":" + std::to_string(col) +
                        ": not a baseline: invalid JSON: " + what);
  } catch (const json::out_of_range& e) {
    // A number beyond a double ("1e400"): the parser says which, not where.
    std::string what = e.what();
    if (auto colon = what.find("] "); colon != std::string::npos) what = what.substr(colon + 2);
    throw BaselineError(name + ": not a baseline: invalid JSON: " + what);
  }
}

// Sort order of the file: by file, line, code, then the fingerprint's hash and occurrence.
bool entry_less(const BaselineEntry& a, const BaselineEntry& b) {
  auto key = [](const BaselineEntry& e) {
    return std::make_tuple(std::string_view(e.file), e.line, std::string_view(e.code), hash_of(e.fingerprint),
                           occurrence_of(e.fingerprint));
  };
  return key(a) < key(b);
}

std::string entry_line(const BaselineEntry& e) {
  auto q = [](const std::string& s) { return json(sanitize_utf8(s)).dump(); };
  return "{\"fingerprint\": " + q(e.fingerprint) + ", \"code\": " + q(e.code) + ", \"file\": " + q(e.file) +
         ", \"line\": " + std::to_string(e.line) + ", \"message\": " + q(e.message) + "}";
}

bool within(const fs::path& file, const fs::path& folder) {
  return file == folder || !relative_to(file, folder).empty();
}

std::vector<bool> scope_of(const CheckResult& result, const std::vector<fs::path>& paths,
                           const std::vector<BaselineEntry>& entries) {
  std::vector<bool> out;
  out.reserve(entries.size());
  for (const auto& e : entries) out.push_back(in_scope(result, paths, e));
  return out;
}

}  // namespace

Baseline parse_baseline(std::string_view text, const std::string& name) {
  const json doc = parse_json(text, name);
  Reader r(name);
  r.keys(doc, "$", {"tool", "version", "findings"});
  if (r.string(doc["tool"], "tool") != "emberlint")
    r.fail("tool", "expected \"emberlint\", found " + doc["tool"].dump());
  Baseline b;
  b.version = r.string(doc["version"], "version");
  const json& findings = doc["findings"];
  if (!findings.is_array())
    r.fail("findings", std::string("expected an array, found ") + findings.type_name());
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const std::string path = "findings[" + std::to_string(i) + "]";
    b.entries.push_back(r.entry(findings[i], path));
    auto [it, fresh] = seen.emplace(b.entries.back().fingerprint, i);
    if (!fresh) {
      r.fail(path + ".fingerprint", "duplicate of findings[" + std::to_string(it->second) +
                                        "]; two identical findings have fingerprints ending :1 and :2");
    }
  }
  return b;
}

Baseline read_baseline(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec))
    throw BaselineError(file.string() + ": no such baseline file (write one with --write-baseline)");
  if (fs::is_directory(file, ec)) throw BaselineError(file.string() + ": is a folder, not a baseline file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw BaselineError(file.string() + ": cannot read it: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_baseline(text.str(), file.string());
}

std::string baseline_json(const Baseline& baseline) {
  std::vector<BaselineEntry> entries = baseline.entries;
  std::sort(entries.begin(), entries.end(), entry_less);
  std::string out = "{\n  \"tool\": \"emberlint\",\n  \"version\": " + json(baseline.version).dump() +
                    ",\n  \"findings\": [";
  for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? ",\n    " : "\n    ") + entry_line(entries[i]);
  out += entries.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

void write_baseline(const fs::path& file, const Baseline& baseline) {
  if (std::string error = write_file_atomically(file, baseline_json(baseline)); !error.empty())
    throw BaselineError(error);
}

std::vector<BaselineEntry> baseline_entries(const CheckResult& result,
                                            const std::vector<std::string>& prints) {
  std::vector<BaselineEntry> out;
  for (std::size_t i = 0; i < result.diagnostics.size() && i < prints.size(); ++i) {
    const Diagnostic& d = result.diagnostics[i];
    out.push_back({prints[i], d.code, display_path(result, d.file), d.line, sanitize_utf8(d.message)});
  }
  return out;
}

bool in_scope(const CheckResult& result, const std::vector<fs::path>& paths, const BaselineEntry& entry) {
  const fs::path file = (result.root / entry.file).lexically_normal();
  if (auto it = result.checked_rules.find(file); it != result.checked_rules.end())
    return it->second.count(entry.code) > 0;
  std::error_code ec;
  if (fs::exists(file, ec) || ec) return false;  // there, but not checked by this run
  if (paths.empty()) return within(file, result.root);
  return std::any_of(paths.begin(), paths.end(), [&](const fs::path& p) { return within(file, p); });
}

BaselineMatch match_baseline(const std::vector<BaselineEntry>& entries,
                             const std::vector<std::string>& prints,
                             const std::vector<bool>& entry_in_scope) {
  // Per hash, the entries in order of their occurrence numbers.
  std::map<std::string_view, std::vector<std::pair<unsigned long, std::size_t>>> by_hash;
  for (std::size_t i = 0; i < entries.size(); ++i)
    by_hash[hash_of(entries[i].fingerprint)].emplace_back(occurrence_of(entries[i].fingerprint), i);
  for (auto& [hash, list] : by_hash) std::sort(list.begin(), list.end());

  BaselineMatch m;
  std::map<std::string_view, std::size_t> used;
  for (std::size_t j = 0; j < prints.size(); ++j) {
    std::string_view hash = hash_of(prints[j]);
    auto it = by_hash.find(hash);
    std::size_t& n = used[hash];
    if (it != by_hash.end() && n < it->second.size()) {
      ++n;
      ++m.matched;
    } else {
      m.fresh.push_back(j);
    }
  }
  for (const auto& [hash, list] : by_hash) {
    for (std::size_t k = used[hash]; k < list.size(); ++k) {
      if (list[k].second < entry_in_scope.size() && entry_in_scope[list[k].second])
        m.stale.push_back(list[k].second);
    }
  }
  std::sort(m.stale.begin(), m.stale.end());
  return m;
}

void check_baseline_options(const BaselineOptions& options) {
  if (options.use && options.write) {
    throw BaselineError(
        "--baseline and --write-baseline cannot be combined: --write-baseline records the current findings, "
        "--baseline reports what is not recorded");
  }
  if (options.prune && !options.use) throw BaselineError("--prune-baseline needs --baseline FILE");
  if (options.use) read_baseline(*options.use);
  if (!options.write) return;
  const fs::path& file = *options.write;
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
    if (!fs::is_directory(folder, ec))
      throw BaselineError("--write-baseline " + file.string() + ": no such folder " + folder.string());
    return;
  }
  try {
    read_baseline(file);
  } catch (const BaselineError& e) {
    throw BaselineError(std::string(e.what()) + " (delete the file to write a new baseline)");
  }
}

void apply_baseline(CheckResult& result, const BaselineOptions& options) {
  if (!options.use && !options.write) return;
  const std::vector<std::string> prints = fingerprints(result);
  std::vector<fs::path> paths;
  for (const auto& p : options.paths) {  // as the runner sees them: absolute, symbolic links resolved
    std::error_code ec;
    fs::path real = fs::weakly_canonical(fs::absolute(p), ec);
    paths.push_back(ec ? fs::absolute(p).lexically_normal() : real);
  }
  BaselineOutcome out;

  if (options.write) {
    // Entries the run could not have matched stay; the rest is replaced by the run's findings.
    Baseline b{kVersion, baseline_entries(result, prints)};
    std::error_code ec;
    if (fs::exists(*options.write, ec)) {
      const std::set<std::string> current(prints.begin(), prints.end());
      for (auto& e : read_baseline(*options.write).entries) {
        if (!in_scope(result, paths, e) && !current.count(e.fingerprint)) b.entries.push_back(std::move(e));
      }
    }
    write_baseline(*options.write, b);
    out.file = options.write->string();
    out.matched = result.diagnostics.size();
    out.written = b.entries.size();
    result.diagnostics.clear();
    result.baseline = std::move(out);
    return;
  }

  Baseline b = read_baseline(*options.use);
  BaselineMatch m = match_baseline(b.entries, prints, scope_of(result, paths, b.entries));
  out.file = options.use->string();
  out.matched = m.matched;
  for (std::size_t i : m.stale) out.stale.push_back(b.entries[i]);
  if (options.prune && !m.stale.empty()) {
    // Only removes: findings that are not in the baseline are never added by pruning.
    Baseline kept{kVersion, {}};
    for (std::size_t i = 0; i < b.entries.size(); ++i) {
      if (!std::binary_search(m.stale.begin(), m.stale.end(), i)) kept.entries.push_back(b.entries[i]);
    }
    write_baseline(*options.use, kept);
    out.pruned = out.stale.size();
    out.stale.clear();
  }
  std::vector<Diagnostic> fresh;
  for (std::size_t j : m.fresh) fresh.push_back(std::move(result.diagnostics[j]));
  result.diagnostics = std::move(fresh);
  result.baseline = std::move(out);
}

}  // namespace emberlint
