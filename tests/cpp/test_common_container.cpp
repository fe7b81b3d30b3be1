// src/common/container.h: the one saved container (layout, checks and messages).
#include <catch2/catch.hpp>

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
