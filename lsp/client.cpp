#include "lsp/client.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace emberlint::lsp {

using json = nlohmann::json;

Client::Client(const std::vector<std::string>& argv, const std::string& directory) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid_ == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    if (::chdir(directory.c_str()) != 0) ::_exit(126);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  to_server_ = in[1];
  from_server_ = out[0];
  reader_.emplace(from_server_);
  ::signal(SIGPIPE, SIG_IGN);
}

Client::~Client() {
  if (pid_ > 0 && !finish(std::chrono::milliseconds(5000))) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (from_server_ >= 0) ::close(from_server_);
}

int Client::request(const std::string& method, json params) {
  int id = next_id_++;
  write_message(to_server_, lsp::request(id, method, std::move(params)));
  return id;
}

void Client::notify(const std::string& method, json params) {
  write_message(to_server_, notification(method, std::move(params)));
}

void Client::send_raw(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(to_server_, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

std::optional<json> Client::wait_for(const std::function<bool(const json&)>& match,
                                     std::chrono::milliseconds timeout) {
  for (auto it = kept_.begin(); it != kept_.end(); ++it) {
    if (match(*it)) {
      json m = std::move(*it);
      kept_.erase(it);
      return m;
    }
  }
  const bool forever = timeout == kNoDeadline;
  const auto deadline = std::chrono::steady_clock::now() + (forever ? std::chrono::milliseconds(0) : timeout);
  for (;;) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (!forever && left.count() < 0) return std::nullopt;
    Frame frame = reader_->next(forever ? -1 : static_cast<int>(left.count()));
    if (frame.status != Frame::Status::message) return std::nullopt;
    json m = json::parse(frame.body, nullptr, false);
    if (match(m)) return m;
    kept_.push_back(std::move(m));
  }
}

std::optional<json> Client::response(int id, std::chrono::milliseconds timeout) {
  return wait_for([id](const json& m) { return m.contains("id") && m["id"] == id && !m.contains("method"); },
                  timeout);
}

std::optional<json> Client::diagnostics(const std::string& uri, std::chrono::milliseconds timeout) {
  return wait_for(
      [&uri](const json& m) {
        return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
      },
      timeout);
}

std::vector<json> Client::pending() {
  std::vector<json> out(kept_.begin(), kept_.end());
  kept_.clear();
  for (;;) {
    Frame frame = reader_->next(0);
    if (frame.status != Frame::Status::message) break;
    out.push_back(json::parse(frame.body, nullptr, false));
  }
  return out;
}

std::optional<int> Client::finish(std::chrono::milliseconds timeout) {
  if (to_server_ >= 0) {
    ::close(to_server_);
    to_server_ = -1;
  }
  if (pid_ <= 0) return std::nullopt;
  const bool forever = timeout == kNoDeadline;
  const auto deadline = std::chrono::steady_clock::now() + (forever ? std::chrono::milliseconds(0) : timeout);
  for (;;) {
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, forever ? 0 : WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (r < 0 || (!forever && std::chrono::steady_clock::now() > deadline)) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace emberlint::lsp
