//===- DeviceThreads.cpp - threads that run simulated devices -------------===//

#include "runtime/exec/DeviceThreads.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace xspmd::runtime {

namespace {

class ThreadGroup {
public:
  /// Runs body(1..n-1) on the group's workers; the caller runs body(0).
  void run(int64_t n, llvm::function_ref<void(int64_t)> body) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      while (static_cast<int64_t>(workers.size()) < n - 1) {
        int64_t index = workers.size() + 1;
        workers.emplace_back([this, index] { work(index); });
      }
      job = body;
      active = n - 1;
      remaining = n - 1;
      ++generation;
    }
    wake.notify_all();
    body(0);
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return remaining == 0; });
  }

  /// Serializes whole runs; a busy group is bypassed, not waited for.
  std::mutex runMutex;

private:
  void work(int64_t index) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      wake.wait(lock, [&] { return generation != seen; });
      seen = generation;
      if (index > active)
        continue;
      llvm::function_ref<void(int64_t)> body = job;
      lock.unlock();
      body(index);
      lock.lock();
      if (--remaining == 0)
        done.notify_one();
    }
  }

  std::mutex mutex;
  std::condition_variable wake, done;
  std::vector<std::thread> workers;
  llvm::function_ref<void(int64_t)> job;
  uint64_t generation = 0;
  int64_t active = 0, remaining = 0;
};

/// Never destroyed: its threads wait forever and die with the process.
ThreadGroup &group() {
  static ThreadGroup *instance = new ThreadGroup();
  return *instance;
}

} // namespace

void runConcurrently(int64_t n, llvm::function_ref<void(int64_t)> body) {
  if (n <= 1) {
    if (n == 1)
      body(0);
    return;
  }
  ThreadGroup &g = group();
  std::unique_lock<std::mutex> busy(g.runMutex, std::try_to_lock);
  if (busy.owns_lock()) {
    g.run(n, body);
    return;
  }
  std::vector<std::thread> threads;
  for (int64_t i = 1; i < n; ++i)
    threads.emplace_back([&body, i] { body(i); });
  body(0);
  for (std::thread &t : threads)
    t.join();
}

} // namespace xspmd::runtime
