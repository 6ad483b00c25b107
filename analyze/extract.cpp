// Inventory extraction, end to end (extract.hpp): parse the units, merge them (a registered model builds its
// own inventory; the class and functions shapes are merged by extract_merge.cpp, after a second round that
// parses the headers defining implementations inline), then mark the cells the code cannot tell as unknown.
#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "analyze/extract_unit.hpp"
#include "analyze/roles.hpp"
#include "lint/project/project.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

// Whether `text` names `word`: as a whole identifier, or (unless `whole`) as the first part of one before an
// underscore (a backend's class of the op: `Conv_x86`, `Convolution_x86_avx512`).
bool has_identifier(std::string_view text, std::string_view word, bool whole) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    bool before = at > 0 && is_identifier_char(text[at - 1]);
    const std::size_t end = at + word.size();
    bool after = end < text.size() && is_identifier_char(text[end]) && (whole || text[end] != '_');
    if (!before && !after) return true;
  }
  return false;
}

// A backend source whose disabled #if regions name the op (its implementation's name for the functions
// model, else the op's own name: the enumerator, the op class): the op may be defined there under other
// flags, so the cell is unknown rather than missing.
std::optional<fs::path> disabled_definition(const ExtractInput& input, const std::vector<TuResult>& results,
                                            const std::string& backend, const Op& op, bool whole) {
  ModelContext context{input.config, input.ops};
  std::string needle = op.name;
  if (input.ops->shape == OpsConfig::Shape::functions) {
    if (auto name = input.ops->implementation_names.for_backend(backend).expand(op.name)) needle = *name;
  }
  if (needle.empty()) return std::nullopt;
  for (const TuResult& r : results) {
    for (const auto& [file, text] : r.disabled) {
      auto owners = context.backends_of(file);
      if (std::find(owners.begin(), owners.end(), backend) == owners.end()) continue;
      if (has_identifier(text, needle, whole)) return file;
    }
  }
  return std::nullopt;
}

// A cell the code cannot tell: a missing cell of a backend some of whose sources did not parse (or parsed
// with guessed flags), or none of whose sources was parsed; an implemented cell whose source parsed with
// guessed flags.
// `alone`: headers parsed on their own that did not parse whole, and why.
void mark_unknown(const ExtractInput& input, const std::vector<TuResult>& results, Inventory& inv,
                  bool whole = false, const std::vector<std::pair<fs::path, std::string>>& alone = {}) {
  ModelContext context{input.config, input.ops};
  std::map<fs::path, std::string> guessed;
  for (std::size_t i = 0; i < input.commands.size() && i < input.guesses.size(); ++i) {
    if (!input.guesses[i].empty()) guessed[input.commands[i].file] = input.guesses[i];
  }
  for (std::size_t b = 0; b < inv.backends.size(); ++b) {
    const std::string& backend = inv.backends[b].name;
    std::size_t total = 0, failed = 0;
    // The backend's sources whose code emberlint did not see whole: parsed with errors, or with guessed
    // flags.
    std::vector<std::pair<fs::path, std::string>> doubtful;  // file, why
    for (std::size_t i = 0; i < input.commands.size() && i < results.size(); ++i) {
      auto owners = context.backends_of(input.commands[i].file);
      if (std::find(owners.begin(), owners.end(), backend) == owners.end()) continue;
      // Counted as its own only when no other backend's folders list the source (a shared common/ folder
      // compiled for those); any that parsed badly stays doubtful.
      const bool own = owners.size() == 1;
      if (own) ++total;
      const fs::path& file = input.commands[i].file;
      if (results[i].failure && results[i].failure->partial) {
        // What parsed is there; what the errors cut may be missing: the ops the source names stay open.
        doubtful.emplace_back(file, "parsed with errors (" + results[i].failure->cause + ")");
      } else if (results[i].failure) {
        if (own) ++failed;
        doubtful.emplace_back(file, "could not be parsed");
      } else if (auto it = guessed.find(file); it != guessed.end()) {
        doubtful.emplace_back(file, "was parsed with guessed compile flags (" + it->second + ")");
      }
    }
    for (const auto& [file, why] : alone) {
      auto owners = context.backends_of(file);
      if (std::find(owners.begin(), owners.end(), backend) != owners.end()) doubtful.emplace_back(file, why);
    }
    std::size_t unparsed = 0;
    for (const auto& [file, why] : input.unparsed) {
      auto owners = context.backends_of(file);
      if (std::find(owners.begin(), owners.end(), backend) == owners.end()) continue;
      ++unparsed;
      doubtful.emplace_back(file, why);
    }
    auto rel = [&](const fs::path& p) {
      std::string r = relative_to(p, input.config->root);
      return r.empty() ? p.string() : r;
    };
    // A functions-shape backend found by its namespace may live anywhere: that nothing of its folders was
    // parsed says nothing; a source of its folders that names the op and was not seen whole still does.
    const bool by_namespace =
        input.ops->shape == OpsConfig::Shape::functions && input.ops->implementations.count(backend);
    bool implemented = std::any_of(inv.cells.begin(), inv.cells.end(), [&](const std::vector<Cell>& row) {
      return row[b].status != Status::missing;
    });
    // A backend the code says nothing of: every missing cell is unknown.
    std::string why;
    if (!by_namespace && total == 0 && !implemented) {
      why = unparsed ? "none of the backend's " + std::to_string(unparsed) +
                           " sources is in the compile database (not parsed; ops_interface.guess_flags may "
                           "allow guessing their flags)"
                     : "no source of this backend was parsed";
    } else if (!by_namespace && total && failed == total) {
      why = "none of the backend's " + std::to_string(total) + " sources could be parsed";
    }
    // Otherwise a missing cell is unknown only where a source not seen whole names the op (the class, the
    // enumerator, the function): a source that never names it cannot define it.
    std::map<fs::path, std::string> texts;
    auto naming = [&](const Op& op) -> const std::pair<fs::path, std::string>* {
      for (const auto& d : doubtful) {
        auto [it, added] = texts.try_emplace(d.first);
        if (added) {
          std::ifstream in(d.first, std::ios::binary);
          std::ostringstream bytes;
          bytes << in.rdbuf();
          it->second = bytes.str();
        }
        if (has_identifier(it->second, op.name, whole)) return &d;
      }
      return nullptr;
    };
    for (std::size_t r = 0; r < inv.cells.size(); ++r) {
      Cell& cell = inv.cells[r][b];
      if (cell.status == Status::missing && why.empty()) {
        if (const auto* d = naming(inv.ops[r])) {
          cell.status = Status::unknown;
          cell.reason = rel(d->first) + " " + d->second + " and names it: the op may be there";
        } else if (auto file = disabled_definition(input, results, backend, inv.ops[r], whole)) {
          cell.status = Status::unknown;
          cell.reason = "a disabled #if in " + rel(*file) + " names it: it may be defined under other flags";
        }
      }
      if (cell.status == Status::missing && !why.empty()) {
        cell.status = Status::unknown;
        cell.reason = why;
      } else if (cell.status != Status::missing && cell.status != Status::unknown) {
        if (auto it = guessed.find(cell.defined.file); it != guessed.end()) {
          cell.reason = "would be " + std::string(to_string(cell.status)) +
                        (cell.reason.empty() ? "" : " (" + cell.reason + ")") +
                        ", but its source was parsed with guessed compile flags (" + it->second + ")";
          cell.status = Status::unknown;
        }
      }
    }
  }
}

}  // namespace

ExtractResult extract_inventory(const ExtractInput& input) {
  const ModelInfo* info = find_model(input.ops->model);
  std::unique_ptr<InventoryModel> model = info && info->make ? info->make() : nullptr;
  ExtractResult out;
  std::vector<TuResult> results = parse_all(input, input.commands, model.get(), &out.parses.prefixes);
  const std::size_t primary = results.size();
  out.parses.units = primary;
  out.parses.prefixed_units = static_cast<std::size_t>(
      std::count_if(results.begin(), results.end(), [](const TuResult& r) { return r.prefixed; }));
  auto keep_dependencies = [&out](std::vector<TuResult>& units) {
    for (TuResult& r : units) {
      out.cacheable = out.cacheable && r.opened;
      for (Dependency& d : r.dependencies) out.dependencies.push_back(std::move(d));
      r.dependencies.clear();
    }
  };
  keep_dependencies(results);
  // The sources not parsed are read for the ops they name (mark_unknown): their texts are inputs too.
  if (input.cache) {
    for (const auto& [file, why] : input.unparsed) {
      std::ifstream in(file, std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      if (!in) {
        out.cacheable = false;
        continue;
      }
      out.dependencies.push_back(input.cache->dependency(file, bytes.str()));
    }
  }
  // A header parsed on its own (one of ops_interface.headers) that another unit of the run includes and reads
  // without a failure is no failure of the run: helper headers are often not self-contained (they rely on
  // what their includer included first), and the includer's parse saw their declarations.
  std::set<fs::path> read_by_clean_units;
  for (std::size_t i = 0; i < primary; ++i) {
    if (!results[i].failure)
      read_by_clean_units.insert(results[i].included.begin(), results[i].included.end());
  }
  for (std::size_t i = 0; i < primary; ++i) {
    const fs::path& file = input.commands[i].file;
    if (results[i].failure && is_header_path(file) && read_by_clean_units.count(canonical_path(file)))
      results[i].failure.reset();
    if (results[i].failure) {
      out.failures.push_back(*results[i].failure);
    } else {
      ++out.files_analyzed;
    }
  }
  std::sort(out.failures.begin(), out.failures.end());
  if (model) {
    std::vector<std::unique_ptr<UnitFacts>> units;
    for (auto& r : results) {
      if (r.model) units.push_back(std::move(r.model));
    }
    out.inventory =
        model->build(ModelContext{input.config, input.ops, &input.commands, &input.unparsed}, units);
    out.inventory.model = input.ops->model;
    if (out.inventory.shape.empty()) out.inventory.shape = input.ops->model;
    mark_unknown(input, results, out.inventory, model->whole_names());
    apply_backend_roles(*input.ops, out.inventory);
    return out;
  }
  // Second round: headers that define an implementation inline, whose bodies the preamble skipped. Each is
  // parsed on its own with the flags of the first unit that included it.
  std::set<std::string> implemented, defined;
  for (const auto& r : results) {
    for (const auto& impl : r.impls) implemented.insert(impl.usr);
    for (const auto& b : r.bodies) defined.insert(b.usr);
  }
  std::map<fs::path, CompileCommand> headers;
  for (std::size_t i = 0; i < primary; ++i) {
    for (const auto& [u, file] : results[i].skipped) {
      if (!implemented.count(u) || defined.count(u) || headers.count(file)) continue;
      CompileCommand c = input.commands[i];
      c.file = file;
      if (!is_header_path(input.commands[i].file)) c.arguments.insert(c.arguments.begin(), {"-x", "c++"});
      headers.emplace(file, std::move(c));
    }
  }
  // Backend headers no unit read that name an op: a header-only backend's, which the frontend includes
  // only under its own #if (or not at all).
  if (!input.headers_alone.empty()) {
    std::set<fs::path> read;
    for (const auto& r : results) read.insert(r.included.begin(), r.included.end());
    for (const auto& c : input.commands) read.insert(canonical_path(c.file));
    std::set<std::string> op_names;
    for (const auto& r : results)
      for (const auto& op : r.ops) op_names.insert(op.name);
    ModelContext context{input.config, input.ops};
    for (const CompileCommand& c : input.headers_alone) {
      if (read.count(canonical_path(c.file)) || headers.count(c.file)) continue;
      std::ifstream in(c.file, std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      const std::string text = bytes.str();
      if (input.cache) out.dependencies.push_back(input.cache->dependency(c.file, text));
      const auto owners = context.backends_of(c.file);
      const bool names_op = std::any_of(op_names.begin(), op_names.end(), [&](const std::string& op) {
        return std::any_of(owners.begin(), owners.end(), [&](const std::string& b) {
          auto name = input.ops->implementation_names.for_backend(b).expand(op);
          return name && has_identifier(text, *name, true);
        });
      });
      if (names_op) headers.emplace(c.file, c);
    }
  }
  std::vector<CompileCommand> second;
  for (auto& [file, c] : headers) second.push_back(std::move(c));
  out.parses.headers_alone = second.size();
  std::vector<TuResult> headers_parsed = parse_all(input, second);
  keep_dependencies(headers_parsed);
  // A header that does not parse alone adds what it shows when it parsed with errors, nothing when it did not
  // parse; either way the ops it names may be defined in what its parse did not see.
  std::vector<std::pair<fs::path, std::string>> alone;
  for (std::size_t i = 0; i < headers_parsed.size(); ++i) {
    TuResult& r = headers_parsed[i];
    if (r.failure) {
      alone.emplace_back(second[i].file, r.failure->partial
                                             ? "parsed on its own with errors (" + r.failure->cause + ")"
                                             : "could not be parsed on its own");
      if (!r.failure->partial) continue;
    }
    results.push_back(std::move(r));
  }
  out.inventory = merge_units(input, results);
  mark_unknown(input, results, out.inventory, false, alone);
  apply_backend_roles(*input.ops, out.inventory);
  return out;
}

}  // namespace emberlint::analyze
