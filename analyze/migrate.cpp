#include "analyze/migrate.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>

#include "analyze/cursor.hpp"
#include "analyze/migrate_source.hpp"
#include "lint/libclang/cursor.hpp"
#include "lint/findings/fixes.hpp"
#include "lint/support/glob.hpp"
#include "lint/parse/parse.hpp"
#include "lint/project/project.hpp"
#include "lint/run/runner.hpp"

// The plan: which definitions of the candidate files move where, with which helpers and includes, and which
// frontend calls become dispatches (analyze/migrate_source.cpp reads the files; analyze/migrate_apply.cpp
// applies the plan).

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

using namespace migration;

// The backend a file outside the backend folders belongs to: a folder of its path named after a backend.
std::optional<std::string> owning_backend(const Config& cfg, const fs::path& file) {
  std::string rel = relative_to(file, cfg.root);
  if (rel.empty() || classify_path(cfg, file).kind == LayerKind::backend) return std::nullopt;
  fs::path r(rel);
  for (auto it = r.begin(); it != r.end() && std::next(it) != r.end(); ++it) {
    if (cfg.backend(it->string())) return it->string();
  }
  return std::nullopt;
}

std::string open_namespaces(const std::vector<std::string>& chain) {
  std::string s;
  for (const auto& n : chain) s += n.empty() ? "namespace {\n" : "namespace " + n + " {\n";
  return s;
}

std::string close_namespaces(const std::vector<std::string>& chain) {
  std::string s;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    s += it->empty() ? "}  // namespace\n" : "}  // namespace " + *it + "\n";
  return s;
}

std::string dispatch_header_text(const MigrationConfig& m) {
  std::string ns = m.dispatch_namespace;
  return "// The frontend's dispatch registry: each backend registers its implementation of an op (by name "
         "and\n"
         "// parameter types) and the frontend calls it by backend name. Written by `emberlint analyze "
         "--migrate`.\n"
         "#pragma once\n\n#include <string>\n#include <typeindex>\n#include <typeinfo>\n#include "
         "<utility>\n\n"
         "namespace " +
         ns +
         " {\n\n"
         "using AnyFunction = void (*)();\n\n"
         "void add(const std::string& backend, const std::string& op, std::type_index type, AnyFunction "
         "fn);\n"
         "// The registered function; throws std::runtime_error when the backend has none of that type.\n"
         "AnyFunction find(const std::string& backend, const std::string& op, std::type_index type);\n\n"
         "// A backend's registration of one implementation, made during static initialization.\n"
         "template <class Signature>\n"
         "struct Registration {\n"
         "  Registration(const char* backend, const char* op, Signature* fn) {\n"
         "    add(backend, op, typeid(Signature), reinterpret_cast<AnyFunction>(fn));\n"
         "  }\n"
         "};\n\n"
         "// Calls the backend's implementation; the function type is checked at run time, so the pointer "
         "is\n"
         "// only ever called through its own type.\n"
         "template <class Signature, class... Args>\n"
         "decltype(auto) call(const char* op, const std::string& backend, Args&&... args) {\n"
         "  auto* fn = reinterpret_cast<Signature*>(find(backend, op, typeid(Signature)));\n"
         "  return fn(std::forward<Args>(args)...);\n"
         "}\n\n"
         "}  // namespace " +
         ns + "\n";
}

std::string dispatch_source_text(const MigrationConfig& m) {
  return "// The dispatch registry: backends fill it during static initialization; lookups only read it.\n"
         "#include \"" +
         m.dispatch_include + "\"\n\n#include <map>\n#include <stdexcept>\n#include <tuple>\n\nnamespace " +
         m.dispatch_namespace +
         " {\n\nnamespace {\n\n"
         "struct Entry {\n  std::type_index type;\n  AnyFunction fn;\n};\n\n"
         "std::map<std::pair<std::string, std::string>, Entry>& registry() {\n"
         "  static std::map<std::pair<std::string, std::string>, Entry> entries;\n  return entries;\n}\n\n"
         "}  // namespace\n\n"
         "void add(const std::string& backend, const std::string& op, std::type_index type, AnyFunction fn) "
         "{\n"
         "  registry().insert_or_assign({backend, op}, Entry{type, fn});\n}\n\n"
         "AnyFunction find(const std::string& backend, const std::string& op, std::type_index type) {\n"
         "  auto it = registry().find({backend, op});\n"
         "  if (it == registry().end()) throw std::runtime_error(op + \" is not available on backend \" + "
         "backend);\n"
         "  if (it->second.type != type)\n"
         "    throw std::runtime_error(op + \" on backend \" + backend + \" has another function type\");\n"
         "  return it->second.fn;\n}\n\n"
         "}  // namespace " +
         m.dispatch_namespace + "\n";
}

class Planner {
 public:
  explicit Planner(const MigrateInput& in) : in_(in), cfg_(*in.config) {}

  Migration run() {
    if (in_.ops->shape != OpsConfig::Shape::functions || !in_.ops->migration)
      throw UsageError(cfg_.file.string() +
                       ": ops_interface: --migrate needs the shape \"functions\" and a "
                       "\"migration\" section (dispatch_header, dispatch_include, dispatch_source)");
    if (in_.backend != "all" && !cfg_.backend(in_.backend))
      throw UsageError("--backend " + in_.backend + ": not a backend in layers.backends");
    m_ = *in_.ops->migration;
    Migration out;
    out.root = cfg_.root;
    out.plan.backend = in_.backend;
    collect_candidates();
    clang::Index index;
    for (const auto& c : in_.commands) {
      auto backend = candidate_backend(c.file);
      if (!backend || !is_source_path(c.file)) continue;
      Tu tu(index, c, in_.resource_dir);
      sources_.push_back(read_candidate(tu, *backend));
    }
    for (const auto& s : sources_) {
      for (const auto& d : s.decls) {
        if (d.is_public_function) moved_[d.usr] = {&s, &d};
      }
    }
    plan_targets(out);
    rewrite_frontend(out, index);
    if (!out.plan.moves.empty()) add_dispatch_files(out);
    for (const auto& f : removed_files_) {
      out.files[f] = std::nullopt;
      out.plan.removed.push_back(f);
    }
    // Folders left empty: the candidate folders whose every file goes.
    for (const auto& folder : candidate_folders_) {
      bool empty = true;
      std::error_code ec;
      for (const auto& e : fs::recursive_directory_iterator(folder, ec)) {
        if (e.is_regular_file() && !removed_files_.count(normalized(e.path()))) empty = false;
      }
      if (empty) {
        out.folders_to_remove.push_back(folder);
        out.plan.removed.push_back(folder);
      }
    }
    std::sort(out.plan.moves.begin(), out.plan.moves.end(), [](const Move& a, const Move& b) {
      return std::tie(a.backend, a.source.file, a.source.line) <
             std::tie(b.backend, b.source.file, b.source.line);
    });
    std::sort(out.plan.created.begin(), out.plan.created.end());
    std::sort(out.plan.changed.begin(), out.plan.changed.end());
    std::sort(out.plan.removed.begin(), out.plan.removed.end());
    return out;
  }

 private:
  std::optional<std::string> candidate_backend(const fs::path& file) const {
    auto b = owning_backend(cfg_, file);
    if (!b || (in_.backend != "all" && *b != in_.backend)) return std::nullopt;
    return b;
  }

  void collect_candidates() {
    std::error_code ec;
    for (auto it =
             fs::recursive_directory_iterator(cfg_.root, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const fs::path p = normalized(it->path());
      if (it->is_directory(ec)) {
        if (p.filename().string().rfind('.', 0) == 0 || cfg_.excluded(p)) it.disable_recursion_pending();
        continue;
      }
      if (cfg_.excluded(p)) continue;
      auto b = candidate_backend(p);
      if (!b || (!is_source_path(p) && !is_header_path(p))) continue;
      removed_files_.insert(p);
      candidate_folders_.insert(p.parent_path());
      if (is_header_path(p)) {
        fs::path target = backend_folder(*b) / p.filename();
        if (fs::exists(target))
          throw MigrationError(target.string() + " already exists; cannot move " + p.string());
        moved_headers_[p] = target;
      }
    }
  }

  fs::path backend_folder(const std::string& backend) const {
    const BackendLayer* layer = cfg_.backend(backend);
    std::string prefix = layer && !layer->globs.empty() ? layer->globs.front().literal_prefix() : "";
    if (prefix.empty()) prefix = "backends/" + backend;
    return (cfg_.root / prefix).lexically_normal();
  }

  // The op a moved function implements, and its category.
  std::pair<std::string, std::string> op_of(const TopDecl& d) const {
    const Inventory& inv = *in_.inventory;
    for (const auto& op : inv.ops) {
      if (op.name == d.name && op.signature.parameter_key() == d.signature.parameter_key())
        return {op.id, op.category};
    }
    for (const auto& op : inv.ops) {
      if (op.name == d.name) return {op.id, op.category};
    }
    return {};
  }

  void plan_targets(Migration& out) {
    std::map<fs::path, std::vector<std::pair<const SourceFile*, const TopDecl*>>> by_target;
    std::map<fs::path, std::string> target_backend;
    // Where each helper goes: every target of a function that reaches it (internal helpers can be copied).
    std::map<std::pair<const SourceFile*, std::string>, std::set<fs::path>> helper_target;
    for (const auto& s : sources_) {
      // The file's own category: that of its first op; a file without ops keeps its stem.
      std::string file_category = s.path.stem().string();
      for (const auto& d : s.decls) {
        if (d.is_public_function && !op_of(d).second.empty()) {
          file_category = op_of(d).second;
          break;
        }
      }
      std::map<std::string, const TopDecl*> by_usr;
      for (const auto& d : s.decls) by_usr[d.usr] = &d;
      std::set<std::string> placed;
      for (const auto& d : s.decls) {
        if (!d.is_public_function) continue;
        auto [op, category] = op_of(d);
        if (category.empty()) category = file_category;
        fs::path target = backend_folder(s.backend) / (category + "_ops.cpp");
        Move m;
        m.function = d.qualified;
        m.signature = d.signature.render(d.name, false);
        m.backend = s.backend;
        m.category = category;
        m.source = {s.path, d.line, 1};
        m.target = target;
        m.op = op;
        // Helpers: the file's other declarations it reaches, transitively (public functions move on their
        // own).
        std::vector<const TopDecl*> todo = {&d};
        std::set<std::string> seen = {d.usr};
        std::set<fs::path> decl_files;
        while (!todo.empty()) {
          const TopDecl* cur = todo.back();
          todo.pop_back();
          decl_files.insert(cur->decl_files.begin(), cur->decl_files.end());
          for (const auto& u : cur->uses) {
            auto it = by_usr.find(u);
            if (it == by_usr.end() || it->second->is_public_function || !seen.insert(u).second) continue;
            todo.push_back(it->second);
            m.helpers.push_back(it->second->qualified);
            helper_target[{&s, u}].insert(target);
          }
        }
        std::sort(m.helpers.begin(), m.helpers.end());
        m.includes = needed_includes(s, decl_files);
        m.dispatch = dispatch_call(d, s.backend, "args...");
        by_target[target].push_back({&s, &d});
        target_backend[target] = s.backend;
        out.plan.moves.push_back(std::move(m));
      }
      // Helpers nobody uses go with the file's first function; using-directives go to every target of it.
      std::set<fs::path> file_targets;
      fs::path first;
      for (const auto& d : s.decls) {
        if (!d.is_public_function) continue;
        for (const auto& m : out.plan.moves) {
          if (m.source.file == s.path && m.source.line == d.line) {
            file_targets.insert(m.target);
            if (first.empty()) first = m.target;
          }
        }
      }
      for (const auto& d : s.decls) {
        if (d.is_public_function) continue;
        auto& targets = helper_target[{&s, d.usr}];
        if (d.everywhere) targets.insert(file_targets.begin(), file_targets.end());
        if (targets.empty() && !first.empty()) targets.insert(first);
      }
    }
    for (auto& [target, list] : by_target) {
      out.files[target] = target_text(target, target_backend[target], list, helper_target, out);
    }
    for (const auto& [from, to] : moved_headers_) {
      out.files[to] = read_text(from);
      out.plan.created.push_back(to);
    }
  }

  std::vector<std::string> needed_includes(const SourceFile& s, const std::set<fs::path>& decl_files) const {
    std::set<unsigned> lines;
    for (const auto& f : decl_files) {
      if (f == s.path) continue;
      if (auto it = s.first_reached_via.find(f); it != s.first_reached_via.end()) lines.insert(it->second);
      for (const auto& d : s.includes) {
        if (d.included == f) lines.insert(d.line);
      }
    }
    std::vector<std::string> out;
    for (const auto& d : s.includes) {
      bool library = false;
      for (const auto& lib : cfg_.libraries) {
        for (const auto& g : lib.headers) library = library || g.matches_suffix(d.included.generic_string());
      }
      // Standard headers of the source always come along: cheap, and the moved code stays self-contained.
      if (lines.count(d.line) || (d.angled && !library)) out.push_back(rewrite_include(d));
    }
    return out;
  }

  // A directive as the moved code spells it: headers that move with the backend are included by file name.
  std::string rewrite_include(const Directive& d) const {
    if (auto it = moved_headers_.find(d.included); it != moved_headers_.end())
      return "#include \"" + it->second.filename().string() + "\"";
    return d.text;
  }

  std::string dispatch_call(const TopDecl& d, const std::string& backend, const std::string& args) const {
    return m_.dispatch_namespace + "::call<" + d.function_type + ">(\"" + key_of(d.name, d.signature) +
           "\", \"" + backend + "\"" + (args.empty() ? "" : ", " + args) + ")";
  }

  std::string target_text(
      const fs::path& target, const std::string& backend,
      const std::vector<std::pair<const SourceFile*, const TopDecl*>>& functions,
      const std::map<std::pair<const SourceFile*, std::string>, std::set<fs::path>>& helper_target,
      Migration& out) {
    // Everything that goes to this target, in source order: its functions, and the helpers placed here.
    std::set<const SourceFile*> sources;
    for (const auto& [s, d] : functions) sources.insert(s);
    std::vector<std::string> includes;
    auto add_include = [&](const std::string& line) {
      if (std::find(includes.begin(), includes.end(), line) == includes.end()) includes.push_back(line);
    };
    std::string body;
    int registration = 0;
    std::string registrations;
    for (const SourceFile* s : sources) {
      std::set<fs::path> files;
      std::vector<const TopDecl*> here;
      for (const auto& d : s->decls) {
        bool mine = false;
        if (d.is_public_function) {
          mine = std::any_of(functions.begin(), functions.end(), [&](auto& e) { return e.second == &d; });
        } else {
          auto it = helper_target.find({s, d.usr});
          mine = it != helper_target.end() && it->second.count(target);
        }
        if (!mine) continue;
        here.push_back(&d);
        files.insert(d.decl_files.begin(), d.decl_files.end());
      }
      for (const auto& line : needed_includes(*s, files)) add_include(line);
      body += "\n// Moved from " + relative_to(s->path, cfg_.root) + ".\n";
      std::vector<std::string> open;
      for (const TopDecl* d : here) {
        if (d->namespaces != open) {
          // Close and open only the namespaces that differ.
          std::size_t common = 0;
          while (common < open.size() && common < d->namespaces.size() &&
                 open[common] == d->namespaces[common])
            ++common;
          body += close_namespaces({open.begin() + static_cast<std::ptrdiff_t>(common), open.end()});
          body += open_namespaces(
              {d->namespaces.begin() + static_cast<std::ptrdiff_t>(common), d->namespaces.end()});
          open = d->namespaces;
        }
        body.append("\n").append(s->text, d->begin, d->end - d->begin);
        if (d->is_public_function) {
          std::string qualified;
          for (const auto& n : d->namespaces) qualified += n + "::";
          registrations += "const " + m_.dispatch_namespace + "::Registration<" + d->function_type +
                           "> kRegister" + std::to_string(registration++) + "{\"" + backend + "\", \"" +
                           key_of(d->name, d->signature) + "\", &" + qualified + d->name + "};\n";
        }
      }
      if (!open.empty()) body.append("\n").append(close_namespaces(open));
    }
    add_include("#include \"" + m_.dispatch_include + "\"");
    std::string block = body +
                        "\n// Registers these implementations with the frontend's dispatch.\nnamespace {\n" +
                        registrations + "}  // namespace\n";
    std::error_code ec;
    if (fs::exists(target, ec)) {
      // Extend: new includes after the last include of the file, the code at its end.
      std::string text = read_text(target);
      std::size_t insert_at = 0;
      for (std::size_t at = text.find("#include"); at != std::string::npos;
           at = text.find("#include", at + 1)) {
        if (at == 0 || text[at - 1] == '\n') insert_at = text.find('\n', at) + 1;
      }
      std::string extra;
      for (const auto& inc : includes) {
        if (text.find(inc) == std::string::npos) extra += inc + "\n";
      }
      text.insert(insert_at, extra);
      out.plan.changed.push_back(target);
      return text + block;
    }
    out.plan.created.push_back(target);
    std::string head = "// The " + backend + " backend's " + target.stem().string() +
                       ": moved from the frontend by `emberlint analyze --migrate`.\n";
    for (const auto& inc : includes) head += inc + "\n";
    return head + block;
  }

  // Every frontend call of a moved function becomes a dispatch; includes of moved headers go.
  void rewrite_frontend(Migration& out, const clang::Index& index) {
    for (const auto& c : in_.commands) {
      fs::path file = normalized(c.file);
      if (removed_files_.count(file) || owning_backend(cfg_, file)) continue;
      Layer layer = classify_path(cfg_, file);
      struct Edit {
        unsigned begin, end;
        std::string text;
      };
      std::vector<Edit> edits;
      std::vector<Place> sites;
      std::string text = read_text(file);
      auto tu = std::make_unique<Tu>(index, c, in_.resource_dir);
      std::function<void(CXCursor)> walk = [&](CXCursor parent) {
        visit(parent, [&](CXCursor cur) {
          if (clang::kind(cur) == CXCursor_CallExpr && file_of(cur) == file) {
            auto it = moved_.find(usr_of(clang::referenced(cur)));
            if (it != moved_.end()) {
              if (layer.kind != LayerKind::frontend)
                throw MigrationError(
                    file.string() + " calls " + it->second.second->qualified +
                    " directly and is no frontend file; reach it through the frontend first");
              Offsets call = offsets_of(clang::extent(cur));
              std::string args;
              int n = clang::argument_count(cur);
              if (n > 0) {
                unsigned b = offsets_of(clang::extent(clang::argument(cur, 0))).begin;
                unsigned e = offsets_of(clang::extent(clang::argument(cur, n - 1))).end;
                args = text.substr(b, e - b);
              }
              const TopDecl& d = *it->second.second;
              edits.push_back({call.begin, call.end, dispatch_call(d, it->second.first->backend, args)});
              Place p{file, call.line, call.column};
              sites.push_back(p);
              for (auto& m : out.plan.moves) {
                if (m.function == d.qualified && m.signature == d.signature.render(d.name, false) &&
                    m.backend == it->second.first->backend)
                  m.call_sites.push_back(p);
              }
            }
          }
          walk(cur);
          return CXChildVisit_Continue;
        });
      };
      walk(tu->root());
      // Includes of moved headers.
      unsigned last_include_end = 0;
      visit(tu->root(), [&](CXCursor cur) {
        if (clang::kind(cur) != CXCursor_InclusionDirective || file_of(cur) != file)
          return CXChildVisit_Continue;
        Offsets o = offsets_of(clang::extent(cur));
        unsigned b = o.begin, e = o.end;
        while (b > 0 && text[b - 1] != '\n') --b;
        while (e < text.size() && text[e] != '\n') ++e;
        if (e < text.size()) ++e;
        last_include_end = std::max(last_include_end, e);
        CXFile inc = clang::included_file(cur);
        if (inc && removed_files_.count(normalized(clang::file_name(inc)))) edits.push_back({b, e, ""});
        return CXChildVisit_Continue;
      });
      if (edits.empty()) continue;
      std::string include = "#include \"" + m_.dispatch_include + "\"";
      if (!sites.empty() && text.find(include) == std::string::npos)
        edits.push_back({last_include_end, last_include_end, include + "\n"});
      std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
      for (const auto& e : edits) text.replace(e.begin, e.end - e.begin, e.text);
      out.files[file] = text;
      out.plan.changed.push_back(file);
    }
  }

  void add_dispatch_files(Migration& out) {
    for (auto [path, text] : {std::pair{m_.dispatch_header, dispatch_header_text(m_)},
                              std::pair{m_.dispatch_source, dispatch_source_text(m_)}}) {
      if (fs::exists(path)) continue;  // made by an earlier migration (of another backend)
      out.files[path] = text;
      out.plan.created.push_back(path);
    }
  }

  const MigrateInput& in_;
  const Config& cfg_;
  MigrationConfig m_;
  std::vector<SourceFile> sources_;
  std::map<std::string, std::pair<const SourceFile*, const TopDecl*>> moved_;
  std::set<fs::path> removed_files_, candidate_folders_;
  std::map<fs::path, fs::path> moved_headers_;
};

}  // namespace

Migration plan_migration(const MigrateInput& input) {
  return Planner(input).run();
}

}  // namespace emberlint::analyze
