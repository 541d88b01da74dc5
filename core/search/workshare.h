// Helper threads kept for many short parallel loops. Starting a thread per loop costs more
// than a loop of a few hundred full gates, and on a loaded machine the caller then waits for
// a helper the scheduler has not run yet. Here the helpers wait on a condition variable and
// take part in a loop only when they wake in time: the calling thread takes items too, and
// waits only for the items a helper already took.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace acsel
{

class WorkShare
{
public:
    // `threads`: the calling thread and threads - 1 helpers.
    explicit WorkShare(int threads);
    ~WorkShare();
    WorkShare(const WorkShare&) = delete;
    WorkShare& operator=(const WorkShare&) = delete;

    // Calls task(k) once for each k in [0, n), on the calling thread and the helpers awake,
    // in any order; returns when every call has returned. What the calls write is then visible
    // to the caller.
    void run(std::size_t n, const std::function<void(std::size_t)>& task);

private:
    void help();

    std::mutex mutex_;
    std::condition_variable wake_, idle_;
    const std::function<void(std::size_t)>* task_ = nullptr;
    std::size_t size_ = 0;
    std::atomic<std::size_t> next_{0};
    std::uint64_t loop_ = 0; // the number of loops opened
    bool open_ = false;      // whether a helper may still join loop_
    int busy_ = 0;           // helpers in loop_
    bool quit_ = false;
    std::vector<std::thread> helpers_;
};

} // namespace acsel
