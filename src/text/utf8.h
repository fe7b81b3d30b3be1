// UTF-8 decoding, validation and repair, and exact UTF-8 byte <-> UTF-16 unit offset mapping.
// The core works in UTF-8 bytes; JS strings are UTF-16, so every offset crossing the boundary is
// converted here (astral characters: 4 bytes <-> 2 units).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ragwasm::text {

constexpr char32_t kReplacementChar = 0xFFFD;

// Decodes one code point at text[pos]. On success sets *len to its byte length (1..4) and returns it;
// on an ill-formed sequence returns kReplacementChar with *len = length of the maximal ill-formed
// subpart (the WHATWG / Unicode "substitution of maximal subparts" rule), always >= 1.
char32_t decode_utf8(std::string_view text, std::size_t pos, std::size_t* len, bool* valid = nullptr);

// Appends the UTF-8 encoding of cp (surrogates and values > 0x10FFFF become U+FFFD).
void append_utf8(std::string& out, char32_t cp);

// Byte offset of the first ill-formed sequence, or text.size() when the text is valid UTF-8.
std::size_t find_invalid_utf8(std::string_view text);
inline bool is_valid_utf8(std::string_view text) { return find_invalid_utf8(text) == text.size(); }

// Replaces each maximal ill-formed subpart by U+FFFD (as TextDecoder does), so the result is valid.
std::string repair_utf8(std::string_view text);

// Number of UTF-16 code units that the (valid) UTF-8 text encodes to.
std::size_t utf16_length(std::string_view text);

// UTF-8 -> UTF-16 code units; each ill-formed byte becomes U+FFFD, as in a JS string from TextDecoder.
std::u16string to_utf16(std::string_view text);

// Maps byte offsets of one valid UTF-8 text to UTF-16 offsets and back in O(1) + a short scan,
// using a checkpoint every kStride bytes. A byte offset inside a multi-byte sequence maps to the
// offset of that sequence's start. Built once per text; the text must outlive the mapper.
class OffsetMapper {
 public:
  explicit OffsetMapper(std::string_view text);
  std::size_t to_utf16(std::size_t byte_offset) const;
  // UTF-16 offset -> byte offset; an offset between the two halves of a surrogate pair maps to the
  // start of that character.
  std::size_t to_utf8(std::size_t utf16_offset) const;
  std::size_t utf16_size() const { return utf16_size_; }

 private:
  static constexpr std::size_t kStride = 64;
  std::string_view text_;
  std::vector<std::uint32_t> checkpoints_;  // checkpoints_[i] = UTF-16 offset of byte i * kStride
  std::size_t utf16_size_ = 0;
};

// True when byte b begins a code point (is not a 10xxxxxx continuation byte).
inline bool is_utf8_lead(unsigned char b) { return (b & 0xC0) != 0x80; }

// Number of code points in valid UTF-8 text.
std::size_t count_code_points(std::string_view text);

}  // namespace ragwasm::text
