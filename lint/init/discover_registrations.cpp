// `emberlint init`'s discovery of the registrations model: backends that say what they implement by
// registering a creator per op, with a macro use or a call whose argument names the op
// (`REGISTER_CREATOR(ConvCreator, OpKind_Conv)`, `backend->addCreator(OpKind_Mul, new MulCreator)`), a static
// registrar object built with it (`static Registrar<Creator> r(OpKind_Add);`), or a string literal
// (`REG_KERNEL("add", CPU, AddKernel)`). Read with the textual scanner of code_scan.hpp, like the rest of
// discovery: every call of every backend file, each argument that is an enumerator of a frontend enum or a
// name-like string literal.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "lint/init/discoverer.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::discovery {

namespace {

// The evidence init wants before it proposes the model: this many registration sites of the op source
// (one enum, or string literals), in this many backends; and per form (a callee and the op's position), this
// many sites naming this many different ops, with an argument that makes the op (the creator).
constexpr std::size_t kMinSites = 8;
constexpr std::size_t kMinBackends = 2;
constexpr std::size_t kMinFormSites = 3;
constexpr std::size_t kMinFormOps = 3;

// Names before '(' that are no callee.
bool not_callee(std::string_view name) {
  static const std::set<std::string_view> kKeywords = {
      "if",       "for",         "while",      "switch",           "return",      "sizeof",
      "alignof",  "decltype",    "catch",      "static_assert",    "defined",     "case",
      "throw",    "new",         "delete",     "typeid",           "noexcept",    "alignas",
      "operator", "static_cast", "const_cast", "reinterpret_cast", "dynamic_cast"};
  return kKeywords.count(name) != 0;
}

// C and POSIX functions that take a name as a string: lookups and comparisons, not registrations.
bool c_library(std::string_view name) {
  static const std::set<std::string_view> kNames = {
      "dlsym",   "dlopen",   "dlvsym",  "GetProcAddress", "strcmp", "strncmp", "strcasecmp", "memcmp",
      "strstr",  "strcpy",   "strncpy", "getenv",         "setenv", "fopen",   "printf",     "fprintf",
      "sprintf", "snprintf", "puts",    "fputs",          "sscanf", "system",  "open",       "access"};
  return kNames.count(name) != 0;
}

// Names before a variable's name that are no type (`return f(x)`, `new T(x)`, `else g(x)`).
bool not_type(std::string_view name) {
  static const std::set<std::string_view> kKeywords = {
      "return",    "new",    "else",    "do",       "case",     "throw",    "co_return", "co_yield",
      "delete",    "goto",   "sizeof",  "typename", "template", "operator", "const",     "constexpr",
      "static",    "inline", "virtual", "explicit", "using",    "typedef",  "public",    "private",
      "protected", "friend", "auto",    "struct",   "class",    "enum",     "namespace", "void"};
  return kKeywords.count(name) != 0;
}

// A string literal's text is a name when it could be an op's: "add", "Conv2D", "aten::add", "nn.relu".
bool name_like(std::string_view s) {
  if (s.empty() || s.size() > 64 ||
      !(std::isalpha(static_cast<unsigned char>(s.front())) || s.front() == '_'))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':';
  });
}

std::string read_file_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A registration form as init proposes it: "call" or "registrar", the callee or registrar class, the op's
// argument position.
using FormKey = std::tuple<std::string, std::string, std::size_t>;

struct Site {
  std::string backend;
  std::string file;
  std::size_t token = 0;  // where it is: the callee's token in the file
  std::string op;
  std::vector<std::string> creators;  // per argument position: the name it makes the op with, or ""
  bool template_args = false;         // a registrar whose class has template arguments
};

// A form's sites, and the argument that makes the op (a position, "template", or none).
struct Form {
  FormKey key;
  std::vector<Site> sites;
  std::string creator;  // JSON: a number or "\"template\""; empty: none found
  std::map<std::string, std::size_t> per_backend;
  std::set<std::string> ops;
};

// The position whose arguments name the most different creators (a class, `new C`, `&f`), when at least
// half of the form's sites have one there: "0"; "\"template\"" for registrars with template arguments.
std::string creator_of(const Form& f) {
  const std::size_t op = std::get<2>(f.key);
  std::size_t templated = 0;
  std::map<std::size_t, std::set<std::string>> names;
  std::map<std::size_t, std::size_t> filled;
  for (const Site& s : f.sites) {
    templated += s.template_args;
    for (std::size_t p = 0; p < s.creators.size(); ++p) {
      if (p == op || s.creators[p].empty()) continue;
      names[p].insert(s.creators[p]);
      ++filled[p];
    }
  }
  std::size_t best = 0, best_names = 0;
  for (const auto& [p, n] : names) {
    if (filled[p] * 2 >= f.sites.size() && n.size() > best_names) best = p, best_names = n.size();
  }
  if (best_names >= 2) return std::to_string(best);
  if (std::get<0>(f.key) == "registrar" && templated * 2 >= f.sites.size()) return "\"template\"";
  return {};
}

// The forms of `backend` that register its ops. A declaration beside each registration is left out: when two
// forms name the same creator and op in the same file at most of their sites (DECLARE_ACC(Conv, OP_CONV)
// above REGISTER_ACC(Conv, OP_CONV)), the one that comes first declares what the other registers, since a
// creator is declared before it is registered (and a declared op whose registration is commented out is not
// registered). Then, the form whose creators differ most first (a registration makes each op with its own
// creator; a layout table's second argument is one of a few formats), a form whose ops the forms before it
// register already adds no cell and is left out: a use of the op in a body (convert(OP_CONV, weights)), whose
// other sites name the op with a variable, would make every missing cell of the backend unknown. `left_out`
// gets "backend form" for each.
std::vector<const Form*> registering_forms(const std::vector<Form>& all, const std::string& backend,
                                           std::vector<std::string>& left_out) {
  using Triple = std::tuple<std::string, std::string, std::string>;  // file, creator, op
  struct Candidate {
    const Form* form;
    std::set<std::string> ops, creators;
    std::map<Triple, std::size_t> at;  // each site's place: its token in the file
    bool declaration = false;
  };
  std::vector<Candidate> cs;
  for (const Form& f : all) {
    if (!f.per_backend.count(backend)) continue;
    Candidate c{&f, {}, {}, {}};
    // No creator: a registry keyed by frontend classes, whose backends hand it one factory each.
    const bool none = f.creator.empty(), templated = !none && f.creator.front() == '"';
    const std::size_t arg = none || templated ? 0 : static_cast<std::size_t>(std::stoul(f.creator));
    for (const Site& site : f.sites) {
      if (site.backend != backend) continue;
      c.ops.insert(site.op);
      if (none) {
        continue;
      } else if (templated) {
        c.creators.insert(site.op);  // a template argument per registrar: one per op
      } else if (arg < site.creators.size() && !site.creators[arg].empty()) {
        c.creators.insert(site.creators[arg]);
        c.at.emplace(Triple{site.file, site.creators[arg], site.op}, site.token);
      }
    }
    cs.push_back(std::move(c));
  }
  for (Candidate& x : cs) {
    for (const Candidate& y : cs) {
      if (&x == &y || x.at.empty() || y.at.empty()) continue;
      std::size_t shared = 0, before = 0;
      for (const auto& [t, k] : x.at) {
        auto other = y.at.find(t);
        if (other == y.at.end()) continue;
        ++shared;
        before += k < other->second;
      }
      if (shared * 4 >= std::min(x.at.size(), y.at.size()) * 3 && before * 2 > shared) x.declaration = true;
    }
  }
  std::stable_sort(cs.begin(), cs.end(), [](const Candidate& x, const Candidate& y) {
    return std::make_pair(x.creators.size(), x.ops.size()) > std::make_pair(y.creators.size(), y.ops.size());
  });
  std::vector<const Form*> out;
  std::set<std::string> covered;
  for (const Candidate& c : cs) {
    if (c.declaration ||
        (!out.empty() && std::includes(covered.begin(), covered.end(), c.ops.begin(), c.ops.end()))) {
      left_out.push_back(backend + " " + std::get<1>(c.form->key));
      continue;
    }
    covered.insert(c.ops.begin(), c.ops.end());
    out.push_back(c.form);
  }
  return out;
}

}  // namespace

void Discoverer::find_registrations() {
  const std::vector<EnumDecl> enums = frontend_enums();
  std::map<std::string, std::vector<std::size_t>> enum_of;  // enumerator -> the enums that declare it
  std::map<std::string, std::size_t> enum_named;            // enum name -> index
  for (std::size_t i = 0; i < enums.size(); ++i) {
    enum_named.emplace(enums[i].name, i);
    for (const auto& e : enums[i].enumerators) enum_of[e].push_back(i);
  }
  // The classes of the frontend headers: `Conv::Name()`, a static member of one called with no arguments,
  // names the op that class is (registerKernelFactory(CalcBondsKernel::Name(), factory)).
  std::set<std::string> frontend_classes;
  for (const auto& f : files_) {
    if (!f.header || !frontend_file(f)) continue;
    const auto t = tokens(f.rel);
    for (std::size_t k = 0; k < t.size(); ++k) {
      const std::size_t j = class_name_at(t, k);
      if (j && j + 1 < t.size() && (t[j + 1].text == ":" || t[j + 1].text == "{" || t[j + 1].text == "final"))
        frontend_classes.emplace(t[j].text);
    }
  }
  // The sources of ops: each enum by its index, string literals as enums.size(), frontend classes after.
  const std::size_t kStrings = enums.size(), kClasses = enums.size() + 1;
  std::map<std::size_t, std::map<FormKey, Form>> by_source;

  for (const auto& f : files_) {
    const std::string backend = backend_of(f);
    // A backend's tests name the ops they test (TEST_SUITE(Cg, Converges) with a Cg enumerator): the
    // registry is in its library code.
    if (backend.empty() || in_any(f.dir, tests_)) continue;
    auto text = texts_.find(f.rel);
    if (text == texts_.end()) continue;
    const std::string& code = text->second;
    const std::vector<Token> t = tokenize(code);
    std::string raw;  // the file with its strings, read at its first string argument
    for (std::size_t k = 0; k + 1 < t.size(); ++k) {
      if (!is_ident(t[k].text) || t[k + 1].text != "(" || not_callee(t[k].text)) continue;
      // The arguments: token ranges split at the commas outside brackets, up to the closing ')'.
      std::vector<std::pair<std::size_t, std::size_t>> args;
      std::size_t begin = k + 2, j = k + 2;
      int depth = 0;
      bool closed = false;
      for (; j < t.size() && j < k + 4000; ++j) {
        const std::string_view x = t[j].text;
        if (x == "(" || x == "[" || x == "{") ++depth;
        if ((x == ")" || x == "]" || x == "}") && depth-- == 0) {
          closed = x == ")";
          break;
        }
        if (x == ";" && depth == 0) break;
        if (x == "," && depth == 0) args.emplace_back(begin, j), begin = j + 1;
      }
      if (!closed) continue;
      if (begin < j) args.emplace_back(begin, j);
      // A registrar: `Registrar<C> name(args)` or `Registrar name(args)`; else a call or macro use.
      std::string kind = "call", name(t[k].text);
      bool template_args = false;
      if (k > 0 && t[k - 1].text == ">") {
        std::size_t m = k - 1;
        int angles = 0;
        for (; m > 0; --m) {
          const std::string_view x = t[m].text;
          if (x == ">") ++angles;
          if (x == "<" && --angles == 0) break;
          if (x == ";" || x == "{" || x == "}" || x == "(" || x == ")") break;
        }
        if (m > 0 && t[m].text == "<" && is_ident(t[m - 1].text) && !not_type(t[m - 1].text))
          kind = "registrar", name = std::string(t[m - 1].text), template_args = true;
      } else if (k > 0 && is_ident(t[k - 1].text) && !not_type(t[k - 1].text) &&
                 (k < 2 || (t[k - 2].text != "." && t[k - 2].text != "->"))) {
        kind = "registrar", name = std::string(t[k - 1].text);
      }
      Site site{backend, f.rel, k, {}, {}, template_args};
      for (const auto& [b, e] : args) {
        // What an argument makes the op with: `C`, `ns::C`, `new C(...)`, `&f`.
        std::size_t c = b;
        if (c < e && (t[c].text == "new" || t[c].text == "&")) ++c;
        std::string made;
        while (c < e && (is_ident(t[c].text) || t[c].text == "::")) made = std::string(t[c++].text);
        const bool whole = c == e || (b < e && t[b].text == "new");
        site.creators.push_back(whole ? made : std::string());
      }
      for (std::size_t p = 0; p < args.size(); ++p) {
        const auto [b, e] = args[p];
        if (b >= e) continue;
        std::size_t source = enums.size() + 2;
        std::string op;
        if (t[b].text == "\"") {
          // A string literal (code_only blanked its text; the file has it at the same offsets).
          bool all_quotes = (e - b) == 2;
          for (std::size_t q = b; q < e; ++q) all_quotes = all_quotes && t[q].text == "\"";
          if (!all_quotes) continue;
          if (raw.empty()) raw = read_file_text(root_ / f.rel);
          const std::size_t open = static_cast<std::size_t>(t[b].text.data() - code.data());
          const std::size_t close = static_cast<std::size_t>(t[b + 1].text.data() - code.data());
          if (close > raw.size() || close <= open) continue;
          op = raw.substr(open + 1, close - open - 1);
          // A name that names its own backend ("xs::Omp::scratch" in the omp backend, "CudaSpace::Team" in
          // cuda) is that backend's label of something (an allocation's), not an op others implement too.
          if (!name_like(op) || ascii_lower(op).find(backend) != std::string::npos) continue;
          source = kStrings;
        } else if (e - b >= 5 && t[e - 1].text == ")" && t[e - 2].text == "(" && is_ident(t[e - 3].text) &&
                   t[e - 4].text == "::" && is_ident(t[e - 5].text)) {
          // `ns::Conv::Name()`: a frontend class's static member names the class's op.
          bool qualified_name = true;
          for (std::size_t q = b; q + 2 < e; ++q)
            qualified_name = qualified_name && (is_ident(t[q].text) || t[q].text == "::");
          op = std::string(t[e - 5].text);
          if (!qualified_name || !frontend_classes.count(op)) continue;
          source = kClasses;
        } else {
          // An enumerator, plain or qualified (`ns::OpKind_Add`, `OpKind::Add`).
          bool qualified_name = true;
          for (std::size_t q = b; q < e; ++q)
            qualified_name = qualified_name && (is_ident(t[q].text) || t[q].text == "::");
          if (!qualified_name || !is_ident(t[e - 1].text)) continue;
          auto it = enum_of.find(std::string(t[e - 1].text));
          if (it == enum_of.end()) continue;
          source = it->second.front();
          if (e - b >= 3 && it->second.size() > 1) {
            // `OpKind::Add` when several enums have an Add: the one named before it.
            auto named = enum_named.find(std::string(t[e - 3].text));
            if (named == enum_named.end() ||
                std::find(it->second.begin(), it->second.end(), named->second) == it->second.end())
              continue;
            source = named->second;
          } else if (it->second.size() > 1) {
            continue;  // ambiguous
          }
          op = it->first;
        }
        Form& form = by_source[source][FormKey{kind, name, p}];
        form.key = FormKey{kind, name, p};
        Site s = site;
        s.op = op;
        ++form.per_backend[backend];
        form.ops.insert(op);
        form.sites.push_back(std::move(s));
      }
    }
  }

  // The forms with the evidence of a registry, and the source with the most of their sites.
  struct Choice {
    std::size_t source = 0, sites = 0;
    std::vector<Form> forms;
    std::set<std::string> backends;
  };
  std::optional<Choice> best, weak;
  for (auto& [source, forms] : by_source) {
    Choice c{source, 0, {}, {}};
    for (auto& [key, form] : forms) {
      if (form.sites.size() < kMinFormSites || form.ops.size() < kMinFormOps) continue;
      form.creator = creator_of(form);
      // A registration makes the op: a call without a creator is a use. A frontend class named at the same
      // argument in backends' calls is the registry's key whatever makes it (one factory per backend that
      // makes each kernel by name).
      if (form.creator.empty() && source != kClasses) continue;
      // A string is weaker evidence than an enumerator: a string registry's callee is one the backends
      // share (REGISTER_KERNEL in cpu and cuda), and the C library's name lookups are no registry
      // (dlsym(handle, "sym"), memcmp(p, "magic", n)); a shader or kernel builder of one backend is not
      // either.
      if (source == kStrings && (form.per_backend.size() < kMinBackends || c_library(std::get<1>(form.key))))
        continue;
      // Each op of a string registry has its maker (m.impl("add", add_cpu)): one argument in most sites
      // (allocate("xs::InternalScratch", alloc_size)) is a size or a handle, and the call a use.
      if (source == kStrings && form.creator != "\"template\"") {
        const std::size_t at = std::stoul(form.creator);
        std::map<std::string, std::size_t> makers;
        for (const Site& site : form.sites) {
          if (at < site.creators.size() && !site.creators[at].empty()) ++makers[site.creators[at]];
        }
        if (std::any_of(makers.begin(), makers.end(),
                        [&](const auto& m) { return m.second * 2 > form.sites.size(); }))
          continue;
      }
      c.sites += form.sites.size();
      for (const auto& [b, n] : form.per_backend) c.backends.insert(b);
      c.forms.push_back(std::move(form));
    }
    if (source == kStrings && c.sites >= kMinSites && c.backends.size() >= kMinBackends) {
      // Strings name ops when an op is one several backends implement: the same name registered by two of
      // them. Where each backend registers names of its own ("xs::Omp::scratch" in omp/, "xs::Seq::scratch"
      // in seq/: an allocation's label), they are labels, not ops.
      std::map<std::string, std::set<std::string>> registered_by;
      for (const Form& f : c.forms) {
        for (const Site& site : f.sites) registered_by[site.op].insert(site.backend);
      }
      if (std::none_of(registered_by.begin(), registered_by.end(),
                       [](const auto& r) { return r.second.size() >= 2; })) {
        std::string names;
        for (const Form& f : c.forms) names += (names.empty() ? "" : ", ") + std::get<1>(f.key);
        out_.model_rejected.push_back("registrations: " + plural(c.sites, "site") + " of " + names + " in " +
                                      plural(c.backends.size(), "backend") +
                                      " naming strings, but no name is " + "registered by two backends (\"" +
                                      c.forms.front().sites.front().op + "\" is " +
                                      c.forms.front().sites.front().backend + "'s alone): labels, not ops");
        continue;
      }
    }
    if (c.sites >= kMinSites && c.backends.size() >= kMinBackends) {
      // An enum verified in a header beats strings whatever their count (MNN's OpType against its kernels'
      // source names); among enums, the most sites.
      const bool enum_source = source != kStrings, best_enum = best && best->source != kStrings;
      if (!best || (enum_source && !best_enum) || (enum_source == best_enum && c.sites > best->sites))
        best = std::move(c);
    } else if (c.sites > 0 && (!weak || c.sites > weak->sites)) {
      weak = std::move(c);
    }
  }
  if (!best) {
    if (weak) {
      std::string names;
      for (const Form& f : weak->forms) names += (names.empty() ? "" : ", ") + std::get<1>(f.key);
      out_.model_rejected.push_back(
          "registrations: " + plural(weak->sites, "site") + " of " + names + " in " +
          plural(weak->backends.size(), "backend") + " naming " +
          (weak->source < enums.size() ? "enum " + enums[weak->source].qualified : std::string("strings")) +
          " (" + std::to_string(kMinSites) + " in " + std::to_string(kMinBackends) +
          " backends would make it the registrations model)");
    }
    return;
  }
  std::sort(best->forms.begin(), best->forms.end(),
            [](const Form& a, const Form& b) { return a.sites.size() > b.sites.size(); });

  ProposedModel m;
  m.model = "registrations";
  std::string source_why;
  if (best->source < enums.size()) {
    const EnumDecl& e = enums[best->source];
    // analyze resolves the enum in its header before it parses a backend: the name libclang gives it.
    const VerifiedName verified = verify_name(NameKind::enum_type, e.name, e.qualified, e.header);
    m.keys.emplace_back("enum", "\"" + verified.qualified + "\"");
    m.keys.emplace_back("headers", "[\"" + e.header + "\"]");
    const std::vector<std::string> sentinels = e.sentinels();
    if (!sentinels.empty()) {
      std::string list = "[";
      for (const auto& s : sentinels) list += (list.size() > 1 ? ", \"" : "\"") + s + "\"";
      m.keys.emplace_back("exclude", list + "]");
    }
    source_why = "enum " + verified.qualified + " (" + e.header + ", " +
                 plural(e.enumerators.size(), "enumerator") +
                 (verified.note.empty() ? "" : "; " + verified.note) + ") names the op";
  } else if (best->source == kClasses) {
    std::set<std::string> classes;
    for (const Form& f : best->forms) classes.insert(f.ops.begin(), f.ops.end());
    source_why = "a static member of a frontend class names the op, the class (" +
                 plural(classes.size(), "class") + ", e.g. " + *classes.begin() +
                 "; no `ops` list: the ops are the classes registered)";
  } else {
    source_why = "a name-like string literal names the op (no `ops` list: the ops are the names registered)";
  }
  std::string registrations = "{";
  std::vector<std::string> why, redundant;
  for (const auto& b : out_.backends) {
    std::string forms;
    for (const Form* f : registering_forms(best->forms, b.name, redundant)) {
      const auto& [kind, name, op] = f->key;
      forms += std::string(forms.empty() ? "" : ", ") + "{\"" + kind + "\": \"" + name +
               "\", \"op\": " + std::to_string(op) +
               (f->creator.empty() ? std::string() : ", \"creator\": " + f->creator) + "}";
      why.push_back(b.name + " " + std::to_string(f->per_backend.at(b.name)) + " " + name + " (op argument " +
                    std::to_string(op) + ")");
    }
    if (forms.empty()) {
      why.push_back(b.name + " none found");
      continue;
    }
    registrations += (registrations.size() > 1 ? ", \"" : "\"") + b.name + "\": [" + forms + "]";
  }
  m.keys.emplace_back("registrations", registrations + "}");
  m.why = plural(best->sites, "registration") + " in " + plural(best->backends.size(), "backend") +
          " where " + source_why + ": " + join_why(why, 12) +
          (redundant.empty() ? std::string()
                             : "; left out, a declaration beside the registrations or their ops registered "
                               "by a form before them: " +
                                   join_why(redundant, 12)) +
          "; check each form's creator argument (the class or function that makes the op)";
  out_.model = std::move(m);
}

}  // namespace emberlint::discovery
