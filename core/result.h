// A small result type for bad outside input (STYLE.md point 6): either a value or
// one clear message. Broken invariants use HEXDICE_CHECK instead.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace hexdice {

struct Error {
  std::string message;
};

template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}                // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}            // NOLINT(google-explicit-constructor)
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<0>(v_); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  const std::string& error() const { return std::get<1>(v_).message; }

 private:
  std::variant<T, Error> v_;
};

// Status: success or one message.
class Status {
 public:
  Status() = default;
  Status(Error e) : error_(std::move(e.message)) {}  // NOLINT(google-explicit-constructor)
  static Status Ok() { return {}; }
  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const std::string& error() const { return *error_; }

 private:
  std::optional<std::string> error_;
};

[[noreturn]] inline void check_failed(const char* expr, const char* file, int line) {
  std::fprintf(stderr, "hexdice: internal invariant broken: %s (%s:%d)\n", expr, file, line);
  std::abort();
}

}  // namespace hexdice

#define HEXDICE_CHECK(expr) ((expr) ? (void)0 : ::hexdice::check_failed(#expr, __FILE__, __LINE__))
