// acsel search/recommend --save-dir DIR: the answer as a folder to hand on (docs/CLI.md,
// "Results folder"): request.json (what acsel search --request reads), answer.json (what
// acsel export reads), top.csv + top.json (the answer and its distinct alternatives, best
// first), by_gpus.csv (with --by-gpus: the answer per GPU count), frontier.csv, frontier.png +
// frontier.svg (the GUI's plot with its provenance caption), the answer's ModelOpt recipe (YAML and
// JSON), hf_quant_config preview and engine launch script, and summary.md saying all of it in
// words. Every file is written atomically.
#pragma once

#include "app/cli/searchcommand.h"
#include "core/search/recommend.h"
#include "core/search/sizing.h"

#include <string>
#include <vector>

namespace acsel::cli
{

// Throws app::UsageError when dir is a file, or a folder with something in it and !force.
// Call it before the search, so that a refusal comes at once.
void checkResultsFolder(const std::string& dir, bool force);

struct ResultsInput {
    const WorkspaceEngine& engine;
    const SearchRun& run;
    const Recommendation& rec;
    std::vector<std::string> notes;       // the caveats the answer's documents carry
    Request gated;                        // the request the gate saw: run.request less the margin
    std::string marginNote;               // empty without a margin
    std::vector<std::string> nearestMiss; // why nothing fits (a heading, then one per budget)
    std::vector<SizingRow> sizing;        // --by-gpus: written as by_gpus.csv; empty: not asked
};

// Creates dir if needed and writes the files; returns their names in the order written.
// Warnings (no plot, a configuration that is not exportable) go to `warnings`.
std::vector<std::string> writeResultsFolder(const std::string& dir, const ResultsInput& in,
                                            std::ostream& warnings);

} // namespace acsel::cli
