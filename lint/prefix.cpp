#include "lint/prefix.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <system_error>

#include "lint/cursor.hpp"
#include "lint/include_graph.hpp"
#include "lint/parse.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

// The line of the prefix's own text whose #include read each file, and the first line of each error: a
// header with an error of its own (an #error for another target, a missing SDK) is left out, and the
// others kept.
struct BuildErrors {
  std::set<unsigned> lines;  // lines of the prefix's text that an error goes back to
  bool elsewhere = false;    // an error that goes back to no line (a bad flag, say)
  std::string first;
};

BuildErrors build_errors(CXTranslationUnit tu) {
  std::map<CXFile, unsigned> line_of;  // each file read, to the prefix's line that included it
  clang::for_each_inclusion(tu, [&line_of](CXFile file, unsigned line) { line_of[file] = line; });
  CXFile main = clang_getFile(tu, clang::take(clang_getTranslationUnitSpelling(tu)).c_str());
  BuildErrors out;
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
    clang::Diagnostic d(clang_getDiagnostic(tu, i));
    if (d.severity() < CXDiagnostic_Error) continue;
    if (out.first.empty()) out.first = d.format();
    CXFile file = nullptr;
    unsigned line = 0;
    clang_getSpellingLocation(d.location(), &file, &line, nullptr, nullptr);
    if (file && clang_File_isEqual(file, main)) {
      out.lines.insert(line);
    } else if (auto it = line_of.find(file); file && it != line_of.end()) {
      out.lines.insert(it->second);
    } else {
      out.elsewhere = true;
    }
  }
  return out;
}

}  // namespace

std::optional<Prefix> build_prefix(const clang::Index& index, const CompileCommand& command,
                                   const std::string& resource_dir, const std::vector<std::string>& headers,
                                   const fs::path& pch, std::string* why) {
  auto fail = [why](std::string message) -> std::optional<Prefix> {
    if (why) *why = std::move(message);
    return std::nullopt;
  };
  Prefix prefix;
  prefix.pch = pch;
  prefix.headers = headers;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (prefix.headers.empty()) return fail("no header left to precompile");
    // The prefix's own text is a file beside it: the saved prefix names it, and a unit that loads the prefix
    // checks that it is still there, unchanged.
    CompileCommand c = command;
    c.file = fs::path(pch).replace_extension(command.driver == "clang++" ? ".hpp" : ".h");
    std::string text;
    for (const auto& h : prefix.headers) text += "#include <" + h + ">\n";
    {
      std::ofstream out(c.file, std::ios::binary | std::ios::trunc);
      out << text;
      if (!out.flush()) return fail("cannot write " + c.file.string());
    }
    UnitParse how;
    how.prefix_header =
        true;  // with the preprocessing record: a unit that keeps one cannot load it otherwise
    ParsedUnit parsed = parse_unit(index, c, resource_dir, how);
    if (!parsed) return fail("libclang could not parse it (error " + std::to_string(parsed.error) + ")");
    const BuildErrors errors = build_errors(parsed.tu.get());
    if (!errors.first.empty()) {
      if (attempt == 1 || errors.elsewhere) return fail(errors.first);
      std::vector<std::string> kept;
      for (std::size_t k = 0; k < prefix.headers.size(); ++k) {
        if (errors.lines.count(static_cast<unsigned>(k + 1)))
          prefix.dropped.push_back(prefix.headers[k]);
        else
          kept.push_back(prefix.headers[k]);
      }
      prefix.headers = std::move(kept);
      continue;
    }
    for_each_input(parsed.tu.get(), c.directory, [&](const fs::path& file, std::string_view bytes) {
      if (file == c.file) return;
      DirectiveScan scan = scan_directives(bytes);
      prefix.tested.merge(scan.tested);
      prefix.defined.merge(scan.defined);
    });
    if (clang_saveTranslationUnit(parsed.tu.get(), pch.c_str(), clang_defaultSaveOptions(parsed.tu.get())) !=
        CXSaveError_None)
      return fail("libclang could not save it as " + pch.string());
    return prefix;
  }
  return fail("no header left to precompile");
}

bool prefix_fits(const Prefix& prefix, const std::set<std::string>& defined,
                 const std::set<std::string>& tested) {
  auto meets = [](const std::set<std::string>& a, const std::set<std::string>& b) {
    const auto& [small, large] = a.size() < b.size() ? std::tie(a, b) : std::tie(b, a);
    return std::any_of(small.begin(), small.end(),
                       [&large](const std::string& m) { return large.count(m) > 0; });
  };
  return !meets(prefix.tested, defined) && !meets(prefix.defined, tested);
}

PrefixFolder::~PrefixFolder() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

const fs::path& PrefixFolder::path() {
  if (tried_) return path_;
  tried_ = true;
  std::error_code ec;
  std::string templ = (fs::temp_directory_path(ec) / "emberlint-prefix-XXXXXX").string();
  if (ec) return path_;
  if (::mkdtemp(templ.data())) path_ = templ;
  return path_;
}

}  // namespace emberlint
