// Result<T>: a value or an Error{code, message}. User-caused failures (bad argument, corrupt bytes,
// size limits) travel as values; the core never prints, aborts or lets an exception reach the caller.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace ragwasm {

// Stable error codes. Their names (error_code_name) are the `code` strings JS sees on RagwasmError.
enum class ErrorCode {
  kInvalidArgument,     // INVALID_ARGUMENT: an argument or option is of the wrong type or out of range
  kInvalidUtf8,         // INVALID_UTF8: input bytes are not UTF-8 and repair was not requested
  kLimitExceeded,       // LIMIT_EXCEEDED: a documented size limit would be exceeded
  kCorruptIndex,        // CORRUPT_INDEX: saved bytes fail magic, length or checksum checks
  kUnsupportedVersion,  // UNSUPPORTED_VERSION: saved bytes come from a format version we do not read
  kDimensionMismatch,   // DIMENSION_MISMATCH: vector length differs from the index's dimension
  kNotFound,            // NOT_FOUND: an id or name that does not exist
  kDuplicateId,         // DUPLICATE_ID: an id that already exists where ids must be unique
  kParseError,          // PARSE_ERROR: malformed text input (JSON, TREC files, replies), with location
  kOutOfMemory,         // OUT_OF_MEMORY: allocation failed (WASM heap exhausted)
  kInternal,            // INTERNAL: a bug in ragwasm; the message says where
};

constexpr const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case ErrorCode::kInvalidUtf8: return "INVALID_UTF8";
    case ErrorCode::kLimitExceeded: return "LIMIT_EXCEEDED";
    case ErrorCode::kCorruptIndex: return "CORRUPT_INDEX";
    case ErrorCode::kUnsupportedVersion: return "UNSUPPORTED_VERSION";
    case ErrorCode::kDimensionMismatch: return "DIMENSION_MISMATCH";
    case ErrorCode::kNotFound: return "NOT_FOUND";
    case ErrorCode::kDuplicateId: return "DUPLICATE_ID";
    case ErrorCode::kParseError: return "PARSE_ERROR";
    case ErrorCode::kOutOfMemory: return "OUT_OF_MEMORY";
    case ErrorCode::kInternal: return "INTERNAL";
  }
  return "INTERNAL";
}

struct Error {
  ErrorCode code;
  std::string message;  // for people: names the argument, expected vs got, and the fix
};

// Builds an Error whose message starts with "ragwasm: " (the library name, as MiniSearch does).
inline Error make_error(ErrorCode code, std::string_view message) {
  std::string m = "ragwasm: ";
  m.append(message.data(), message.size());
  return Error{code, std::move(m)};
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}            // NOLINT: implicit by design
  Result(Error error) : data_(std::move(error)) {}        // NOLINT: implicit by design

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(data_); }
  const T& value() const& { return std::get<0>(data_); }
  // By value, so `for (auto& x : f().value())` cannot bind to a destroyed temporary.
  T value() && { return std::get<0>(std::move(data_)); }
  const Error& error() const { return std::get<1>(data_); }

 private:
  std::variant<T, Error> data_;
};

// Result<void>: success or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT: implicit by design
  static Status success() { return Status(); }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_{ErrorCode::kInternal, {}};
  bool ok_ = true;
};

}  // namespace ragwasm

// Propagates the error of a Result/Status expression out of the current function.
#define RAGWASM_TRY(expr)                        \
  do {                                           \
    auto&& ragwasm_try_r_ = (expr);              \
    if (!ragwasm_try_r_.ok()) return ragwasm_try_r_.error(); \
  } while (0)
