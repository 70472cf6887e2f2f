#include <gtest/gtest.h>

#include "tesmod/plugin/signature.hpp"

using tesmod::Signature;

TEST(Signature, LiteralMatchesBytes) {
  const std::uint8_t bytes[] = {'N', 'P', 'C', '_'};
  EXPECT_EQ(Signature("NPC_"), Signature::from_bytes(bytes));
  EXPECT_EQ(Signature("NPC_").str(), "NPC_");
  EXPECT_EQ(Signature("NPC_").value(), 0x5F43504Eu);
}

TEST(Signature, EscapesUnprintableBytes) {
  EXPECT_EQ(Signature::from_value(0x00414243).str(), "CBA\\x00");
}

TEST(Signature, RecordTypeCharacters) {
  EXPECT_TRUE(Signature("NPC_").is_record_type_like());
  EXPECT_TRUE(Signature("TES4").is_record_type_like());
  EXPECT_FALSE(Signature("npc_").is_record_type_like());
  EXPECT_FALSE(Signature::from_value(0).is_record_type_like());
}

TEST(Signature, OrdersAlphabetically) {
  EXPECT_LT(Signature("AACT"), Signature("ZZZZ"));
  EXPECT_LT(Signature("ABCD"), Signature("BAAA"));  // first character decides, not the integer value
  EXPECT_FALSE(Signature("BAAA") < Signature("ABCD"));
}

TEST(Signature, ParseNeedsFourCharacters) {
  Signature s;
  EXPECT_TRUE(Signature::parse("WEAP", s));
  EXPECT_EQ(s, Signature("WEAP"));
  EXPECT_FALSE(Signature::parse("WEA", s));
  EXPECT_FALSE(Signature::parse("WEAPON", s));
}
