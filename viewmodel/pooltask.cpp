#include "viewmodel/pooltask.h"

#include <QRunnable>
#include <QThreadPool>
#include <mutex>

namespace acsel::gui
{
namespace
{

// One for every task: a task reaches it through no member (reading one before passing it would
// race with the task's construction), and it is held only while a task is built and queued.
std::mutex& handoverMutex()
{
    static std::mutex m;
    return m;
}

class PoolTask : public QRunnable
{
public:
    explicit PoolTask(std::function<void(QPromise<int>&)> body) : body_(std::move(body))
    {
        promise_.start();
    }
    QFuture<int> future() { return promise_.future(); }

    // Called by QThreadPool (deleted by it afterwards: autoDelete). Everything the starting
    // thread wrote before it released the hand-over happens before what follows it.
    void run() override
    {
        {
            const std::lock_guard pass(handoverMutex());
        }
        body_(promise_);
        promise_.finish();
    }

private:
    std::function<void(QPromise<int>&)> body_;
    QPromise<int> promise_;
};

} // namespace

QFuture<int> startPoolTask(std::function<void(QPromise<int>&)> body)
{
    const std::lock_guard handover(handoverMutex());
    auto* task = new PoolTask(std::move(body));
    QFuture<int> future = task->future();
    QThreadPool::globalInstance()->start(task); // may run at once: it waits for the hand-over
    return future;
}

} // namespace acsel::gui
