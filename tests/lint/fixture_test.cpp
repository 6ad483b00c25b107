// The rule fixtures: real C++ under fixtures/project with `// expect: CODE` on every line a rule must flag.
// For each rule, the diagnostics must be exactly the marked lines: every marker found, nothing else
// reported (comments, strings, plain arithmetic, ungoverned layers and suppressed lines stay silent).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "lint/run/runner.hpp"
#include "reports/report.hpp"
#include "rules/registry.hpp"

namespace fs = std::filesystem;
using namespace emberlint;

namespace {

const fs::path kProject = fs::path(EMBERLINT_FIXTURES) / "project";

using Key = std::tuple<std::string, unsigned, std::string>;  // file, line, code

const CheckResult& fixture_result() {
  static const CheckResult result = [] {
    CheckOptions o;
    o.paths = {kProject};
    o.jobs = 2;
    return run_check(o, rule_catalog());
  }();
  return result;
}

std::set<Key> expected(const std::string& code) {
  std::set<Key> out;
  const std::regex marker(R"(expect:((?:\s*EL\d+)+))");
  for (const auto& e : fs::recursive_directory_iterator(kProject)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path());
    std::string line;
    for (unsigned n = 1; std::getline(in, line); ++n) {
      std::smatch m;
      if (!std::regex_search(line, m, marker)) continue;
      std::istringstream codes(m[1].str());
      for (std::string c; codes >> c;) {
        if (c == code) out.insert({e.path().lexically_relative(kProject).generic_string(), n, c});
      }
    }
  }
  return out;
}

std::set<Key> actual(const std::string& code) {
  std::set<Key> out;
  const CheckResult& r = fixture_result();
  for (const auto& d : r.diagnostics) {
    if (d.code == code) out.insert({display_path(r, d.file), d.line, d.code});
  }
  return out;
}

std::string show(const std::set<Key>& keys) {
  std::string s;
  for (const auto& [f, l, c] : keys) s += "  " + f + ":" + std::to_string(l) + " " + c + "\n";
  return s;
}

class RuleFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(RuleFixture, ReportsExactlyTheMarkedLines) {
  auto want = expected(GetParam());
  auto got = actual(GetParam());
  ASSERT_FALSE(want.empty()) << "the fixture has no marker for " << GetParam();
  std::set<Key> missing, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                      std::inserter(missing, missing.end()));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::inserter(extra, extra.end()));
  EXPECT_TRUE(missing.empty()) << "not reported:\n" << show(missing);
  EXPECT_TRUE(extra.empty()) << "reported without a marker:\n" << show(extra);
}

INSTANTIATE_TEST_SUITE_P(Rules, RuleFixture,
                         ::testing::Values("EL001", "EL100", "EL101", "EL102", "EL103", "EL104", "EL200",
                                           "EL201", "EL202", "EL300", "EL301", "EL302", "EL303"));

TEST(RuleFixtureRun, AnalyzesEveryFileWithoutFailures) {
  const CheckResult& r = fixture_result();
  EXPECT_TRUE(r.failures.empty()) << r.failures.front().message;
  EXPECT_GE(r.files_analyzed, 14u);
}

std::string message_at(const std::string& file, unsigned line, const std::string& code) {
  const CheckResult& r = fixture_result();
  for (const auto& d : r.diagnostics) {
    if (display_path(r, d.file) == file && d.line == line && d.code == code) return d.message;
  }
  return "(none)";
}

unsigned line_of(const std::string& file, const std::string& text) {
  std::ifstream in(kProject / file);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    if (line.find(text) != std::string::npos) return n;
  }
  return 0;
}

// EL101 must say how the symbol arrived and point at the spelling in the frontend file.
TEST(RuleFixtureMessages, El101NamesTheWayTheSymbolArrived) {
  auto says = [](const std::string& file, const std::string& at, const std::string& text) {
    std::string message = message_at(file, line_of(file, at), "EL101");
    EXPECT_NE(message.find(text), std::string::npos) << file << ": " << message;
  };
  says("frontend/el101_via_alias.cpp", "common::Mat m(2, 2);", "through alias 'Mat'");
  says("frontend/el101_via_typedef.cpp", "common::Vec v;  //", "through typedef 'Vec'");
  says("frontend/el101_via_macro.cpp", "MAKE_MATRIX(3)", "through macro 'MAKE_MATRIX'");
  says("frontend/el101_via_deduced_type.cpp", "make_identity(2)", "in the type of 'm'");
  const std::string f = "frontend/el101_symbols.cpp";
  says(f, "std::vector<Eigen::VectorXd>", "'Eigen::VectorXd'");
  says(f, "return EIGEN_WORLD_VERSION", "macro 'EIGEN_WORLD_VERSION'");
}

// A file's uses of one symbol are one finding at the first use, with the count and the other lines; a
// suppressed use is neither reported nor counted.
TEST(RuleFixtureMessages, El101ReportsAFilesUsesOfOneSymbolOnce) {
  const std::string f = "frontend/el101_symbols.cpp";
  const std::string first = message_at(f, line_of(f, "Eigen::MatrixXd m(2, 2);"), "EL101");
  EXPECT_NE(first.find("(2 uses in this file; also line " +
                       std::to_string(line_of(f, "Eigen::MatrixXd again(3, 3);")) + ")"),
            std::string::npos)
      << first;
  const std::string t = "frontend/el101_via_typedef.cpp";
  EXPECT_NE(message_at(t, line_of(t, "common::Vec v;  //"), "EL101").find("2 uses in this file"),
            std::string::npos);
  const CheckResult& r = fixture_result();
  auto grouped = std::find_if(r.diagnostics.begin(), r.diagnostics.end(), [&](const Diagnostic& d) {
    return display_path(r, d.file) == f && d.line == line_of(f, "Eigen::MatrixXd m(2, 2);");
  });
  ASSERT_NE(grouped, r.diagnostics.end());
  EXPECT_EQ(grouped->uses, 2u);
  EXPECT_EQ(grouped->group, "'Eigen::MatrixXd' of library Eigen (backend 'eigen')");
}

// Every library symbol of a line is a use of its own: calls in initializers and in other calls' arguments are
// reported (ncnn's `__m128i v = _mm_add_epi16(_mm_loadu_si128(p), w);` named only one of them before), the
// same symbol twice on a line is one use.
TEST(RuleFixtureMessages, El101ReportsEverySymbolOfALine) {
  const CheckResult& r = fixture_result();
  const std::string f = "frontend/el101_nested_calls.cpp";
  std::map<std::string, const Diagnostic*> by_symbol;
  for (const auto& d : r.diagnostics) {
    if (display_path(r, d.file) == f && d.code == "EL101") by_symbol[d.group] = &d;
  }
  auto at = [&](const std::string& symbol) -> std::pair<unsigned, unsigned> {
    auto it = by_symbol.find("'" + symbol + "' of library BLAS (backend 'blas')");
    if (it == by_symbol.end()) return {0, 0};
    return {it->second->line, it->second->uses};
  };
  EXPECT_EQ(by_symbol.size(), 4u);
  const unsigned ret = line_of(f, "return scale(sum, cblas_ddot");
  EXPECT_EQ(at("cblas_dnrm2"), std::make_pair(line_of(f, "double norm = cblas_dnrm2"), 2u));
  EXPECT_EQ(at("cblas_dasum"), std::make_pair(line_of(f, "double sum = scale(cblas_dasum"), 2u));
  EXPECT_EQ(at("cblas_ddot"), std::make_pair(ret, 1u));
  EXPECT_EQ(at("cblas_idamax"), std::make_pair(ret, 1u));
}

TEST(RuleFixtureMessages, El101PointsAtTheMacroExpansionInTheUsersFile) {
  const CheckResult& r = fixture_result();
  const std::string f = "frontend/el101_via_macro.cpp";
  unsigned line = line_of(f, "MAKE_MATRIX(3)");
  ASSERT_NE(line, 0u);
  std::size_t seen = 0;
  for (const auto& d : r.diagnostics) {
    if (display_path(r, d.file) == f && d.line == line && d.code == "EL101") {
      EXPECT_EQ(d.column, 12u);  // `auto m = MAKE_MATRIX(3);`: the macro name
      ++seen;
    }
  }
  EXPECT_EQ(seen, 1u);
}

// EL200 points at the operator's token past comments (`a /* lhs */ + b`), in a call by name (`operator+(a,
// b)` pointed at the comma, `a.operator-()` was not reported), and offers the fix there: the withdrawn fix
// said "the source changed" when the token was looked for at the comment.
TEST(RuleFixtureMessages, El200PointsAtTheOperatorTokenAndOffersTheFix) {
  const CheckResult& r = fixture_result();
  const std::string f = "frontend/el200_spelled.cpp";
  std::vector<std::string> lines;
  {
    std::ifstream in(kProject / f);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  std::size_t seen = 0;
  for (const auto& d : r.diagnostics) {
    if (display_path(r, d.file) != f || d.code != "EL200") continue;
    ++seen;
    ASSERT_LE(d.line, lines.size());
    const std::string& text = lines[d.line - 1];
    ASSERT_GE(d.column, 1u);
    const std::string at = text.substr(d.column - 1, d.end_column - d.column);
    EXPECT_TRUE(at == "+" || at == "*" || at == "-" || at == "+=" || at == "and")
        << d.line << ":" << d.column << " '" << at << "'";
    if (text.find("/* first */") == std::string::npos) {
      EXPECT_NE(d.message.find(": use ember::ops::"), std::string::npos) << d.line << ": " << d.message;
      EXPECT_FALSE(d.fix.empty()) << d.line;
    }
    EXPECT_EQ(d.message.find("the source changed"), std::string::npos) << d.message;
  }
  EXPECT_EQ(seen, 9u);
}

TEST(RuleFixtureMessages, El102SaysWhereTheCodeBelongs) {
  const std::string f = "frontend/el102_math.cpp";
  std::string m = message_at(f, line_of(f, "double norm("), "EL102");
  EXPECT_NE(m.find("'ember::ops::norm'"), std::string::npos) << m;
  EXPECT_NE(m.find("it belongs in backends/eigen/math_ops.cpp,"), std::string::npos)
      << "the backend has the file\n"
      << m;
  // The blas backend has no math_ops.cpp: the message names its folder, not a file of ember's layout.
  std::string dot = message_at(f, line_of(f, "double dot("), "EL102");
  EXPECT_NE(dot.find("it belongs in the folder of backend 'blas' (backends/blas/),"), std::string::npos)
      << dot;
}

// A namespace-scope lambda is reported as the variable it initializes.
TEST(RuleFixtureMessages, El102NamesTheVariableOfANamespaceScopeLambda) {
  const std::string f = "frontend/el102_namespace_lambda.cpp";
  std::string m = message_at(f, line_of(f, "auto finish = "), "EL102");
  EXPECT_NE(m.find("'ember::frontend_sync::finish' uses library OpenCL"), std::string::npos) << m;
  EXPECT_NE(m.find("('clFinish' at line " + std::to_string(line_of(f, "return clFinish(queue) ==")) + ")"),
            std::string::npos)
      << m;
}

// A generic lambda instantiated inside <variant> or <functional>: one finding at the lambda's line, however
// many alternatives or paths instantiate it, and none in the library's headers.
TEST(RuleFixtureMessages, El300InALibraryInstantiatedLambdaIsReportedOnceAtTheLambda) {
  const std::string f = "frontend/el3_generic_lambdas.cpp";
  const unsigned visited = line_of(f, "return static_cast<double>(t);"),
                 both = line_of(f, "return double(x);");
  std::map<unsigned, int> count;
  const CheckResult& r = fixture_result();
  for (const auto& d : r.diagnostics) {
    if (d.code != "EL300") continue;
    const std::string file = display_path(r, d.file);
    EXPECT_EQ(file.rfind("frontend/", 0), 0u) << file << ":" << d.line << " " << d.message;
    if (file == f) ++count[d.line];
  }
  EXPECT_EQ(count[visited], 1) << "two alternatives of the variant";
  EXPECT_EQ(count[both], 1) << "reached by std::invoke and std::visit";
  EXPECT_NE(message_at(f, visited, "EL300").find("'ember::Tensor' converted to 'double' by static_cast"),
            std::string::npos);
}

TEST(RuleFixtureMessages, OutputOrderIsTheSameForOneAndManyJobs) {
  CheckOptions o;
  o.paths = {kProject};
  o.jobs = 1;
  CheckResult one = run_check(o, rule_catalog());
  std::ostringstream a, b;
  render_json(a, one, false);
  render_json(b, fixture_result(), false);
  EXPECT_EQ(a.str(), b.str());
}

TEST(RuleFixtureMessages, FullParseFindsTheSameDiagnostics) {
  CheckOptions o;
  o.paths = {kProject};
  o.parse_all_bodies = true;
  CheckResult full = run_check(o, rule_catalog());
  std::ostringstream a, b;
  render_json(a, full, false);
  render_json(b, fixture_result(), false);
  EXPECT_EQ(a.str(), b.str());
}

}  // namespace
