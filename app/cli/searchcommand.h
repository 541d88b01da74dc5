// Shared by acsel search and acsel recommend: run one searcher on one request and print the
// answer (text, or the configuration JSON that acsel export reads).
#pragma once

#include "app/cli/command.h"
#include "core/search/searcher.h"
#include "core/search/workspaceengine.h"

namespace acsel::cli
{

struct SearchRun {
    Request request;
    SearchOptions options;
    std::string algorithm = "bp";
    bool json = false;
};

// Returns 0 with an answer, 3 when no configuration passes the gate.
int runSearchAndPrint(const WorkspaceEngine& engine, const SearchRun& run, CommandIo& io);

// Reads a request file ({schema_version, stack, request, models?}) into `run`.
void readRequestFile(const std::string& path, const Workspace& ws, SearchRun& run);

} // namespace acsel::cli
