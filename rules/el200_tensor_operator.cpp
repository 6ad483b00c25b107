// EL200 tensor-operator: an overloaded arithmetic, comparison, compound-assignment or unary operator applied
// to a tensor, with a fix that rewrites it to the ops call.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "lint/findings/suppressions.hpp"
#include "lint/support/source_text.hpp"
#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{
    "EL200",
    "tensor-operator",
    "operators",
    Severity::warning,
    true,
    "an overloaded arithmetic, comparison, compound-assignment or unary operator applied to a tensor",
    R"(## What it does
Flags every arithmetic (`+ - * / %`), comparison (`< <= > >= == != <=>`), bitwise and logical
(`& | ^ ~ << >> && ||`), compound-assignment (`+= -= ...`) and unary (`-x`, `+x`, `!x`, `++x`, `x--`) operator
whose operand is one of the configured `tensor_types`, whether the operator is a member or a free function.
Types are real: the tensor is recognized through typedefs, `using` aliases, references, `const`, `auto`,
class templates (also when a template spells `BasicTensor<T>` with a dependent `T`), classes derived from
a tensor type, and function templates instantiated with a tensor (`twice(t)` flags the `x + x` inside
`template <class T> T twice(T x)`, without a fix, since other instantiations may be plain numbers). Plain arithmetic on integers, sizes, pointers, iterators, `std::chrono` or `std::complex`
values is never flagged. Operators used inside the definition of an operator function (a tensor type
implementing its own operators) are not flagged. Files in the glue layer are not governed.

## Why is this bad?
An operator hides which op runs, on which backend, with which dtype promotion and broadcasting, and it
cannot take the options the ops API takes. The frontend promises that every computation goes through the
ops API, which every backend implements and the inventory (`emberlint analyze`) tracks.

## Example
```cpp
ember::Tensor c = a + b * 2.0;
if (a < b) { ... }
x += y;
ember::Tensor n = -x;
```

## Use instead
```cpp
ember::Tensor c = ember::ops::add(a, ember::ops::multiply(b, 2.0));
x = ember::ops::add(x, y);
ember::Tensor n = ember::ops::negative(x);
```
`--fix` (or `--export-fixes FILE` for `clang-apply-replacements`) rewrites `+ - * / %` to `add`, `subtract`,
`multiply`, `divide`, `mod`, comparisons to `less`, `less_equal`, `greater`, `greater_equal`, `equal`,
`not_equal`, `&&`/`||` to `logical_and`/`logical_or`, unary `-` and `!` to `negative` and `logical_not`,
and `a op= b` to `a = ops::op(a, b)` when `a` is a plain name or member. A scalar on the left of `+ * == !=`
is moved to the right, and `2 < t` becomes `greater(t, 2)`. Nested operators are rewritten in one edit.
The namespace is spelled as the file sees it: `ops::add` under `namespace ops = ember::ops;`, `using
namespace ember;` or inside `namespace ember`, and `add` under `using namespace ember::ops;`. Operators
produced by a macro, bitwise operators, `++`/`--`, unary `+` and a scalar on the left of `- / %` are reported
without a fix. The fix calls the namespace `rules.EL200.ops_namespace` names (`"ember::ops"` in ember's own
config); without it the finding has no fix, since no other code base's ops API is ember's. The fixed file must
include the header that declares the ops. Comments between the operands are kept, before the second argument.
Every fix is checked before it is offered: the unit is parsed again with the fixes applied, and a fix whose
result does not compile (`p = ops::add(p, x)` for a `p` of a type derived from the tensor) or whose call
would name another function from where it stands (`ops::add` inside a namespace with its own `ops`) is
withdrawn; the finding says why. A file that does not compile as it is gets no fixes.
)",
    {"ops_namespace"}};

// The ops function for an operator; empty when the ops API has none.
std::string op_name(const std::string& spelling, bool unary) {
  static const std::map<std::string, std::string> kBinary = {
      {"+", "add"},         {"-", "subtract"},   {"*", "multiply"},
      {"/", "divide"},      {"%", "mod"},        {"<", "less"},
      {"<=", "less_equal"}, {">", "greater"},    {">=", "greater_equal"},
      {"==", "equal"},      {"!=", "not_equal"}, {"&&", "logical_and"},
      {"||", "logical_or"}};
  static const std::map<std::string, std::string> kUnary = {{"-", "negative"}, {"!", "logical_not"}};
  const auto& table = unary ? kUnary : kBinary;
  auto it = table.find(spelling);
  return it == table.end() ? std::string() : it->second;
}

// With the scalar on the left: the op and argument order that computes the same with the tensor first.
std::optional<std::string> swapped_op(const std::string& spelling) {
  static const std::map<std::string, std::string> kSwap = {
      {"+", "add"},     {"*", "multiply"},       {"==", "equal"}, {"!=", "not_equal"},
      {"<", "greater"}, {"<=", "greater_equal"}, {">", "less"},   {">=", "less_equal"}};
  auto it = kSwap.find(spelling);
  if (it == kSwap.end()) return std::nullopt;
  return it->second;
}

bool is_compound(const std::string& s) {
  return s.size() >= 2 && s.back() == '=' && s != "==" && s != "!=" && s != "<=" && s != ">=";
}

std::string join(const std::vector<std::string>& parts, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n && i < parts.size(); ++i) out += (i ? "::" : "") + parts[i];
  return out;
}

// A plain name or member chain (`x`, `this->t`, `s.t`): evaluating it twice is harmless.
bool simple_lvalue(std::string_view t) {
  std::size_t i = 0;
  auto ident = [&] {
    std::size_t start = i;
    while (i < t.size() && is_identifier_char(t[i])) ++i;
    return i > start && !std::isdigit(static_cast<unsigned char>(t[start]));
  };
  if (!ident()) return false;
  while (i < t.size()) {
    if (t.compare(i, 2, "->") == 0 || t.compare(i, 2, "::") == 0) {
      i += 2;
    } else if (t[i] == '.') {
      ++i;
    } else {
      return false;
    }
    if (!ident()) return false;
  }
  return true;
}

// The text without one pair of parentheses around all of it, unless a comma at its top level needs them.
std::string strip_parens(std::string text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return text;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '"' || ch == '\'') {
      for (++i; i < text.size() && text[i] != ch; ++i) {
        if (text[i] == '\\') ++i;
      }
      continue;
    }
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if (ch == ')' || ch == ']' || ch == '}') --depth;
    if (depth == 0 && i + 1 < text.size()) return text;  // "(a) + (b)": not one group
    if (depth == 1 && ch == ',') return text;
  }
  return text.substr(1, text.size() - 2);
}

struct Node {
  const Operator* op = nullptr;
  std::string function;            // the ops function; empty when there is no fix
  std::vector<std::size_t> order;  // operand indices in call order
  bool compound = false;
  std::string prefix;   // the namespace as the file can see it, with "::"
  std::string why_not;  // when there is no fix
};

class TensorOperator final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ProjectModel& model, const Reporter& reporter) const override {
    const TuFacts& facts = model.facts();
    // No default: another code base's ops API is not ember's, and a fix naming ember::ops there is wrong.
    std::string target = model.rule_setting(kInfo.code).ops_namespace.value_or("");
    std::vector<Node> nodes;
    // A template that spells the tensor type is reported from its own text, not again per instantiation.
    std::set<std::pair<FileId, unsigned>> spelled;
    for (const auto& op : facts.operators) {
      if (op.instantiated) continue;
      for (int t : op.operand_types) {
        if (model.is_tensor(t)) spelled.insert({op.operator_at.file, op.operator_at.offset});
      }
    }
    for (const auto& op : facts.operators) {
      if (op.instantiated && spelled.count({op.operator_at.file, op.operator_at.offset})) continue;
      if (op.spelling == "[]" || op.spelling == "()") continue;  // element access: EL303's business
      if (!model.operator_rules_govern(op.at.file)) continue;
      std::optional<std::size_t> tensor;
      for (std::size_t i = 0; i < op.operand_types.size(); ++i) {
        if (model.is_tensor(op.operand_types[i])) {
          tensor = i;
          break;
        }
      }
      if (!tensor) continue;
      // `std::cout << t` streams a tensor: only a tensor on the left makes `<<`/`>>` a tensor operator.
      if ((op.spelling == "<<" || op.spelling == ">>") && *tensor != 0) continue;
      if (op.definition >= 0) {
        const std::string& fn = facts.definitions[static_cast<std::size_t>(op.definition)].qualified_name;
        auto last = fn.rfind("::");
        std::string_view base =
            last == std::string::npos ? std::string_view(fn) : std::string_view(fn).substr(last + 2);
        if (base.rfind("operator", 0) == 0) continue;
      }
      Node node;
      node.op = &op;
      plan(model, op, *tensor, target, node);
      nodes.push_back(std::move(node));
    }
    if (nodes.empty()) return;

    std::map<FileId, std::optional<SourceText>> sources;
    for (auto& n : nodes) {
      if (n.function.empty()) continue;
      auto& src = sources[n.op->at.file];
      if (!src) src = SourceText::read(facts.path(n.op->at.file));
      if (!src) {
        n.function.clear();
        n.why_not = "the file could not be read to rewrite it";
      } else if (n.op->token.empty()) {
        n.function.clear();
        n.why_not = "the operator '" + n.op->spelling + "' is not spelled in the expression's text";
      } else if (!matches_source(*src, *n.op)) {
        n.function.clear();
        n.why_not = "the file on disk is not the text that was checked (it changed since, or is unsaved)";
      } else if (n.compound) {
        const Location& lhs = n.op->operands[0];
        if (!simple_lvalue(std::string_view(src->text()).substr(lhs.offset, lhs.end_offset - lhs.offset))) {
          n.function.clear();
          n.why_not = "the left side is not a plain name, and the fix would evaluate it twice";
        }
      }
    }
    // Each fixable operator not inside another fixable one is rewritten whole, with everything fixable
    // inside it, as one replacement; operators inside carry that same replacement.
    std::vector<const Node*> fixable;
    for (const auto& n : nodes) {
      if (!n.function.empty()) fixable.push_back(&n);
    }
    std::map<const Node*, Replacement> edits;
    for (const Node* n : fixable) {
      const Node* outer = n;
      for (bool grew = true; grew;) {
        grew = false;
        for (const Node* m : fixable) {
          if (m != outer && m->op->at.contains(outer->op->at) && !outer->op->at.contains(m->op->at)) {
            outer = m;
            grew = true;
          }
        }
      }
      auto it = edits.find(outer);
      if (it == edits.end()) {
        const SourceText& src = *sources[outer->op->at.file];
        Replacement r;
        r.file = facts.path(outer->op->at.file);
        r.offset = outer->op->at.offset;
        r.length = outer->op->at.end_offset - outer->op->at.offset;
        r.replacement = rewrite(*outer, fixable, src.text());
        // Every ops call the rewrite wrote must name the configured namespace's function where it stands.
        for (const Node* m : fixable) {
          if (!outer->op->at.contains(m->op->at)) continue;
          const std::string call = m->prefix + m->function + "(";
          for (std::size_t at = r.replacement.find(call); at != std::string::npos;
               at = r.replacement.find(call, at + 1)) {
            const char before = at == 0 ? ' ' : r.replacement[at - 1];
            if (is_identifier_char(before) || before == ':') continue;
            Replacement::Call c{at + m->prefix.size(), target + "::" + m->function};
            auto same = [&](const Replacement::Call& o) { return o.offset == c.offset; };
            if (std::none_of(r.calls.begin(), r.calls.end(), same)) r.calls.push_back(std::move(c));
          }
        }
        it = edits.emplace(outer, std::move(r)).first;
      }
      edits.emplace(n, it->second);
    }
    for (const auto& n : nodes) {
      const Operator& op = *n.op;
      Location at = op.operator_at;
      at.end_line = at.line;
      if (op.token.empty()) at.end_column = at.column + static_cast<unsigned>(op.spelling.size());
      std::string type = facts.type(op.operand_types[tensor_index(model, op)])->spelling;
      std::string message = "operator '" + op.spelling + "' applied to tensor type '" + type + "'";
      std::vector<Replacement> fix;
      if (auto it = edits.find(&n); it != edits.end()) {
        message += ": use " + n.prefix + n.function + "()";
        fix.push_back(it->second);
      } else {
        message += ": use the ops API (no automatic fix: " + n.why_not + ")";
      }
      reporter.report(at, std::move(message), std::move(fix));
    }
  }

 private:
  static std::size_t tensor_index(const ProjectModel& model, const Operator& op) {
    for (std::size_t i = 0; i < op.operand_types.size(); ++i) {
      if (model.is_tensor(op.operand_types[i])) return i;
    }
    return 0;
  }

  static bool inside_macro(const TuFacts& facts, const Location& l) {
    return std::any_of(facts.macro_expansions.begin(), facts.macro_expansions.end(), [&](const Location& m) {
      return m.file == l.file && l.offset >= m.offset && l.offset < m.end_offset;
    });
  }

  // Decides whether and how the operator can be rewritten.
  static void plan(const ProjectModel& model, const Operator& op, std::size_t tensor,
                   const std::string& target, Node& node) {
    const TuFacts& facts = model.facts();
    if (target.empty()) {
      node.why_not = "the config names no ops namespace to call (rules.EL200.ops_namespace)";
      return;
    }
    if (inside_macro(facts, op.operator_at) || inside_macro(facts, op.at)) {
      node.why_not = "the operator comes from a macro";
      return;
    }
    if (!op.overloaded) {
      node.why_not = "the operand types depend on a template parameter";
      return;
    }
    if (op.instantiated) {
      node.why_not = "the template is instantiated with a tensor here; its other instantiations may not be";
      return;
    }
    for (const auto& o : op.operands) {
      if (o.file != op.at.file || o.end_offset <= o.offset || !op.at.contains(o)) {
        node.why_not = "the operands are not plain source text";
        return;
      }
    }
    std::string spelling = op.spelling;
    if (is_compound(spelling)) {
      node.compound = true;
      spelling.pop_back();
    }
    if (op.unary) {
      if (!op.prefix || node.compound) {
        node.why_not = "the ops API has no " + op.spelling + " operator";
        return;
      }
      node.function = op_name(spelling, true);
      node.order = {0};
      if (node.function.empty()) node.why_not = "the ops API has no unary '" + spelling + "'";
    } else {
      if (op.operands.size() != 2) {
        node.why_not = "it has " + std::to_string(op.operands.size()) + " operands";
        return;
      }
      std::size_t other = 1 - tensor;
      const TypeFacts* ot = facts.type(op.operand_types[other]);
      if (!model.is_tensor(op.operand_types[other]) && !(ot && ot->arithmetic)) {
        node.why_not = "the other operand is neither a tensor nor a number";
        return;
      }
      if (tensor == 0) {
        node.function = op_name(spelling, false);
        node.order = {0, 1};
      } else if (auto swapped = swapped_op(spelling); swapped && !node.compound) {
        node.function = *swapped;
        node.order = {1, 0};
      } else {
        node.why_not = "the scalar is on the left";
        return;
      }
      if (node.function.empty()) {
        node.why_not = "the ops API has no '" + spelling + "'";
        return;
      }
    }
    if (node.function.empty()) return;
    node.prefix = visible_prefix(facts, op, target);
  }

  // The shortest spelling of the ops namespace visible where the operator is.
  static std::string visible_prefix(const TuFacts& facts, const Operator& op, const std::string& target) {
    std::vector<std::string> candidates = {target + "::"};
    auto relative = [&](const std::string& from) -> std::optional<std::string> {
      if (from == target) return std::string();
      if (target.rfind(from + "::", 0) == 0) return target.substr(from.size() + 2) + "::";
      return std::nullopt;
    };
    for (std::size_t n = 1; n <= op.namespaces.size(); ++n) {
      if (auto r = relative(join(op.namespaces, n))) candidates.push_back(*r);
    }
    const std::string here = join(op.namespaces, op.namespaces.size());
    for (const auto& use : facts.namespace_uses) {
      bool visible = false;
      if (use.scope_block.file >= 0) {
        visible = use.scope_block.contains(op.at);
      } else {
        visible = use.scope_namespace.empty() || here == use.scope_namespace ||
                  here.rfind(use.scope_namespace + "::", 0) == 0;
      }
      if (visible && use.at.file == op.at.file) visible = use.at.end_offset <= op.at.offset;
      if (!visible) continue;
      auto r = relative(use.target);
      if (!r) continue;
      candidates.push_back(use.alias.empty() ? *r : use.alias + "::" + *r);
    }
    return *std::min_element(candidates.begin(), candidates.end(),
                             [](const std::string& a, const std::string& b) {
                               return a.size() != b.size() ? a.size() < b.size() : a < b;
                             });
  }

  // The file on disk still has the operator's token where the facts say (they came from the same text,
  // unless the file changed after the parse or the editor's buffer is unsaved).
  static bool matches_source(const SourceText& src, const Operator& op) {
    const std::string& t = src.text();
    if (op.at.end_offset > t.size()) return false;
    return t.compare(op.operator_at.offset, op.token.size(), op.token) == 0;
  }

  static std::string render(const Location& range, const std::vector<const Node*>& fixable,
                            const std::string& text) {
    std::string out;
    std::size_t pos = range.offset;
    // The maximal fixable operators inside the range, in order.
    std::vector<const Node*> inner;
    for (const Node* m : fixable) {
      if (!range.contains(m->op->at)) continue;
      bool nested = std::any_of(fixable.begin(), fixable.end(), [&](const Node* k) {
        return k != m && range.contains(k->op->at) && k->op->at.contains(m->op->at) &&
               !m->op->at.contains(k->op->at);
      });
      if (!nested) inner.push_back(m);
    }
    std::sort(inner.begin(), inner.end(),
              [](const Node* a, const Node* b) { return a->op->at.offset < b->op->at.offset; });
    for (const Node* m : inner) {
      if (m->op->at.offset < pos) continue;
      out.append(text, pos, m->op->at.offset - pos);
      out += rewrite(*m, fixable, text);
      pos = m->op->at.end_offset;
    }
    out.append(text, pos, range.end_offset - pos);
    return out;
  }

  static std::string rewrite(const Node& n, const std::vector<const Node*>& fixable,
                             const std::string& text) {
    const Operator& op = *n.op;
    std::vector<std::string> args;
    for (std::size_t i : n.order) args.push_back(strip_parens(render(op.operands[i], fixable, text)));
    // Comments between the operands (`a + /* why */ b`, `a +  // why` then `b` on the next line) are kept,
    // before the second argument; a line comment keeps its line break.
    std::string kept;
    if (op.operands.size() == 2 && op.operands[0].end_offset <= op.operands[1].offset) {
      const std::size_t from = op.operands[0].end_offset, to = op.operands[1].offset;
      // After a line comment the argument goes on the next line, indented as the second operand's line.
      const std::size_t line = text.rfind('\n', to == 0 ? 0 : to - 1);
      const std::size_t start = line == std::string::npos ? 0 : line + 1;
      const std::string indent = text.substr(start, text.find_first_not_of(" \t", start) - start);
      for (const Comment& c : find_comments(text.substr(from, to - from))) {
        kept += c.text + (c.text.rfind("//", 0) == 0 ? "\n" + indent : " ");
      }
    }
    std::string call = n.prefix + n.function + "(";
    for (std::size_t i = 0; i < args.size(); ++i) call += (i ? ", " + kept : "") + args[i];
    call += ")";
    if (!n.compound) return call;
    return text.substr(op.operands[0].offset, op.operands[0].end_offset - op.operands[0].offset) + " = " +
           call;
  }
};

}  // namespace

std::unique_ptr<Rule> make_tensor_operator() {
  return std::make_unique<TensorOperator>();
}

}  // namespace emberlint
