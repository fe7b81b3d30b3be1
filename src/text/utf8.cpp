// UTF-8 decoding per Unicode 15 Table 3-7 (well-formed byte sequences).
#include "text/utf8.h"

namespace ragwasm::text {

char32_t decode_utf8(std::string_view text, std::size_t pos, std::size_t* len, bool* valid) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  const unsigned char b0 = s[pos];
  auto fail = [&](std::size_t l) {
    *len = l;
    if (valid) *valid = false;
    return kReplacementChar;
  };
  if (valid) *valid = true;
  if (b0 < 0x80) {
    *len = 1;
    return b0;
  }
  std::size_t need;
  char32_t cp;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
    cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // excludes UTF-16 surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
    cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;  // excludes > U+10FFFF
  } else {
    return fail(1);
  }
  for (std::size_t i = 1; i <= need; ++i) {
    if (pos + i >= n) return fail(i);
    const unsigned char b = s[pos + i];
    const unsigned char l = (i == 1) ? lo : 0x80;
    const unsigned char h = (i == 1) ? hi : 0xBF;
    if (b < l || b > h) return fail(i);
    cp = (cp << 6) | (b & 0x3F);
  }
  *len = need + 1;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = kReplacementChar;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::size_t find_invalid_utf8(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    // ASCII fast path, 8 bytes at a time.
    while (i + 8 <= n) {
      std::uint64_t w;
      __builtin_memcpy(&w, text.data() + i, 8);
      if (w & 0x8080808080808080ULL) break;
      i += 8;
    }
    if (i >= n) break;
    std::size_t len;
    bool ok;
    decode_utf8(text, i, &len, &ok);
    if (!ok) return i;
    i += len;
  }
  return n;
}

std::string repair_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t len;
    bool ok;
    const char32_t cp = decode_utf8(text, i, &len, &ok);
    if (ok) {
      out.append(text.data() + i, len);
    } else {
      append_utf8(out, cp);
    }
    i += len;
  }
  return out;
}

std::size_t utf16_length(std::string_view text) {
  std::size_t units = 0;
  for (unsigned char c : text) {
    if (is_utf8_lead(c)) units += (c >= 0xF0) ? 2 : 1;
  }
  return units;
}

std::u16string to_utf16(std::string_view text) {
  std::u16string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t len = 0;
    const char32_t cp = decode_utf8(text, i, &len);
    if (cp >= 0x10000) {
      out.push_back(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
    i += len == 0 ? 1 : len;
  }
  return out;
}

std::size_t count_code_points(std::string_view text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += is_utf8_lead(c) ? 1 : 0;
  return n;
}

OffsetMapper::OffsetMapper(std::string_view text) : text_(text) {
  checkpoints_.reserve(text.size() / kStride + 2);
  std::uint32_t units = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i % kStride == 0) checkpoints_.push_back(units);
    const auto c = static_cast<unsigned char>(text[i]);
    if (is_utf8_lead(c)) units += (c >= 0xF0) ? 2 : 1;
  }
  if (text.size() % kStride == 0) checkpoints_.push_back(units);
  utf16_size_ = units;
}

std::size_t OffsetMapper::to_utf16(std::size_t byte_offset) const {
  if (byte_offset >= text_.size()) return utf16_size_;
  // Move back to the start of the code point containing byte_offset.
  while (byte_offset > 0 && !is_utf8_lead(static_cast<unsigned char>(text_[byte_offset]))) --byte_offset;
  const std::size_t block = byte_offset / kStride;
  std::size_t units = checkpoints_[block];
  for (std::size_t i = block * kStride; i < byte_offset; ++i) {
    const auto c = static_cast<unsigned char>(text_[i]);
    if (is_utf8_lead(c)) units += (c >= 0xF0) ? 2 : 1;
  }
  return units;
}

std::size_t OffsetMapper::to_utf8(std::size_t utf16_offset) const {
  if (utf16_offset >= utf16_size_) return text_.size();
  // Largest checkpoint block whose UTF-16 offset is <= the target (checkpoints are non-decreasing).
  std::size_t lo = 0, hi = checkpoints_.size();
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    if (checkpoints_[mid] <= utf16_offset) lo = mid; else hi = mid;
  }
  std::size_t i = lo * kStride;
  // A checkpoint may fall inside a code point; advance to the next lead byte first.
  std::size_t units = checkpoints_[lo];
  while (i < text_.size() && !is_utf8_lead(static_cast<unsigned char>(text_[i]))) ++i;
  while (i < text_.size()) {
    const auto c = static_cast<unsigned char>(text_[i]);
    const std::size_t w = (c >= 0xF0) ? 2 : 1;
    if (units + w > utf16_offset) return i;  // target is this char's start (or its low surrogate)
    units += w;
    std::size_t len = 1;
    while (i + len < text_.size() && !is_utf8_lead(static_cast<unsigned char>(text_[i + len]))) ++len;
    i += len;
    if (units == utf16_offset) return i;
  }
  return text_.size();
}

}  // namespace ragwasm::text
