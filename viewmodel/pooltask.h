// Starts a job on the global thread pool and returns its future, as QtConcurrent::run with a
// QPromise does, but hands it over in a way ThreadSanitizer sees. Debian's Qt is not built with
// TSan: QThreadPool queues a task under a QMutex inside libQt6Core, invisible to it, and
// QtConcurrent's header code then reads and moves the task's stored function on the pooled
// thread before our code runs, so TSan reported races in every job unless the frames our worker
// code runs under were suppressed, which hid real races there too (docs/PACKAGING.md). Here the
// task's run() is ours from its first statement, and it passes a std::mutex the starting thread
// held while it built and queued the task.
#pragma once

#include <QFuture>
#include <QPromise>
#include <functional>

namespace acsel::gui
{

// `body` runs once on a pooled thread with the task's promise (progress, results), which is
// finished when it returns; it must not throw. The future is started before this returns.
QFuture<int> startPoolTask(std::function<void(QPromise<int>&)> body);

} // namespace acsel::gui
