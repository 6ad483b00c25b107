#include "lsp/jsonrpc.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>

#include "lint/support/source_text.hpp"

namespace emberlint::lsp {

namespace {
constexpr std::size_t kMaxHeader = 8192;              // a header part longer than this is no header
constexpr std::size_t kMaxBody = 256u * 1024 * 1024;  // nor is a Content-Length above 256 MiB

// The value of a header field, case-insensitively by name, in the header part (lines ending in \r\n).
std::optional<std::string> header_field(const std::string& header, const std::string& name) {
  std::size_t start = 0;
  while (start < header.size()) {
    std::size_t end = header.find("\r\n", start);
    if (end == std::string::npos) end = header.size();
    std::string line = header.substr(start, end - start);
    std::size_t colon = line.find(':');
    if (colon != std::string::npos && ascii_lower(line.substr(0, colon)) == ascii_lower(name)) {
      std::size_t v = colon + 1;
      while (v < line.size() && line[v] == ' ') ++v;
      return line.substr(v);
    }
    start = end + 2;
  }
  return std::nullopt;
}
}  // namespace

bool FrameReader::fill(int timeout_ms) {
  timed_out_ = false;
  if (timeout_ms >= 0) {
    pollfd p{fd_, POLLIN, 0};
    int ready = 0;
    do {
      ready = ::poll(&p, 1, timeout_ms);
    } while (ready < 0 && errno == EINTR);
    if (ready == 0) {
      timed_out_ = true;
      return false;
    }
  }
  char chunk[65536];
  ssize_t n = 0;
  do {
    n = ::read(fd_, chunk, sizeof chunk);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return false;
  buffer_.append(chunk, static_cast<std::size_t>(n));
  return true;
}

Frame FrameReader::next(int timeout_ms) {
  Frame out;
  auto ended = [&]() {
    out.status = timed_out_ ? Frame::Status::timed_out : Frame::Status::end_of_input;
    return out;
  };
  std::size_t end = 0;
  while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (buffer_.size() > kMaxHeader) {
      // No header ends here: drop what cannot be one, keeping a possible start of the next.
      std::size_t next = buffer_.find("Content-Length", 1);
      buffer_.erase(0, next == std::string::npos ? buffer_.size() : next);
      out.status = Frame::Status::bad_header;
      out.error = "a header part longer than " + std::to_string(kMaxHeader) + " bytes";
      return out;
    }
    if (!fill(timeout_ms)) return ended();
  }
  const std::string header = buffer_.substr(0, end);
  buffer_.erase(0, end + 4);
  auto length = header_field(header, "Content-Length");
  std::size_t size = 0;
  if (!length) {
    out.status = Frame::Status::bad_header;
    out.error = "a message without a Content-Length header";
    return out;
  }
  auto [ptr, ec] = std::from_chars(length->data(), length->data() + length->size(), size);
  if (ec != std::errc() || ptr != length->data() + length->size() || size > kMaxBody) {
    out.status = Frame::Status::bad_header;
    out.error = "Content-Length '" + *length + "' is not a size up to " + std::to_string(kMaxBody);
    return out;
  }
  while (buffer_.size() < size) {
    if (!fill(timeout_ms)) return ended();
  }
  out.body = buffer_.substr(0, size);
  buffer_.erase(0, size);
  return out;
}

bool write_message(int fd, const nlohmann::json& message) {
  // Invalid UTF-8 (a file's bytes in a message) is replaced rather than thrown on.
  const std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  std::size_t done = 0;
  while (done < frame.size()) {
    ssize_t n = ::write(fd, frame.data() + done, frame.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

nlohmann::json response(const nlohmann::json& id, nlohmann::json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", sanitize_utf8(message)}}}};
}

nlohmann::json notification(const std::string& method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

nlohmann::json request(const nlohmann::json& id, const std::string& method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace emberlint::lsp
