// The names init proposes, verified by libclang: the textual scanner qualifies a declaration with the
// namespaces as the source spells them, and a namespace named through a macro (`namespace TNN_NS {` with
// `#define TNN_NS TNN_NS_()`, pasted to `tnn`) is known only once preprocessed. analyze resolves the names of
// ops_interface in the headers that declare them (analyze/precheck.cpp) and exits 2 on a name they do not
// declare, so init proposes the name libclang gives the definition: one parse of the declaring header, every
// function body skipped, with the compile command the database gives it (or the include folders init found).
#include <algorithm>
#include <set>

#include "lint/compile/compile_db.hpp"
#include "lint/init/discoverer.hpp"
#include "lint/libclang/cursor.hpp"
#include "lint/parse/parse.hpp"

namespace emberlint::discovery {

namespace fs = std::filesystem;

namespace {

bool declares(CXCursorKind k, NameKind kind) {
  if (kind == NameKind::enum_type) return k == CXCursor_EnumDecl;
  return k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_ClassTemplate;
}

}  // namespace

VerifiedName Discoverer::verify_name(NameKind kind, const std::string& name, const std::string& spelled,
                                     const std::string& header) const {
  VerifiedName out{spelled, false, {}};
  const fs::path file = (root_ / header).lexically_normal();
  CompileCommand command;
  if (!commands_.empty()) {
    std::optional<CompileCommand> near = interpolate_command(commands_, file);
    if (!near) {
      out.note = "not verified: no compile command for " + header;
      return out;
    }
    command = std::move(*near);
    command.file = file;
  } else {
    command.file = file;
    command.directory = root_;
    command.arguments = {"-std=c++17"};
    for (const auto& i : out_.include_folders) command.arguments.push_back("-I" + (root_ / i).string());
  }
  // A header is C++ to libclang only when told (a .h would be C).
  if (std::find(command.arguments.begin(), command.arguments.end(), "-x") == command.arguments.end())
    command.arguments.insert(command.arguments.begin(), {"-x", "c++"});
  const clang::Index index;
  UnitParse how;
  how.prefix_header = true;  // declarations only
  how.preprocessing_record = false;
  const ParsedUnit parsed = parse_unit(index, command, find_resource_dir(), how);
  if (!parsed) {
    out.note = "not verified: libclang could not parse " + header;
    return out;
  }
  // The definitions of that name in the header itself, by their qualified names.
  std::set<std::string> found;
  const std::string path = file.string();
  clang::visit(clang::root(parsed.tu.get()), [&](CXCursor c) {
    const CXCursorKind k = clang::kind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) return CXChildVisit_Recurse;
    const bool type = declares(k, NameKind::class_type);
    if (!declares(k, kind) && !type) return CXChildVisit_Continue;
    if (declares(k, kind) && clang::is_definition(c) && clang::spelling(c) == name &&
        fs::path(clang::file_name(clang::expansion(c).file)).lexically_normal().string() == path)
      found.insert(clang::qualified_name(c));
    return type ? CXChildVisit_Recurse : CXChildVisit_Continue;  // nested enums and classes
  });
  if (found.count(spelled)) {
    out.verified = true;
  } else if (found.size() == 1) {
    out.qualified = *found.begin();
    out.verified = true;
    out.note = "spelled " + spelled + " in the source, " + out.qualified + " once preprocessed";
  } else {
    out.note =
        "not verified: libclang finds " +
        (found.empty() ? std::string("no definition of ") + name : plural(found.size(), "definition")) +
        " in " + header;
  }
  return out;
}

}  // namespace emberlint::discovery
