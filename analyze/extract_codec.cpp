#include "analyze/extract_codec.hpp"

#include <nlohmann/json.hpp>

namespace emberlint::analyze {

namespace {

using nlohmann::json;

json place(const Place& p) {
  return {p.file.native(), p.line, p.column};
}
Place place(const json& j) {
  return {j.at(0).get<std::string>(), j.at(1).get<unsigned>(), j.at(2).get<unsigned>()};
}

json signature(const Signature& s) {
  json params = json::array();
  for (const Param& p : s.params) params.push_back({p.type, p.canonical, p.name, p.default_value});
  return {s.result, s.result_canonical, params, s.is_const};
}
Signature signature(const json& j) {
  Signature s;
  s.result = j.at(0);
  s.result_canonical = j.at(1);
  for (const json& p : j.at(2)) s.params.push_back({p.at(0), p.at(1), p.at(2), p.at(3)});
  s.is_const = j.at(3);
  return s;
}

json failure(const Failure& f) {
  json errors = json::array();
  for (const ParseError& e : f.errors) errors.push_back({e.message, e.where.native(), e.line, e.column});
  return {f.file.native(), f.message, f.where.native(), f.line, f.column,
          f.cause,         f.partial, f.expected,       errors};
}
Failure failure(const json& j) {
  Failure f(j.at(0).get<std::string>(), j.at(1).get<std::string>(), j.at(2).get<std::string>(),
            j.at(3).get<unsigned>(), j.at(4).get<unsigned>());
  f.cause = j.at(5);
  f.partial = j.at(6);
  f.expected = j.at(7);
  for (const json& e : j.at(8))
    f.errors.push_back(
        {e.at(0), e.at(1).get<std::string>(), e.at(2).get<unsigned>(), e.at(3).get<unsigned>()});
  return f;
}

}  // namespace

std::string encode_extract_result(const ExtractResult& r) {
  const Inventory& inv = r.inventory;
  json backends = json::array(), ops = json::array(), cells = json::array(), unexposed = json::array(),
       failures = json::array();
  for (const BackendInfo& b : inv.backends)
    backends.push_back({b.name, b.implementation, place(b.declared), b.role});
  for (const Op& op : inv.ops)
    ops.push_back({op.id, op.name, op.category, signature(op.signature), place(op.declared), op.declaration});
  for (const auto& row : inv.cells) {
    json out = json::array();
    for (const Cell& c : row)
      out.push_back({static_cast<int>(c.status), place(c.defined), place(c.declared), c.signature, c.reason,
                     c.mismatches});
    cells.push_back(std::move(out));
  }
  for (const Unexposed& u : inv.unexposed)
    unexposed.push_back({u.backend, u.name, u.signature, place(u.declared)});
  for (const Failure& f : r.failures) failures.push_back(failure(f));
  json doc = {{"model", inv.model},
              {"shape", inv.shape},
              {"interface", inv.interface_name},
              {"backends", backends},
              {"ops", ops},
              {"cells", cells},
              {"unexposed", unexposed},
              {"warnings", inv.warnings},
              {"failures", failures},
              {"files_analyzed", r.files_analyzed}};
  return doc.dump();
}

std::optional<ExtractResult> decode_extract_result(std::string_view bytes) {
  try {
    json doc = json::parse(bytes);
    ExtractResult r;
    Inventory& inv = r.inventory;
    inv.model = doc.at("model");
    inv.shape = doc.at("shape");
    inv.interface_name = doc.at("interface");
    for (const json& b : doc.at("backends"))
      inv.backends.push_back({b.at(0), b.at(1), place(b.at(2)), b.at(3)});
    for (const json& o : doc.at("ops")) {
      Op op;
      op.id = o.at(0);
      op.name = o.at(1);
      op.category = o.at(2);
      op.signature = signature(o.at(3));
      op.declared = place(o.at(4));
      op.declaration = o.at(5);
      inv.ops.push_back(std::move(op));
    }
    for (const json& row : doc.at("cells")) {
      std::vector<Cell> out;
      for (const json& c : row) {
        int status = c.at(0);
        if (status < 0 || status >= static_cast<int>(kStatusCount)) return std::nullopt;
        out.push_back({static_cast<Status>(status), place(c.at(1)), place(c.at(2)), c.at(3), c.at(4),
                       c.at(5).get<std::vector<std::string>>()});
      }
      if (out.size() != inv.backends.size()) return std::nullopt;
      inv.cells.push_back(std::move(out));
    }
    if (inv.cells.size() != inv.ops.size()) return std::nullopt;
    for (const json& u : doc.at("unexposed"))
      inv.unexposed.push_back({u.at(0), u.at(1), u.at(2), place(u.at(3))});
    inv.warnings = doc.at("warnings").get<std::vector<std::string>>();
    for (const json& f : doc.at("failures")) r.failures.push_back(failure(f));
    r.files_analyzed = doc.at("files_analyzed");
    return r;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace emberlint::analyze
