// Shared by acsel search and acsel recommend: the recommend use case (core/search/recommend.h)
// on one request, printed (text, or the configuration JSON that acsel export reads; with
// --top / --frontier it gains "top" and "frontier" arrays of such documents).
#pragma once

#include "app/cli/command.h"
#include "app/common/args.h"
#include "core/search/searcher.h"
#include "core/search/workspaceengine.h"

namespace acsel::cli
{

struct SearchRun {
    Request request;
    SearchOptions options;
    std::string algorithm; // a registered searcher name; empty: the default
    int top = 0;           // alternatives to print after the answer
    bool frontier = false; // print the admitted frontier too
    bool byGpus = false;   // also the answer with 1, 2, 4 and 8 GPUs (core/search/sizing.h)
    bool json = false;
    std::string saveDir; // --save-dir: also write the results folder (resultsfolder.h)
    bool force = false;  // --force: replace the results in a non-empty folder
    // --margin: gate at budgets this many percent inside the request's (budgetmargin.h).
    double marginPercent = 0;
};

// The results-folder options of search and recommend: --save-dir DIR and --force; with
// --save-dir, --top defaults to 4 (the answer and 4 alternatives in top.csv).
void addResultsFolderOptions(std::vector<app::OptionSpec>& specs);
void readResultsFolderOptions(const app::Args& args, SearchRun& run);

// --by-gpus, shared by search and recommend.
void addSizingOption(std::vector<app::OptionSpec>& specs);

// Returns 0 with an answer, 3 when no configuration passes the gate.
// --margin P of search and recommend: P in [0, 100), else a UsageError of one line.
void addMarginOption(std::vector<app::OptionSpec>& specs);
void readMarginOption(const app::Args& args, SearchRun& run);

// Returns 0 with an answer, 3 when no configuration passes the gate (then it says, per budget,
// the nearest miss: core/search/nearestmiss.h).
int runSearchAndPrint(const WorkspaceEngine& engine, const SearchRun& run, CommandIo& io);

// Reads a request file ({schema_version, stack, request, models?}) into `run`; `mode` (the
// --mode flag) replaces the file's, which may then be absent.
void readRequestFile(const std::string& path, const Workspace& ws, SearchRun& run,
                     std::optional<ServingMode> mode = std::nullopt);

} // namespace acsel::cli
