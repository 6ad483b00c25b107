// The operations inventory: every op of the frontend interface against every backend, as plain values.
// Extraction (analyze/extract.cpp) fills it from libclang; the EL400-EL403 rules and every analyze renderer
// read only these values, so they compile without libclang and without the analyze library.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace emberlint::analyze {

// native: the backend computes the op itself. fallback: the body explicitly delegates (see extract.cpp for
// the exact rule). stub: the body only throws. missing: the backend has no implementation of its own.
// unknown: the code cannot tell (the cell rests on guessed compile flags, or none of the backend's sources
// parsed); the cell's reason says why.
enum class Status { native, fallback, stub, missing, unknown };
inline constexpr std::size_t kStatusCount = 5;

inline std::string_view to_string(Status s) {
  switch (s) {
    case Status::native:
      return "native";
    case Status::fallback:
      return "fallback";
    case Status::stub:
      return "stub";
    case Status::missing:
      return "missing";
    case Status::unknown:
      return "unknown";
  }
  return "missing";
}

struct Param {
  std::string type;           // as written ("const Tensor &")
  std::string canonical;      // the canonical type, what signatures are compared by
  std::string name;           // may be empty
  std::string default_value;  // the default argument's tokens, empty when there is none
};

struct Signature {
  std::string result;  // return type as written
  std::string result_canonical;
  std::vector<Param> params;
  bool is_const = false;  // a const member function

  // "void add(const Tensor &a, const Tensor &b, Tensor &out)"; with_defaults appends " = value" per param.
  std::string render(std::string_view name, bool with_defaults = true) const {
    std::string s = result + " " + std::string(name) + "(";
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (i) s += ", ";
      s += params[i].type;
      if (!params[i].name.empty()) {
        if (!s.empty() && s.back() != '&' && s.back() != '*') s += ' ';
        s += params[i].name;
      }
      if (with_defaults && !params[i].default_value.empty()) s += " = " + params[i].default_value;
    }
    s += ")";
    if (is_const) s += " const";
    return s;
  }
  // The canonical parameter list "(const ember::Tensor &, int)": an overload's identity.
  std::string parameter_key() const {
    std::string s = "(";
    for (std::size_t i = 0; i < params.size(); ++i) s += (i ? ", " : "") + params[i].canonical;
    return s + (is_const ? ") const" : ")");
  }
};

struct Place {
  std::filesystem::path file;  // absolute
  unsigned line = 0, column = 0;
};

struct Op {
  std::string id;  // the name, or "name(params)" when the interface overloads the name
  std::string name;
  std::string category;  // the interface header's stem without "_ops" ("math" for math_ops.hpp)
  Signature signature;
  Place declared;
  std::string declaration;  // how a model without a function signature states the op ("enumerator ...")

  std::string describe() const { return declaration.empty() ? signature.render(name) : declaration; }
};

struct Cell {
  Status status = Status::missing;
  Place defined;                        // the definition (or the declaration when the body lives elsewhere)
  Place declared;                       // the declaration (where defaults and the signature are spelled)
  std::string signature;                // the implementation's signature as written
  std::string reason;                   // why fallback or stub ("calls ember::ops::add"); empty for native
  std::vector<std::string> mismatches;  // EL401: how the signature differs from the interface
};

// A public backend function or method that the interface does not declare (EL402).
struct Unexposed {
  std::string backend;
  std::string name;
  std::string signature;
  Place declared;
};

struct BackendInfo {
  std::string name;
  std::string implementation;  // the implementing class (class shape) or namespace/folder (functions shape)
  Place declared;              // the class definition; for the functions shape the folder's first file
  // ops_interface.roles: "stubs" (every op throws by design, MLX's no_gpu: its stub cells are no EL403),
  // "fallback" (what it declines runs elsewhere: its stub cells are fallback); empty: an ordinary backend.
  std::string role;
};

struct Inventory {
  std::string
      model;  // the inventory model that produced the matrix ("interface_class", "enum_dispatch", ...)
  std::string shape;  // the model's older name where it has one ("class", "functions"); else the model
  std::string interface_name;  // what the op set is read from: the class, namespace, enum or base class
  std::vector<BackendInfo> backends;     // in configuration order
  std::vector<Op> ops;                   // sorted by category, then id
  std::vector<std::vector<Cell>> cells;  // cells[op][backend]
  std::vector<Unexposed> unexposed;      // sorted by backend, file, line
  std::vector<std::string>
      warnings;  // what the user should know about the matrix (a pattern matched nothing)

  std::vector<std::string> categories() const {
    std::vector<std::string> out;
    for (const auto& op : ops) {
      if (out.empty() || out.back() != op.category) out.push_back(op.category);
    }
    return out;
  }
  // How many cells of a backend have each status, indexed by Status.
  std::vector<std::size_t> counts(std::size_t backend) const {
    std::vector<std::size_t> c(kStatusCount, 0);
    for (const auto& row : cells) ++c[static_cast<std::size_t>(row[backend].status)];
    return c;
  }
};

// One line per backend with a role (ops_interface.roles), for the reports' summaries: "no_gpu: stubs by
// design (ops_interface.roles): 131 stub cells, not reported as EL403; 0 native, 2 fallback, 0 missing".
inline std::vector<std::string> role_summaries(const Inventory& inv) {
  std::vector<std::string> out;
  for (std::size_t b = 0; b < inv.backends.size(); ++b) {
    const std::string& role = inv.backends[b].role;
    if (role.empty()) continue;
    auto c = inv.counts(b);
    auto n = [&](Status s) { return c[static_cast<std::size_t>(s)]; };
    std::string line = inv.backends[b].name + ": ";
    if (role == "stubs") {
      line += "stubs by design (ops_interface.roles): " + std::to_string(n(Status::stub)) +
              " stub cells, not reported as EL403";
    } else {
      line += "falls back by design (ops_interface.roles): the ops it declines run elsewhere (fallback)";
    }
    line += "; " + std::to_string(n(Status::native)) + " native, " + std::to_string(n(Status::fallback)) +
            " fallback, " + std::to_string(n(Status::missing)) + " missing";
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace emberlint::analyze
