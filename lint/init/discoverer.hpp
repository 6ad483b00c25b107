// The state of one discovery (lint/init/discover.hpp) and its steps, shared by the two files that implement
// them: discover.cpp reads the tree's layout (the walk, tests and glue, backends, vendor libraries, the
// frontend, missing SDKs) and discover_model.cpp reads its code (the tensor type and the inventory model).
// Internal to lint/init/.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lint/init/code_scan.hpp"
#include "lint/init/discover.hpp"
#include "lint/init/vendored.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::discovery {

struct ScannedFile {
  std::string rel;  // relative to the root, '/'-separated
  std::string dir;  // its folder, "" for the root
  bool header = false;
  std::map<const KnownLibrary*, std::string> libraries;  // each vendor library it includes: one header
  std::set<const KnownLibrary*> conditional;             // of them, those it includes only inside #if blocks
  std::vector<std::pair<std::string, bool>> includes;    // every #include as spelled, and whether inside #if
};

struct FolderStats {
  std::size_t files = 0;  // C and C++ files in its subtree
  std::map<const KnownLibrary*, std::size_t>
      library_files;                                     // of them, those including the library outside #if
  std::map<const KnownLibrary*, std::size_t> any_files;  // those including it anywhere, #if blocks too
  std::map<const KnownLibrary*, std::map<std::string, std::size_t>> headers;  // by header spelled
  std::set<std::string> children;
};

// An enum of the frontend headers with at least 8 enumerators (an op list candidate).
struct EnumDecl {
  std::string name;       // as declared: "OpType"
  std::string qualified;  // with the namespaces it is declared in: "MNN::OpType"
  std::string header;     // the header that declares it
  std::string prefix;     // the enumerators' common prefix: "OpType_"
  std::vector<std::string> enumerators;
  std::set<std::string> aliases;  // initialized with another enumerator: OpType_MAX = OpType_GridSample
  // The sentinels among them, for `exclude`: the tail after the prefix is none, count, last, unknown or
  // invalid, a max ending the list, or the enumerator is an alias (OpKind_MIN = OpKind_None; an
  // EltwiseOpType_Max of its own value is an op).
  std::vector<std::string> sentinels() const;
};

// A name init proposes, as libclang qualifies its definition (lint/init/verify_names.cpp).
enum class NameKind { enum_type, class_type };
struct VerifiedName {
  std::string qualified;  // libclang's name; the spelled one when it could not be verified
  bool verified = false;
  std::string note;  // what differs from the spelling, or why it is not verified; empty when it is as spelled
};

// A file's text; empty when it cannot be read or is larger than the parser takes.
std::string read_text(const std::filesystem::path& p);
bool one_of(const std::string& s, std::initializer_list<const char*> names);
std::string parent_of(const std::string& rel);
std::string plural(std::size_t n, const std::string& one);
// The last part of a path: "src/ggml-cuda" -> ggml-cuda.
std::string name_of(const std::string& rel);
// Whether `rel` is `folder` or inside it ("" holds everything).
bool under(const std::string& rel, const std::string& folder);
// The known library a folder is named after ("ggml-cuda", "x86", "metal"), or null.
const KnownLibrary* named_library(const std::string& folder);
// Whether `id`'s words ("no_gpu": no, gpu) appear in order, together, among `w`.
bool names_backend(const std::vector<std::string>& w, const std::string& id);

class Discoverer {
 public:
  Discoverer(const std::filesystem::path& root, const std::vector<CompileCommand>& commands)
      : root_(root), commands_(commands), vendored_files_(root, commands) {}

  Discovery run();

 private:
  // The layout (discover.cpp; the backend folders in discover_backends.cpp).
  void scan();
  bool project_header(const std::string& name, const std::filesystem::path& includer_folder);
  // Why the file is a vendored copy of a library's header, empty if it is not (vendored.hpp); `text` is its
  // contents, read here when empty. Memoized.
  const std::string& vendored(const std::string& rel, const std::string& text);
  static std::string join_why(const std::vector<std::string>& items, std::size_t most = 6);
  void find_tests_and_glue();
  bool in_any(const std::string& folder, const std::vector<std::string>& folders) const;
  void find_backends();
  void find_selecting_macros();
  void find_tested_macros();
  void group(const std::string& parent);
  // Whether a backend(s)/ folder's files are backends; `apply`: make them so.
  bool group_files(const std::string& parent, bool apply);
  void vouch_for_siblings(const std::string& parent, const std::vector<std::string>& children,
                          std::vector<std::string>& hinted);
  bool gpu_backend(const std::string& id) const;
  bool names_gpu(const std::string& folder) const;
  std::size_t mirrored_files(const std::string& a, const std::string& b) const;
  bool built_on(const std::string& folder, const std::vector<std::string>& backends) const;
  bool serves_parent(const std::string& folder) const;
  static const KnownLibrary* top_library(const FolderStats& s);
  ProposedBackend* backend(const std::string& id);
  void find_libraries();
  std::string file_header(const std::string& rel, const KnownLibrary* l) const;
  void find_frontend();
  void find_public_headers();
  void find_extended_backends();  // discover_backends.cpp
  void find_built_in_folders();   // discover_backends.cpp
  // The code backends share outside a shared folder (discover_shared.cpp).
  void find_shared_code();
  std::set<std::string> owners(const ScannedFile& f) const;
  bool excluded(const std::string& folder) const;
  bool frontend_file(const ScannedFile& f) const;
  std::string backend_of(const ScannedFile& f) const;

  // The backend code in the frontend's folders, by what it includes (discover_reach.cpp).
  std::vector<std::string> library_owners(const KnownLibrary& l) const;
  void find_backend_code_in_frontend();

  // The files that name their backend (discover_files.cpp).
  void find_suffix_backends();
  void find_named_files();
  void find_selected_wrappers();  // discover_shared.cpp
  void find_backend_programs();
  void find_backend_tests();
  void find_suffix_headers(const std::set<std::string>& folders);
  void find_dispatched_headers(
      const std::function<std::vector<std::string>(const std::string&)>& backends_for,
      std::set<std::string>& suffix_folders);
  std::string resolve_include(const ScannedFile& f, const std::string& name) const;
  std::set<std::string> included_backends(const ScannedFile& f) const;

  // The code (discover_model.cpp).
  std::vector<Token> tokens(const std::string& rel) const;
  void find_tensor_type();
  std::string qualify(const std::string& name, std::string* header = nullptr) const;
  // The qualified name of the definition of `name` (an enum or a class) in `header`, spelled `spelled` in the
  // source, as libclang names it once preprocessed (verify_names.cpp).
  VerifiedName verify_name(NameKind kind, const std::string& name, const std::string& spelled,
                           const std::string& header) const;
  std::vector<EnumDecl> frontend_enums() const;
  void find_model();
  void find_registrations();  // discover_registrations.cpp
  void find_enum_dispatch();
  void find_namespace_functions();  // discover_functions.cpp
  void find_op_classes();

  std::filesystem::path root_;
  const std::vector<CompileCommand>& commands_;
  std::vector<ScannedFile> files_;
  std::map<std::string, std::string> texts_;  // headers and candidate sources: code without comments
  std::map<std::string, FolderStats> folders_;
  std::vector<std::string> tests_, glue_, chosen_, shared_, exclude_why_, backend_parents_, glue_files_;
  std::map<std::string, std::vector<std::string>> backend_folders_;  // backend -> its own folders
  std::map<std::string, std::size_t> include_bases_;                 // folder -> includes resolved there
  // Folders that are backends by their siblings' evidence (a library of the backend beside them, a family
  // of per-backend files naming them): folder -> that evidence in words (vouch_for_siblings).
  std::map<std::string, std::string> vouched_;
  std::map<std::string, std::string>
      selecting_macro_;  // folder -> the -D that names it (find_selecting_macros)
  // A file outside the backend folders that is one backend's by its name's suffix (src/ops/add_cpu.cc):
  // file -> its backend(s) (find_suffix_backends).
  std::map<std::string, std::vector<std::string>> file_backends_;
  std::set<std::string> policy_backends_;  // the backends of a backend(s)/ folder's files (group_files)
  std::vector<std::string> file_groups_;   // backend(s)/ folders whose files are backends (group_files)
  mutable std::vector<std::filesystem::path> include_bases_all_;  // include/, src/ and -I (resolve_include)
  VendoredFiles vendored_files_;
  std::map<std::string, std::string> vendored_why_;  // file -> why it is vendored (vendored()), "" if not
  Discovery out_;
};

}  // namespace emberlint::discovery
