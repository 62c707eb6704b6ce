//===- TensorIoTest.cpp - text and .npy formats ---------------------------===//

#include "lib/io/Npy.h"
#include "lib/io/TensorText.h"

#include <gtest/gtest.h>

using namespace xspmd;
using namespace xspmd::runtime;

namespace {

TEST(TensorText, ParsesAndPrintsEveryType) {
  struct Case {
    const char *in, *out;
  } cases[] = {
      {"2x3xf32=1,2,3,4,5,6", "2x3xf32=[1 2 3][4 5 6]"},
      {"2x2xi32=[[1 2][3 4]]", "2x2xi32=[1 2][3 4]"},
      {"f64=1.5", "f64=1.5"},
      {"3xbf16=0.1,1e10,-inf", "3xbf16=0.1 10000000000 -inf"},
      {"2xbf16=1e30,-1e-30", "2xbf16=1e+30 -1e-30"},
      {"2xf16=65504,nan", "2xf16=65500 nan"},
      {"3xi1=true,0,1", "3xi1=1 0 1"},
      {"2xi8=-128,127", "2xi8=-128 127"},
      {"1xi64=-9223372036854775808", "1xi64=-9223372036854775808"},
      {"4xf32=2.5", "4xf32=2.5 2.5 2.5 2.5"}, // one value fills the shape
      {"0x3xf32=", "0x3xf32="},
  };
  for (const Case &c : cases) {
    llvm::Expected<Tensor> t = io::parseTensorLiteral(c.in);
    ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
    EXPECT_EQ(io::formatTensor(*t), c.out);
    // What is printed parses back to the same bits.
    llvm::Expected<Tensor> again = io::parseTensorLiteral(c.out);
    ASSERT_TRUE(static_cast<bool>(again));
    EXPECT_TRUE(again->bitwiseEquals(*t)) << c.in;
  }
}

TEST(TensorText, RejectsBadLiterals) {
  for (const char *bad :
       {"2xf32=1,2,3", "2xq7=1", "2xi8=1,128", "axf32=1", "2xf32=1,zz", "f32",
        "2xi1=2", "4xf32=1,2", "4xf32=1,,3,4", "2xf32=1,2,", "2xf32=,1,2"}) {
    llvm::Expected<Tensor> t = io::parseTensorLiteral(bad);
    EXPECT_FALSE(static_cast<bool>(t)) << bad;
    if (!t)
      llvm::consumeError(t.takeError());
  }
}

TEST(Npy, RoundTripsSeveralArraysPerFile) {
  std::string bytes;
  std::vector<Tensor> arrays;
  for (const char *literal :
       {"2x3xf32=1,2,3,4,5,6", "bf16=-2.5", "3xi1=1,0,1", "2x1xi64=7,-7",
        "4xf16=0.5,1,2,4", "i8=-3", "2xf64=1e300,-0", "1xi32=5"}) {
    arrays.push_back(*io::parseTensorLiteral(literal));
    bytes += io::serializeNpy(arrays.back());
  }
  llvm::Expected<std::vector<Tensor>> back = io::parseNpyArrays(bytes, "t");
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->size(), arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i)
    EXPECT_TRUE((*back)[i].bitwiseEquals(arrays[i])) << i;
}

TEST(Npy, HeadersAreAlignedAndDescribeTheArray) {
  Tensor t = *io::parseTensorLiteral("2x3xf32=1,2,3,4,5,6");
  std::string bytes = io::serializeNpy(t);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  size_t headerLen =
      static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
  EXPECT_EQ((10 + headerLen) % 64, 0u);
  std::string header = bytes.substr(10, headerLen);
  EXPECT_NE(header.find("'descr': '<f4'"), std::string::npos);
  EXPECT_NE(header.find("'shape': (2, 3)"), std::string::npos);
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(bytes.size(), 10 + headerLen + 24);
}

TEST(Npy, RejectsMalformedInput) {
  std::string good = io::serializeNpy(*io::parseTensorLiteral("4xf32=1,2,3,4"));
  std::vector<std::string> bad = {"", "not numpy", good.substr(0, 9),
                                  good.substr(0, good.size() - 1),
                                  good + "junk"};
  for (const std::string &b : bad) {
    llvm::Expected<std::vector<Tensor>> r = io::parseNpyArrays(b, "bad");
    EXPECT_FALSE(static_cast<bool>(r));
    if (!r)
      llvm::consumeError(r.takeError());
  }
}

} // namespace
