// The start-up profile (--startup-profile): when each start-up stage ended, on stderr.
#pragma once

#include <QElapsedTimer>
#include <string>

namespace acsel::studio
{

// --startup-profile: once given the process clock, startupMark prints "<ms since start> ms
// <what>" to stderr (from any thread); without it startupMark does nothing.
void setStartupClock(const QElapsedTimer* sinceStart);
void startupMark(const std::string& what);

} // namespace acsel::studio
