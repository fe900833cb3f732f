//===- ParallelTest.cpp - The ordered window ------------------------------===//

#include "tlp/Support/Parallel.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

using namespace tlp;

namespace {

struct Item : WindowItem {
  size_t N = 0;
  size_t Squared = 0;
};

/// Items 0..Count-1; the work of each takes longer the smaller it is, so
/// that workers finish out of order.
std::vector<size_t> runWindow(unsigned Threads, size_t Window, size_t Count,
                              size_t StopAfter, std::atomic<size_t> &Worked,
                              size_t &MaxInFlight) {
  size_t Next = 0;
  std::atomic<size_t> InFlight{0};
  std::vector<size_t> Consumed;
  MaxInFlight = 0;
  runOrderedWindow<Item>(
      Threads, Window,
      [&]() -> std::unique_ptr<Item> {
        if (Next == Count)
          return nullptr;
        auto I = std::make_unique<Item>();
        I->N = Next++;
        MaxInFlight = std::max<size_t>(MaxInFlight, ++InFlight);
        return I;
      },
      [&](Item &I) {
        std::this_thread::sleep_for(
            std::chrono::microseconds(50 * (Count - I.N)));
        I.Squared = I.N * I.N;
        ++Worked;
      },
      [&](Item &I) {
        --InFlight;
        EXPECT_EQ(I.Squared, I.N * I.N);
        Consumed.push_back(I.N);
        return Consumed.size() < StopAfter;
      });
  return Consumed;
}

TEST(OrderedWindow, ConsumesInOrderOnAnyThreadCount) {
  for (unsigned Threads : {1u, 2u, 4u}) {
    std::atomic<size_t> Worked{0};
    size_t MaxInFlight = 0;
    std::vector<size_t> Got = runWindow(Threads, 3, 40, 1000, Worked,
                                        MaxInFlight);
    ASSERT_EQ(Got.size(), 40u) << Threads;
    for (size_t I = 0; I < Got.size(); ++I)
      EXPECT_EQ(Got[I], I) << Threads;
    EXPECT_EQ(Worked.load(), 40u);
    // The window bounds what is in memory: at most Window items produced
    // and not yet consumed, plus the one being handed over.
    EXPECT_LE(MaxInFlight, 4u) << Threads;
  }
}

TEST(OrderedWindow, StopProducesNothingMore) {
  for (unsigned Threads : {1u, 3u}) {
    std::atomic<size_t> Worked{0};
    size_t MaxInFlight = 0;
    std::vector<size_t> Got = runWindow(Threads, 4, 100, 5, Worked,
                                        MaxInFlight);
    ASSERT_EQ(Got.size(), 5u) << Threads;
    for (size_t I = 0; I < Got.size(); ++I)
      EXPECT_EQ(Got[I], I);
    // Items in flight when it stopped may have been worked on, no more.
    EXPECT_LE(Worked.load(), 5u + 4u) << Threads;
  }
}

TEST(OrderedWindow, Empty) {
  std::atomic<size_t> Worked{0};
  size_t MaxInFlight = 0;
  EXPECT_TRUE(runWindow(2, 0, 0, 10, Worked, MaxInFlight).empty());
  EXPECT_EQ(Worked.load(), 0u);
}

/// renderInOrder hands every item's text to the writer once, in item
/// order, whatever the threads, the batch and the items' lengths (empty
/// texts included: the Markdown sections skip them).
TEST(RenderInOrder, WritesEachTextInItemOrder) {
  for (unsigned Threads : {1u, 2u, 5u})
    for (size_t Batch : {1u, 3u, 32u})
      for (size_t N : {0u, 1u, 7u, 100u}) {
        std::vector<size_t> Order;
        std::string All;
        renderInOrder(
            N, Threads,
            [&](size_t I, llvm::raw_ostream &OS) {
              // Later items finish first within a batch's time.
              std::this_thread::sleep_for(
                  std::chrono::microseconds(20 * (N - I)));
              if (I % 4 != 3)
                OS << "<" << I << std::string(I % 5, 'x') << ">";
            },
            [&](size_t I, llvm::StringRef Text) {
              Order.push_back(I);
              All += Text.str();
              return true;
            },
            Batch);
        std::string Want;
        for (size_t I = 0; I < N; ++I)
          if (I % 4 != 3)
            Want += "<" + std::to_string(I) + std::string(I % 5, 'x') + ">";
        ASSERT_EQ(Order.size(), N) << Threads << " threads, batch " << Batch;
        for (size_t I = 0; I < N; ++I)
          EXPECT_EQ(Order[I], I);
        EXPECT_EQ(All, Want) << Threads << " threads, batch " << Batch;
      }
}

/// A writer that returns false stops the writing there: no later item is
/// written (the batches in flight are dropped).
TEST(RenderInOrder, StopsWhenTheWriterFails) {
  for (unsigned Threads : {1u, 2u, 5u}) {
    std::vector<size_t> Written;
    renderInOrder(
        100, Threads,
        [&](size_t I, llvm::raw_ostream &OS) { OS << I; },
        [&](size_t I, llvm::StringRef) {
          Written.push_back(I);
          return I != 40;
        },
        3);
    ASSERT_EQ(Written.size(), 41u) << Threads;
    for (size_t I = 0; I < Written.size(); ++I)
      EXPECT_EQ(Written[I], I);
  }
}

} // namespace

