#include "core/search/workshare.h"

namespace acsel
{

WorkShare::WorkShare(int threads)
{
    for (int t = 1; t < threads; ++t)
        helpers_.emplace_back([this] { help(); });
}

WorkShare::~WorkShare()
{
    {
        const std::lock_guard lock(mutex_);
        quit_ = true;
    }
    wake_.notify_all();
    for (std::thread& h : helpers_)
        h.join();
}

void WorkShare::run(std::size_t n, const std::function<void(std::size_t)>& task)
{
    if (helpers_.empty() || n < 2) {
        for (std::size_t k = 0; k < n; ++k)
            task(k);
        return;
    }
    {
        const std::lock_guard lock(mutex_);
        task_ = &task;
        size_ = n;
        next_.store(0, std::memory_order_relaxed);
        ++loop_;
        open_ = true;
    }
    wake_.notify_all();
    // Closed, the loop takes no more helpers, and those in it finish the item they hold, also
    // when a call on this thread throws: the items may live no longer than this call.
    struct Close {
        WorkShare& share;
        ~Close()
        {
            std::unique_lock lock(share.mutex_);
            share.open_ = false;
            share.next_.store(share.size_, std::memory_order_relaxed);
            share.idle_.wait(lock, [this] { return share.busy_ == 0; });
        }
    } close{*this};
    for (std::size_t k; (k = next_.fetch_add(1, std::memory_order_relaxed)) < n;)
        task(k);
}

void WorkShare::help()
{
    std::uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return quit_ || (open_ && loop_ != seen); });
        if (quit_)
            return;
        seen = loop_;
        ++busy_;
        const std::function<void(std::size_t)>& task = *task_;
        const std::size_t n = size_;
        lock.unlock();
        for (std::size_t k; (k = next_.fetch_add(1, std::memory_order_relaxed)) < n;)
            task(k);
        lock.lock();
        if (--busy_ == 0)
            idle_.notify_one();
    }
}

} // namespace acsel
