// A minimal Language Server Protocol client: starts a server process on pipes and exchanges framed
// messages with it. What the scripted LSP tests (tests/lint/lsp_test.cpp) and the edit-to-diagnostic
// benchmark (bench/lint_bench.cpp) drive `emberlint lsp` with.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lsp/jsonrpc.hpp"

namespace emberlint::lsp {

// A wait with no deadline: it ends when the awaited message arrives or the server's output ends (it exited
// or closed it), never because a busy machine was slow. What tests wait with.
inline constexpr std::chrono::milliseconds kNoDeadline = std::chrono::milliseconds::max();

class Client {
 public:
  // Starts `argv` (program first) in `directory` with its stdin and stdout on pipes; stderr is inherited.
  // Throws std::runtime_error when it cannot be started.
  Client(const std::vector<std::string>& argv, const std::string& directory);
  ~Client();  // closes the pipes and waits for (or kills) the server
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Sends a request and returns its id.
  int request(const std::string& method, nlohmann::json params);
  void notify(const std::string& method, nlohmann::json params);
  // Sends bytes as they are (malformed frames, for tests).
  void send_raw(const std::string& bytes);

  // The next message that satisfies `match`, waiting up to `timeout` (kNoDeadline: for as long as the server
  // may still send it); messages read on the way that do not match are kept for later calls. nullopt on
  // timeout or end of input.
  std::optional<nlohmann::json> wait_for(const std::function<bool(const nlohmann::json&)>& match,
                                         std::chrono::milliseconds timeout = kNoDeadline);
  // The response to request `id`.
  std::optional<nlohmann::json> response(int id, std::chrono::milliseconds timeout = kNoDeadline);
  // The next publishDiagnostics for `uri`.
  std::optional<nlohmann::json> diagnostics(const std::string& uri,
                                            std::chrono::milliseconds timeout = kNoDeadline);
  // Every message received and not taken yet.
  std::vector<nlohmann::json> pending();

  // Closes the server's stdin and waits up to `timeout` (kNoDeadline: until it exits) for it to exit: its
  // exit status, or nullopt.
  std::optional<int> finish(std::chrono::milliseconds timeout = kNoDeadline);

 private:
  pid_t pid_ = -1;
  int to_server_ = -1, from_server_ = -1;
  int next_id_ = 1;
  std::optional<FrameReader> reader_;
  std::deque<nlohmann::json> kept_;
};

}  // namespace emberlint::lsp
