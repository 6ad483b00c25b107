// `emberlint init`'s discovery, the tree's code: the tensor type (the class the most arithmetic operators of
// the frontend headers take) and the inventory model (creators registered per op, discover_registrations.cpp;
// an op enum switched on in the backends; or op classes that the backends subclass or whose methods they
// define), read with the textual scanner of code_scan.hpp.
#include <algorithm>
#include <array>
#include <iterator>
#include <set>
#include <tuple>

#include "lint/init/discoverer.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::discovery {

namespace fs = std::filesystem;

namespace {

// The globs of a set of frontend headers: a folder with three or more of them as one glob.
std::vector<std::string> header_globs(const std::set<std::string>& files) {
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

std::string json_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const auto& i : items) out += (out.size() > 1 ? ", " : "") + ("\"" + i + "\"");
  return out + "]";
}

// A method that computes an op (forward, eval_cpu, run, ...), not one that sets it up.
bool computing_name(const std::string& method) {
  static constexpr std::array<const char*, 7> kComputing = {"forward", "eval",  "run",    "compute",
                                                            "execute", "apply", "process"};
  const std::string l = ascii_lower(method);
  return std::any_of(kComputing.begin(), kComputing.end(),
                     [&](const char* w) { return l.find(w) != std::string::npos; });
}

}  // namespace

std::vector<Token> Discoverer::tokens(const std::string& rel) const {
  auto it = texts_.find(rel);
  return it == texts_.end() ? std::vector<Token>() : tokenize(it->second);
}

// ---- the tensor type: the class that the most arithmetic operators of the frontend headers take ----
// The tensor type: a frontend class with what a tensor has (members named shape, dtype, ndim, strides,
// reshape, ...: at least one of them shape-like, which a buffer or a device handle is not) that the
// frontend's functions take and return. Arithmetic operators on it are evidence too, never enough alone: a
// template engine's value type and a SIMD helper have operators and no shape. When no class has both kinds of
// evidence, nothing is proposed and the comment names the best candidate.
namespace {

bool tensor_member(std::string_view name) {
  static const std::set<std::string_view> kMembers = {
      "shape",         "dtype",      "ndim",      "ndims",     "strides",     "stride", "reshape",
      "numel",         "itemsize",   "nbytes",    "astype",    "device",      "rank",   "dims",
      "dim",           "squeeze",    "transpose", "elem_type", "scalar_type", "sizes",  "element_size",
      "is_contiguous", "contiguous", "view",      "flatten"};
  return kMembers.count(name) != 0;
}

// What only an n-dimensional array has: its shape. A buffer or a handle has a device and a dtype too, and a
// compiler's type of a variable a dtype and a flatten() of array types.
bool shape_member(std::string_view name) {
  static const std::set<std::string_view> kShape = {"shape",  "ndim",    "ndims",   "strides",
                                                    "stride", "reshape", "numel",   "rank",
                                                    "dims",   "sizes",   "squeeze", "is_contiguous"};
  return kShape.count(name) != 0;
}

}  // namespace

void Discoverer::find_tensor_type() {
  struct Evidence {
    std::set<std::string> members;  // tensor-like member names its body declares
    std::size_t operators = 0;      // arithmetic operators that take it
    std::size_t uses = 0;           // parameters and results of the frontend's functions
  };
  std::map<std::string, Evidence> classes;
  std::vector<std::vector<Token>> headers;
  for (const auto& f : files_) {
    if (f.header && frontend_file(f)) headers.push_back(tokens(f.rel));
  }
  for (const auto& t : headers) {
    for (std::size_t k = 0; k < t.size(); ++k) {
      const std::size_t j = class_name_at(t, k);
      if (!j) continue;
      std::size_t open = j + 1;
      while (open < t.size() && t[open].text != "{" && t[open].text != ";") ++open;
      if (open >= t.size() || t[open].text != "{") continue;
      Evidence& e = classes[std::string(t[j].text)];
      // The names declared at the body's own depth and followed by '(' or ';': its methods and fields.
      int depth = 0;
      for (std::size_t m = open; m < t.size(); ++m) {
        if (t[m].text == "{") ++depth;
        if (t[m].text == "}" && --depth == 0) break;
        if (depth == 1 && is_ident(t[m].text) && m + 1 < t.size() &&
            (t[m + 1].text == "(" || t[m + 1].text == ";" || t[m + 1].text == "_") &&
            tensor_member(t[m].text))
          e.members.insert(std::string(t[m].text));
      }
    }
  }
  if (classes.empty()) return;
  for (const auto& t : headers) {
    for (std::size_t k = 0; k + 2 < t.size(); ++k) {
      // operator+ ( [const] T ...
      if (t[k].text == "operator" && t[k + 1].text.size() == 1 &&
          std::string_view("+-*/").find(t[k + 1].text) != std::string_view::npos && t[k + 2].text == "(") {
        std::size_t j = k + 3;
        if (j < t.size() && t[j].text == "const") ++j;
        std::string type;
        while (j < t.size() && (is_ident(t[j].text) || t[j].text == "::")) type = std::string(t[j++].text);
        if (auto it = classes.find(type); it != classes.end()) ++it->second.operators;
        continue;
      }
      // A function's parameter or result: `T&`, `const T&`, `T name,` or `T name)` ... or `T fn(`.
      auto it = classes.find(std::string(t[k].text));
      if (it == classes.end()) continue;
      const std::string_view next = t[k + 1].text;
      if (next == "&" || next == "&&" ||
          (is_ident(next) &&
           (t[k + 2].text == "(" || t[k + 2].text == "," || t[k + 2].text == ")" || t[k + 2].text == "=")))
        ++it->second.uses;
    }
  }
  // The evidence enough to propose a class: 2 tensor members, one of them shape-like, and 4 uses.
  auto shaped = [](const Evidence& e) {
    return std::any_of(e.members.begin(), e.members.end(), [](const auto& m) { return shape_member(m); });
  };
  auto enough = [&](const Evidence& e) { return e.members.size() >= 2 && e.uses >= 4 && shaped(e); };
  // The best candidate: one with enough evidence, then the most tensor members, then the most uses (an
  // accessor with more tensor-like members that no function takes is not the tensor).
  const std::pair<const std::string, Evidence>* best = nullptr;
  for (const auto& c : classes) {
    auto rank = [&](const Evidence& e) {
      return std::make_tuple(enough(e), shaped(e), e.members.size(), e.uses, e.operators);
    };
    if (!best || rank(c.second) > rank(best->second)) best = &c;
  }
  const Evidence& e = best->second;
  std::string members;
  for (const auto& m : e.members) members += (members.empty() ? "" : ", ") + m;
  std::string header;
  std::string qualified = qualify(best->first, &header);
  std::string evidence = (members.empty() ? "no tensor members" : "members " + members) + "; " +
                         plural(e.uses, "use") + " as a parameter or result in the frontend headers";
  if (e.operators) evidence += "; " + plural(e.operators, "arithmetic operator");
  if (enough(e)) {
    // The name check and analyze match types by: libclang's (a namespace named by a macro is preprocessed).
    if (!header.empty()) {
      const VerifiedName v = verify_name(NameKind::class_type, best->first, qualified, header);
      qualified = v.qualified;
      if (!v.note.empty()) evidence += " (" + v.note + ")";
    }
    out_.tensor_type = qualified;
    out_.tensor_why = qualified + ": " + evidence;
  } else if (e.members.size() + e.operators > 0) {
    out_.tensor_why =
        "none proposed, the evidence is weak (at least 2 tensor members, one of them shape-like: shape, "
        "ndim, dims, strides, ..., and 4 uses wanted); the best "
        "candidate is " +
        qualified + ": " + evidence;
  }
}

// The namespace-qualified name of the frontend class or struct `name`, as its definition's file says.
// `header` gets that file.
std::string Discoverer::qualify(const std::string& name, std::string* header) const {
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
      if (header) *header = f.rel;
      return ns.empty() ? name : ns + "::" + name;
    }
  }
  return name;
}

// ---- the inventory model ----
void Discoverer::find_model() {
  if (out_.backends.empty()) return;
  // Registrations first: their evidence is a call per op per backend, and a tree of that shape also switches
  // on small sub-op enums (a binary op's kind) that would look like enum_dispatch.
  find_registrations();
  if (!out_.model) find_namespace_functions();
  if (!out_.model) find_enum_dispatch();
  if (!out_.model) find_op_classes();
}

std::vector<std::string> EnumDecl::sentinels() const {
  std::vector<std::string> out;
  for (const auto& e : enumerators) {
    const std::string tail = ascii_lower(e.substr(prefix.size()));
    // A *_MAX ending the list is its size (ENUM_MAX); one in the middle is an op (EltwiseOpType_Max).
    const bool ends_list = &e == &enumerators.back() && one_of(tail, {"max", "num"});
    if (one_of(tail, {"none", "count", "last", "unknown", "invalid"}) || ends_list || aliases.count(e))
      out.push_back(e);
  }
  return out;
}

// The enums of the frontend headers (generated ones included) with at least 8 enumerators.
std::vector<EnumDecl> Discoverer::frontend_enums() const {
  std::vector<EnumDecl> out;
  for (const auto& f : files_) {
    if (!f.header || !frontend_file(f)) continue;
    const auto t = tokens(f.rel);
    for (std::size_t k = 0; k + 2 < t.size(); ++k) {
      if (t[k].text != "enum") continue;
      std::size_t j = k + 1;
      if (t[j].text == "class" || t[j].text == "struct") ++j;
      if (j >= t.size() || !is_ident(t[j].text)) continue;
      EnumDecl c{std::string(t[j].text), {}, f.rel, {}, {}, {}};
      const std::string ns = namespace_at(t, k);
      c.qualified = ns.empty() ? c.name : ns + "::" + c.name;
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
        // `E_MAX = E_Last,`: an alias of an enumerator declared before it.
        if (parens == 0 && t[j].text == "=" && j + 2 < t.size() && is_ident(t[j + 1].text) &&
            (t[j + 2].text == "," || t[j + 2].text == "}") && !c.enumerators.empty() &&
            std::find(c.enumerators.begin(), c.enumerators.end(), t[j + 1].text) != c.enumerators.end())
          c.aliases.insert(c.enumerators.back());
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
      c.prefix = prefix;
      out.push_back(std::move(c));
    }
  }
  return out;
}

// An op enum of the frontend (enumerators sharing a prefix with OP in it, GGML_OP_ADD...) switched on in
// the backends' files: the enum_dispatch model, with each backend's dispatch function (the one with the
// most cases) and its supports_op predicate.
void Discoverer::find_enum_dispatch() {
  std::vector<EnumDecl> candidates = frontend_enums();
  candidates.erase(
      std::remove_if(candidates.begin(), candidates.end(),
                     [](const EnumDecl& c) { return ascii_lower(c.prefix).find("op") == std::string::npos; }),
      candidates.end());
  const EnumDecl* best = nullptr;
  std::map<std::string, std::map<std::string, std::size_t>> best_dispatch;  // backend -> function -> cases
  std::size_t best_backends = 0;
  for (const auto& c : candidates) {
    std::map<std::string, std::map<std::string, std::size_t>> dispatch;
    for (const auto& f : files_) {
      const std::string id = backend_of(f);
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
    // A dispatch function switches on a good part of the enum: at least a quarter of its enumerators (and
    // 3) in one function of each of two backends. A sub-op enum named in a few case labels of unrelated
    // functions (a binary op's kind in a name table and a shader picker) is no op list.
    const std::size_t real = c.enumerators.size() - c.sentinels().size();
    const std::size_t enough = std::max<std::size_t>(3, (real + 3) / 4);
    std::size_t strong = 0, most = 0;
    for (const auto& [id, functions] : dispatch) {
      std::size_t top = 0;
      for (const auto& [fn, n] : functions) top = std::max(top, n);
      strong += top >= enough;
      most = std::max(most, top);
    }
    if (strong < 2) {
      if (!dispatch.empty())
        out_.model_rejected.push_back(
            "enum " + c.qualified + " (" + plural(real, "enumerator") + "): case labels in " +
            plural(dispatch.size(), "backend") + ", at most " + std::to_string(most) + " in one function (" +
            std::to_string(enough) + " in each of 2 backends would make it the enum_dispatch model)");
      continue;
    }
    if (dispatch.size() > best_backends) {
      best = &c;
      best_backends = dispatch.size();
      best_dispatch = std::move(dispatch);
    }
  }
  if (!best) return;
  // analyze resolves the enum in its header before it parses a backend: the name libclang gives it.
  const VerifiedName verified = verify_name(NameKind::enum_type, best->name, best->qualified, best->header);
  ProposedModel m;
  m.model = "enum_dispatch";
  m.keys.emplace_back("enum", "\"" + verified.qualified + "\"");
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
      if (backend_of(f) != b.name) continue;
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
  const std::vector<std::string> excluded = best->sentinels();
  if (!excluded.empty()) m.keys.emplace_back("exclude", json_list(excluded));
  std::vector<std::string> why;
  for (const auto& [id, functions] : best_dispatch) {
    std::size_t cases = 0;
    for (const auto& [fn, n] : functions) cases += n;
    why.push_back(id + " " + std::to_string(cases));
  }
  m.why = "enum " + best->name + " (" + best->header + ", " + plural(best->enumerators.size(), "enumerator") +
          " " + best->prefix + "*" + (verified.note.empty() ? "" : "; " + verified.note) +
          ") is switched on in " + plural(best_dispatch.size(), "backend") + " (cases: " + join_why(why, 12) +
          "); check each dispatch function and predicate";
  out_.model = std::move(m);
}

// Op classes: a frontend base with many subclasses (ncnn::Layer, mlx::core::Primitive). Backends either
// subclass the ops (ReLU_x86 : ReLU, op_classes_subclasses) or define the ops' methods out of line in their
// folders (Add::eval_gpu, op_classes_methods).
void Discoverer::find_op_classes() {
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
    const std::string id = backend_of(f);
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
  std::string base_header;
  std::string base = qualify(best->first, &base_header);
  std::string base_note;
  if (!base_header.empty()) {
    const VerifiedName v = verify_name(NameKind::class_type, best->first, base, base_header);
    base = v.qualified;
    if (!v.note.empty()) base_note = " (" + v.note + ")";
  }
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
    // No backend defines a computing method of them (evaluation, forward, ...): these classes are the
    // library's object model, not its ops; a model with no methods would inventory nothing.
    if (methods_defined.empty()) return;
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
    m.why = std::to_string(ops.size()) + " subclasses of " + base + base_note +
            " in the frontend headers; the backends define " + "their methods out of line (" +
            join_why(why, 12) + ")";
  } else if (subclass_total > 0) {
    m.model = "op_classes_subclasses";
    std::vector<std::pair<std::string, std::size_t>> ranked(overridden.begin(), overridden.end());
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
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
    m.why = std::to_string(ops.size()) + " subclasses of " + base + base_note +
            " in the frontend headers; the backends subclass them (" + join_why(why, 12) + ")";
  } else {
    return;
  }
  out_.model = std::move(m);
}

}  // namespace emberlint::discovery
