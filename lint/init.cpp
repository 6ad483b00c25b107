#include "lint/init.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "lint/compile_db.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

struct KnownLibrary {
  const char* key;  // matched against the backend folder's name
  const char* name;
  const char* headers;
  const char* namespaces;
  const char* symbols;
};

const KnownLibrary kKnown[] = {
    {"eigen", "Eigen", R"("Eigen/**", "unsupported/Eigen/**")", R"("Eigen")", ""},
    {"blas", "BLAS", R"("cblas.h", "lapacke*.h", "openblas*")", "", R"("cblas_*", "LAPACKE_*")"},
    {"lapack", "LAPACK", R"("lapacke*.h")", "", R"("LAPACKE_*")"},
    {"opencl", "OpenCL", R"("CL/**")", R"("cl")", R"("cl[A-Z]*")"},
    {"cuda", "CUDA", R"("cuda*.h", "cublas*.h", "cusolver*.h")", "", R"("cuda[A-Z]*", "cublas*")"},
    {"mkl", "MKL", R"("mkl*.h")", "", R"("mkl_*")"},
};

std::vector<std::string> subfolders(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory(ec) && e.path().filename().string()[0] != '.')
      out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + ("\"" + i + "\"");
  return out;
}

}  // namespace

std::string starter_config(const fs::path& root) {
  std::error_code ec;
  auto has_dir = [&](const std::string& d) { return fs::is_directory(root / d, ec); };
  std::vector<std::string> frontend, tests, glue, exclude, includes;
  for (const char* d : {"frontend", "src", "include", "lib", "ops"}) {
    if (has_dir(d)) frontend.push_back(std::string(d) + "/**");
  }
  for (const char* d : {"tests", "test"}) {
    if (has_dir(d)) tests.push_back(std::string(d) + "/**");
  }
  std::string backends_dir = has_dir("backends") ? "backends" : has_dir("backend") ? "backend" : "";
  std::vector<std::string> backend_names =
      backends_dir.empty() ? std::vector<std::string>{} : subfolders(root / backends_dir);
  if (!backends_dir.empty()) {
    for (const auto& e : fs::directory_iterator(root / backends_dir, ec)) {
      if (e.is_regular_file(ec) && (is_source_path(e.path()) || is_header_path(e.path()))) {
        glue.push_back(backends_dir + "/" + e.path().filename().string());
      }
    }
    std::sort(glue.begin(), glue.end());
  }
  for (const auto& d : subfolders(root)) {
    if (d.rfind("build", 0) == 0 || d.rfind("cmake-build", 0) == 0 || d == "third_party" || d == "external" ||
        d == "vendor" || fs::exists(root / d / "CMakeCache.txt", ec)) {
      exclude.push_back(d + "/**");
    }
  }
  for (const char* d : {"include", "frontend/include", "src", "frontend/src"}) {
    if (has_dir(d)) includes.push_back(std::string("-I") + d);
  }

  std::ostringstream o;
  o << "// emberlint configuration (JSON with comments). Paths and globs are relative to this file.\n"
    << "// `emberlint rules` lists the rules; `emberlint rule EL101` explains one.\n{\n";
  o << "  // Layers: which files are the backend-agnostic frontend, each backend, the tests, and the glue "
       "that\n"
    << "  // registers backends (glue is governed by no purity rule).\n";
  o << "  \"layers\": {\n";
  o << "    \"frontend\": [" << quoted_list(frontend) << "],\n";
  o << "    \"backends\": {";
  for (std::size_t i = 0; i < backend_names.size(); ++i) {
    o << (i ? "," : "") << "\n      \"" << backend_names[i] << "\": [\"" << backends_dir << "/"
      << backend_names[i] << "/**\"]";
  }
  o << (backend_names.empty() ? "},\n" : "\n    },\n");
  o << "    \"tests\": [" << quoted_list(tests) << "],\n";
  o << "    \"glue\": [" << quoted_list(glue) << "]\n  },\n";
  o << "  // Libraries: the headers (as spelled in #include, or a suffix of the resolved path), namespaces "
       "and\n"
    << "  // symbol globs of each backend library, and the backend layer that owns it.\n";
  o << "  \"libraries\": {";
  bool first = true;
  for (const auto& b : backend_names) {
    std::string lower = b;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    bool known = false;
    for (const auto& k : kKnown) {
      if (lower.find(k.key) == std::string::npos) continue;
      known = true;
      o << (first ? "" : ",") << "\n    \"" << k.name << "\": {\"backend\": \"" << b << "\", \"headers\": ["
        << k.headers << "]";
      if (*k.namespaces) o << ", \"namespaces\": [" << k.namespaces << "]";
      if (*k.symbols) o << ", \"symbols\": [" << k.symbols << "]";
      o << "}";
      first = false;
      break;
    }
    if (!known) {
      o << (first ? "" : ",")
        << "\n    // TODO: name the headers, namespaces and symbols of the library behind '" << b
        << "'\n    \"" << b << "\": {\"backend\": \"" << b << "\", \"headers\": [], \"namespaces\": []}";
      first = false;
    }
  }
  o << (first ? "},\n" : "\n  },\n");
  o << "  // Qualified names of the tensor types (templates allowed), for the operator and scalar rules.\n"
    << "  \"tensor_types\": [],\n";
  o << "  // Functions that turn a tensor into a host scalar (EL301), e.g. \"mylib::Tensor::item\".\n"
    << "  \"scalar_extractors\": [],\n";
  o << "  // Severities: \"error\", \"warning\", \"info\" or \"off\", by rule code or name; some rules take\n"
    << "  // options: {\"EL301\": {\"allowed_files\": [\"examples/**\"], \"allowed_functions\": "
       "[\"ns::print*\"]},\n"
    << "  //           \"EL200\": {\"ops_namespace\": \"ember::ops\"}}.\n"
    << "  \"rules\": {},\n";
  o << "  // Rules to skip in some files, e.g. {\"tests/backend_internals/**\": [\"EL104\"]}.\n"
    << "  \"per_file_ignores\": {},\n";
  o << "  \"exclude\": [" << quoted_list(exclude) << "],\n";
  o << "  // Used when no compile database is given with -p.\n"
    << "  \"compile_flags\": [" << quoted_list([&] {
         std::vector<std::string> flags = {"-std=c++20"};
         flags.insert(flags.end(), includes.begin(), includes.end());
         return flags;
       }())
    << "]\n}\n";
  return o.str();
}

}  // namespace emberlint
