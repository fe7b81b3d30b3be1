// Shared binding helpers: every exported function returns {ok: true, value} or
// {ok: false, code, message}; guard() catches everything (bad_alloc included) so no C++ exception
// ever crosses into JS. web/src/core/errors.js turns a failed reply into a RagwasmError.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace ragwasm::wasm {

using emscripten::val;

inline val reply_ok(val value) {
  val r = val::object();
  r.set("ok", true);
  r.set("value", value);
  return r;
}

inline val reply_error(const char* code, const std::string& message) {
  val r = val::object();
  r.set("ok", false);
  r.set("code", std::string(code));
  r.set("message", message);
  return r;
}

inline val reply_error(const Error& e) { return reply_error(error_code_name(e.code), e.message); }

// Runs f (returning val) and maps every escaping exception to an error reply.
template <class F>
val guard(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    try {
      return reply_error("OUT_OF_MEMORY", "ragwasm: out of memory (WASM heap exhausted); free handles or use smaller inputs");
    } catch (...) {
      return val::null();  // web/src/core/errors.js reports a null reply as OUT_OF_MEMORY
    }
  } catch (const std::exception& e) {
    return reply_error("INTERNAL", std::string("ragwasm: internal error: ") + e.what());
  } catch (...) {
    return reply_error("INTERNAL", "ragwasm: internal error (unknown exception)");
  }
}

// A bytes parameter (issue #18): what JS passed (Uint8Array, ArrayBuffer, Int8Array, Uint8ClampedArray,
// or a string as UTF-8) as a view of the buffer Embind's std::string wire type wrote into the heap for
// this call (one TypedArray.set, wasm/library_std_string.js). Embind frees that buffer when the call
// returns: a binding reads it during the call and copies what it keeps (std::string(bytes)). A
// std::string parameter would copy the buffer a second time (a 137 MB section held twice).
struct Bytes : std::string_view {
  using std::string_view::string_view;
};

// Copies a vector into a new JS typed array (a copy, so it stays valid when the heap grows).
template <class T>
val to_typed_array(const std::vector<T>& v) {
  return val(emscripten::typed_memory_view(v.size(), v.data())).call<val>("slice");
}

// Reads a JS array of strings.
inline std::vector<std::string> to_string_vector(const val& arr) {
  return emscripten::vecFromJSArray<std::string>(arr);
}

// Hands ids to a JS function in batches, each as {bytes, lens} (UTF-8 back to back and their byte
// lengths, decoded by decodeIds in web/src/core/encode.js): a million ids cross without a million
// calls, and without all of them held in the heap at once.
class IdBatches {
 public:
  explicit IdBatches(val fn) : fn_(std::move(fn)) {}
  void add(std::string_view id) {
    bytes_.insert(bytes_.end(), id.begin(), id.end());
    lens_.push_back(static_cast<std::uint32_t>(id.size()));
    if (lens_.size() >= kBatch) flush();
  }
  void flush() {
    if (lens_.empty()) return;
    val batch = val::object();
    batch.set("bytes", to_typed_array(bytes_));
    batch.set("lens", to_typed_array(lens_));
    bytes_.clear();
    lens_.clear();
    fn_(batch);
  }

 private:
  static constexpr std::size_t kBatch = 1 << 15;
  val fn_;
  std::vector<std::uint8_t> bytes_;
  std::vector<std::uint32_t> lens_;
};

}  // namespace ragwasm::wasm

namespace emscripten::internal {
// Bytes crosses as std::string's wire type ({length, data}, registered under the same JS name in
// bind_info.cpp, so strings, typed arrays and errors behave as for std::string) and is read in place.
template <>
struct BindingType<ragwasm::wasm::Bytes> {
  using WireType = BindingType<std::string>::WireType;
  static ragwasm::wasm::Bytes fromWireType(WireType v) { return ragwasm::wasm::Bytes(v->data, v->length); }
};
}  // namespace emscripten::internal
