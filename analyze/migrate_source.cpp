#include "analyze/migrate_source.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>

#include "analyze/cursor.hpp"
#include "analyze/migrate.hpp"
#include "lint/support/glob.hpp"
#include "lint/parse/parse.hpp"

namespace emberlint::analyze::migration {

namespace fs = std::filesystem;

fs::path normalized(const fs::path& p) {
  return canonical_path(p);
}

Offsets offsets_of(CXSourceRange range) {
  Offsets o;
  const clang::Expansion start = clang::expansion(clang::range_start(range));
  o.line = start.line;
  o.column = start.column;
  o.begin = start.offset;
  if (start.file) o.file = normalized(clang::file_name(start.file));
  o.end = clang::expansion(clang::range_end(range)).offset;
  return o;
}

fs::path file_of(CXCursor c) {
  CXFile file = clang::expansion(c).file;
  return file ? normalized(clang::file_name(file)) : fs::path();
}

std::string usr_of(CXCursor c) {
  return clang::usr(clang::canonical_cursor(c));
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw MigrationError(p.string() + ": cannot read this file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Tu::Tu(const clang::Index& index, const CompileCommand& command, const std::string& resource_dir) {
  UnitParse how;
  how.all_comments = true;
  how.quiet_includes = false;
  tu_ = std::move(parse_unit(index, command, resource_dir, how).tu);
  if (!tu_) throw MigrationError(command.file.string() + ": libclang could not parse this file");
  if (auto error = clang::first_error(tu_.get()))
    throw MigrationError(command.file.string() +
                         ": does not compile, so it cannot be moved safely: " + *error);
  main_ = normalized(command.file);
}

namespace {

Signature signature_of(CXCursor fn) {
  Signature s;
  CXType result = clang::result_type(fn);
  s.result = clang::type_spelling(result);
  s.result_canonical = clang::type_spelling(clang::canonical(result));
  for (int i = 0, n = clang::argument_count(fn); i < n; ++i) {
    CXCursor arg = clang::argument(fn, static_cast<unsigned>(i));
    CXType t = clang::type_of(arg);
    s.params.push_back(
        {clang::type_spelling(t), clang::type_spelling(clang::canonical(t)), clang::spelling(arg), {}});
  }
  return s;
}

}  // namespace

std::string key_of(const std::string& name, const Signature& s) {
  return name + s.parameter_key();
}

namespace {

// Extends a declaration's range over a trailing ';' (aliases, variables) and its attached comment.
void widen(const std::string& text, CXCursor c, unsigned& begin, unsigned& end) {
  CXSourceRange comment = clang::comment_range(c);
  if (!clang::is_null(comment)) begin = std::min(begin, offsets_of(comment).begin);
  unsigned e = end;
  while (e < text.size() && (text[e] == ' ' || text[e] == '\t')) ++e;
  if (e < text.size() && text[e] == ';') end = e + 1;
  // Whole lines: from the line start, through the line end.
  while (begin > 0 && text[begin - 1] != '\n') --begin;
  while (end < text.size() && text[end] != '\n') ++end;
  if (end < text.size()) ++end;
}

}  // namespace

SourceFile read_candidate(const Tu& tu, const std::string& backend) {
  SourceFile f;
  f.path = tu.main();
  f.backend = backend;
  f.text = read_text(f.path);
  // Include directives of the main file, and through which one each header was first reached.
  visit(tu.root(), [&](CXCursor c) {
    if (clang::kind(c) != CXCursor_InclusionDirective || file_of(c) != f.path) return CXChildVisit_Continue;
    Offsets o = offsets_of(clang::extent(c));
    Directive d;
    d.line = o.line;
    d.begin = o.begin;
    while (d.begin > 0 && f.text[d.begin - 1] != '\n') --d.begin;
    d.end = o.end;
    while (d.end < f.text.size() && f.text[d.end] != '\n') ++d.end;
    d.text = f.text.substr(d.begin, d.end - d.begin);
    if (d.end < f.text.size()) ++d.end;
    CXFile inc = clang::included_file(c);
    if (inc) d.included = normalized(clang::file_name(inc));
    d.angled = d.text.find('<') != std::string::npos && d.text.find('<') < d.text.find_first_of("\"");
    f.includes.push_back(std::move(d));
    return CXChildVisit_Continue;
  });
  clang::for_each_inclusion(tu.get(), [&](CXFile included, unsigned line) {
    f.first_reached_via.emplace(normalized(clang::file_name(included)), line);
  });

  // Top-level declarations, through namespaces.
  std::vector<std::string> chain;
  std::function<void(CXCursor)> walk = [&](CXCursor parent) {
    visit(parent, [&](CXCursor c) {
      if (file_of(c) != f.path) return CXChildVisit_Continue;
      CXCursorKind k = clang::kind(c);
      if (k == CXCursor_Namespace) {
        chain.push_back(clang::spelling(c));
        walk(c);
        chain.pop_back();
        return CXChildVisit_Continue;
      }
      if (!clang::is_declaration(k) && k != CXCursor_UsingDirective) return CXChildVisit_Continue;
      if (k == CXCursor_FunctionDecl && !clang::is_definition(c)) return CXChildVisit_Continue;
      TopDecl d;
      d.usr = usr_of(c);
      d.name = clang::spelling(c);
      d.namespaces = chain;
      Offsets o = offsets_of(clang::extent(c));
      d.begin = o.begin;
      d.end = o.end;
      d.line = o.line;
      widen(f.text, c, d.begin, d.end);
      for (const auto& n : chain) d.qualified += (n.empty() ? "(anonymous)" : n) + "::";
      d.qualified += d.name;
      d.everywhere = k == CXCursor_UsingDirective || k == CXCursor_UsingDeclaration;
      bool anonymous = std::find(chain.begin(), chain.end(), "") != chain.end();
      d.is_public_function = k == CXCursor_FunctionDecl && !anonymous && clang::has_external_linkage(c);
      if (d.is_public_function) {
        d.signature = signature_of(c);
        d.function_type = clang::type_spelling(clang::canonical(clang::type_of(c)));
      }
      visit(c, [&](CXCursor inner) {
        CXCursor ref = clang::referenced(inner);
        if (!clang::is_null(ref) && !clang::same(ref, inner)) {
          d.uses.insert(usr_of(ref));
          fs::path where = file_of(ref);
          if (!where.empty()) d.decl_files.insert(where);
        }
        return CXChildVisit_Recurse;
      });
      f.decls.push_back(std::move(d));
      return CXChildVisit_Continue;
    });
  };
  walk(tu.root());
  // Macros expanded inside a declaration come from the header that defines them.
  visit(tu.root(), [&](CXCursor c) {
    if (clang::kind(c) != CXCursor_MacroExpansion || file_of(c) != f.path) return CXChildVisit_Continue;
    unsigned at = offsets_of(clang::extent(c)).begin;
    fs::path where = file_of(clang::referenced(c));
    for (auto& d : f.decls) {
      if (at >= d.begin && at < d.end && !where.empty()) d.decl_files.insert(where);
    }
    return CXChildVisit_Continue;
  });
  return f;
}

}  // namespace emberlint::analyze::migration
