// The TSan stage's probe (built only with ACSEL_SANITIZE=thread, tests/CMakeLists.txt): a
// deliberate data race between the GUI thread and a SearchRunner job, i.e. code running in a
// pooled worker thread. Its test passes only when ThreadSanitizer reports the race and names this
// file, so a suppression in .ci/tsan.supp wide enough to hide worker code fails it.
#include "viewmodel/searchrunner.h"

#include <QCoreApplication>
#include <thread>

namespace
{
int unguarded = 0; // incremented by both threads, with nothing ordering the increments
// Relaxed, so it orders nothing for TSan: it only makes the job's increment come second in
// time, after the GUI thread's, so that no later synchronisation can order the two.
std::atomic<bool> guiIncremented{false};
} // namespace

int main(int argc, char** argv)
{
    const QCoreApplication app(argc, argv);
    {
        acsel::gui::SearchRunner runner;
        runner.start<int>(
            [](const acsel::gui::SearchRunner::ProgressFn&, const std::atomic<bool>&) {
                while (!guiIncremented.load(std::memory_order_relaxed))
                    std::this_thread::yield();
                return ++unguarded;
            },
            {});
        ++unguarded;
        guiIncremented.store(true, std::memory_order_relaxed);
    } // the runner's destructor waits for the job
    // Read after the join, so that the compiler keeps the increments (a variable that is only
    // written may be dropped, and the race with it).
    return unguarded == 2 ? 0 : 1;
}
