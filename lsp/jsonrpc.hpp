// JSON-RPC 2.0 over the Language Server Protocol's base protocol: each message is a header part
// (`Content-Length: N`, optionally `Content-Type`) and N bytes of JSON. Used by the server (lsp/server.hpp)
// and by the client that tests and benchmarks drive it with (lsp/client.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace emberlint::lsp {

// The protocol's error codes (JSON-RPC's and LSP's).
namespace error_code {
constexpr int parse_error = -32700;
constexpr int invalid_request = -32600;
constexpr int method_not_found = -32601;
constexpr int invalid_params = -32602;
constexpr int internal_error = -32603;
constexpr int server_not_initialized = -32002;
constexpr int request_failed = -32803;
constexpr int request_cancelled = -32800;
}  // namespace error_code

// One framed message as read: its body, or why the frame was not one.
struct Frame {
  enum class Status { message, end_of_input, timed_out, bad_header };
  Status status = Status::message;
  std::string body;   // the N bytes of content
  std::string error;  // for bad_header: what was wrong
};

// Reads frames from a file descriptor, buffering what it read past a frame.
class FrameReader {
 public:
  explicit FrameReader(int fd) : fd_(fd) {}
  // The next frame. `timeout_ms` < 0 waits for ever. A header without a valid Content-Length is skipped up to
  // the blank line that ends it and reported as bad_header, so one malformed frame does not lose the next.
  Frame next(int timeout_ms = -1);

 private:
  bool fill(int timeout_ms);  // reads more bytes; false on end of input or timeout (timed_out_ says which)
  int fd_;
  std::string buffer_;
  bool timed_out_ = false;
};

// Writes one message, framed, to a file descriptor; false when the other end is gone.
bool write_message(int fd, const nlohmann::json& message);

// Messages of the protocol.
nlohmann::json response(const nlohmann::json& id, nlohmann::json result);
nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message);
nlohmann::json notification(const std::string& method, nlohmann::json params);
nlohmann::json request(const nlohmann::json& id, const std::string& method, nlohmann::json params);

}  // namespace emberlint::lsp
