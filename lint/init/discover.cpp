#include "lint/init/discover.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "lint/parse/include_graph.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kLargestFile = 4u << 20;  // larger files are data, not code to scan

// The words of a folder name: "ggml-cuda" -> ggml, cuda; "no_gpu" -> no, gpu.
std::vector<std::string> words(const std::string& name) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

bool one_of(const std::string& s, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

bool vendored_name(const std::string& name) {
  const std::string n = ascii_lower(name);
  return n.rfind("build", 0) == 0 || n.rfind("cmake-build", 0) == 0 ||
         one_of(n, {"third_party", "third-party", "thirdparty", "3rdparty", "external", "extern", "vendor",
                    "vendored", "deps", "_deps", "node_modules", "subprojects"});
}
bool test_name(const std::string& name) {
  return one_of(ascii_lower(name),
                {"test", "tests", "unittest", "unittests", "unit_tests", "testing", "gtest"});
}
bool glue_name(const std::string& name) {
  return one_of(ascii_lower(name),
                {"examples", "example", "samples", "sample", "tools", "benchmark", "benchmarks", "bench",
                 "apps", "python", "bindings", "docs", "doc", "scripts"});
}
bool shared_name(const std::string& name) {
  return one_of(ascii_lower(name), {"common", "shared", "utils", "util", "detail", "base"});
}
bool gpu_library(const KnownLibrary* l) {
  return l && one_of(l->name, {"CUDA", "HIP", "MUSA", "Metal", "Vulkan", "OpenCL", "CLBlast", "SYCL",
                               "WebGPU", "Kompute"});
}

// The known library a folder is named after ("ggml-cuda", "x86", "metal"), or null.
const KnownLibrary* named_library(const std::string& folder) {
  const auto w = words(folder);
  for (const KnownLibrary& l : known_libraries()) {
    for (const auto& fw : l.folder_words) {
      if (std::find(w.begin(), w.end(), fw) != w.end()) return &l;
    }
  }
  return nullptr;
}
bool names_a_processor(const std::string& folder) {
  const auto w = words(folder);
  return std::find(w.begin(), w.end(), "cpu") != w.end() || std::find(w.begin(), w.end(), "gpu") != w.end();
}

std::string read_text(const fs::path& p) {
  std::error_code ec;
  if (fs::file_size(p, ec) > kLargestFile || ec) return {};
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Comments and string literals blanked (newlines kept), so that the regular expressions below see code.
std::string code_only(const std::string& text) {
  std::string out = text;
  enum { code, line, block, str, chr } state = code;
  for (std::size_t i = 0; i < out.size(); ++i) {
    char c = out[i], n = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
      case code:
        if (c == '/' && n == '/')
          state = line, out[i] = ' ';
        else if (c == '/' && n == '*')
          state = block, out[i] = ' ';
        else if (c == '"')
          state = str;
        else if (c == '\'')
          state = chr;
        break;
      case line:
        if (c == '\n')
          state = code;
        else
          out[i] = ' ';
        break;
      case block:
        if (c == '*' && n == '/')
          out[i] = out[i + 1] = ' ', ++i, state = code;
        else if (c != '\n')
          out[i] = ' ';
        break;
      case str:
      case chr:
        if (c == '\\') {
          out[i] = ' ';
          if (i + 1 < out.size() && out[i + 1] != '\n') out[++i] = ' ';
        } else if (c == (state == str ? '"' : '\'') || c == '\n') {
          state = code;
        } else {
          out[i] = ' ';
        }
        break;
    }
  }
  return out;
}

// The tokens of code without comments and strings (code_only): identifiers, "::" and single punctuation
// characters; numbers and preprocessor lines are skipped. A hand scanner, not std::regex: regex matching
// recurses per character and overflows the stack on large files.
struct Token {
  std::string_view text;
  unsigned line = 0;
  bool head = false;  // the first token of its line, in column 0
};

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident(std::string_view t) {
  return !t.empty() && ident_start(t.front());
}

std::vector<Token> tokenize(std::string_view code) {
  std::vector<Token> out;
  unsigned line = 1;
  bool line_start = true;
  std::size_t column = 0;
  for (std::size_t i = 0; i < code.size();) {
    const char c = code[i];
    if (c == '\n') {
      ++line, ++i, column = 0, line_start = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i, ++column;
      continue;
    }
    const bool head = line_start && column == 0;
    const bool first = line_start;
    line_start = false;
    if (c == '#' && first) {  // a preprocessor line, with its continuations
      while (i < code.size() && code[i] != '\n') {
        if (code[i] == '\\' && i + 1 < code.size() && code[i + 1] == '\n') ++line, ++i;
        ++i;
      }
      continue;
    }
    std::size_t j = i + 1;
    if (ident_start(c)) {
      while (j < code.size() && ident_char(code[j])) ++j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (j < code.size() && (ident_char(code[j]) || code[j] == '.' || code[j] == '\'')) ++j;
      column += j - i, i = j;
      continue;
    } else if (c == ':' && j < code.size() && code[j] == ':') {
      ++j;
    }
    out.push_back({code.substr(i, j - i), line, head});
    column += j - i, i = j;
  }
  return out;
}

// The namespace token `at` is in ("mlx::core"), from the namespace blocks opened before it.
std::string namespace_at(const std::vector<Token>& t, std::size_t at) {
  std::vector<std::pair<std::string, int>> open;  // name, depth inside it
  int depth = 0;
  for (std::size_t k = 0; k < at && k < t.size(); ++k) {
    if (t[k].text == "namespace") {
      std::string name;
      std::size_t j = k + 1;
      while (j < at && (is_ident(t[j].text) || t[j].text == "::")) name += t[j++].text;
      if (j < at && t[j].text == "{") {
        open.emplace_back(name, ++depth);
        k = j;
      }
    } else if (t[k].text == "{") {
      ++depth;
    } else if (t[k].text == "}") {
      --depth;
      while (!open.empty() && open.back().second > depth) open.pop_back();
    }
  }
  std::string out;
  for (const auto& [name, d] : open) {
    if (!name.empty()) out += (out.empty() ? "" : "::") + name;
  }
  return out;
}

// The index of the class or struct name after the `class`/`struct` token at k (an export macro between them
// is skipped: `class NCNN_EXPORT Mat`), or 0 when none.
std::size_t class_name_at(const std::vector<Token>& t, std::size_t k) {
  if (t[k].text != "class" && t[k].text != "struct") return 0;
  std::size_t j = k + 1;
  if (j + 1 < t.size() && is_ident(t[j].text) && is_ident(t[j + 1].text) && t[j + 1].text != "final") ++j;
  return j < t.size() && is_ident(t[j].text) ? j : 0;
}

// For a class definition at k with a base list, the last component of its first base ("Layer" for
// `class ReLU_x86 : public ncnn::ReLU`); empty otherwise. `name` gets the class's name.
std::string first_base(const std::vector<Token>& t, std::size_t k, std::string& name) {
  std::size_t j = class_name_at(t, k);
  if (!j) return {};
  name = std::string(t[j].text);
  ++j;
  if (j < t.size() && t[j].text == "final") ++j;
  if (j >= t.size() || t[j].text != ":") return {};
  ++j;
  while (j < t.size() && (t[j].text == "public" || t[j].text == "protected" || t[j].text == "private" ||
                          t[j].text == "virtual"))
    ++j;
  std::string base;
  while (j < t.size() && (is_ident(t[j].text) || t[j].text == "::")) {
    if (is_ident(t[j].text)) base = std::string(t[j].text);
    ++j;
  }
  return base;
}

// The function heads of a file: lines that start in column 0 with a name and a parameter list and hold no
// ';' (a definition's first line, in the usual formatting), as (line, name), in order.
std::vector<std::pair<unsigned, std::string>> function_heads(const std::vector<Token>& t) {
  std::vector<std::pair<unsigned, std::string>> out;
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (!t[k].head || !is_ident(t[k].text)) continue;
    std::size_t end = k;
    while (end < t.size() && t[end].line == t[k].line) ++end;
    std::string name;
    bool semicolon = false;
    for (std::size_t j = k; j < end; ++j) {
      if (t[j].text == ";") semicolon = true;
      if (t[j].text == "(" && j > k && is_ident(t[j - 1].text) && name.empty())
        name = std::string(t[j - 1].text);
    }
    static const std::set<std::string_view> kNot = {"if",   "for",     "while",   "switch", "return", "else",
                                                    "case", "default", "typedef", "using",  "do"};
    if (!semicolon && !name.empty() && !kNot.count(t[k].text) && !kNot.count(name))
      out.emplace_back(t[k].line, name);
    k = end - 1;
  }
  return out;
}

struct ScannedFile {
  std::string rel;  // relative to the root, '/'-separated
  std::string dir;  // its folder, "" for the root
  bool header = false;
  std::map<const KnownLibrary*, std::string> libraries;  // each vendor library it includes: one header
};

struct FolderStats {
  std::size_t files = 0;                                     // C and C++ files in its subtree
  std::map<const KnownLibrary*, std::size_t> library_files;  // of them, those including the library
  std::map<const KnownLibrary*, std::map<std::string, std::size_t>> headers;  // by header spelled
  std::set<std::string> children;
};

std::string parent_of(const std::string& rel) {
  auto slash = rel.rfind('/');
  return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}
std::string name_of(const std::string& rel) {
  auto slash = rel.rfind('/');
  return slash == std::string::npos ? rel : rel.substr(slash + 1);
}
bool under(const std::string& rel, const std::string& folder) {
  return folder.empty() || rel == folder || rel.rfind(folder + "/", 0) == 0;
}
std::string plural(std::size_t n, const std::string& one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

// The most used header of a library in a folder's subtree.
std::string top_header(const FolderStats& s, const KnownLibrary* l) {
  auto it = s.headers.find(l);
  if (it == s.headers.end() || it->second.empty()) return {};
  return std::max_element(it->second.begin(), it->second.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

// The paths in .gitmodules: submodules are someone else's code.
std::set<std::string> submodule_paths(const fs::path& root) {
  std::set<std::string> out;
  std::istringstream in(read_text(root / ".gitmodules"));
  std::string line;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::istringstream key(line.substr(0, eq)), value(line.substr(eq + 1));
    std::string k, v;
    if (key >> k && k == "path" && value >> v) out.insert(v);
  }
  return out;
}

class Discoverer {
 public:
  Discoverer(const fs::path& root, const std::vector<CompileCommand>& commands)
      : root_(root), commands_(commands) {}

  Discovery run() {
    scan();
    find_tests_and_glue();
    find_backends();
    find_libraries();
    find_frontend();
    for (const auto& [base, n] : include_bases_) {
      const bool library = base == "." || !(in_any(base, tests_) || in_any(base, glue_) || excluded(base));
      if (library && (n >= 2 || include_bases_.size() <= 3)) out_.include_folders.push_back(base);
    }
    find_public_headers();
    find_missing_sdks();
    find_tensor_type();
    find_model();
    if (!glue_files_.empty())
      out_.glue_why += (out_.glue_why.empty() ? "" : "; ") + join_why(glue_files_) +
                       ": files beside the backend folders, which register or select them";
    out_.read = plural(files_.size(), "C and C++ file") + " under the folder";
    if (!commands_.empty()) out_.read += ", " + plural(commands_.size(), "compile command");
    return std::move(out_);
  }

 private:
  // ---- the walk ----
  void scan() {
    const std::set<std::string> submodules = submodule_paths(root_);
    std::map<std::string, std::string> excluded;  // folder, why
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root_, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      const fs::path p = it->path();
      const std::string name = p.filename().string();
      const std::string rel = p.lexically_relative(root_).generic_string();
      if (it->is_directory(ec)) {
        if (name.rfind('.', 0) == 0) {
          it.disable_recursion_pending();
        } else if (fs::exists(p / "CMakeCache.txt", ec)) {
          excluded.emplace(rel, "a build folder (CMakeCache.txt)");
        } else if (submodules.count(rel) || fs::exists(p / ".git", ec)) {
          excluded.emplace(rel, "a git submodule");
        } else if (vendored_name(name)) {
          excluded.emplace(rel, name.rfind("build", 0) == 0 || name.rfind("cmake-build", 0) == 0
                                    ? "a build folder"
                                    : "vendored code");
        }
        if (excluded.count(rel)) it.disable_recursion_pending();
        continue;
      }
      if (!is_source_path(p) && !is_header_path(p)) continue;
      ScannedFile f;
      f.rel = rel;
      f.dir = parent_of(rel);
      f.header = is_header_path(p);
      const std::string text = read_text(p);
      for (const IncludeDirective& d : scan_directives(text).includes) {
        if (d.name.form != HeaderName::Form::quoted && d.name.form != HeaderName::Form::angled) continue;
        if (project_header(d.name.text, p.parent_path())) continue;
        if (const KnownLibrary* l = library_of_include(d.name.text)) f.libraries.emplace(l, d.name.text);
      }
      texts_.emplace(rel, code_only(text));
      files_.push_back(std::move(f));
    }
    for (const ScannedFile& f : files_) {
      std::string d = f.dir;
      for (;;) {
        FolderStats& s = folders_[d];
        ++s.files;
        for (const auto& [l, header] : f.libraries) {
          ++s.library_files[l];
          ++s.headers[l][header];
        }
        if (d.empty()) break;
        const std::string up = parent_of(d);
        folders_[up].children.insert(d);
        d = up;
      }
    }
    for (const auto& entry : excluded) {
      // Only the outermost: a build folder inside vendored code is covered by it. (No structured binding: a
      // lambda may not capture one before C++20's clang 16.)
      const std::string& folder = entry.first;
      if (std::any_of(excluded.begin(), excluded.end(),
                      [&](const auto& e) { return e.first != folder && under(folder, e.first); }))
        continue;
      out_.exclude.push_back(folder + "/**");
      exclude_why_.push_back(folder + "/ (" + entry.second + ")");
    }
    out_.exclude_why = join_why(exclude_why_);
  }

  // A name found next to the includer, in a folder above it within the tree, or in the tree's include/ or
  // src/ is the project's own header ("mlx/backend/cuda/cuda.h"), whatever library its file name suggests.
  // The folders above the includer where a name was found are the include folders the build passes (-I):
  // counted for compile_flags.
  bool project_header(const std::string& name, const fs::path& includer_folder) {
    std::error_code ec;
    for (fs::path folder = includer_folder;;) {
      if (fs::exists(folder / name, ec)) {
        if (folder != includer_folder) ++include_bases_[folder.lexically_relative(root_).generic_string()];
        return true;
      }
      if (folder == root_ || !folder.has_parent_path() || folder.parent_path() == folder) break;
      folder = folder.parent_path();
    }
    for (const char* base : {"include", "src"}) {
      if (fs::exists(root_ / base / name, ec)) {
        ++include_bases_[base];
        return true;
      }
    }
    return false;
  }

  static std::string join_why(const std::vector<std::string>& items, std::size_t most = 6) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < most; ++i) out += (out.empty() ? "" : "; ") + items[i];
    if (items.size() > most) out += "; and " + std::to_string(items.size() - most) + " more";
    return out;
  }

  // ---- tests, examples and tools ----
  void find_tests_and_glue() {
    std::vector<std::string> tests_why, glue_why;
    for (const auto& [folder, stats] : folders_) {
      if (folder.empty() || stats.files == 0) continue;
      const std::string name = name_of(folder);
      if (test_name(name) && !in_any(folder, tests_)) {
        tests_.push_back(folder);
        tests_why.push_back(folder + "/ (" + plural(stats.files, "file") + ")");
      } else if (glue_name(name) && parent_of(folder).empty()) {
        glue_.push_back(folder);
        glue_why.push_back(folder + "/");
      }
    }
    // Units of the database whose object file is a test target's.
    std::size_t test_units = 0;
    for (const auto& c : commands_) {
      for (std::size_t i = 0; i + 1 < c.arguments.size(); ++i) {
        if (c.arguments[i] == "-o" && ascii_lower(c.arguments[i + 1]).find("test") != std::string::npos)
          ++test_units;
      }
    }
    for (const auto& t : tests_) out_.tests.push_back(t + "/**");
    out_.tests_why = join_why(tests_why);
    if (test_units)
      out_.tests_why += (out_.tests_why.empty() ? "" : "; ") + plural(test_units, "unit") +
                        " of the compile database build test targets";
    for (const auto& g : glue_) out_.glue.push_back(g + "/**");
    if (!glue_.empty())
      out_.glue_why =
          join_why(glue_why) + ": programs and bindings that pick a backend, governed by no purity rule";
  }

  bool in_any(const std::string& folder, const std::vector<std::string>& folders) const {
    return std::any_of(folders.begin(), folders.end(),
                       [&](const std::string& f) { return under(folder, f); });
  }

  // ---- backends ----
  void find_backends() {
    std::vector<std::string> order;
    for (const auto& [folder, stats] : folders_) order.push_back(folder);
    std::stable_sort(order.begin(), order.end(), [](const std::string& a, const std::string& b) {
      return std::count(a.begin(), a.end(), '/') + !a.empty() <
             std::count(b.begin(), b.end(), '/') + !b.empty();
    });
    for (const std::string& parent : order) {
      if (in_any(parent, chosen_) || in_any(parent, tests_) || in_any(parent, glue_)) continue;
      group(parent);
    }
  }

  // The children of `parent` when they are a group of backends: at least two named after a library, an
  // architecture or a processor (ggml's src/ggml-cuda, ncnn's src/layer/x86), or any children of a folder
  // named backend(s) (MLX's mlx/backend/).
  void group(const std::string& parent) {
    const FolderStats& ps = folders_[parent];
    std::vector<std::string> children;
    for (const auto& c : ps.children) {
      if (folders_[c].files > 0 && !in_any(c, tests_)) children.push_back(c);
    }
    std::vector<std::string> hinted;
    for (const auto& c : children) {
      if (named_library(name_of(c)) || names_a_processor(name_of(c))) hinted.push_back(c);
    }
    const bool backend_parent = one_of(ascii_lower(name_of(parent)), {"backend", "backends"});
    if (hinted.size() < 2 && !(backend_parent && !children.empty())) return;
    // A prefix the named children share ("ggml-"): other children with it are backends too (ggml-rpc).
    std::string prefix = hinted.empty() ? std::string() : name_of(hinted.front());
    for (const auto& h : hinted) {
      const std::string n = name_of(h);
      std::size_t k = 0;
      while (k < prefix.size() && k < n.size() && prefix[k] == n[k]) ++k;
      prefix.resize(k);
    }
    if (auto cut = prefix.find_last_of("-_"); cut != std::string::npos)
      prefix.resize(cut + 1);
    else
      prefix.clear();

    std::vector<std::string> shared_all, shared_gpu;
    std::vector<std::pair<std::string, std::string>> members;  // folder, backend name
    for (const auto& c : children) {
      std::string name = name_of(c);
      const bool with_prefix = !prefix.empty() && name.rfind(prefix, 0) == 0 && name.size() > prefix.size();
      const bool is_hinted = std::find(hinted.begin(), hinted.end(), c) != hinted.end();
      if (with_prefix) name = name.substr(prefix.size());
      if (shared_name(name)) {
        shared_all.push_back(c);
      } else if (ascii_lower(name) == "gpu" && hinted.size() > 1) {
        shared_gpu.push_back(c);
      } else if (is_hinted || backend_parent || with_prefix) {
        std::string id = ascii_lower(name);
        std::replace(id.begin(), id.end(), '-', '_');
        members.emplace_back(c, id);
      }
    }
    if (members.size() + (backend_parent ? 1 : 0) < 2) return;
    // Files directly in a backends/ folder register or select the backends: glue.
    if (backend_parent) {
      for (const auto& f : files_) {
        if (f.dir != parent) continue;
        out_.glue.push_back(f.rel);
        glue_files_.push_back(f.rel);
      }
      backend_parents_.push_back(parent);
    }
    for (const auto& [folder, id] : members) {
      const FolderStats& s = folders_[folder];
      const KnownLibrary* lib = named_library(name_of(folder));
      // The library the folder is named after, when its files include it; else the one they include most.
      const KnownLibrary* used = lib && s.library_files.count(lib) ? lib : top_library(s);
      const bool gpu = gpu_library(lib) || gpu_library(used) || names_gpu(folder);
      ProposedBackend* b = backend(id);
      b->paths.push_back(folder + "/**");
      b->files += s.files;
      std::string why = folder + "/: " + plural(s.files, "file");
      if (used) {
        why += ", " + std::to_string(s.library_files.at(used)) + " including <" + top_header(s, used) +
               "> (" + used->name + ")";
      } else if (lib) {
        why += ", named after " + lib->name + " (no vendor header found in its files)";
      } else {
        why += ", no vendor header found in its files";
      }
      for (const auto& sh : shared_all) {
        b->paths.push_back(sh + "/**");
        why += "; " + sh + "/ is shared by every backend here";
      }
      if (gpu) {
        for (const auto& sh : shared_gpu) {
          b->paths.push_back(sh + "/**");
          why += "; " + sh + "/ is shared by the GPU backends";
        }
      }
      b->why += (b->why.empty() ? "" : "; ") + why;
      chosen_.push_back(folder);
      backend_folders_[id].push_back(folder);
    }
    for (const auto& sh : shared_all) chosen_.push_back(sh), shared_.push_back(sh);
    for (const auto& sh : shared_gpu) chosen_.push_back(sh), shared_.push_back(sh);
  }

  // Whether a proposed backend is a GPU one: named after a GPU library, or its files include one most.
  bool gpu_backend(const std::string& id) const {
    auto it = backend_folders_.find(id);
    if (it == backend_folders_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](const std::string& f) {
      return gpu_library(named_library(name_of(f))) || gpu_library(top_library(folders_.at(f)));
    });
  }

  bool names_gpu(const std::string& folder) const {
    const auto w = words(name_of(folder));
    return std::find(w.begin(), w.end(), "gpu") != w.end() && std::find(w.begin(), w.end(), "no") == w.end();
  }

  static const KnownLibrary* top_library(const FolderStats& s) {
    const KnownLibrary* best = nullptr;
    std::size_t most = 0;
    for (const auto& [l, n] : s.library_files) {
      if (n > most) best = l, most = n;
    }
    return best;
  }

  ProposedBackend* backend(const std::string& id) {
    for (auto& b : out_.backends) {
      if (b.name == id) return &b;
    }
    out_.backends.push_back(ProposedBackend{id, {}, {}, 0, {}});
    return &out_.backends.back();
  }

  // ---- libraries ----
  void find_libraries() {
    for (const KnownLibrary& l : known_libraries()) {
      std::map<std::string, std::size_t> uses;  // backend -> files
      for (const auto& [id, folders] : backend_folders_) {
        for (const auto& f : folders) {
          const FolderStats& s = folders_[f];
          if (auto it = s.library_files.find(&l); it != s.library_files.end()) uses[id] += it->second;
        }
      }
      // Files outside every backend, test, example and excluded folder that include it.
      std::vector<std::string> outside;
      for (const auto& f : files_) {
        if (!f.libraries.count(&l) || in_any(f.dir, chosen_) || in_any(f.dir, tests_) || in_any(f.dir, glue_))
          continue;
        outside.push_back(f.rel);
      }
      auto note_outside = [&](const std::string& then) {
        if (outside.empty()) return;
        out_.notes.push_back(plural(outside.size(), "file") + " outside the backend folders " +
                             (outside.size() == 1 ? "includes " : "include ") + l.name + " headers (" +
                             outside.front() + ": <" + file_header(outside.front(), &l) + ">)" + then);
      };
      // The backends named after the library serve it, whether or not their files include its headers
      // (ncnn's src/layer/vulkan/ reaches Vulkan through the project's own loader); when none of them
      // includes it, so does the backend that includes it most (ggml's cuda/ for the MUSA build).
      std::vector<std::string> named;
      for (const auto& [id, folders] : backend_folders_) {
        const bool folder_named = std::any_of(folders.begin(), folders.end(), [&](const std::string& f) {
          return named_library(name_of(f)) == &l;
        });
        if (folder_named || (id == l.backend && uses.count(id))) named.push_back(id);
      }
      if (uses.empty() && named.empty()) {
        note_outside(" and no backend folder does: a backend of its own, or glue?");
        continue;
      }
      ProposedLibrary p;
      p.library = &l;
      p.backends = named;
      const bool named_use =
          std::any_of(named.begin(), named.end(), [&](const std::string& id) { return uses.count(id); });
      if (!named_use && !uses.empty()) {
        p.backends.push_back(std::max_element(uses.begin(), uses.end(), [](const auto& a, const auto& b) {
                               return a.second < b.second;
                             })->first);
      }
      std::vector<std::string> why;
      for (const auto& [id, n] : uses) why.push_back(plural(n, "file") + " of " + id);
      p.why = why.empty() ? "named after it: backend " + named.front() + " (no file includes its headers)"
                          : "included by " + join_why(why);
      if (p.backends.size() == 1 && uses.size() > 1) {  // the others' uses are findings
        std::vector<std::string> others;
        for (const auto& [id, n] : uses) {
          if (id != p.backends.front()) others.push_back(id);
        }
        p.why += " (the other backends' uses are findings unless they are listed under \"backend\" too: " +
                 join_why(others) + ")";
      }
      out_.libraries.push_back(std::move(p));
      note_outside(": EL100 reports each unless it moves into a backend or is listed as glue");
    }
  }

  std::string file_header(const std::string& rel, const KnownLibrary* l) const {
    for (const auto& f : files_) {
      if (f.rel == rel) return f.libraries.at(l);
    }
    return {};
  }

  // ---- frontend ----
  void find_frontend() {
    std::vector<std::string> why;
    std::size_t n = 0;
    for (const auto& top : folders_[""].children) {
      const FolderStats& s = folders_[top];
      if (s.files == 0 || in_any(top, tests_) || in_any(top, glue_) || excluded(top)) continue;
      if (in_any(top, chosen_) ||
          std::find(backend_parents_.begin(), backend_parents_.end(), top) != backend_parents_.end())
        continue;  // backends/ itself: its children are the backends
      std::size_t own = 0;
      for (const auto& f : files_) {
        if (under(f.dir, top) && !in_any(f.dir, chosen_)) ++own;
      }
      if (own == 0) continue;
      out_.frontend.push_back(top + "/**");
      why.push_back(top + "/ (" + std::to_string(own) + ")");
      n += own;
    }
    if (!out_.frontend.empty())
      out_.frontend_why = plural(n, "file") +
                          " of library code outside the backend, test and example folders: " + join_why(why) +
                          " (a backend's own folders take precedence over these globs)";
  }

  // A frontend header whose name ends with a backend's name (include/ggml-cuda.h for cuda) is that backend's
  // public API: what the frontend and applications include to pick it.
  void find_public_headers() {
    for (ProposedBackend& b : out_.backends) {
      for (const auto& f : files_) {
        if (!f.header || !frontend_file(f)) continue;
        const auto w = words(fs::path(f.rel).stem().string());
        if (w.size() >= 2 && w.back() == b.name) b.public_headers.push_back(f.rel);
      }
      if (!b.public_headers.empty())
        b.why += "; public: " + join_why(b.public_headers) + " (named after it, outside its folders)";
    }
  }

  // A backend whose SDK headers are not installed here (neither in the system folders nor in a folder the
  // compile database names) parses partially on this machine: init expects that cause in its folders, so
  // that CI is green and still strict about every other error.
  void find_missing_sdks() {
    std::vector<fs::path> folders = {"/usr/include", "/usr/local/include"};
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/usr/include", ec)) {
      if (e.path().filename().string().find("-linux-") != std::string::npos) folders.push_back(e.path());
    }
    std::set<fs::path> seen(folders.begin(), folders.end());
    for (const auto& c : commands_) {
      for (const auto& f : include_paths(c).angle) {
        if (seen.insert(f).second) folders.push_back(f);
      }
    }
    auto installed = [&](const std::string& header) {
      return std::any_of(folders.begin(), folders.end(),
                         [&](const fs::path& f) { return fs::exists(f / header, ec); });
    };
    for (const auto& [id, own] : backend_folders_) {
      for (const auto& folder : own) {
        // The backend's own library: the one it is named after when its files include it, else the one
        // they include most (not a header some #if branch includes for another platform).
        const FolderStats& s = folders_.at(folder);
        const KnownLibrary* named = named_library(name_of(folder));
        const KnownLibrary* l = named && s.library_files.count(named) ? named : top_library(s);
        if (!l || !l->sdk) continue;
        const std::string header = top_header(s, l);
        if (installed(header)) continue;
        out_.expected_missing_sdk.emplace_back(folder + "/**",
                                               "<" + header + "> (" + l->name + ", included by " +
                                                   plural(s.library_files.at(l), "file") + " of " + id +
                                                   ") is not installed on this machine");
      }
    }
  }

  bool excluded(const std::string& folder) const {
    return std::any_of(out_.exclude.begin(), out_.exclude.end(),
                       [&](const std::string& g) { return under(folder, g.substr(0, g.size() - 3)); });
  }
  bool frontend_file(const ScannedFile& f) const {
    return !in_any(f.dir, chosen_) && !in_any(f.dir, tests_) && !in_any(f.dir, glue_) && !excluded(f.dir);
  }
  std::string backend_of(const std::string& dir) const {
    for (const auto& [id, folders] : backend_folders_) {
      if (in_any(dir, folders)) return id;
    }
    return {};
  }

  std::vector<Token> tokens(const std::string& rel) const {
    auto it = texts_.find(rel);
    return it == texts_.end() ? std::vector<Token>() : tokenize(it->second);
  }

  // ---- the tensor type: the class that the most arithmetic operators of the frontend headers take ----
  void find_tensor_type() {
    std::map<std::string, std::size_t> counts;
    for (const auto& f : files_) {
      if (!f.header || !frontend_file(f)) continue;
      const auto t = tokens(f.rel);
      for (std::size_t k = 0; k + 4 < t.size(); ++k) {
        // operator+ ( [const] T [<...>] &
        if (t[k].text != "operator" || t[k + 1].text.size() != 1 ||
            std::string_view("+-*/").find(t[k + 1].text) == std::string_view::npos || t[k + 2].text != "(")
          continue;
        std::size_t j = k + 3;
        if (t[j].text == "const") ++j;
        if (j >= t.size() || !is_ident(t[j].text)) continue;
        std::string type(t[j++].text);
        while (j + 1 < t.size() && t[j].text == "::" && is_ident(t[j + 1].text))
          type = std::string(t[j + 1].text), j += 2;
        if (j < t.size() && t[j].text == "<") {
          for (int depth = 0; j < t.size(); ++j) {
            if (t[j].text == "<") ++depth;
            if (t[j].text == ">" && --depth == 0) break;
          }
          ++j;
        }
        if (j < t.size() && t[j].text == "&") ++counts[type];
      }
    }
    auto best = std::max_element(counts.begin(), counts.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    if (best == counts.end() || best->second < 4) return;
    const std::string qualified = qualify(best->first);
    out_.tensor_type = qualified;
    out_.tensor_why =
        plural(best->second, "arithmetic operator") + " of the frontend headers take " + qualified;
  }

  // The namespace-qualified name of the frontend class or struct `name`, as its definition's file says.
  std::string qualify(const std::string& name) const {
    for (const auto& f : files_) {
      if (!f.header || !frontend_file(f)) continue;
      const auto t = tokens(f.rel);
      for (std::size_t k = 0; k < t.size(); ++k) {
        const std::size_t j = class_name_at(t, k);
        if (!j || t[j].text != name) continue;
        std::size_t after = j + 1;
        if (after < t.size() && t[after].text == "final") ++after;
        if (after >= t.size() || (t[after].text != ":" && t[after].text != "{")) continue;
        const std::string ns = namespace_at(t, k);
        return ns.empty() ? name : ns + "::" + name;
      }
    }
    return name;
  }

  // ---- the inventory model ----
  void find_model() {
    if (out_.backends.empty()) return;
    find_enum_dispatch();
    if (!out_.model) find_op_classes();
  }

  // The globs of a set of frontend headers: a folder with three or more of them as one glob.
  static std::vector<std::string> header_globs(const std::set<std::string>& files) {
    std::map<std::string, std::vector<std::string>> by_dir;
    for (const auto& f : files) by_dir[parent_of(f)].push_back(f);
    std::vector<std::string> out;
    for (const auto& [dir, list] : by_dir) {
      if (list.size() >= 3) {
        out.push_back((dir.empty() ? "" : dir + "/") + "*" + fs::path(list.front()).extension().string());
      } else {
        out.insert(out.end(), list.begin(), list.end());
      }
    }
    return out;
  }

  static std::string json_list(const std::vector<std::string>& items) {
    std::string out = "[";
    for (const auto& i : items) out += (out.size() > 1 ? ", " : "") + ("\"" + i + "\"");
    return out + "]";
  }

  // An op enum of the frontend (enumerators sharing a prefix with OP in it, GGML_OP_ADD...) switched on in
  // the backends' files: the enum_dispatch model, with each backend's dispatch function (the one with the
  // most cases) and its supports_op predicate.
  void find_enum_dispatch() {
    struct Candidate {
      std::string name, header, prefix;
      std::vector<std::string> enumerators;
    };
    std::vector<Candidate> candidates;
    for (const auto& f : files_) {
      if (!f.header || !frontend_file(f)) continue;
      const auto t = tokens(f.rel);
      for (std::size_t k = 0; k + 2 < t.size(); ++k) {
        if (t[k].text != "enum") continue;
        std::size_t j = k + 1;
        if (t[j].text == "class" || t[j].text == "struct") ++j;
        if (j >= t.size() || !is_ident(t[j].text)) continue;
        Candidate c{std::string(t[j].text), f.rel, {}, {}};
        ++j;
        if (j < t.size() && t[j].text == ":") {
          while (j < t.size() && t[j].text != "{" && t[j].text != ";") ++j;
        }
        if (j >= t.size() || t[j].text != "{") continue;
        // Enumerators: the name after '{' or a ',' outside parentheses, up to the closing '}'.
        bool expect = true;
        int parens = 0;
        for (++j; j < t.size() && t[j].text != "}"; ++j) {
          if (t[j].text == "(") ++parens;
          if (t[j].text == ")") --parens;
          if (expect && is_ident(t[j].text)) c.enumerators.emplace_back(t[j].text);
          expect = parens == 0 && t[j].text == ",";
        }
        k = j;
        if (c.enumerators.size() < 8) continue;
        std::string prefix = c.enumerators.front();
        for (const auto& e : c.enumerators) {
          std::size_t n = 0;
          while (n < prefix.size() && n < e.size() && prefix[n] == e[n]) ++n;
          prefix.resize(n);
        }
        if (ascii_lower(prefix).find("op") == std::string::npos) continue;
        c.prefix = prefix;
        candidates.push_back(std::move(c));
      }
    }
    const Candidate* best = nullptr;
    std::map<std::string, std::map<std::string, std::size_t>> best_dispatch;  // backend -> function -> cases
    std::size_t best_backends = 0;
    for (const auto& c : candidates) {
      std::map<std::string, std::map<std::string, std::size_t>> dispatch;
      for (const auto& f : files_) {
        const std::string id = backend_of(f.dir);
        if (id.empty()) continue;
        const auto t = tokens(f.rel);
        std::vector<std::pair<unsigned, std::string>> heads;
        bool headed = false;
        for (std::size_t k = 0; k + 1 < t.size(); ++k) {
          if (t[k].text != "case" || t[k + 1].text.substr(0, c.prefix.size()) != c.prefix) continue;
          if (!headed) heads = function_heads(t), headed = true;
          // The function the case is in: the last head before its line.
          auto after = std::upper_bound(heads.begin(), heads.end(), std::make_pair(t[k].line, std::string()));
          if (after != heads.begin()) ++dispatch[id][std::prev(after)->second];
        }
      }
      if (dispatch.size() >= 2 && dispatch.size() > best_backends) {
        best = &c;
        best_backends = dispatch.size();
        best_dispatch = std::move(dispatch);
      }
    }
    if (!best) return;
    ProposedModel m;
    m.model = "enum_dispatch";
    m.keys.emplace_back("enum", "\"" + best->name + "\"");
    m.keys.emplace_back("headers", json_list({best->header}));
    std::string dispatch = "{", supports = "{";
    // A backend's dispatch function: the one with the most cases that is not its predicate.
    for (const auto& [id, functions] : best_dispatch) {
      std::string top;
      std::size_t most = 0;
      for (const auto& [fn, n] : functions) {
        if (n > most && fn.find("supports") == std::string::npos) top = fn, most = n;
      }
      if (!top.empty()) dispatch += (dispatch.size() > 1 ? ", " : "") + ("\"" + id + "\": [\"" + top + "\"]");
    }
    for (const auto& b : out_.backends) {
      std::set<std::string> predicates;
      for (const auto& f : files_) {
        if (backend_of(f.dir) != b.name) continue;
        for (const auto& [line, fn] : function_heads(tokens(f.rel))) {
          if (fn.find("supports_op") != std::string::npos) predicates.insert(fn);
        }
      }
      if (predicates.empty()) continue;
      supports += (supports.size() > 1 ? ", " : "") +
                  ("\"" + b.name + "\": " + json_list({predicates.begin(), predicates.end()}));
    }
    m.keys.emplace_back("dispatch", dispatch + "}");
    if (supports.size() > 1) m.keys.emplace_back("supports", supports + "}");
    std::vector<std::string> excluded;
    for (const auto& e : best->enumerators) {
      const std::string tail = ascii_lower(e.substr(best->prefix.size()));
      if (one_of(tail, {"none", "count", "max", "last", "unknown", "invalid"})) excluded.push_back(e);
    }
    if (!excluded.empty()) m.keys.emplace_back("exclude", json_list(excluded));
    std::vector<std::string> why;
    for (const auto& [id, functions] : best_dispatch) {
      std::size_t cases = 0;
      for (const auto& [fn, n] : functions) cases += n;
      why.push_back(id + " " + std::to_string(cases));
    }
    m.why = "enum " + best->name + " (" + best->header + ", " +
            plural(best->enumerators.size(), "enumerator") + " " + best->prefix + "*) is switched on in " +
            plural(best_dispatch.size(), "backend") + " (cases: " + join_why(why, 12) +
            "); check each dispatch function and predicate";
    out_.model = std::move(m);
  }

  // Op classes: a frontend base with many subclasses (ncnn::Layer, mlx::core::Primitive). Backends either
  // subclass the ops (ReLU_x86 : ReLU, op_classes_subclasses) or define the ops' methods out of line in their
  // folders (Add::eval_gpu, op_classes_methods).
  // A method that computes an op (forward, eval_cpu, run, ...), not one that sets it up.
  static bool computing_name(const std::string& method) {
    static constexpr std::array<const char*, 7> kComputing = {"forward", "eval",  "run",    "compute",
                                                              "execute", "apply", "process"};
    const std::string l = ascii_lower(method);
    return std::any_of(kComputing.begin(), kComputing.end(),
                       [&](const char* w) { return l.find(w) != std::string::npos; });
  }

  void find_op_classes() {
    std::map<std::string, std::set<std::string>> subclasses;  // base (unqualified) -> ops
    std::map<std::string, std::set<std::string>> op_headers;  // base -> the headers declaring them
    for (const auto& f : files_) {
      if (!f.header || !frontend_file(f)) continue;
      const auto t = tokens(f.rel);
      for (std::size_t k = 0; k < t.size(); ++k) {
        std::string name;
        const std::string base = first_base(t, k, name);
        if (base.empty()) continue;
        subclasses[base].insert(name);
        op_headers[base].insert(f.rel);
      }
    }
    // Intermediate bases (mlx::core::UnaryPrimitive : Primitive) join their root: the ops are every class
    // below it.
    std::map<std::string, std::string> parent;
    for (const auto& [base, derived] : subclasses) {
      for (const auto& d : derived) parent.emplace(d, base);
    }
    auto root_of = [&](std::string c) {
      for (int guard = 0; guard < 32 && parent.count(c); ++guard) c = parent.at(c);
      return c;
    };
    std::map<std::string, std::set<std::string>> rooted, rooted_headers;
    for (const auto& [base, derived] : subclasses) {
      const std::string root = root_of(base);
      rooted[root].insert(derived.begin(), derived.end());
      rooted_headers[root].insert(op_headers[base].begin(), op_headers[base].end());
    }
    subclasses = std::move(rooted);
    op_headers = std::move(rooted_headers);
    auto best = std::max_element(subclasses.begin(), subclasses.end(), [](const auto& a, const auto& b) {
      return a.second.size() < b.second.size();
    });
    if (best == subclasses.end() || best->second.size() < 6) return;
    const std::set<std::string>& ops = best->second;
    std::map<std::string, std::size_t> backend_subclasses;                      // backend -> count
    std::map<std::string, std::map<std::string, std::size_t>> methods_defined;  // backend -> method -> count
    std::map<std::string, std::size_t> overridden;                              // method -> count
    for (const auto& f : files_) {
      const std::string id = backend_of(f.dir);
      if (id.empty()) continue;
      const auto t = tokens(f.rel);
      for (std::size_t k = 0; k < t.size(); ++k) {
        std::string name;
        if (ops.count(first_base(t, k, name))) ++backend_subclasses[id];
        // virtual ... name (: a method a backend's class declares virtual (ncnn writes no `override`)
        if (f.header && t[k].text == "virtual") {
          std::size_t j = k + 1;
          while (j < t.size() && t[j].text != "(" && t[j].text != ";") ++j;
          if (j < t.size() && t[j].text == "(" && is_ident(t[j - 1].text))
            ++overridden[std::string(t[j - 1].text)];
        }
        // name ( ... ) [const] override: a method the class overrides
        if (f.header && (t[k].text == "override" || t[k].text == "final") && k > 0) {
          std::size_t j = k - 1;
          if (t[j].text == "const" && j > 0) --j;
          if (t[j].text != ")") continue;
          for (int depth = 0; j > 0; --j) {
            if (t[j].text == ")") ++depth;
            if (t[j].text == "(" && --depth == 0) break;
          }
          if (j > 0 && is_ident(t[j - 1].text)) ++overridden[std::string(t[j - 1].text)];
        }
        // Op::method( on a line of its own that starts in column 0 with no ';': an out-of-line definition
        if (!f.header && k + 3 < t.size() && is_ident(t[k].text) && t[k + 1].text == "::" &&
            is_ident(t[k + 2].text) && t[k + 3].text == "(" && ops.count(std::string(t[k].text))) {
          std::size_t first = k;
          while (first > 0 && t[first - 1].line == t[k].line) --first;
          bool semicolon = false;
          for (std::size_t j = k; j < t.size() && t[j].line == t[k].line; ++j) semicolon |= t[j].text == ";";
          if (t[first].head && !semicolon) ++methods_defined[id][std::string(t[k + 2].text)];
        }
      }
    }
    std::size_t subclass_total = 0, method_total = 0;
    for (const auto& [id, n] : backend_subclasses) subclass_total += n;
    for (const auto& [id, methods] : methods_defined) {
      for (const auto& [name, n] : methods) method_total += n;
    }
    const std::string base = qualify(best->first);
    ProposedModel m;
    m.keys.emplace_back("base", "\"" + base + "\"");
    m.keys.emplace_back("headers", json_list(header_globs(op_headers[best->first])));
    if (method_total > subclass_total && !methods_defined.empty()) {
      m.model = "op_classes_methods";
      // Only computing methods (eval_cpu, forward, ...) are a backend's cells; a backend that defines none
      // (no_gpu defines use_fallback, its eval_gpu stubs come from a macro) is named after another below.
      for (auto it = methods_defined.begin(); it != methods_defined.end();) {
        for (auto m2 = it->second.begin(); m2 != it->second.end();) {
          m2 = computing_name(m2->first) ? std::next(m2) : it->second.erase(m2);
        }
        it = it->second.empty() ? methods_defined.erase(it) : std::next(it);
      }
      std::string methods = "{";
      std::vector<std::string> why;
      for (const auto& [id, defined] : methods_defined) {
        const auto top = std::max_element(defined.begin(), defined.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
        methods += (methods.size() > 1 ? ", " : "") + ("\"" + id + "\": [\"" + top->first + "\"]");
        why.push_back(id + " " + std::to_string(top->second) + " " + top->first);
      }
      // A backend without definitions of its own (no_gpu's stubs come from a macro) that is named after
      // another backend takes that backend's method.
      for (const auto& b : out_.backends) {
        if (methods_defined.count(b.name)) continue;
        const auto w = words(b.name);
        for (const auto& [id, defined] : methods_defined) {
          const bool named = std::find(w.begin(), w.end(), id) != w.end() ||
                             (std::find(w.begin(), w.end(), "gpu") != w.end() && gpu_backend(id));
          if (!named) continue;
          const auto top = std::max_element(defined.begin(), defined.end(),
                                            [](const auto& a, const auto& c) { return a.second < c.second; });
          methods += ", \"" + b.name + "\": [\"" + top->first + "\"]";
          why.push_back(b.name + " as " + id + " (named after it; no definition found)");
          break;
        }
      }
      m.keys.emplace_back("methods", methods + "}");
      m.why = std::to_string(ops.size()) + " subclasses of " + base +
              " in the frontend headers; the backends define " + "their methods out of line (" +
              join_why(why, 12) + ")";
    } else if (subclass_total > 0) {
      m.model = "op_classes_subclasses";
      std::vector<std::pair<std::string, std::size_t>> ranked(overridden.begin(), overridden.end());
      std::sort(ranked.begin(), ranked.end(),
                [](const auto& a, const auto& b) { return a.second > b.second; });
      // The computing methods among the most overridden (forward, eval, run, ...), else the most overridden.
      std::vector<std::string> methods;
      for (const auto& [name, n] : ranked) {
        if (computing_name(name) && n * 4 >= ranked.front().second && methods.size() < 3)
          methods.push_back(name);
      }
      if (methods.empty() && !ranked.empty()) methods.push_back(ranked.front().first);
      if (!methods.empty()) m.keys.emplace_back("methods", json_list(methods));
      std::vector<std::string> why;
      for (const auto& [id, n] : backend_subclasses) why.push_back(id + " " + std::to_string(n));
      m.why = std::to_string(ops.size()) + " subclasses of " + base +
              " in the frontend headers; the backends subclass them (" + join_why(why, 12) + ")";
    } else {
      return;
    }
    out_.model = std::move(m);
  }

  fs::path root_;
  const std::vector<CompileCommand>& commands_;
  std::vector<ScannedFile> files_;
  std::map<std::string, std::string> texts_;  // headers and candidate sources: code without comments
  std::map<std::string, FolderStats> folders_;
  std::vector<std::string> tests_, glue_, chosen_, shared_, exclude_why_, backend_parents_, glue_files_;
  std::map<std::string, std::vector<std::string>> backend_folders_;  // backend -> its own folders
  std::map<std::string, std::size_t> include_bases_;                 // folder -> includes resolved there
  Discovery out_;
};

}  // namespace

Discovery discover(const fs::path& root, const std::vector<CompileCommand>& commands) {
  return Discoverer(root, commands).run();
}

}  // namespace emberlint
