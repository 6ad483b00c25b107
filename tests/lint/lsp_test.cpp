// `emberlint lsp` (issue 20), driven by a scripted client (lsp/client.hpp) over its stdin and stdout: every
// message of a session from initialize to exit, the unsaved text, code actions applied and re-checked, rule
// docs on hover, a header checked through the units that include it, reloads, and bad input answered per the
// protocol. Also the position and URI arithmetic of lsp/document.hpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "lsp/client.hpp"
#include "lsp/document.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;
using emberlint::SourceText;
using namespace emberlint::lsp;
using namespace std::chrono_literals;

namespace {

const fs::path kFixtures = EMBERLINT_FIXTURES;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The fixture project (tests/lint/fixtures/project) copied to a fresh folder, with a file of our own.
class Project {
 public:
  explicit Project(const std::string& name) {
    root_ = fs::temp_directory_path() / ("emberlint-lsp-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    fs::copy(kFixtures / "project", root_, fs::copy_options::recursive);
    root_ = fs::canonical(root_);
  }
  ~Project() { fs::remove_all(root_); }
  const fs::path& root() const { return root_; }
  std::string uri(const std::string& file) const { return path_to_uri(root_ / file); }

 private:
  fs::path root_;
};

const std::string kDemo =
    "#include <ember/tensor.hpp>\n"
    "\n"
    "ember::Tensor twice(const ember::Tensor& a, const ember::Tensor& b) {\n"
    "  ember::Tensor c = a + b;\n"
    "  return c;\n"
    "}\n";

// A client speaking to `emberlint lsp ARGS` started in the project's root, initialized with `capabilities`.
struct Session {
  Session(const Project& project, std::vector<std::string> args = {}, json capabilities = json::object(),
          json init = json::object())
      : client(make_argv(std::move(args)), project.root().string()) {
    int id = client.request("initialize", {{"processId", ::getpid()},
                                           {"rootUri", path_to_uri(project.root())},
                                           {"capabilities", capabilities},
                                           {"initializationOptions", init}});
    auto r = client.response(id);
    if (!r) throw std::runtime_error("no answer to initialize");
    initialize = *r;
    client.notify("initialized", json::object());
  }
  static std::vector<std::string> make_argv(std::vector<std::string> args) {
    std::vector<std::string> argv = {EMBERLINT_EXE, "lsp", "--no-cache", "--debounce-ms", "20"};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
  json open(const std::string& uri, const std::string& text, int version = 1) {
    client.notify(
        "textDocument/didOpen",
        {{"textDocument", {{"uri", uri}, {"languageId", "cpp"}, {"version", version}, {"text", text}}}});
    auto d = client.diagnostics(uri);
    if (!d) throw std::runtime_error("no diagnostics for " + uri);
    return (*d)["params"];
  }
  json call(const std::string& method, json params) {
    int id = client.request(method, std::move(params));
    auto r = client.response(id);
    if (!r) throw std::runtime_error("no answer to " + method);
    return *r;
  }
  int shutdown_and_exit() {
    json r = call("shutdown", nullptr);
    EXPECT_TRUE(r.contains("result") && r["result"].is_null()) << r.dump();
    client.notify("exit", nullptr);
    return client.finish().value_or(-1);
  }
  Client client;
  json initialize;
};

std::vector<std::string> codes(const json& params) {
  std::vector<std::string> out;
  for (const auto& d : params["diagnostics"]) out.push_back(d.value("code", ""));
  return out;
}

// Applies LSP text edits (non-overlapping, any order) to a text, in UTF-16 positions.
std::string apply_edits(std::string text, json edits) {
  std::sort(edits.begin(), edits.end(), [&](const json& a, const json& b) {
    return offset_of(text, position_from_json(a["range"]["start"]), PositionEncoding::utf16) >
           offset_of(text, position_from_json(b["range"]["start"]), PositionEncoding::utf16);
  });
  for (const auto& e : edits)
    apply_change(text, {{"range", e["range"]}, {"text", e["newText"]}}, PositionEncoding::utf16);
  return text;
}

TEST(LspDocument, PositionsCountUtf16UnitsAndClamp) {
  // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" (U+1D11E) 4 bytes and 2 units (a surrogate pair).
  const std::string text =
      "a\xC3\xA9"
      "b\n\xF0\x9D\x84\x9E"
      "x\r\nlast";
  EXPECT_EQ(offset_of(text, {0, 2}, PositionEncoding::utf16), 3u);  // after é
  EXPECT_EQ(offset_of(text, {0, 2}, PositionEncoding::utf8), 2u);   // inside é's bytes, as UTF-8 counts
  EXPECT_EQ(offset_of(text, {1, 2}, PositionEncoding::utf16), 9u);  // after 𝄞
  EXPECT_EQ(offset_of(text, {1, 1}, PositionEncoding::utf32), 9u);
  EXPECT_EQ(offset_of(text, {1, 99}, PositionEncoding::utf16), 10u);  // clamped before \r\n
  EXPECT_EQ(offset_of(text, {9, 0}, PositionEncoding::utf16), text.size());
  Position p = position_of(SourceText(text), 10, PositionEncoding::utf16);
  EXPECT_EQ(p.line, 1u);
  EXPECT_EQ(p.character, 3u);
  EXPECT_EQ(position_of(SourceText(text), 10, PositionEncoding::utf8).character, 5u);
  std::string edited = text;
  apply_change(edited, {{"range", range_json({1, 0}, {1, 2})}, {"text", "y"}}, PositionEncoding::utf16);
  EXPECT_EQ(edited,
            "a\xC3\xA9"
            "b\nyx\r\nlast");
  apply_change(edited, {{"text", "whole"}}, PositionEncoding::utf16);
  EXPECT_EQ(edited, "whole");
  EXPECT_THROW(apply_change(edited, {{"range", "nowhere"}, {"text", ""}}, PositionEncoding::utf16),
               json::exception);
}

TEST(LspDocument, UrisRoundTripAndRejectOtherSchemes) {
  EXPECT_EQ(path_to_uri("/tmp/a b/c#1.cpp"), "file:///tmp/a%20b/c%231.cpp");
  EXPECT_EQ(uri_to_path("file:///tmp/a%20b/c%231.cpp"), fs::path("/tmp/a b/c#1.cpp"));
  EXPECT_EQ(uri_to_path("file://localhost/x/../y.h"), fs::path("/y.h"));
  EXPECT_FALSE(uri_to_path("untitled:Untitled-1"));
  EXPECT_FALSE(uri_to_path("file://otherhost/x.cpp"));
  EXPECT_FALSE(uri_to_path("file:///bad%zz"));
}

// The whole session of an editor: open (unsaved text), hover, code action, the edit applied and re-checked,
// save, a suppression added through its action, shutdown and exit.
TEST(Lsp, ASessionFromInitializeToExit) {
  Project project("session");
  write(project.root() / "frontend/demo.cpp", kDemo);
  Session s(project, {}, {{"workspace", {{"workspaceEdit", {{"documentChanges", true}}}}}});
  const json caps = s.initialize["result"]["capabilities"];
  EXPECT_EQ(caps["positionEncoding"], "utf-16");
  EXPECT_EQ(caps["textDocumentSync"]["change"], 2);
  EXPECT_EQ(caps["textDocumentSync"]["openClose"], true);
  EXPECT_EQ(caps["hoverProvider"], true);
  EXPECT_EQ(caps["codeActionProvider"]["codeActionKinds"], json::array({"quickfix"}));
  EXPECT_EQ(s.initialize["result"]["serverInfo"]["name"], "emberlint");

  const std::string uri = project.uri("frontend/demo.cpp");
  // A request sent while the file's first check runs is answered at once, before the diagnostics: checks
  // never hold up the editor.
  s.client.notify("textDocument/didOpen",
                  {{"textDocument", {{"uri", uri}, {"languageId", "cpp"}, {"version", 1}, {"text", kDemo}}}});
  const int during = s.client.request("textDocument/hover", {{"textDocument", {{"uri", uri}}},
                                                             {"position", {{"line", 3}, {"character", 22}}}});
  auto first = s.client.wait_for([&](const json& m) {
    return (m.contains("id") && m["id"] == during) ||
           m.value("method", "") == "textDocument/publishDiagnostics";
  });
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["id"], during) << "the diagnostics came before the answer: " << first->dump();
  EXPECT_TRUE((*first)["result"].is_null());  // nothing checked yet
  auto opened = s.client.diagnostics(uri);
  ASSERT_TRUE(opened);
  json published = (*opened)["params"];
  ASSERT_EQ(codes(published), std::vector<std::string>{"EL200"}) << published.dump();
  const json diag = published["diagnostics"][0];
  EXPECT_EQ(diag["range"]["start"], json({{"line", 3}, {"character", 22}})) << diag.dump();
  EXPECT_EQ(diag["range"]["end"], json({{"line", 3}, {"character", 23}})) << diag.dump();
  EXPECT_EQ(diag["severity"], 2);
  EXPECT_EQ(diag["source"], "emberlint");
  EXPECT_EQ(published["version"], 1);

  // Hover: the finding and its rule's documentation.
  json hover = s.call("textDocument/hover",
                      {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 3}, {"character", 22}}}});
  const std::string markdown = hover["result"]["contents"]["value"];
  EXPECT_EQ(hover["result"]["contents"]["kind"], "markdown");
  EXPECT_NE(markdown.find("**EL200 tensor-operator**"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("## Why"), std::string::npos) << markdown;  // the rule's doc
  json nothing = s.call("textDocument/hover",
                        {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 0}, {"character", 0}}}});
  EXPECT_TRUE(nothing["result"].is_null()) << nothing.dump();

  // Code actions: the fix first (preferred), then the suppression.
  json actions =
      s.call("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                         {"range", diag["range"]},
                                         {"context", {{"diagnostics", json::array({diag})}}}})["result"];
  ASSERT_EQ(actions.size(), 2u) << actions.dump();
  EXPECT_EQ(actions[0]["kind"], "quickfix");
  EXPECT_EQ(actions[0]["isPreferred"], true);
  EXPECT_EQ(actions[0]["title"], "Fix EL200: replace with `ember::ops::add(a, b)`") << actions.dump();
  const json change = actions[0]["edit"]["documentChanges"][0];
  EXPECT_EQ(change["textDocument"], json({{"uri", uri}, {"version", 1}}));
  EXPECT_EQ(actions[1]["title"], "Suppress EL200 on this line (with a reason)");
  // The cursor on an operand the fix rewrites (not on the operator) offers the same actions.
  json at_operand = s.call("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                                       {"range", range_json({3, 20}, {3, 20})},
                                                       {"context", json::object()}})["result"];
  EXPECT_EQ(at_operand, actions);

  // The client applies the edit and sends it as an incremental change: the finding is gone.
  const std::string fixed = apply_edits(kDemo, change["edits"]);
  EXPECT_NE(fixed.find("ember::Tensor c = ember::ops::add(a, b);"), std::string::npos) << fixed;
  json changes = json::array();
  for (const auto& e : change["edits"]) changes.push_back({{"range", e["range"]}, {"text", e["newText"]}});
  s.client.notify("textDocument/didChange",
                  {{"textDocument", {{"uri", uri}, {"version", 2}}}, {"contentChanges", changes}});
  auto after = s.client.diagnostics(uri);
  ASSERT_TRUE(after);
  EXPECT_EQ((*after)["params"]["version"], 2);
  EXPECT_TRUE((*after)["params"]["diagnostics"].empty()) << after->dump();
  // The first check parsed the unit; the edit reparsed it, reusing its preamble (lint/parse/parse.hpp's
  // WarmUnits).
  std::vector<std::string> costs;
  for (const auto& m : s.client.pending()) {
    const std::string text = m["params"].value("message", "");
    if (m.value("method", "") == "window/logMessage" && text.find(" checked in ") != std::string::npos)
      costs.push_back(text.substr(text.rfind(": ") + 2));
  }
  ASSERT_EQ(costs.size(), 2u);
  EXPECT_EQ(costs[0], "0 unit(s) reparsed, 1 parsed");
  EXPECT_EQ(costs[1], "1 unit(s) reparsed, 0 parsed");
  // Stale or absent findings offer nothing.
  EXPECT_TRUE(s.call("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                                 {"range", diag["range"]},
                                                 {"context", json::object()}})["result"]
                  .empty());

  // Saved to disk: checked again from the file, still clean.
  write(project.root() / "frontend/demo.cpp", fixed);
  s.client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
  auto saved = s.client.diagnostics(uri);
  ASSERT_TRUE(saved);
  EXPECT_TRUE((*saved)["params"]["diagnostics"].empty());

  // Back to the operator, then suppressed through the action: no finding, and no EL001 either.
  s.client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 3}}},
                                             {"contentChanges", json::array({{{"text", kDemo}}})}});
  auto again = s.client.diagnostics(uri);
  ASSERT_TRUE(again);
  ASSERT_EQ(codes((*again)["params"]), std::vector<std::string>{"EL200"});
  actions = s.call("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                               {"range", (*again)["params"]["diagnostics"][0]["range"]},
                                               {"context", json::object()}})["result"];
  ASSERT_EQ(actions.size(), 2u);
  const json edits = actions[1]["edit"]["documentChanges"][0]["edits"];
  const std::string suppressed = apply_edits(kDemo, edits);
  EXPECT_NE(suppressed.find(
                "ember::Tensor c = a + b;  // emberlint: ignore[EL200] TODO: say why this is fine here\n"),
            std::string::npos)
      << suppressed;
  s.client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 4}}},
                                             {"contentChanges", json::array({{{"text", suppressed}}})}});
  auto quiet = s.client.diagnostics(uri);
  ASSERT_TRUE(quiet);
  EXPECT_TRUE((*quiet)["params"]["diagnostics"].empty()) << quiet->dump();

  // Closing clears the file's findings.
  s.client.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  auto closed = s.client.diagnostics(uri);
  ASSERT_TRUE(closed);
  EXPECT_TRUE((*closed)["params"]["diagnostics"].empty());
  EXPECT_EQ(s.shutdown_and_exit(), 0);
}

// The editor's text is what is checked, not the file's: a finding only in the buffer is reported, one only
// on disk is not.
TEST(Lsp, TheUnsavedTextIsChecked) {
  Project project("unsaved");
  write(project.root() / "frontend/demo.cpp", kDemo);
  Session s(project);
  std::string clean = kDemo;
  clean.replace(clean.find("a + b"), 5, "ember::ops::add(a, b)");
  json published = s.open(project.uri("frontend/demo.cpp"), clean);
  EXPECT_TRUE(published["diagnostics"].empty()) << published.dump();
  write(project.root() / "frontend/other.cpp", clean);
  published = s.open(project.uri("frontend/other.cpp"), kDemo);
  EXPECT_EQ(codes(published), std::vector<std::string>{"EL200"});
  EXPECT_EQ(s.shutdown_and_exit(), 0);
}

// A file that closes a scope its included header opened (a Boost.Test suite begun in a setup header) cannot
// be parsed through a precompiled preamble: the server parses it whole, remembers that, and reparses the
// whole unit on each edit instead of building the preamble again (lint/parse/parse.hpp's WarmUnits).
TEST(Lsp, AFileClosingAScopeItsHeaderOpenedIsReparsedWhole) {
  Project project("scope");
  write(project.root() / "frontend/suite.hpp",
        "#pragma once\n#include <ember/tensor.hpp>\nnamespace suite {\n");
  const std::string text = "#include \"suite.hpp\"\n\n" + kDemo.substr(kDemo.find("ember::Tensor twice")) +
                           "\n}  // namespace suite\n";
  write(project.root() / "frontend/suite.cpp", text);
  Session s(project);
  const std::string uri = project.uri("frontend/suite.cpp");
  json published = s.open(uri, text);
  EXPECT_EQ(codes(published), std::vector<std::string>{"EL200"}) << published.dump();
  s.client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 2}}},
                                             {"contentChanges", json::array({{{"text", text + "\n"}}})}});
  auto edited = s.client.diagnostics(uri);
  ASSERT_TRUE(edited);
  EXPECT_EQ(codes((*edited)["params"]), std::vector<std::string>{"EL200"}) << edited->dump();
  std::vector<std::string> costs;
  for (const auto& m : s.client.pending()) {
    const std::string message = m["params"].value("message", "");
    if (m.value("method", "") == "window/logMessage" && message.find(" checked in ") != std::string::npos)
      costs.push_back(message.substr(message.rfind(": ") + 2));
  }
  // First the preamble parse and the whole one; then the whole unit, reparsed.
  EXPECT_EQ(costs,
            (std::vector<std::string>{"0 unit(s) reparsed, 2 parsed", "1 unit(s) reparsed, 0 parsed"}));
  EXPECT_EQ(s.shutdown_and_exit(), 0);
}

// `emberlint check --statistics --format json FILE` in the project with a cache: the report.
json check_json(const Project& project, const std::string& file, const fs::path& cache) {
  const fs::path report = project.root() / "report.json";
  const std::string cmd = "cd '" + project.root().string() +
                          "' && '" EMBERLINT_EXE "' check --statistics --format json --cache-dir '" +
                          cache.string() + "' -o '" + report.string() + "' " + file + " >/dev/null 2>&1";
  EXPECT_NE(std::system(cmd.c_str()), -1);
  return json::parse(read(report), nullptr, false);
}

// The server and the command line share the result cache: a file the editor has open unchanged is a hit for
// `check`, and a buffer that differs from the file (even at the same size) is never taken for it.
TEST(Lsp, TheCacheIsSharedAndABufferIsNeverTakenForTheFile) {
  Project project("cache");
  const fs::path cache = project.root() / "cache";
  write(project.root() / "frontend/demo.cpp", kDemo);
  write(project.root() / "frontend/other.cpp", kDemo);
  std::string swapped = kDemo;
  swapped.replace(swapped.find("a + b;"), 6, "b+a  ;");  // the same size: only the content tells them apart
  ASSERT_EQ(swapped.size(), kDemo.size());
  {
    Client client({EMBERLINT_EXE, "lsp", "--cache-dir", cache.string(), "--debounce-ms", "20"},
                  project.root().string());
    const int id = client.request(
        "initialize", {{"rootUri", path_to_uri(project.root())}, {"capabilities", json::object()}});
    ASSERT_TRUE(client.response(id));
    client.notify("initialized", json::object());
    for (const auto& [file, text] :
         {std::pair<std::string, std::string>{"frontend/demo.cpp", kDemo}, {"frontend/other.cpp", swapped}}) {
      client.notify("textDocument/didOpen",
                    {{"textDocument",
                      {{"uri", project.uri(file)}, {"languageId", "cpp"}, {"version", 1}, {"text", text}}}});
      auto d = client.diagnostics(project.uri(file));
      ASSERT_TRUE(d);
      ASSERT_EQ(codes((*d)["params"]), std::vector<std::string>{"EL200"});
      // The buffer's `+` (one column left of the file's in other.cpp's `b+a`).
      EXPECT_EQ((*d)["params"]["diagnostics"][0]["range"]["start"]["character"],
                file == "frontend/demo.cpp" ? 22 : 21);
    }
    client.request("shutdown", nullptr);
    client.notify("exit", nullptr);
    EXPECT_EQ(client.finish(), 0);
  }
  json same = check_json(project, "frontend/demo.cpp", cache);
  EXPECT_EQ(same["statistics"]["cache"], json({{"hits", 1}, {"misses", 0}})) << same.dump();
  json differs = check_json(project, "frontend/other.cpp", cache);
  EXPECT_EQ(differs["statistics"]["cache"], json({{"hits", 0}, {"misses", 1}})) << differs.dump();
  ASSERT_EQ(differs["diagnostics"].size(), 1u);
  EXPECT_EQ(differs["diagnostics"][0]["column"], 23);  // the file's `a + b`, not the buffer's `b+a`
}

// With a compile database: a header's findings come from the units that include it, on the header's unsaved
// text; positions in UTF-8 when the client offers it.
TEST(Lsp, AHeaderIsCheckedThroughTheUnitsThatIncludeIt) {
  Project project("header");
  const std::string header =
      "#pragma once\n"
      "#include <ember/tensor.hpp>\n"
      "// \xC3\xA9t\xC3\xA9\n"
      "inline ember::Tensor sum(const ember::Tensor& a, const ember::Tensor& b) { /* \xC3\xA9 */ return a + "
      "b; }\n";
  write(project.root() / "frontend/include/ember/inline_sum.hpp",
        "#pragma once\n#include <ember/tensor.hpp>\n");
  write(project.root() / "frontend/user.cpp", "#include <ember/inline_sum.hpp>\nint main() { return 0; }\n");
  const json db = json::array(
      {{{"directory", project.root().string()},
        {"file", "frontend/user.cpp"},
        {"arguments",
         {"c++", "-std=c++20", "-isystem", "vendor", "-Ifrontend/include", "-c", "frontend/user.cpp"}}}});
  write(project.root() / "build/compile_commands.json", db.dump());
  Session s(project, {}, {{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}});
  EXPECT_EQ(s.initialize["result"]["capabilities"]["positionEncoding"], "utf-8");
  json published = s.open(project.uri("frontend/include/ember/inline_sum.hpp"), header);
  ASSERT_EQ(codes(published), std::vector<std::string>{"EL200"}) << published.dump();
  // The `+` of `return a + b;` on line 3, after "/* é */ " (é: 2 bytes in UTF-8).
  const std::size_t column = std::string(header.substr(header.find("inline"))).find("+ b");
  EXPECT_EQ(published["diagnostics"][0]["range"]["start"], json({{"line", 3}, {"character", column}}));
  EXPECT_EQ(s.shutdown_and_exit(), 0);
}

// A header that many units include is checked through a few of them (--header-units, default 2): the
// source named after it, then its direct includers in path order. Which units ran shows in an include that
// only one unit's macros enable.
TEST(Lsp, AHeaderIncludedByManyUnitsIsCheckedThroughAFew) {
  Project project("many");
  const std::string header =
      "#pragma once\n#include <ember/tensor.hpp>\n#ifdef ONLY_Z\n#include <cblas.h>\n#endif\n";
  write(project.root() / "frontend/include/ember/shared.hpp", header);
  json db = json::array();
  for (const auto& [unit, define] : {std::pair<std::string, std::string>{"frontend/alpha.cpp", "-DONLY_A"},
                                     {"frontend/shared.cpp", "-DNOTHING"},
                                     {"frontend/zeta.cpp", "-DONLY_Z"},
                                     {"frontend/indirect.cpp", "-DNOTHING_EITHER"}}) {
    write(project.root() / unit,
          unit == "frontend/indirect.cpp" ? "#include <ember/via.hpp>\n" : "#include <ember/shared.hpp>\n");
    db.push_back({{"directory", project.root().string()},
                  {"file", unit},
                  {"arguments",
                   {"c++", "-std=c++20", define, "-isystem", "vendor", "-Ifrontend/include", "-c", unit}}});
  }
  write(project.root() / "frontend/include/ember/via.hpp", "#pragma once\n#include <ember/shared.hpp>\n");
  write(project.root() / "build/compile_commands.json", db.dump());
  const std::string uri = project.uri("frontend/include/ember/shared.hpp");
  {
    // shared.cpp (its name) and alpha.cpp (a direct includer, first by path): zeta.cpp's ONLY_Z is not seen.
    Session s(project);
    EXPECT_TRUE(s.open(uri, header)["diagnostics"].empty());
    EXPECT_EQ(s.shutdown_and_exit(), 0);
  }
  {
    // Three: zeta.cpp, the next direct includer, before indirect.cpp, which reaches it through via.hpp.
    Session s(project, {"--header-units", "3"});
    EXPECT_EQ(codes(s.open(uri, header)), std::vector<std::string>{"EL100"});
    EXPECT_EQ(s.shutdown_and_exit(), 0);
  }
  {
    Session s(project, {}, json::object(), {{"headerUnits", 0}});  // every unit
    EXPECT_EQ(codes(s.open(uri, header)), std::vector<std::string>{"EL100"});
    EXPECT_EQ(s.shutdown_and_exit(), 0);
  }
}

// The config and the compile database are read again when the client says they changed.
TEST(Lsp, AChangedConfigIsReloaded) {
  Project project("reload");
  Session s(project, {}, {{"workspace", {{"didChangeWatchedFiles", {{"dynamicRegistration", true}}}}}});
  // A client that lets servers register watchers is asked to watch the config and the database.
  auto registration =
      s.client.wait_for([](const json& m) { return m.value("method", "") == "client/registerCapability"; });
  ASSERT_TRUE(registration);
  const json reg = (*registration)["params"]["registrations"][0];
  EXPECT_EQ(reg["method"], "workspace/didChangeWatchedFiles");
  EXPECT_EQ(
      reg["registerOptions"]["watchers"],
      json::parse(R"([{"globPattern": "**/.emberlint.json"}, {"globPattern": "**/compile_commands.json"}])"));
  const std::string answer =
      json({{"jsonrpc", "2.0"}, {"id", (*registration)["id"]}, {"result", nullptr}}).dump();
  s.client.send_raw("Content-Length: " + std::to_string(answer.size()) + "\r\n\r\n" +
                    answer);  // the client's reply
  const std::string uri = project.uri("frontend/demo.cpp");
  write(project.root() / "frontend/demo.cpp", kDemo);
  ASSERT_EQ(codes(s.open(uri, kDemo)), std::vector<std::string>{"EL200"});
  json config = json::parse(read(project.root() / ".emberlint.json"), nullptr, true, true);
  config["rules"]["EL200"]["severity"] = "off";
  write(project.root() / ".emberlint.json", config.dump(2));
  s.client.notify("workspace/didChangeWatchedFiles",
                  {{"changes", json::array({{{"uri", project.uri(".emberlint.json")}, {"type", 2}}})}});
  auto after = s.client.diagnostics(uri);
  ASSERT_TRUE(after);
  EXPECT_TRUE((*after)["params"]["diagnostics"].empty()) << after->dump();
  // A broken config is shown to the user, and the server goes on.
  write(project.root() / ".emberlint.json", "{\"layers\": ");
  s.client.notify("workspace/didChangeWatchedFiles",
                  {{"changes", json::array({{{"uri", project.uri(".emberlint.json")}, {"type", 2}}})}});
  auto shown = s.client.wait_for([](const json& m) {
    return m.value("method", "") == "window/showMessage" && m["params"]["type"] == 1;
  });
  ASSERT_TRUE(shown);
  EXPECT_EQ((*shown)["params"]["type"], 1);
  EXPECT_NE((*shown)["params"]["message"].get<std::string>().find(".emberlint.json"), std::string::npos)
      << shown->dump();
  EXPECT_EQ(s.shutdown_and_exit(), 0);
}

// Bad input, each answered per the protocol with a message, and the server still serves afterwards.
TEST(Lsp, BadInputIsAnsweredAndTheServerGoesOn) {
  Project project("bad");
  {
    // Before initialize: requests are refused, and exit without shutdown is status 1.
    Client early({EMBERLINT_EXE, "lsp", "--no-cache"}, project.root().string());
    int id = early.request("textDocument/hover", json::object());
    auto r = early.response(id);
    ASSERT_TRUE(r);
    EXPECT_EQ((*r)["error"]["code"], -32002);
    early.notify("exit", nullptr);
    EXPECT_EQ(early.finish(), 1);
  }
  Session s(project, {"-p", (project.root() / "nowhere").string()});
  auto error_of = [&](const json& m) { return m.contains("error") ? m["error"]["code"].get<int>() : 0; };
  auto next_error = [&]() {
    auto m = s.client.wait_for([](const json& x) { return x.contains("error"); });
    return m ? *m : json();
  };
  s.client.send_raw("Content-Length: 9\r\n\r\n{\"jsonrpc");
  json e = next_error();
  EXPECT_EQ(error_of(e), -32700);
  EXPECT_TRUE(e["id"].is_null());
  s.client.send_raw("Content-Type: text/plain\r\n\r\n");
  EXPECT_EQ(error_of(next_error()), -32700);
  s.client.send_raw("Content-Length: 2\r\n\r\n[]");
  EXPECT_EQ(error_of(next_error()), -32600);
  EXPECT_EQ(error_of(s.call("no/suchMethod", json::object())), -32601);
  json outside = s.call("textDocument/hover", {{"textDocument", {{"uri", "file:///usr/include/stdio.h"}}},
                                               {"position", {{"line", 0}, {"character", 0}}}});
  EXPECT_EQ(error_of(outside), -32803);
  EXPECT_NE(outside["error"]["message"].get<std::string>().find("outside the workspace"), std::string::npos);
  json malformed =
      s.call("textDocument/hover", {{"textDocument", {{"uri", project.uri("x.cpp")}}}, {"position", "here"}});
  EXPECT_EQ(error_of(malformed), -32602);
  EXPECT_NE(malformed["error"]["message"].get<std::string>().find("malformed parameters"), std::string::npos);
  s.client.notify("no/suchNotification", json::object());
  // Cancelling a request already answered (every request is answered as it arrives) changes nothing.
  s.client.notify("$/cancelRequest", {{"id", 1}});
  // A file outside the workspace is not checked, and the user is told once.
  s.client.notify(
      "textDocument/didOpen",
      {{"textDocument",
        {{"uri", "file:///usr/include/stdio.h"}, {"languageId", "c"}, {"version", 1}, {"text", ""}}}});
  auto told = s.client.wait_for([](const json& m) { return m.value("method", "") == "window/showMessage"; });
  ASSERT_TRUE(told);
  EXPECT_NE((*told)["params"]["message"].get<std::string>().find("outside the workspace"), std::string::npos)
      << told->dump();
  s.client.notify("textDocument/didChange", {{"textDocument", {{"uri", project.uri("never-opened.cpp")}}}});
  // A missing compile database is said once, and the file is checked with the config's flags.
  write(project.root() / "frontend/demo.cpp", kDemo);
  json published = s.open(project.uri("frontend/demo.cpp"), kDemo);
  EXPECT_EQ(codes(published), std::vector<std::string>{"EL200"});
  bool said = false;
  for (const auto& m : s.client.pending()) {
    if (m.value("method", "") == "window/showMessage")
      said = said || m["params"]["message"].get<std::string>().find("has no compile_commands.json") !=
                         std::string::npos;
  }
  EXPECT_TRUE(said);
  // Still serving.
  json hover = s.call("textDocument/hover", {{"textDocument", {{"uri", project.uri("frontend/demo.cpp")}}},
                                             {"position", {{"line", 3}, {"character", 22}}}});
  EXPECT_TRUE(hover["result"].is_object()) << hover.dump();
  EXPECT_EQ(s.shutdown_and_exit(), 0);
}

}  // namespace
