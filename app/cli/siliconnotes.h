// What the commands that read measured rows (eval gate, report latency) print under their
// tables: the rows left out and the assumptions the predictions made.
#pragma once

#include "core/data/jsonfields.h"
#include "core/latency/siliconstudy.h"

#include <ostream>

namespace acsel::cli
{

// "excluded row <id> (line N): <reason>" per skipped row, then "assumed: <text>" per assumption.
void printSiliconNotes(const SiliconPrediction& p, std::ostream& out);
// The same as the JSON fields "skipped_rows" ([{id, reason}]) and "assumptions" of `j`.
void addSiliconNotes(const SiliconPrediction& p, Json& j);

} // namespace acsel::cli
