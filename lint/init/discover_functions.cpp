// `emberlint init`'s discovery, the `functions` model of a frontend that dispatches by name: the frontend
// headers declare functions in one namespace (`fcd::ops::scale`) and each backend defines functions of the
// same names in a namespace of its own under it (`fcd::ops::native::scale`, `fcd::ops::opencl::scale`), the
// frontend calling the one of the device the data lives on. Read with the textual scanner of code_scan.hpp.
#include <algorithm>
#include <map>
#include <set>

#include "lint/init/discoverer.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::discovery {

namespace {

constexpr std::size_t kLeastOps = 4;          // names the frontend and the backends share, fewer is chance
constexpr std::size_t kLeastDefinitions = 3;  // distinct functions a backend's namespace defines

// Namespaces of helpers inside a backend's own (native::detail): not where it implements the ops.
bool helper_namespace(const std::string& ns) {
  const auto cut = ns.rfind("::");
  const std::string last = ascii_lower(cut == std::string::npos ? ns : ns.substr(cut + 2));
  return one_of(last,
                {"detail", "details", "impl", "internal", "kernels", "kernel", "helpers", "util", "utils"});
}

std::string parent_namespace(const std::string& ns) {
  const auto cut = ns.rfind("::");
  return cut == std::string::npos ? std::string() : ns.substr(0, cut);
}

std::string json_string(const std::string& s) {
  return "\"" + s + "\"";
}

// The headers as globs: a folder's headers that share a file-name ending ("_ops.hpp") as one glob when three
// or more do and the glob takes in no other header of the folder; the rest one by one.
std::vector<std::string> op_header_globs(const std::set<std::string>& headers,
                                         const std::set<std::string>& all_headers) {
  std::map<std::string, std::vector<std::string>> by_dir;
  for (const auto& h : headers) by_dir[parent_of(h)].push_back(h);
  std::vector<std::string> out;
  for (const auto& [dir, list] : by_dir) {
    const std::string prefix = dir.empty() ? "" : dir + "/";
    auto name = [&](const std::string& h) { return h.substr(prefix.size()); };
    std::string ending = name(list.front());
    for (const auto& h : list) {
      const std::string n = name(h);
      std::size_t k = 0;
      while (k < ending.size() && k < n.size() && ending[ending.size() - 1 - k] == n[n.size() - 1 - k]) ++k;
      ending = ending.substr(ending.size() - k);
    }
    const auto cut = ending.find_first_of("_-.");
    ending = cut == std::string::npos ? std::string() : ending.substr(cut);
    const bool glob = list.size() >= 3 && !ending.empty() &&
                      std::none_of(all_headers.begin(), all_headers.end(), [&](const std::string& h) {
                        return parent_of(h) == dir && !headers.count(h) && h.size() >= ending.size() &&
                               h.compare(h.size() - ending.size(), ending.size(), ending) == 0;
                      });
    if (glob) {
      out.push_back(prefix + "*" + ending);
    } else {
      out.insert(out.end(), list.begin(), list.end());
    }
  }
  return out;
}

}  // namespace

void Discoverer::find_namespace_functions() {
  // Each backend's own namespace: where its files define the most functions, helpers' namespaces aside.
  std::map<std::string, std::map<std::string, std::set<std::string>>> defined;  // backend -> ns -> names
  std::map<std::string, std::set<std::string>> frontend;                        // ns -> names declared
  // ns::name -> the headers that declare it, and those that define it
  std::map<std::string, std::set<std::string>> frontend_headers, defining_headers;
  std::set<std::string> all_frontend_headers;
  for (const ScannedFile& f : files_) {
    const std::string backend = backend_of(f);
    const bool front = backend.empty() && f.header && frontend_file(f);
    if (backend.empty() && !front) continue;
    if (front) all_frontend_headers.insert(f.rel);
    for (const NamespaceFunction& fn : namespace_functions(tokens(f.rel))) {
      if (!backend.empty() && fn.definition && !helper_namespace(fn.ns))
        defined[backend][fn.ns].insert(fn.name);
      if (front && !fn.ns.empty()) {
        frontend[fn.ns].insert(fn.name);
        frontend_headers[fn.ns + "::" + fn.name].insert(f.rel);
        if (fn.definition) defining_headers[fn.ns + "::" + fn.name].insert(f.rel);
      }
    }
  }
  std::map<std::string, std::string> own;  // backend -> its namespace
  for (const auto& [backend, spaces] : defined) {
    const auto best = std::max_element(spaces.begin(), spaces.end(), [](const auto& a, const auto& b) {
      return a.second.size() < b.second.size();
    });
    if (best->second.size() >= kLeastDefinitions && !parent_namespace(best->first).empty())
      own[backend] = best->first;
  }
  // The frontend namespace: the parent of two backends' namespaces or more whose names the frontend declares.
  std::string ns;
  std::set<std::string> ops;
  std::size_t backends_of_best = 0;
  std::map<std::string, std::size_t> parents;
  for (const auto& [backend, n] : own) ++parents[parent_namespace(n)];
  for (const auto& [parent, count] : parents) {
    if (count < 2 || !frontend.count(parent)) continue;
    std::set<std::string> shared;
    for (const auto& [backend, n] : own) {
      if (parent_namespace(n) != parent) continue;
      for (const auto& name : defined[backend][n])
        if (frontend[parent].count(name)) shared.insert(name);
    }
    if (shared.size() > ops.size() || (shared.size() == ops.size() && count > backends_of_best))
      ns = parent, ops = std::move(shared), backends_of_best = count;
  }
  if (ops.size() < kLeastOps) {
    if (!ns.empty())
      out_.model_rejected.push_back("namespace " + ns + ": only " + plural(ops.size(), "function") +
                                    " of the frontend defined again in the backends' namespaces");
    return;
  }
  // The headers that define the ops, else those that declare them: a header of forward declarations
  // (forwards.h) is not where an op's category is.
  std::set<std::string> headers;
  for (const auto& op : ops) {
    const auto& defining = defining_headers[ns + "::" + op];
    const auto& from = defining.empty() ? frontend_headers[ns + "::" + op] : defining;
    headers.insert(from.begin(), from.end());
  }

  // A header of ops that includes the headers of two backends or more is the frontend's dispatch, where the
  // backends are wired in (it calls each by its namespace): glue, as a backend registry is.
  std::vector<std::string> dispatch;
  for (const ScannedFile& f : files_) {
    if (!headers.count(f.rel)) continue;
    const std::set<std::string> reached = included_backends(f);
    if (reached.size() >= 2) dispatch.push_back(f.rel);
  }
  std::sort(dispatch.begin(), dispatch.end());
  out_.glue.insert(out_.glue.end(), dispatch.begin(), dispatch.end());
  if (!dispatch.empty())
    out_.glue_why += (out_.glue_why.empty() ? "" : "; ") + join_why(dispatch) +
                     " (the frontend's dispatch: each includes the headers of two backends or more and calls "
                     "the function of the device the data is on)";

  ProposedModel m;
  m.model = "functions";
  m.keys.emplace_back("headers", "[");
  for (const auto& g : op_header_globs(headers, all_frontend_headers))
    m.keys.back().second += (m.keys.back().second.size() > 1 ? ", " : "") + json_string(g);
  m.keys.back().second += "]";
  m.keys.emplace_back("namespace", json_string(ns));
  // Functions of those headers that no backend defines (the frontend's own: expression builders, wrappers)
  // are no ops: the ops are listed then.
  std::size_t frontend_only = 0;
  for (const auto& name : frontend[ns]) {
    const auto& in = frontend_headers[ns + "::" + name];
    if (!ops.count(name) &&
        std::any_of(in.begin(), in.end(), [&](const std::string& h) { return headers.count(h) != 0; }))
      ++frontend_only;
  }
  if (frontend_only) {
    std::string list = "[";
    for (const auto& op : ops) list += (list.size() > 1 ? ", " : "") + json_string(op);
    m.keys.emplace_back("ops", list + "]");
  }
  std::string implementations = "{", per_backend;
  for (const auto& [backend, n] : own) {
    if (parent_namespace(n) != ns) continue;
    std::size_t mine = 0;
    for (const auto& op : ops) mine += defined[backend][n].count(op);
    implementations +=
        (implementations.size() > 1 ? ", " : "") + json_string(backend) + ": " + json_string(n);
    per_backend += (per_backend.empty() ? "" : "; ") + backend + " " + n + " (" + std::to_string(mine) + ")";
  }
  m.keys.emplace_back("implementations", implementations + "}");
  m.why = plural(ops.size(), "function") + " of " + ns + " in " + plural(headers.size(), "frontend header") +
          " that backends define again, each in a namespace of its own: " + per_backend +
          "; the frontend calls the one of the device the data is on" +
          (frontend_only ? "; the " + plural(frontend_only, "other function") +
                               " of those headers no backend defines are no ops"
                         : "");
  out_.model = std::move(m);
}

}  // namespace emberlint::discovery
