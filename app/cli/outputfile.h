// Where a command writes its output file (--output, -o): '-' means standard output (the file's
// text alone on stdout, the command's summary moved to stderr); anything else is a file written
// atomically (core/data/atomicfile.h: a temporary file in the same folder, synced, renamed over
// it) and never over an existing file without --force; a symlinked output is written through
// to its target. Shared by every command that writes a file.
#pragma once

#include "app/cli/command.h"

#include <ostream>
#include <string>
#include <vector>

namespace acsel::cli
{

// argv with every "-o" spelled "--output" (the shared parser knows long options only).
std::vector<std::string> expandOutputShortOption(std::vector<std::string> argv);

inline bool isStandardOutput(const std::string& path)
{
    return path == "-";
}

// Throws app::UsageError, naming the command, when path is a folder, its folder does not exist,
// or it exists and !force. Nothing to check for '-'. Call it before the work, so that a refusal
// comes at once.
void checkOutputPath(const std::string& command, const std::string& path, bool force);

// '-': text to io.out. Else checkOutputPath, then the atomic write (the file gets the
// permissions a plain write would have had). Throws app::UsageError when writing fails.
void writeOutput(const std::string& command, const std::string& path, const std::string& text,
                 bool force, CommandIo& io);

// Where the human-readable summary goes: stderr when the file itself goes to stdout.
inline std::ostream& summaryStream(const std::string& path, CommandIo& io)
{
    return isStandardOutput(path) ? io.err : io.out;
}

} // namespace acsel::cli
