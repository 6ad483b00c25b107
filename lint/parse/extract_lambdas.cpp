// Lambdas in the walk of a unit (extract_facts.hpp). A lambda stored in a namespace-scope variable is a
// definition like a function (`namespace fe { auto f = [] { clFinish(q); }; }`: its body's uses are the
// variable's). A generic lambda that only a library function template calls (`std::visit(lambda, variant)`,
// `std::invoke(lambda, t)`), or a named visitor's call operator template (`std::visit(V{}, v)`), is
// instantiated inside the library, where the walk does not go: the library instantiations that the closure is
// passed along to are followed until one calls the closure, and that instantiated call operator is visited
// like a project template's instantiation.
#include <algorithm>

#include "lint/libclang/cursor.hpp"
#include "lint/parse/extract_facts.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::extraction {

namespace {

// Whether a lambda expression is generic: a template parameter list, or a parameter declared with `auto`.
bool is_generic(CXCursor lambda) {
  bool generic = false;
  clang_visitChildren(
      lambda,
      [](CXCursor ch, CXCursor, CXClientData d) {
        const CXCursorKind k = clang_getCursorKind(ch);
        if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
            k == CXCursor_TemplateTemplateParameter) {
          *static_cast<bool*>(d) = true;
        } else if (k == CXCursor_ParmDecl) {
          const std::string type = clang::type_spelling(clang_getCursorType(ch));
          for (std::size_t at = type.find("auto"); at != std::string::npos; at = type.find("auto", at + 1)) {
            if ((at == 0 || !is_identifier_char(type[at - 1])) &&
                (at + 4 >= type.size() || !is_identifier_char(type[at + 4])))
              *static_cast<bool*>(d) = true;
          }
        }
        return CXChildVisit_Continue;
      },
      &generic);
  return generic;
}

}  // namespace

// A lambda expression: its closure class when generic; at namespace scope, the definition of the variable it
// initializes (made once, at the variable's name). Returns the definition its body belongs to.
int Extractor::add_lambda(CXCursor c, int definition) {
  if (is_generic(c)) {
    CXCursor closure = record_of(c);
    if (!clang_Cursor_isNull(closure)) generic_lambdas_.insert(closure);
  }
  if (definition >= 0 || clang_Cursor_isNull(variable_)) return definition;
  if (variable_definition_ < 0) {
    Definition d;
    d.qualified_name = qualified_name(variable_);
    d.kind = clang::take(clang_getCursorKindSpelling(clang_getCursorKind(variable_)));
    d.at = location(clang_getCursorLocation(variable_));
    d.extent = extent(variable_);
    variable_definition_ = static_cast<int>(facts_.definitions.size());
    facts_.definitions.push_back(std::move(d));
  }
  return variable_definition_;
}

// `template <class T> double operator()(const T&)` of a project class: the class is a visitor that a library
// template may instantiate (`std::visit(V{}, v)`), followed like a generic lambda's closure.
void Extractor::add_call_operator_template(CXCursor c) {
  if (clang::spelling(c) != "operator()" || !in_project(location(clang_getCursorLocation(c)).file)) return;
  const CXCursor parent = clang_getCursorSemanticParent(c);
  const CXCursorKind k = clang_getCursorKind(parent);
  if (k == CXCursor_StructDecl || k == CXCursor_ClassDecl) generic_lambdas_.insert(parent);
}

// A variable outside any function: its initializer is visited with the variable as the owner of the lambdas
// in it.
void Extractor::visit_namespace_variable(CXCursor c) {
  const CXCursor saved = variable_;
  const int saved_definition = variable_definition_;
  variable_ = c;
  variable_definition_ = -1;
  visit_children(c, -1);
  variable_ = saved;
  variable_definition_ = saved_definition;
}

// Whether a function is the instantiation of a template from outside the project (`std::visit<F, V>`).
bool Extractor::library_specialization(CXCursor function) {
  const CXCursorKind k = clang_getCursorKind(function);
  if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) return false;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(function);
  if (clang_Cursor_isNull(tmpl) || clang_isInvalid(clang_getCursorKind(tmpl))) return false;
  return !in_project(location(clang_getCursorLocation(tmpl)).file);
}

// The class an expression's type names, through references and cv-qualifiers; null when it names none.
CXCursor Extractor::record_of(CXCursor expr) {
  CXType t = clang_getCanonicalType(clang_getCursorType(expr));
  if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
    t = clang_getCanonicalType(clang_getPointeeType(t));
  if (t.kind != CXType_Record) return clang_getNullCursor();
  CXCursor decl = clang_getTypeDeclaration(t);
  return clang_Cursor_isNull(decl) || clang_isInvalid(clang_getCursorKind(decl)) ? clang_getNullCursor()
                                                                                 : decl;
}

// A call of a library function template with a closure among its arguments: followed once the walk has seen
// every lambda (the lambda written in the call is visited after it).
void Extractor::add_lambda_carrier(CXCursor callee, const std::vector<CXCursor>& args) {
  if (!library_specialization(callee)) return;
  for (const auto& arg : args) {
    CXCursor closure = record_of(arg);
    if (!clang_Cursor_isNull(closure)) lambda_carriers_.emplace_back(callee, closure);
  }
}

// The library function's instantiated body: the calls of the closure's call operator, and the further
// library instantiations it passes the closure to (std::visit to __do_visit to __visit_invoke to __invoke to
// __invoke_impl, which calls it), up to a depth that no standard library needs.
void Extractor::follow_lambda(CXCursor function, CXCursor lambda, int depth,
                              std::vector<CXCursor>& operators) {
  if (depth > 8 || !followed_.insert(function).second) return;
  struct Walk {
    Extractor* self;
    CXCursor lambda;
    std::vector<CXCursor>* operators;
    std::vector<CXCursor> next;
  } walk{this, lambda, &operators, {}};
  clang_visitChildren(
      function,
      [](CXCursor c, CXCursor, CXClientData d) {
        auto* w = static_cast<Walk*>(d);
        if (clang_getCursorKind(c) != CXCursor_CallExpr) return CXChildVisit_Recurse;
        CXCursor callee = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(callee)) return CXChildVisit_Recurse;
        if (clang_getCursorKind(callee) == CXCursor_CXXMethod &&
            clang_equalCursors(clang_getCursorSemanticParent(callee), w->lambda)) {
          w->operators->push_back(callee);
        } else if (w->self->library_specialization(callee)) {
          for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; ++i) {
            if (clang_equalCursors(record_of(clang_Cursor_getArgument(c, static_cast<unsigned>(i))),
                                   w->lambda)) {
              w->next.push_back(callee);
              break;
            }
          }
        }
        return CXChildVisit_Recurse;
      },
      &walk);
  for (const auto& n : walk.next) follow_lambda(n, lambda, depth + 1, operators);
}

// After the walk: the call operators of generic project lambdas that library templates instantiated, each
// visited once as an instantiation (its findings at the lambda's text, in the namespaces around it).
void Extractor::visit_library_lambda_instantiations() {
  std::vector<CXCursor> operators;
  for (const auto& [callee, closure] : lambda_carriers_) {
    if (generic_lambdas_.count(closure)) follow_lambda(callee, closure, 0, operators);
  }
  for (const auto& op : operators) {
    std::vector<std::string> namespaces;
    for (CXCursor p = clang_getCursorSemanticParent(op); !clang_Cursor_isNull(p);
         p = clang_getCursorSemanticParent(p)) {
      const CXCursorKind k = clang_getCursorKind(p);
      if (k == CXCursor_TranslationUnit || clang_isInvalid(k)) break;
      if (k != CXCursor_Namespace) continue;
      const std::string name = clang::spelling(p);
      namespaces.insert(namespaces.begin(), name.empty() ? "(anonymous namespace)" : name);
    }
    std::swap(namespaces_, namespaces);
    visit_instantiation(op);
    std::swap(namespaces_, namespaces);
  }
}

}  // namespace emberlint::extraction
