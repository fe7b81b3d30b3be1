// src/common/container.h: the one saved container (layout, checks and messages).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "common/checksum.h"
#include "common/container.h"
#include "format_suite.h"

using namespace ragwasm::container;
using ragwasm::ErrorCode;
using ragwasm::Status;

namespace {
Format test_format() {
  Format f;
  f.magic = "RWTEST01";
  f.what = "TestObject";
  f.min_version = 1;
  f.max_version = 3;
  return f;
}
Status load(const std::string& b) {
  auto r = unpack(b, test_format());
  if (!r.ok()) return r.error();
  return Status::success();
}
}  // namespace

TEST_CASE("a packed container unpacks to the same sections in order", "[unit]") {
  const std::string a = "alpha", c(300, 'c');
  const std::string b = pack("RWTEST01", 3, {{7, a}, {2, ""}, {9, c}});
  REQUIRE(b.size() == 16 + 3 * 12 + a.size() + c.size() + 8);
  REQUIRE(b.substr(0, 8) == "RWTEST01");
  REQUIRE(ragwasm::testing::u32_at(b, 8) == 3);
  REQUIRE(ragwasm::testing::u64_at(b, b.size() - 8) == ragwasm::xxh64(std::string_view(b).substr(0, b.size() - 8)));
  auto u = unpack(b, test_format());
  REQUIRE(u.ok());
  REQUIRE(u.value().version == 3);
  REQUIRE(u.value().sections.size() == 3);
  CHECK(u.value().sections[0].tag == 7);
  CHECK(u.value().sections[0].bytes == a);
  CHECK(u.value().sections[1].bytes.empty());
  CHECK(u.value().find(9)->bytes == c);
  CHECK(u.value().find(4) == nullptr);
}

TEST_CASE("an unknown version names the versions this build reads", "[unit]") {
  std::string b = pack("RWTEST01", 4, {{1, "x"}});
  auto r = unpack(b, test_format());
  REQUIRE(r.error().code == ErrorCode::kUnsupportedVersion);
  CHECK(r.error().message.find("TestObject format version 4") != std::string::npos);
  CHECK(r.error().message.find("versions 1 to 3") != std::string::npos);
}

TEST_CASE("wrong magic and duplicate sections are corrupt", "[unit]") {
  auto r = unpack(pack("RWOTHER1", 1, {{1, "x"}}), test_format());
  REQUIRE(r.error().code == ErrorCode::kCorruptIndex);
  CHECK(r.error().message.find("wrong magic") != std::string::npos);
  auto d = unpack(pack("RWTEST01", 1, {{1, "x"}, {1, "y"}}), test_format());
  REQUIRE(d.error().code == ErrorCode::kCorruptIndex);
  CHECK(d.error().message.find("duplicate section 1") != std::string::npos);
}

TEST_CASE("versions below sealed_from are checked with the legacy seal", "[unit]") {
  Format f = test_format();
  f.sealed_from = 2;
  f.legacy_seal = [](std::string_view body) { return ragwasm::xxh64(body, 99); };
  std::string v1 = pack("RWTEST01", 1, {{1, "x"}});
  REQUIRE_FALSE(unpack(v1, f).ok());  // sealed with seed 0, read with the legacy seal
  ragwasm::testing::put_u64_at(v1, v1.size() - 8, ragwasm::xxh64(std::string_view(v1).substr(0, v1.size() - 8), 99));
  REQUIRE(unpack(v1, f).ok());
  REQUIRE(unpack(pack("RWTEST01", 2, {{1, "x"}}), f).ok());
}

TEST_CASE("the container passes its own corruption suite", "[fuzz]") {
  const std::string good = pack("RWTEST01", 2, {{1, std::string(40, 'a')}, {2, ""}, {3, std::string(100, 'b')}});
  CHECK(ragwasm::testing::run_corruption_suite(good, 3, load) > 600);
}

namespace {
// A Source that hands out the framing and hashes the body in 5-byte pieces (as the WASM binding
// hashes a JS Uint8Array in bounded windows).
class PieceSource final : public Source {
 public:
  explicit PieceSource(const std::string& b) : b_(b) {}
  std::uint64_t size() const override { return b_.size(); }
  std::string read(std::uint64_t at, std::size_t n) const override { return b_.substr(at, n); }
  std::uint64_t seal(std::uint64_t n, std::uint64_t (*legacy)(std::string_view)) const override {
    if (legacy != nullptr) return legacy(std::string_view(b_).substr(0, n));
    ragwasm::Xxh64Stream s;
    for (std::uint64_t at = 0; at < n; at += 5) s.update(std::string_view(b_).substr(at, std::min<std::uint64_t>(5, n - at)));
    return s.digest();
  }

 private:
  const std::string& b_;
};
// unpack_layout through PieceSource: the same verdict, message and sections as unpack.
Status load_layout(const std::string& b) {
  auto whole = unpack(b, test_format());
  auto l = unpack_layout(PieceSource(b), test_format());
  REQUIRE(whole.ok() == l.ok());
  if (!l.ok()) {
    REQUIRE(l.error().code == whole.error().code);
    REQUIRE(l.error().message == whole.error().message);
    return l.error();
  }
  REQUIRE(l.value().version == whole.value().version);
  REQUIRE(l.value().sections.size() == whole.value().sections.size());
  for (std::size_t i = 0; i < l.value().sections.size(); ++i) {
    const auto& s = l.value().sections[i];
    REQUIRE(s.tag == whole.value().sections[i].tag);
    REQUIRE(b.substr(s.offset, s.length) == whole.value().sections[i].bytes);
  }
  return Status::success();
}
}  // namespace

TEST_CASE("the writer fed in pieces gives the bytes of pack", "[unit]") {
  const std::string a(1000, 'a'), c = "gamma";
  std::string payload_b;
  for (int i = 0; i < 333; ++i) payload_b.push_back(static_cast<char>(i * 7));
  const std::vector<Section> sections{{1, a}, {5, payload_b}, {2, ""}, {9, c}};
  std::string out;
  Writer w("RWTEST01", 2, static_cast<std::uint32_t>(sections.size()));
  out += w.start();
  for (const auto& s : sections) {
    out += w.section(s.tag, s.bytes.size());
    for (std::size_t at = 0; at < s.bytes.size(); at += 17) {
      w.payload(s.bytes.substr(at, 17));
      out.append(s.bytes.substr(at, 17));
    }
  }
  out += w.seal();
  CHECK(out == pack("RWTEST01", 2, sections));
  CHECK(load_layout(out).ok());
}

TEST_CASE("the packer writing payloads in place gives the bytes of pack, reserved exactly once", "[unit]") {
  const std::string a(1000, 'a'), c = "gamma";
  std::string payload_b;
  for (int i = 0; i < 333; ++i) payload_b.push_back(static_cast<char>(i * 7));
  const std::vector<Section> sections{{1, a}, {5, payload_b}, {2, ""}, {9, c}};
  Packer<std::string>::Plan plan;
  for (const auto& s : sections) plan.emplace_back(s.tag, s.bytes.size());
  Packer<std::string> p("RWTEST01", 2, plan);
  std::size_t capacity = 0;
  for (const auto& s : sections) {
    std::string& out = p.next();
    capacity = out.capacity();
    for (std::size_t at = 0; at < s.bytes.size(); at += 17) out.append(s.bytes.substr(at, 17));
  }
  const std::string packed = pack("RWTEST01", 2, sections);
  CHECK(capacity >= packed.size());
  const std::string out = p.done();
  CHECK(out == packed);
  CHECK(out.capacity() == capacity);  // never grown past the first reservation
  std::vector<std::uint8_t> bytes;
  {
    Packer<std::vector<std::uint8_t>> v("RWTEST01", 2, plan);
    for (const auto& s : sections) {
      auto& o = v.next();
      o.insert(o.end(), s.bytes.begin(), s.bytes.end());
    }
    bytes = v.done();
  }
  CHECK(std::string(bytes.begin(), bytes.end()) == packed);
  // a payload unlike its plan is the caller's bug, never a wrong length in the file
  Packer<std::string> short_one("RWTEST01", 2, {{1, 4}, {2, 0}});
  short_one.next().append("abc");
  CHECK_THROWS_AS(short_one.next(), std::logic_error);
  Packer<std::string> missing("RWTEST01", 2, {{1, 0}, {2, 0}});
  missing.next();
  CHECK_THROWS_AS(missing.done(), std::logic_error);
}

TEST_CASE("unpack_layout from a piecewise source agrees with unpack on every corruption", "[fuzz]") {
  const std::string good = pack("RWTEST01", 2, {{1, std::string(40, 'a')}, {2, ""}, {3, std::string(100, 'b')}});
  CHECK(ragwasm::testing::run_corruption_suite(good, 3, load_layout) > 600);
  Format f = test_format();
  f.sealed_from = 2;
  f.legacy_seal = [](std::string_view body) { return ragwasm::xxh64(body, 99); };
  std::string v1 = pack("RWTEST01", 1, {{1, "x"}});
  ragwasm::testing::put_u64_at(v1, v1.size() - 8, ragwasm::xxh64(std::string_view(v1).substr(0, v1.size() - 8), 99));
  CHECK(unpack_layout(PieceSource(v1), f).ok());
}
