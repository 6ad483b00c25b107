#include "lsp/server.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "lint/compile/compile_db.hpp"
#include "lint/project/config.hpp"
#include "lint/support/glob.hpp"
#include "lint/parse/parse.hpp"
#include "lint/run/runner.hpp"
#include "lint/support/source_text.hpp"
#include "lint/findings/suppressions.hpp"
#include "lint/version.hpp"
#include "lsp/document.hpp"
#include "lsp/jsonrpc.hpp"

namespace emberlint::lsp {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

// The protocol's MessageType and DiagnosticSeverity.
constexpr int kMessageError = 1, kMessageWarning = 2, kMessageInfo = 3, kMessageLog = 4;

int lsp_severity(Severity s) {
  switch (s) {
    case Severity::error:
      return 1;
    case Severity::warning:
      return 2;
    default:
      return 3;
  }
}

bool is_under(const fs::path& file, const fs::path& folder) {
  return file == folder || !relative_to(file, folder).empty();
}

// A file the server checks: C, C++, Objective-C(++) and CUDA sources and headers.
bool checkable(const fs::path& path, const std::string& language) {
  static const std::set<std::string> languages = {"c",    "cpp",     "objective-c", "objective-cpp",
                                                  "cuda", "cuda-cpp"};
  return languages.count(language) || is_source_path(path) || is_header_path(path);
}

// Why a request's file cannot be served, or empty.
struct FileProblem {
  int code = 0;
  std::string message;
};

struct Document {
  fs::path path;  // absolute, normalized
  std::string text;
  long long version = 0;
  bool checked = false;  // a C/C++ file inside the workspace
};

// One diagnostic as published, with what code actions and hovers need.
struct Published {
  Diagnostic diagnostic;
  Position start, end;
  Position span_start, span_end;  // the range and what its fix replaces in the file: where actions apply
  json lsp;                       // the protocol's Diagnostic
};

// The last check of a document: the version and text it saw, and what it found there.
struct Checked {
  long long version = 0;
  std::string text;
  std::vector<Published> diagnostics;
};

class Server {
 public:
  Server(int out, const ServerOptions& options, const RuleCatalog& rules)
      : out_(out), options_(options), rules_(rules), driver_(std::make_shared<DriverQuery>()) {}

  int run(int in);

 private:
  // ---- messages
  void send(const json& message) {
    std::lock_guard lock(write_mutex_);
    write_message(out_, message);
  }
  void show(int type, const std::string& message) {
    send(notification("window/showMessage", {{"type", type}, {"message", "emberlint: " + message}}));
  }
  void log(int type, const std::string& message) {
    send(notification("window/logMessage", {{"type", type}, {"message", "emberlint: " + message}}));
  }
  // Whether `key` is new since the workspace's config or database last changed (reload()).
  bool first_time(const std::string& key) {
    std::lock_guard lock(mutex_);
    return shown_.insert(key).second;
  }
  // Shows a message once until then.
  void show_once(int type, const std::string& message) {
    if (first_time(message)) show(type, message);
  }

  void handle(const json& message);
  json handle_request(const std::string& method, const json& params);
  void handle_notification(const std::string& method, const json& params);

  // ---- requests
  json initialize(const json& params);
  json code_action(const json& params);
  json hover(const json& params);

  // ---- documents and checks
  // The document's path, or the problem that keeps a request for it from being served.
  fs::path served_path(const std::string& uri, FileProblem& problem) const;
  void open(const json& params);
  void change(const json& params);
  void close(const json& params);
  void saved(const json& params);
  void reload(const std::string& why);
  void schedule(const std::string& uri, Clock::duration delay);  // with mutex_ held
  void worker();
  std::vector<Published> check(const fs::path& file, const std::string& text,
                               std::shared_ptr<const Overlays> overlays);
  void publish(const std::string& uri, long long version, const std::vector<Published>& diagnostics);
  std::optional<fs::path> find_build_dir() const;
  json edit_for(const std::string& uri, long long version, const std::string& text,
                const std::vector<Replacement>& fix) const;

  int out_;
  ServerOptions options_;
  const RuleCatalog& rules_;
  std::mutex write_mutex_;

  // What the client said at initialize.
  bool initialized_ = false, shut_down_ = false;
  PositionEncoding encoding_ = PositionEncoding::utf16;
  bool document_changes_ = false;  // WorkspaceEdit.documentChanges (versioned edits)
  bool watch_dynamically_ = false;
  fs::path root_;
  std::optional<fs::path> requested_build_dir_;  // -p or initializationOptions.buildDir

  // Shared with the worker, under mutex_.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Document> documents_;  // by URI
  std::map<std::string, Clock::time_point> due_;
  std::map<std::string, Checked> checked_;
  std::set<std::string> shown_;
  std::optional<fs::path> build_dir_;
  std::shared_ptr<DriverQuery> driver_;
  std::shared_ptr<WarmUnits> warm_ = std::make_shared<WarmUnits>();
  bool stopping_ = false, busy_ = false;
  std::thread worker_;
};

int Server::run(int in) {
  FrameReader reader(in);
  worker_ = std::thread([this] { worker(); });
  int status = 1;
  for (;;) {
    Frame frame = reader.next();
    if (frame.status == Frame::Status::end_of_input || frame.status == Frame::Status::timed_out) break;
    if (frame.status == Frame::Status::bad_header) {
      send(error_response(nullptr, error_code::parse_error, "emberlint: malformed message: " + frame.error));
      continue;
    }
    json message;
    try {
      message = json::parse(frame.body);
    } catch (const json::exception& e) {
      send(error_response(nullptr, error_code::parse_error,
                          std::string("emberlint: a message that is not JSON: ") + e.what()));
      continue;
    }
    if (message.is_object() && message.value("method", json()) == "exit") {
      status = shut_down_ ? 0 : 1;
      break;
    }
    handle(message);
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  // A parse under way cannot be interrupted; the editor is not kept waiting for it.
  bool idle = false;
  {
    std::lock_guard lock(mutex_);
    idle = !busy_;
  }
  if (!idle) std::_Exit(status);
  worker_.join();
  return status;
}

void Server::handle(const json& message) {
  const json id = message.is_object() && message.contains("id") ? message["id"] : json();
  const bool has_id = message.is_object() && message.contains("id");
  if (!message.is_object() || message.value("jsonrpc", "") != "2.0" ||
      (has_id && !id.is_string() && !id.is_number_integer()) ||
      (message.contains("method") && !message["method"].is_string())) {
    send(error_response(has_id && (id.is_string() || id.is_number_integer()) ? id : json(),
                        error_code::invalid_request,
                        "emberlint: not a JSON-RPC 2.0 request or notification: " +
                            message.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 200)));
    return;
  }
  if (!message.contains("method")) return;  // a response to one of our requests (registerCapability)
  const std::string method = message["method"];
  const json params = message.value("params", json::object());
  if (!has_id) {
    if (!initialized_ && method != "initialized") return;  // the protocol drops them before initialize
    try {
      handle_notification(method, params);
    } catch (const std::exception& e) {
      log(kMessageError, method + " failed: " + e.what());
    }
    return;
  }
  if (!initialized_ && method != "initialize") {
    send(error_response(id, error_code::server_not_initialized,
                        "emberlint: " + method + " before initialize"));
    return;
  }
  if (shut_down_) {
    send(error_response(id, error_code::invalid_request, "emberlint: " + method + " after shutdown"));
    return;
  }
  // A request that fails answers with an error; the server goes on.
  try {
    send(response(id, handle_request(method, params)));
  } catch (const FileProblem& p) {
    send(error_response(id, p.code, "emberlint: " + p.message));
  } catch (const json::exception& e) {
    send(error_response(id, error_code::invalid_params,
                        "emberlint: " + method + ": malformed parameters: " + e.what()));
  } catch (const std::exception& e) {
    send(error_response(id, error_code::internal_error, "emberlint: " + method + " failed: " + e.what()));
  }
}

json Server::handle_request(const std::string& method, const json& params) {
  if (method == "initialize") {
    if (initialized_) throw FileProblem{error_code::invalid_request, "initialize was sent twice"};
    return initialize(params);
  }
  if (method == "shutdown") {
    shut_down_ = true;
    return nullptr;
  }
  if (method == "textDocument/codeAction") return code_action(params);
  if (method == "textDocument/hover") return hover(params);
  throw FileProblem{error_code::method_not_found, "no method " + method};
}

void Server::handle_notification(const std::string& method, const json& params) {
  if (method == "initialized") {
    if (!watch_dynamically_) return;
    json watchers =
        json::array({{{"globPattern", "**/.emberlint.json"}}, {{"globPattern", "**/compile_commands.json"}}});
    send(request("emberlint-watch", "client/registerCapability",
                 {{"registrations", json::array({{{"id", "emberlint-watch"},
                                                  {"method", "workspace/didChangeWatchedFiles"},
                                                  {"registerOptions", {{"watchers", watchers}}}}})}}));
  } else if (method == "textDocument/didOpen") {
    open(params);
  } else if (method == "textDocument/didChange") {
    change(params);
  } else if (method == "textDocument/didClose") {
    close(params);
  } else if (method == "textDocument/didSave") {
    saved(params);
  } else if (method == "workspace/didChangeWatchedFiles") {
    std::string files;
    for (const auto& c : params.at("changes")) {
      auto p = uri_to_path(c.at("uri").get<std::string>());
      if (p) files += (files.empty() ? "" : ", ") + p->filename().string();
    }
    reload(files + " changed");
  }
  // Anything else ($/cancelRequest, $/setTrace, didChangeConfiguration, ...) needs nothing: every request is
  // answered as it arrives, from the last check, so none is left to cancel.
}

json Server::initialize(const json& params) {
  const json& caps = params.value("capabilities", json::object());
  auto capability = [&](std::initializer_list<const char*> path) -> json {
    const json* at = &caps;
    for (const char* key : path) {
      if (!at->is_object() || !at->contains(key)) return json();
      at = &(*at)[key];
    }
    return *at;
  };
  json encodings = capability({"general", "positionEncodings"});
  if (encodings.is_array()) {
    for (const auto& e : encodings) {
      if (e == "utf-8") {
        encoding_ = PositionEncoding::utf8;
        break;
      }
    }
  }
  document_changes_ = capability({"workspace", "workspaceEdit", "documentChanges"}) == true;
  watch_dynamically_ = capability({"workspace", "didChangeWatchedFiles", "dynamicRegistration"}) == true;

  // The workspace: the first folder, else rootUri, else rootPath, else the current directory.
  std::optional<fs::path> root;
  if (params.contains("workspaceFolders") && params["workspaceFolders"].is_array() &&
      !params["workspaceFolders"].empty())
    root = uri_to_path(params["workspaceFolders"][0].at("uri").get<std::string>());
  if (!root && params.contains("rootUri") && params["rootUri"].is_string())
    root = uri_to_path(params["rootUri"].get<std::string>());
  if (!root && params.contains("rootPath") && params["rootPath"].is_string())
    root = fs::path(params["rootPath"].get<std::string>());
  std::error_code ec;
  root_ = canonical_path(root ? *root : fs::current_path());
  if (!fs::is_directory(root_, ec))
    throw FileProblem{error_code::invalid_params, "the workspace " + root_.string() + " is not a folder"};
  // The engine reads configs and relative paths against the current directory, as `check` run there would.
  fs::current_path(root_, ec);

  const json init = params.value("initializationOptions", json::object());
  if (init.is_object() && init.contains("debounceMs"))
    options_.debounce_ms = init["debounceMs"].get<unsigned>();
  if (init.is_object() && init.contains("headerUnits"))
    options_.header_units = init["headerUnits"].get<unsigned>();
  if (options_.build_dir) {
    requested_build_dir_ = options_.build_dir;
  } else if (init.is_object() && init.contains("buildDir") && init["buildDir"].is_string()) {
    fs::path b = init["buildDir"].get<std::string>();
    requested_build_dir_ = b.is_absolute() ? b : root_ / b;
  }
  build_dir_ = find_build_dir();
  initialized_ = true;

  return {{"capabilities",
           {{"positionEncoding", to_string(encoding_)},
            {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
            {"codeActionProvider", {{"codeActionKinds", json::array({"quickfix"})}}},
            {"hoverProvider", true}}},
          {"serverInfo", {{"name", "emberlint"}, {"version", kVersion}}}};
}

std::optional<fs::path> Server::find_build_dir() const {
  std::error_code ec;
  if (requested_build_dir_) {
    if (fs::is_regular_file(*requested_build_dir_ / "compile_commands.json", ec)) return requested_build_dir_;
    return std::nullopt;  // said when the first file is checked
  }
  std::vector<fs::path> candidates = {root_, root_ / "build"};
  std::vector<fs::path> builds;
  for (fs::directory_iterator it(root_ / "build", ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) builds.push_back(it->path());
  std::sort(builds.begin(), builds.end());
  candidates.insert(candidates.end(), builds.begin(), builds.end());
  for (const auto& c : candidates) {
    if (fs::is_regular_file(c / "compile_commands.json", ec)) return c;
  }
  return std::nullopt;
}

fs::path Server::served_path(const std::string& uri, FileProblem& problem) const {
  auto path = uri_to_path(uri);
  if (!path) {
    problem = {error_code::request_failed, uri + " is not a file: only file:// documents are checked"};
    return {};
  }
  fs::path p = canonical_path(*path);
  if (!is_under(p, root_)) {
    problem = {error_code::request_failed,
               p.string() + " is outside the workspace " + root_.string() + "; it is not checked"};
    return {};
  }
  return p;
}

void Server::schedule(const std::string& uri, Clock::duration delay) {
  due_[uri] = Clock::now() + delay;
  wake_.notify_all();
}

void Server::open(const json& params) {
  const json& item = params.at("textDocument");
  const std::string uri = item.at("uri");
  Document doc;
  doc.text = item.at("text");
  doc.version = item.value("version", 0LL);
  FileProblem problem;
  doc.path = served_path(uri, problem);
  const std::string language = item.value("languageId", "");
  if (!problem.message.empty()) {
    // Editors open files outside the workspace all the time (go to definition): said once, logged each time.
    log(kMessageInfo, problem.message);
    if (auto p = uri_to_path(uri); p && !is_under(canonical_path(*p), root_))
      show_once(kMessageInfo, "files outside the workspace " + root_.string() + " are not checked");
  }
  doc.checked = problem.message.empty() && checkable(doc.path, language);
  std::lock_guard lock(mutex_);
  const bool check = doc.checked;
  documents_[uri] = std::move(doc);
  if (check) schedule(uri, Clock::duration::zero());
}

void Server::change(const json& params) {
  const std::string uri = params.at("textDocument").at("uri");
  std::lock_guard lock(mutex_);
  auto it = documents_.find(uri);
  if (it == documents_.end()) throw std::runtime_error("didChange of " + uri + ", which is not open");
  Document& doc = it->second;
  for (const auto& c : params.at("contentChanges")) apply_change(doc.text, c, encoding_);
  doc.version = params["textDocument"].value("version", doc.version + 1);
  if (doc.checked) schedule(uri, std::chrono::milliseconds(options_.debounce_ms));
}

void Server::close(const json& params) {
  const std::string uri = params.at("textDocument").at("uri");
  std::lock_guard lock(mutex_);
  const bool was_checked = documents_.count(uri) && documents_[uri].checked;
  documents_.erase(uri);
  due_.erase(uri);
  checked_.erase(uri);
  // Its findings leave with it (the file is no longer what the editor shows).
  if (was_checked)
    send(notification("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}}));
}

void Server::saved(const json& params) {
  const std::string uri = params.at("textDocument").at("uri");
  auto path = uri_to_path(uri);
  if (path && (path->filename() == ".emberlint.json" || path->filename() == "compile_commands.json")) {
    reload(path->filename().string() + " saved");
    return;
  }
  // The disk changed: every open file may include it, and the cache sees the new content.
  std::lock_guard lock(mutex_);
  for (const auto& [u, doc] : documents_) {
    if (doc.checked)
      schedule(u, u == uri ? Clock::duration::zero() : std::chrono::milliseconds(options_.debounce_ms));
  }
}

void Server::reload(const std::string& why) {
  auto found = find_build_dir();
  std::lock_guard lock(mutex_);
  build_dir_ = found;
  driver_ = std::make_shared<DriverQuery>();
  warm_ = std::make_shared<WarmUnits>();  // commands may have changed; the old units go with the last run
  shown_.clear();
  for (const auto& [u, doc] : documents_) {
    if (doc.checked) schedule(u, Clock::duration::zero());
  }
  send(notification(
      "window/logMessage",
      {{"type", kMessageInfo}, {"message", "emberlint: " + why + ": config and compile database reloaded"}}));
}

void Server::worker() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stopping_) return;
    auto next = std::min_element(due_.begin(), due_.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    if (next == due_.end()) {
      wake_.wait(lock);
      continue;
    }
    if (next->second > Clock::now()) {
      wake_.wait_until(lock, next->second);
      continue;
    }
    const std::string uri = next->first;
    due_.erase(next);
    auto doc = documents_.find(uri);
    if (doc == documents_.end()) continue;
    const long long version = doc->second.version;
    const std::string text = doc->second.text;
    const fs::path path = doc->second.path;
    auto overlays = std::make_shared<Overlays>();
    for (const auto& [u, d] : documents_) {
      if (!d.path.empty()) (*overlays)[d.path] = d.text;
    }
    busy_ = true;
    lock.unlock();
    std::vector<Published> found;
    bool ok = true;
    try {
      found = check(path, text, std::move(overlays));
    } catch (const std::exception& e) {
      ok = false;
      show_once(kMessageError, e.what());
    }
    lock.lock();
    busy_ = false;
    doc = documents_.find(uri);
    // A newer text is on its way (scheduled again by its change); a closed file publishes nothing.
    if (doc == documents_.end() || doc->second.version != version || !ok) continue;
    checked_[uri] = Checked{version, text, found};
    publish(uri, version, found);
  }
}

std::vector<Published> Server::check(const fs::path& file, const std::string& text,
                                     std::shared_ptr<const Overlays> overlays) {
  std::optional<fs::path> build_dir;
  std::shared_ptr<DriverQuery> driver;
  std::shared_ptr<WarmUnits> warm;
  {
    std::lock_guard lock(mutex_);
    build_dir = build_dir_;
    driver = driver_;
    warm = warm_;
  }
  const auto started = Clock::now();
  if (!build_dir && requested_build_dir_)
    show_once(kMessageWarning,
              requested_build_dir_->string() +
                  " has no compile_commands.json; flags come from .emberlint.json until it does");
  else if (!build_dir)
    show_once(kMessageInfo,
              "no compile_commands.json in " + root_.string() + ", " + (root_ / "build").string() +
                  " or its subfolders; flags come from .emberlint.json (give the build folder as "
                  "initializationOptions.buildDir or `emberlint lsp -p BUILD`)");
  CheckOptions o;
  o.paths = {file};
  o.build_dir = build_dir;
  o.config_file = options_.config_file;
  o.cache_dir = options_.cache_dir;
  o.jobs = options_.jobs;
  o.driver = driver;
  o.warm_units = warm;
  o.units_of = build_dir && is_header_path(file);
  o.units_per_header = options_.header_units;
  set_overlays(std::move(overlays));
  struct Reset {
    ~Reset() { set_overlays(nullptr); }
  } reset;
  CheckResult result = run_check(o, rules_);
  if (o.units_of && result.files_analyzed == 0) {
    // A header no unit of the database includes: checked on its own, as a folder run would.
    o.units_of = false;
    result = run_check(o, rules_);
  }
  // What the config leaves unenforced: one message shown (an editor shows each as a popup), all logged.
  if (!result.warnings.empty()) {
    std::string all;
    for (const auto& w : result.warnings) all += w + "\n";
    if (first_time(all)) {
      for (const auto& w : result.warnings) log(kMessageWarning, w);
      const std::size_t more = result.warnings.size() - 1;
      show(kMessageWarning,
           result.warnings.front() +
               (more ? " (and " + std::to_string(more) + " more such warnings in the log)" : ""));
    }
  }
  for (const auto& n : result.notes) log(kMessageLog, n);
  // What the check cost, for a user who wonders about latency: units reparsed (their preamble reused),
  // parsed anew, and taken from the result cache.
  auto [reparsed, parsed] = warm->take_counts();
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f",
                std::chrono::duration<double>(Clock::now() - started).count());
  std::string cost = relative_to(file, root_) + " checked in " + seconds + " s: " + std::to_string(reparsed) +
                     " unit(s) reparsed, " + std::to_string(parsed) + " parsed";
  if (result.cache) cost += ", " + std::to_string(result.cache->hits) + " from the cache";
  log(kMessageLog, cost);

  const SourceText source(text);
  std::vector<Published> out;
  auto add = [&](Diagnostic d, std::size_t begin, std::size_t end) {
    Published p;
    p.start = position_of(source, begin, encoding_);
    p.end = position_of(source, std::max(begin, end), encoding_);
    std::size_t span_begin = begin, span_end = std::max(begin, end);
    for (const auto& r : d.fix) {
      if (r.file != file) continue;
      span_begin = std::min(span_begin, r.offset);
      span_end = std::max(span_end, r.offset + r.length);
    }
    p.span_start = position_of(source, span_begin, encoding_);
    p.span_end = position_of(source, span_end, encoding_);
    const std::string& message = d.message;  // a group's says how many uses, and where
    p.lsp = {{"range", range_json(p.start, p.end)},
             {"severity", lsp_severity(d.severity)},
             {"source", "emberlint"},
             {"message", sanitize_utf8(message)}};
    if (!d.code.empty()) p.lsp["code"] = d.code;
    p.diagnostic = std::move(d);
    out.push_back(std::move(p));
  };
  for (auto& d : result.diagnostics) {
    if (d.file != file) continue;
    std::size_t begin = source.offset(d.line, d.column);
    std::size_t end = d.end_line ? source.offset(d.end_line, d.end_column) : begin;
    add(std::move(d), begin, end);
  }
  // A unit that could not be analyzed says so where the editor shows it; a partial one only when the config
  // does not expect its errors (the compiler's own diagnostics are the editor's C++ server's to show).
  for (const auto* failures : {&result.failures, &result.partial}) {
    for (const Failure& f : *failures) {
      if (f.file != file || (f.partial && f.expected)) continue;
      Diagnostic d;
      d.file = file;
      d.severity = f.partial ? Severity::info : Severity::warning;
      d.message = std::string(f.partial ? "emberlint analyzed this file only in part"
                                        : "emberlint could not analyze this file") +
                  " (" + f.cause + "): " + f.message;
      std::size_t at = f.where == file && f.line ? source.offset(f.line, f.column) : 0;
      add(std::move(d), at, at);
    }
  }
  return out;
}

void Server::publish(const std::string& uri, long long version, const std::vector<Published>& diagnostics) {
  json list = json::array();
  for (const auto& p : diagnostics) list.push_back(p.lsp);
  send(notification("textDocument/publishDiagnostics",
                    {{"uri", uri}, {"version", version}, {"diagnostics", list}}));
}

json Server::edit_for(const std::string& uri, long long version, const std::string& text,
                      const std::vector<Replacement>& fix) const {
  // The edits of each file, in the positions of the text the check saw (the document's current one), or of
  // the file as it is (another file a fix touches).
  std::map<fs::path, std::vector<const Replacement*>> by_file;
  for (const auto& r : fix) by_file[r.file].push_back(&r);
  auto path = uri_to_path(uri);
  json changes = json::object(), document_changes = json::array();
  for (const auto& [file, replacements] : by_file) {
    const bool current = path && canonical_path(*path) == file;
    std::optional<SourceText> base = current ? SourceText(text) : SourceText::read(file);
    if (!base) throw std::runtime_error("cannot read " + file.string() + " for the fix");
    json edits = json::array();
    for (const Replacement* r : replacements) {
      edits.push_back({{"range", range_json(position_of(*base, r->offset, encoding_),
                                            position_of(*base, r->offset + r->length, encoding_))},
                       {"newText", r->replacement}});
    }
    const std::string file_uri = current ? uri : path_to_uri(file);
    changes[file_uri] = edits;
    document_changes.push_back(
        {{"textDocument", {{"uri", file_uri}, {"version", current ? json(version) : json()}}},
         {"edits", edits}});
  }
  if (document_changes_) return {{"documentChanges", document_changes}};
  return {{"changes", changes}};
}

// The edit that suppresses `d` on its line: the code joins the rule list of an ignore comment already there,
// else a comment is added at the line's end (before a line continuation, as a block comment).
Replacement suppression_edit(const Diagnostic& d, const SourceText& source, const std::string& reason) {
  const std::string_view line = source.line(d.line);
  const std::size_t line_start = source.offset(d.line, 1);
  Replacement r;
  r.file = d.file;
  const std::string directive = "emberlint: ignore[";
  if (std::size_t at = line.find(directive); at != std::string_view::npos) {
    std::size_t close = line.find(']', at);
    if (close != std::string_view::npos) {
      r.offset = line_start + close;
      r.replacement = ", " + d.code;
      return r;
    }
  }
  std::size_t end = line.size();
  if (end > 0 && line[end - 1] == '\\') {
    r.offset = line_start + end - 1;
    r.replacement = "/* emberlint: ignore[" + d.code + "] " + reason + " */ ";
    return r;
  }
  r.offset = line_start + end;
  r.replacement = "  // emberlint: ignore[" + d.code + "] " + reason;
  return r;
}

bool before(Position a, Position b) {
  return std::tie(a.line, a.character) < std::tie(b.line, b.character);
}

json Server::code_action(const json& params) {
  const std::string uri = params.at("textDocument").at("uri");
  FileProblem problem;
  served_path(uri, problem);
  if (!problem.message.empty()) throw problem;
  const Position start = position_from_json(params.at("range").at("start"));
  const Position end = position_from_json(params.at("range").at("end"));
  const json context = params.value("context", json::object());
  if (context.contains("only")) {
    bool quickfix = false;
    for (const auto& kind : context["only"]) {
      const std::string k = kind;
      quickfix = quickfix || k == "quickfix" || k.empty();
    }
    if (!quickfix) return json::array();
  }
  std::lock_guard lock(mutex_);
  auto doc = documents_.find(uri);
  auto checked = checked_.find(uri);
  // Findings of an older text point at the wrong places: none until the check of this one is published.
  if (doc == documents_.end() || checked == checked_.end() || checked->second.version != doc->second.version)
    return json::array();
  const Checked& c = checked->second;
  const SourceText source(c.text);
  json actions = json::array();
  json suppressions = json::array();
  std::set<std::pair<unsigned, std::string>> suppressed;  // one suppression per line and rule
  for (const auto& p : c.diagnostics) {
    if (before(p.span_end, start) || before(end, p.span_start) || p.diagnostic.code.empty()) continue;
    const Diagnostic& d = p.diagnostic;
    if (!d.fix.empty()) {
      std::string title = "Fix " + d.code + ": ";
      if (d.fix.size() == 1 && d.fix[0].replacement.size() <= 60 &&
          d.fix[0].replacement.find('\n') == std::string::npos)
        title += d.fix[0].length ? "replace with `" + d.fix[0].replacement + "`"
                                 : "insert `" + d.fix[0].replacement + "`";
      else
        title += "apply emberlint's fix";
      actions.push_back({{"title", title},
                         {"kind", "quickfix"},
                         {"isPreferred", true},
                         {"diagnostics", json::array({p.lsp})},
                         {"edit", edit_for(uri, c.version, c.text, d.fix)}});
    }
    if (d.code == "EL001" || !suppressed.insert({d.line, d.code}).second) continue;
    Replacement r = suppression_edit(d, source, "TODO: say why this is fine here");
    suppressions.push_back({{"title", "Suppress " + d.code + " on this line (with a reason)"},
                            {"kind", "quickfix"},
                            {"diagnostics", json::array({p.lsp})},
                            {"edit", edit_for(uri, c.version, c.text, {r})}});
  }
  for (auto& s : suppressions) actions.push_back(std::move(s));
  return actions;
}

json Server::hover(const json& params) {
  const std::string uri = params.at("textDocument").at("uri");
  FileProblem problem;
  served_path(uri, problem);
  if (!problem.message.empty()) throw problem;
  const Position at = position_from_json(params.at("position"));
  std::lock_guard lock(mutex_);
  auto doc = documents_.find(uri);
  auto checked = checked_.find(uri);
  if (doc == documents_.end() || checked == checked_.end() || checked->second.version != doc->second.version)
    return nullptr;
  std::string markdown;
  std::set<std::string> documented;
  for (const auto& p : checked->second.diagnostics) {
    if (before(at, p.start) || before(p.end, at) || p.diagnostic.code.empty()) continue;
    const RuleInfo* info = rules_.find(p.diagnostic.code);
    if (!markdown.empty()) markdown += "\n\n---\n\n";
    markdown += "**" + p.diagnostic.code + " " + p.diagnostic.name + "** (" +
                std::string(to_string(p.diagnostic.severity)) + "): " + p.lsp["message"].get<std::string>();
    if (info && documented.insert(info->code).second) markdown += "\n\n" + info->doc;
  }
  if (markdown.empty()) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", markdown}}}};
}

}  // namespace

int serve(int in, int out, const ServerOptions& options, const RuleCatalog& rules) {
  std::signal(SIGPIPE, SIG_IGN);  // a client that went away is an end of input, not a crash
  Server server(out, options, rules);
  return server.run(in);
}

}  // namespace emberlint::lsp
