// What the rules read in expressions and statements of a unit (extract_facts.hpp): calls and the operators
// they spell, built-in operators on class-typed operands, assignments and variable initializations, the
// conditions of statements and their loops, namespace uses, casts and braced-list conversions.
#include <algorithm>
#include <cctype>
#include <set>

#include "lint/libclang/cursor.hpp"
#include "lint/parse/extract_facts.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::extraction {

std::vector<CXCursor> Extractor::children(CXCursor c) {
  std::vector<CXCursor> out;
  clang_visitChildren(
      c,
      [](CXCursor ch, CXCursor, CXClientData d) {
        static_cast<std::vector<CXCursor>*>(d)->push_back(ch);
        return CXChildVisit_Continue;
      },
      &out);
  return out;
}

bool Extractor::is_expression(CXCursor c) {
  return clang_isExpression(clang_getCursorKind(c)) != 0;
}

// The text between two ranges of one file without blanks, line continuations and comments: a binary
// operator's spelling (`a /* lhs */ + b` is `+`).
std::string Extractor::between(const Location& a, const Location& b) {
  if (a.file != b.file || a.end_offset > b.offset) return {};
  std::string_view t = text(a.file);
  if (b.offset > t.size()) return {};
  std::string out;
  for (std::size_t i = skip_blanks(t, a.end_offset); i < b.offset; i = skip_blanks(t, i)) {
    if (t[i] != '\\') out += t[i];
    ++i;
  }
  return out;
}

void Extractor::add_condition(const Location& l) {
  if (l.file >= 0) conditions_.emplace(l.file, l.offset, l.end_offset);
}
bool Extractor::is_condition(const Location& l) const {
  return conditions_.count({l.file, l.offset, l.end_offset}) > 0;
}

int Extractor::variable_of(CXCursor expr) {
  if (clang_getCursorKind(expr) != CXCursor_DeclRefExpr) return -1;
  CXCursor ref = clang_getCursorReferenced(expr);
  CXCursorKind k = clang_getCursorKind(ref);
  // A structured binding is an unexposed declaration (lint/parse/extract_facts.hpp, bindings_).
  if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl && k != CXCursor_UnexposedDecl) return -1;
  return symbol_id(ref);
}

void Extractor::add_assignment(const Location& at, CXCursor target, CXCursor value, int definition) {
  int var = variable_of(target);
  if (var < 0) return;
  Assignment a;
  a.at = at;
  a.variable = var;
  a.value = extent(value);
  a.definition = definition;
  facts_.assignments.push_back(std::move(a));
}

bool Extractor::tracked_operator(std::string_view op) {
  static const std::set<std::string_view> kOps = {"+",  "-",  "*",   "/",   "%",  "^",  "&",  "|",   "~",
                                                  "!",  "<",  ">",   "<=",  ">=", "==", "!=", "<=>", "&&",
                                                  "||", "<<", ">>",  "+=",  "-=", "*=", "/=", "%=",  "^=",
                                                  "&=", "|=", "<<=", ">>=", "++", "--", "[]", "()"};
  return kOps.count(op) > 0;
}

// Unary operators that compute (not `&` taking an address or `*` dereferencing).
bool Extractor::tracked_unary(std::string_view op) {
  return op == "-" || op == "+" || op == "!" || op == "~" || op == "++" || op == "--";
}

Operator Extractor::make_operator(const Location& at, std::string spelling, int definition) {
  Operator op;
  op.at = at;
  op.spelling = std::move(spelling);
  op.namespaces = namespaces_;
  op.definition = definition;
  return op;
}

void Extractor::add_call(CXCursor c, int definition) {
  CXCursor callee = clang_getCursorReferenced(c);
  Call call;
  call.at = extent(c);
  call.definition = definition;
  call.result = type_id(clang_getCursorType(c));
  call.result_type = clang::type_spelling(clang_getCursorType(c));
  CXCursorKind callee_kind = clang_getCursorKind(callee);
  bool resolved = !clang_Cursor_isNull(callee) && !clang_isInvalid(callee_kind);
  int n = clang_Cursor_getNumArguments(c);
  std::vector<CXCursor> args;
  for (int i = 0; i < n; ++i) {
    CXCursor arg = clang_Cursor_getArgument(c, static_cast<unsigned>(i));
    Location l = extent(arg);
    if (l.file < 0) continue;  // a default argument: not written here
    args.push_back(arg);
    call.arguments.push_back(l);
    call.argument_type_ids.push_back(type_id(clang_getCursorType(arg)));
  }
  if (resolved && instantiation_depth_ == 0) add_lambda_carrier(callee, args);
  // An operator call in a template whose operands are dependent has no callee yet; its spelling names it.
  call.name = resolved ? clang::spelling(callee) : clang::spelling(c);
  if (resolved) call.callee = symbol_id(callee);
  if (resolved && (callee_kind == CXCursor_FunctionDecl || callee_kind == CXCursor_CXXMethod)) {
    visit_instantiation(callee);
  }
  CXCursor object = clang_getNullCursor();
  if (callee_kind == CXCursor_CXXMethod || callee_kind == CXCursor_ConversionFunction) {
    std::vector<CXCursor> kids = children(c);
    if (!kids.empty() && clang_getCursorKind(kids.front()) == CXCursor_MemberRefExpr) {
      std::vector<CXCursor> member = children(kids.front());
      if (!member.empty()) {
        object = member.front();
        call.object = type_id(clang_getCursorType(object));
      }
    }
  }
  if (resolved) add_range_copy(c, callee, args, object, definition);
  if (callee_kind == CXCursor_ConversionFunction) {
    Conversion conv;
    conv.at = call.at;
    conv.kind = "operator";
    conv.to_type = call.result_type;
    conv.to = call.result;
    conv.definition = definition;
    if (!clang_Cursor_isNull(object)) {
      conv.from_type = clang::type_spelling(clang_getCursorType(object));
      conv.from = call.object;
      conv.operand = extent(object);
    }
    conv.explicit_call = text(call.at).find("operator") != std::string_view::npos;
    conv.metadata_only = reads_metadata_only(callee);
    conv.condition = is_condition(call.at);
    facts_.conversions.push_back(std::move(conv));
  } else if (call.name.rfind("operator", 0) == 0 && call.name.size() > 8 &&
             !is_identifier_char(call.name[8])) {
    call.operator_spelling = call.name.substr(8);
    while (!call.operator_spelling.empty() && call.operator_spelling.front() == ' ') {
      call.operator_spelling.erase(0, 1);
    }
    for (const auto& arg : args)
      call.argument_types.push_back(clang::type_spelling(clang_getCursorType(arg)));
    if (call.operator_spelling == "=" && args.size() == 2) {
      if (instantiation_depth_ == 0) add_assignment(call.at, args[0], args[1], definition);
    } else if (tracked_operator(call.operator_spelling) && (!args.empty() || named_member_call(c, object))) {
      Operator op = make_operator(call.at, call.operator_spelling, definition);
      op.overloaded = resolved;
      op.instantiated = instantiation_depth_ > 0;
      // A member operator called by name (`a.operator-()`, `r.operator+=(b)`): the object is an operand.
      const bool named_member = named_member_call(c, object);
      if (named_member) {
        op.operands.push_back(extent(object));
        op.operand_types.push_back(call.object);
      }
      std::size_t count = args.size();
      // Postfix ++ and -- carry a dummy int operand that is not in the source.
      const bool postfix_dummy =
          (op.spelling == "++" || op.spelling == "--") && count + op.operands.size() == 2;
      if (postfix_dummy) --count;
      for (std::size_t i = 0; i < count; ++i) {
        op.operands.push_back(call.arguments[i]);
        op.operand_types.push_back(call.argument_type_ids[i]);
      }
      op.operator_at = operator_token(op.at, op.operands, op.spelling);
      op.token = text(op.operator_at);
      op.unary = op.operands.size() == 1 && op.spelling != "()" && op.spelling != "[]";
      op.prefix = op.unary && (named_member ? !postfix_dummy : op.operator_at.offset < op.operands[0].offset);
      if (!op.unary || tracked_unary(op.spelling)) facts_.operators.push_back(std::move(op));
    }
  }
  if (instantiation_depth_ == 0) {
    if (!resolved)
      dependent_calls_.emplace(std::make_tuple(call.at.file, call.at.offset, call.at.end_offset), definition);
    facts_.calls.push_back(std::move(call));
  } else if (resolved) {
    instantiated_calls_.push_back(std::move(call));
  }
}

// Whether a conversion function's definition reads nothing but its object's metadata: every name its body
// spells is a size, shape, rank, count or emptiness (`return !empty();`, `return size_ != 0;`,
// `return numel() > 0;`). Read from the source text of the declaration (function bodies in headers are not
// parsed), so only a definition in a project file counts; a body that names anything else (data, item, at, a
// function outside the object) or no body at all is an extraction.
bool Extractor::reads_metadata_only(CXCursor conversion_function) {
  const CXCursor decl = clang_getCanonicalCursor(conversion_function);
  auto cached = metadata_only_.find(decl);
  if (cached != metadata_only_.end()) return cached->second;
  bool result = false;
  for (CXCursor c : {conversion_function, clang_getCursorDefinition(conversion_function)}) {
    if (clang_Cursor_isNull(c)) continue;
    // The declaration's extent ends before a body the parser skipped: the body is the braces after it.
    const Location l = extent(c);
    const std::string_view file_text = text(l.file);
    if (l.file < 0 || l.end_offset < l.offset || l.end_offset > file_text.size()) continue;
    std::size_t open = file_text.substr(l.offset, l.end_offset - l.offset).find('{');  // a parsed body
    open = open == std::string_view::npos ? skip_blanks(file_text, l.end_offset) : l.offset + open;
    if (open >= file_text.size() || file_text[open] != '{') continue;
    std::size_t close = open;
    for (int depth = 0; close < file_text.size(); ++close) {
      if (file_text[close] == '{') ++depth;
      if (file_text[close] == '}' && --depth == 0) break;
    }
    if (close >= file_text.size()) continue;
    const std::string_view t = file_text;
    result = true;
    for (std::size_t i = open + 1; i < close && result;) {
      if (!is_identifier_char(t[i]) || std::isdigit(static_cast<unsigned char>(t[i]))) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < close && is_identifier_char(t[j])) ++j;
      std::string word(t.substr(i, j - i));
      i = j;
      std::transform(word.begin(), word.end(), word.begin(),
                     [](unsigned char ch) { return std::tolower(ch); });
      static const char* const kKeywords[] = {"return", "this",     "true",        "false", "nullptr",
                                              "const",  "noexcept", "static_cast", "bool",  "std",
                                              "size_t", "int64_t",  "int"};
      static const char* const kMetadata[] = {"size", "shape", "empty",  "numel",   "ndim", "rank",
                                              "dim",  "count", "length", "defined", "null"};
      const bool keyword =
          std::any_of(std::begin(kKeywords), std::end(kKeywords), [&](const char* k) { return word == k; });
      const bool metadata = std::any_of(std::begin(kMetadata), std::end(kMetadata),
                                        [&](const char* m) { return word.find(m) != std::string::npos; });
      result = keyword || metadata;
    }
    break;
  }
  metadata_only_.emplace(decl, result);
  return result;
}

// A call of a member function spelled with its object and the keyword: `a.operator-()`, `p->operator+=(b)`
// (not `a - b`, whose object is the call's first argument).
bool Extractor::named_member_call(CXCursor call, CXCursor object) {
  if (clang_Cursor_isNull(object)) return false;
  Location o = extent(object), whole = extent(call);
  if (o.file < 0 || o.file != whole.file) return false;
  std::string_view t = text(o.file);
  std::size_t i = skip_blanks(t, o.end_offset);
  if (i >= t.size()) return false;  // no text read (a file outside the project) or none after the object
  if (t.compare(i, 1, ".") == 0) {
    i += 1;
  } else if (t.compare(i, 2, "->") == 0) {
    i += 2;
  } else {
    return false;
  }
  i = skip_blanks(t, i);
  return i < t.size() && t.compare(i, 8, "operator") == 0 && i < whole.end_offset;
}

bool Extractor::class_typed(int type) const {
  return type >= 0 && !facts_.types[static_cast<std::size_t>(type)].classes.empty();
}

// Built-in-form operators: `&&`/`||`/`!` make their operands conditions, `=` assigns a variable, and an
// operator with a class-typed operand (a dependent expression in a template) is kept for the rules.
void Extractor::add_builtin_operator(CXCursor c, CXCursorKind kind, int definition) {
  std::vector<CXCursor> kids = children(c);
  Location whole = extent(c);
  if (!in_project(whole.file)) return;
  if (kind == CXCursor_UnaryOperator) {
    if (kids.size() != 1) return;
    Location operand = extent(kids[0]);
    bool prefix = operand.offset > whole.offset;
    Location head = whole, tail = whole;
    head.end_offset = operand.offset;
    tail.offset = operand.end_offset;
    std::string spelling(text(prefix ? head : tail));
    spelling.erase(std::remove_if(spelling.begin(), spelling.end(),
                                  [](char ch) { return std::isspace(static_cast<unsigned char>(ch)); }),
                   spelling.end());
    if (spelling == "!" || spelling == "not") add_condition(operand);
    int type = type_id(clang_getCursorType(kids[0]));
    if (!class_typed(type) || !tracked_unary(spelling)) return;
    Operator op = make_operator(whole, spelling, definition);
    op.unary = true;
    op.prefix = prefix;
    op.operands = {operand};
    op.operator_at = operator_token(whole, op.operands, op.spelling);
    op.token = text(op.operator_at);
    op.operand_types = {type};
    facts_.operators.push_back(std::move(op));
    return;
  }
  if (kids.size() != 2) return;
  Location lhs = extent(kids[0]), rhs = extent(kids[1]);
  std::string spelling = between(lhs, rhs);
  if (spelling == "&&" || spelling == "||" || spelling == "and" || spelling == "or") {
    add_condition(lhs);
    add_condition(rhs);
  }
  if (spelling == "=") {
    add_assignment(whole, kids[0], kids[1], definition);
    return;
  }
  int lt = type_id(clang_getCursorType(kids[0])), rt = type_id(clang_getCursorType(kids[1]));
  if ((!class_typed(lt) && !class_typed(rt)) || !tracked_operator(spelling)) return;
  Operator op = make_operator(whole, spelling, definition);
  op.operands = {lhs, rhs};
  op.operator_at = operator_token(whole, op.operands, op.spelling);
  op.token = text(op.operator_at);
  op.operand_types = {lt, rt};
  facts_.operators.push_back(std::move(op));
}

// Skips blanks and comments from `i`; returns the first other offset.
std::size_t Extractor::skip_blanks(std::string_view t, std::size_t i) {
  while (i < t.size()) {
    if (std::isspace(static_cast<unsigned char>(t[i]))) {
      ++i;
    } else if (t.compare(i, 2, "//") == 0) {
      i = t.find('\n', i);
      if (i == std::string_view::npos) return t.size();
    } else if (t.compare(i, 2, "/*") == 0) {
      i = t.find("*/", i + 2);
      if (i == std::string_view::npos) return t.size();
      i += 2;
    } else {
      break;
    }
  }
  return i;
}

std::optional<Extractor::Head> Extractor::statement_head(FileId file, std::size_t begin) {
  std::string_view t = text(file);
  if (begin >= t.size()) return std::nullopt;
  std::size_t i = begin;
  auto word = [&] {
    std::size_t j = i;
    while (j < t.size() && is_identifier_char(t[j])) ++j;
    return t.substr(i, j - i);
  };
  std::string_view kw = word();
  if (kw != "if" && kw != "while" && kw != "switch" && kw != "for") return std::nullopt;
  i = skip_blanks(t, i + kw.size());
  if (word() == "constexpr") i = skip_blanks(t, i + 9);
  if (i >= t.size() || t[i] != '(') return std::nullopt;
  Head h;
  h.open = i;
  int depth = 0;
  for (; i < t.size(); ++i) {
    std::size_t next = skip_blanks(t, i);
    if (next != i) {
      i = next - 1;
      continue;
    }
    char ch = t[i];
    if (ch == '"' || ch == '\'') {
      for (++i; i < t.size() && t[i] != ch; ++i) {
        if (t[i] == '\\') ++i;
      }
    } else if (ch == '(' || ch == '[' || ch == '{') {
      ++depth;
    } else if (ch == ')' || ch == ']' || ch == '}') {
      if (--depth == 0) {
        h.close = i;
        return h;
      }
    } else if (ch == ';' && depth == 1) {
      h.semicolons.push_back(i);
    }
  }
  return std::nullopt;
}

// Conditions of statements and `?:`, and loops with their condition and body.
void Extractor::add_statement(CXCursor c, CXCursorKind kind, int definition) {
  std::vector<CXCursor> kids = children(c);
  Location whole = extent(c);
  if (kids.empty() || !in_project(whole.file)) return;
  std::vector<Location> at;
  for (const auto& k : kids) at.push_back(extent(k));
  if (kind == CXCursor_ConditionalOperator) {
    if (kids.size() == 3) add_condition(at[0]);
    return;
  }
  Loop loop;
  loop.at = whole;
  loop.definition = definition;
  if (kind == CXCursor_DoStmt) {
    if (kids.size() < 2) return;
    add_condition(at.back());
    loop.body = at.front();
    loop.condition = at.back();
    facts_.loops.push_back(std::move(loop));
    return;
  }
  auto head = statement_head(whole.file, whole.offset);
  if (!head) return;
  auto inside = [&](const Location& l, std::size_t from, std::size_t to) {
    return l.file == whole.file && l.offset > from && l.end_offset <= to;
  };
  std::optional<std::size_t> condition, range, body;
  for (std::size_t i = 0; i < kids.size(); ++i) {
    if (at[i].offset > head->close) {
      body = i;
    } else if (kind == CXCursor_ForStmt) {
      if (head->semicolons.size() == 2 && inside(at[i], head->semicolons[0], head->semicolons[1]))
        condition = i;
    } else if (kind == CXCursor_CXXForRangeStmt) {
      if (inside(at[i], head->open, head->close) && is_expression(kids[i])) range = i;
    } else if (inside(at[i], head->open, head->close) && is_expression(kids[i])) {
      condition = i;
    }
  }
  if (condition) add_condition(at[*condition]);
  if (kind == CXCursor_IfStmt || kind == CXCursor_SwitchStmt || !body) return;
  loop.body = at[*body];
  if (condition) loop.condition = at[*condition];
  if (range) {
    loop.range_for = true;
    loop.condition = at[*range];
    loop.range_type = type_id(clang_getCursorType(kids[*range]));
  }
  facts_.loops.push_back(std::move(loop));
}

void Extractor::add_variable(CXCursor c, int definition) {
  std::vector<CXCursor> kids = children(c);
  auto init = std::find_if(kids.rbegin(), kids.rend(), [](CXCursor k) { return is_expression(k); });
  if (init == kids.rend()) return;
  Location name = location(clang_getCursorLocation(c));
  if (!in_project(name.file)) return;
  Assignment a;
  a.at = name;
  a.variable = symbol_id(c);
  a.value = extent(*init);
  a.declaration = true;
  CXType type = clang_getCursorType(c);
  a.type = type_id(type);
  a.type_spelling = clang::type_spelling(clang_getCanonicalType(type));
  Location whole = extent(c);
  if (whole.file == name.file && whole.offset < name.offset) {
    Location head = whole;
    head.end_offset = name.offset;
    std::string_view t = text(head);
    for (std::size_t at = t.find("auto"); at != std::string_view::npos; at = t.find("auto", at + 1)) {
      if ((at == 0 || !is_identifier_char(t[at - 1])) &&
          (at + 4 >= t.size() || !is_identifier_char(t[at + 4])))
        a.written_auto = true;
    }
  }
  a.definition = definition;
  facts_.assignments.push_back(std::move(a));
}

// The namespace a using-directive or namespace alias names, through aliases of aliases.
std::string Extractor::nominated_namespace(CXCursor c, int depth) {
  CXCursor last = clang_getNullCursor();
  for (const auto& k : children(c)) {
    if (clang_getCursorKind(k) == CXCursor_NamespaceRef) last = k;
  }
  if (clang_Cursor_isNull(last) || depth > 8) return {};
  CXCursor ns = clang_getCursorReferenced(last);
  if (clang_getCursorKind(ns) == CXCursor_NamespaceAlias) return nominated_namespace(ns, depth + 1);
  return clang_Cursor_isNull(ns) ? std::string() : qualified_name(ns);
}

void Extractor::add_namespace_use(CXCursor c, CXCursorKind kind, int definition) {
  NamespaceUse use;
  use.at = extent(c);
  if (!in_project(use.at.file)) return;
  use.target = nominated_namespace(c);
  if (use.target.empty()) return;
  if (kind == CXCursor_NamespaceAlias) use.alias = clang::spelling(c);
  for (const auto& n : namespaces_) use.scope_namespace += (use.scope_namespace.empty() ? "" : "::") + n;
  if (definition >= 0) use.scope_block = facts_.definitions[static_cast<std::size_t>(definition)].extent;
  facts_.namespace_uses.push_back(std::move(use));
}

void Extractor::add_conversion(CXCursor c, const char* kind, int definition) {
  Conversion conv;
  conv.at = extent(c);
  conv.kind = kind;
  conv.to_type = clang::type_spelling(clang_getCursorType(c));
  conv.to = type_id(clang_getCursorType(c));
  conv.definition = definition;
  // The operand is the last child (a TypeRef to the target type may come first). A braced cast
  // (`double{t}`) converts the list's one element; the list itself is then not a conversion of its own.
  CXCursor operand = clang_getNullCursor();
  for (const auto& k : children(c)) {
    if (is_expression(k)) operand = k;
  }
  if (!clang_Cursor_isNull(operand) && clang_getCursorKind(operand) == CXCursor_InitListExpr) {
    if (CXCursor element = single_element(operand); !clang_Cursor_isNull(element)) {
      Location list = extent(operand);
      braced_casts_.emplace(list.file, list.offset, list.end_offset);
      operand = element;
    }
  }
  if (!clang_Cursor_isNull(operand)) {
    conv.from_type = clang::type_spelling(clang_getCursorType(operand));
    conv.from = type_id(clang_getCursorType(operand));
    conv.operand = extent(operand);
  }
  facts_.conversions.push_back(std::move(conv));
}

// The one expression of a braced list (`{t}`), else null.
CXCursor Extractor::single_element(CXCursor list) {
  CXCursor element = clang_getNullCursor();
  int n = 0;
  for (const auto& k : children(list)) {
    if (is_expression(k)) {
      element = k;
      ++n;
    }
  }
  return n == 1 ? element : clang_getNullCursor();
}

// `double x{t}` and `double x = {t}`: libclang shows the list's written element, not the implicit
// conversion inside it, so a one-element list of a non-class type is recorded as the conversion of that
// element (the rules keep those to arithmetic types; an aggregate's or a class's list is not one). A list of
// an array type (`float a[] = {t, u}`, and the array behind the std::initializer_list of `std::vector<float>
// v{t}`) converts each element to the array's element type.
void Extractor::add_list_initialization(CXCursor c, int definition) {
  Location list = extent(c);
  if (braced_casts_.count({list.file, list.offset, list.end_offset})) return;
  CXType type = clang_getCanonicalType(clang_getCursorType(c));
  if (type.kind == CXType_Record || type.kind == CXType_Invalid || type.kind == CXType_Dependent) return;
  auto add = [&](CXCursor element, CXType to, const Location& at) {
    Conversion conv;
    conv.at = at;
    conv.kind = "list-initialization";
    conv.to_type = clang::type_spelling(to);
    conv.to = type_id(to);
    conv.definition = definition;
    conv.from_type = clang::type_spelling(clang_getCursorType(element));
    conv.from = type_id(clang_getCursorType(element));
    conv.operand = extent(element);
    facts_.conversions.push_back(std::move(conv));
  };
  if (type.kind == CXType_ConstantArray || type.kind == CXType_IncompleteArray) {
    const CXType element_type = clang_getArrayElementType(type);
    for (const auto& k : children(c)) {
      if (is_expression(k)) add(k, element_type, extent(k));
    }
    return;
  }
  CXCursor element = single_element(c);
  if (!clang_Cursor_isNull(element)) add(element, clang_getCursorType(c), list);
}

// `auto [a, b] = init;` (libclang exposes the declaration, not its bindings): the offset of each name between
// the brackets and the range it takes its value from, for add_binding. A pair, tuple or class built in place
// with one argument per name (`std::pair{x, y}`, `std::make_tuple(x, y)`, `Point{x, y}`) gives each name its
// argument; anything else (a call's result, a struct, an array) gives each name the whole initializer.
void Extractor::add_decomposition(CXCursor c, int definition) {
  std::vector<CXCursor> kids = children(c);
  auto init = std::find_if(kids.rbegin(), kids.rend(), [](CXCursor k) { return is_expression(k); });
  if (init == kids.rend()) return;
  const Location whole = extent(c), value = extent(*init);
  if (!in_project(whole.file) || value.file != whole.file || value.offset < whole.offset) return;
  std::string_view t = text(whole.file);
  const std::size_t open = t.find('[', whole.offset);
  if (open == std::string_view::npos || open >= value.offset) return;
  const std::size_t close = t.find(']', open);
  if (close == std::string_view::npos || close >= value.offset) return;
  std::vector<std::size_t> names;
  for (std::size_t i = skip_blanks(t, open + 1); i < close; i = skip_blanks(t, i)) {
    if (t[i] == ',') {
      ++i;
      continue;
    }
    if (!is_identifier_char(t[i])) return;  // not a binding list: a lambda's captures, an array bound
    names.push_back(i);
    while (i < close && is_identifier_char(t[i])) ++i;
  }
  if (names.empty()) return;
  std::vector<Location> parts(names.size(), value);
  CXCursor e = *init;
  for (int depth = 0; depth < 8; ++depth) {
    const CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CXXFunctionalCastExpr) break;
    std::vector<CXCursor> inner;
    for (const auto& ch : children(e)) {
      if (is_expression(ch)) inner.push_back(ch);
    }
    if (inner.size() != 1) break;
    e = inner.front();
  }
  std::vector<CXCursor> elements;
  if (clang_getCursorKind(e) == CXCursor_InitListExpr) {
    for (const auto& ch : children(e)) {
      if (is_expression(ch)) elements.push_back(ch);
    }
  } else if (clang_getCursorKind(e) == CXCursor_CallExpr) {
    static const std::set<std::string> kBuilders = {"make_pair", "make_tuple", "tie", "forward_as_tuple"};
    CXCursor callee = clang_getCursorReferenced(e);
    const bool builds =
        clang_getCursorKind(callee) == CXCursor_Constructor ||
        (kBuilders.count(clang::spelling(callee)) && qualified_name(callee).rfind("std::", 0) == 0);
    for (int i = 0, n = builds ? clang_Cursor_getNumArguments(e) : 0; i < n; ++i)
      elements.push_back(clang_Cursor_getArgument(e, static_cast<unsigned>(i)));
  }
  if (elements.size() == names.size()) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      const Location l = extent(elements[i]);
      if (l.file == whole.file) parts[i] = l;
    }
  }
  for (std::size_t i = 0; i < names.size(); ++i)
    bindings_[{whole.file, static_cast<unsigned>(names[i])}] = {parts[i], definition};
}

// The first use of a structured binding: the binding as a variable declared from its part of the initializer.
void Extractor::add_binding(CXCursor binding) {
  const Location name = location(clang_getCursorLocation(binding));
  auto it = bindings_.find({name.file, name.offset});
  if (it == bindings_.end()) return;
  Assignment a;
  a.at = name;
  a.variable = symbol_id(binding);
  a.value = it->second.first;
  a.declaration = true;
  const CXType type = clang_getCursorType(binding);
  a.type = type_id(type);
  a.type_spelling = clang::type_spelling(clang_getCanonicalType(type));
  a.definition = it->second.second;
  facts_.assignments.push_back(std::move(a));
  bindings_.erase(it);
}

}  // namespace emberlint::extraction
