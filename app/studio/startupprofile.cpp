#include "startupprofile.h"

#include <atomic>
#include <cstdio>

namespace acsel::studio
{

namespace
{
std::atomic<const QElapsedTimer*> startupClock{nullptr};
}

void setStartupClock(const QElapsedTimer* sinceStart)
{
    startupClock.store(sinceStart);
}

void startupMark(const std::string& what)
{
    if (const QElapsedTimer* clock = startupClock.load())
        std::fprintf(stderr, "startup %7.1f ms  %s\n",
                     static_cast<double>(clock->nsecsElapsed()) / 1e6, what.c_str());
}

} // namespace acsel::studio
