// EL302 host-roundtrip: tensor data copied to the host and back into a tensor within one function.
#include <algorithm>
#include <map>
#include <set>

#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{
    "EL302",
    "host-roundtrip",
    "scalar",
    Severity::warning,
    false,
    "data copied to the host and back into a tensor (`to_host`/`to_vector` then `from_data`)",
    R"(## What it does
Within one function, follows the value a host copy returns, from `to_host`, `to_vector`, `tolist`, `data()`
or `raw_data()` called on (or with) a configured tensor type, through the variables that are initialized or
assigned from it (a structured binding takes its element of a pair or tuple built in place, `auto [v, n] =
std::pair{to_host(t), 2}`, else the whole initializer) (also a buffer the copy writes into, as in `backend.to_host(t, buf.data())`), and flags the
call that puts it back into a tensor: `from_data`, `from_vector`, `from_host`, `from_blob` or `from_buffer`
returning a tensor or taking one. The test layer is not governed.

## Why is this bad?
The round trip waits for the device, copies every element to the host and back, and does on the host in
plain C++ what an op would do on the device: it is slow on a GPU backend and usually duplicates an op that
exists (`astype`, `copy`, `reshape`, `where`, ...).

## Example
```cpp
std::vector<float> v = ember::ops::to_host<float>(x);
for (auto& e : v) e = std::max(e, 0.0f);
ember::Tensor y = ember::ops::from_data(v, x.shape());
```

## Use instead
```cpp
ember::Tensor y = ember::ops::maximum(x, ember::ops::zeros_like(x));
```
)"};

bool any_tensor(const ProjectModel& model, const Call& c) {
  if (model.is_tensor(c.object)) return true;
  return std::any_of(c.argument_type_ids.begin(), c.argument_type_ids.end(),
                     [&](int t) { return model.is_tensor(t); });
}

class HostRoundtrip final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    static const std::set<std::string> kReaders = {"to_host", "to_vector", "tolist", "data", "raw_data"};
    static const std::set<std::string> kWriters = {"from_data", "from_vector", "from_host", "from_blob",
                                                   "from_buffer"};
    const TuFacts& facts = model.facts();
    // Per function: the host copies, and the calls that build tensors from host data.
    std::map<int, std::vector<const Call*>> readers, writers;
    for (const auto& c : facts.calls) {
      if (c.definition < 0) continue;
      if (kReaders.count(c.name) && any_tensor(model, c)) readers[c.definition].push_back(&c);
      if (kWriters.count(c.name) && (model.is_tensor(c.result) || any_tensor(model, c)) &&
          model.scalar_rules_govern(c.at.file)) {
        writers[c.definition].push_back(&c);
      }
    }
    if (writers.empty() || readers.empty()) return;
    std::map<int, std::vector<const Reference*>> refs;
    for (const auto& r : facts.references) {
      if (r.definition >= 0 && writers.count(r.definition)) refs[r.definition].push_back(&r);
    }
    std::map<int, std::vector<const Assignment*>> assigns;
    for (const auto& a : facts.assignments) {
      if (a.definition >= 0 && writers.count(a.definition)) assigns[a.definition].push_back(&a);
    }
    for (const auto& [def, ws] : writers) {
      auto rit = readers.find(def);
      if (rit == readers.end()) continue;
      // Variables holding host data, with the copy they came from.
      std::map<int, const Call*> tainted;
      const auto& def_refs = refs[def];
      auto source_in = [&](const Location& range) -> const Call* {
        for (const Call* r : rit->second) {
          if (range.contains(r->at)) return r;
        }
        for (const Reference* ref : def_refs) {
          if (!range.contains(ref->at)) continue;
          if (auto t = tainted.find(ref->symbol); t != tainted.end()) return t->second;
        }
        return nullptr;
      };
      for (const Call* r : rit->second) {
        // A copy into a buffer: `to_host(t, buf.data())` fills `buf`.
        for (std::size_t i = 0; i < r->arguments.size(); ++i) {
          if (model.is_tensor(r->argument_type_ids[i])) continue;
          for (const Reference* ref : def_refs) {
            if (r->arguments[i].contains(ref->at)) tainted.emplace(ref->symbol, r);
          }
        }
      }
      for (bool grew = true; grew;) {
        grew = false;
        for (const Assignment* a : assigns[def]) {
          if (tainted.count(a->variable)) continue;
          if (const Call* from = source_in(a->value)) {
            tainted.emplace(a->variable, from);
            grew = true;
          }
        }
      }
      for (const Call* w : ws) {
        for (const auto& arg : w->arguments) {
          const Call* from = source_in(arg);
          if (!from) continue;
          reporter.report(w->at, "tensor data copied to the host by '" + from->name + "' (line " +
                                     std::to_string(from->at.line) + ") goes back into a tensor through '" +
                                     w->name + "': keep it on the device with a tensor op");
          break;
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_host_roundtrip() {
  return std::make_unique<HostRoundtrip>();
}

}  // namespace emberlint
