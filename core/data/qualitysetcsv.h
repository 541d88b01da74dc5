// The provenance lines of a CSV quality set: "# key: value" lines before the header that say
// whether the numbers are synthetic, where they come from and, for a generated set, how it was
// made. The CSV reader knows nothing of them: they are taken off here and the table handed on
// with each one left as an empty line, so that its line numbers in errors stay the file's.
//
//   # synthetic: true                      true or false; without it the set counts as measured
//   # provenance: who measured what, how   one line of text; default "imported from CSV <file>"
//   # generator: {"seed": 2611, ...}       a JSON object on one line (how a synthetic set was made)
//   model,algorithm,lm_head_quantized,kv,bands,rmqd,split
//
// Each key at most once; any other key, a value of the wrong kind, or a "#" line after the
// header is a LoadError naming the file and the line.
#pragma once

#include "core/data/jsonfields.h"

#include <nlohmann/json.hpp> // CsvProvenance holds its generator by value
#include <string>

namespace acsel
{

struct CsvProvenance {
    bool synthetic = false;
    std::string provenance; // empty when the file gives none
    Json generator;         // null when the file gives none
    std::string table;      // the text from the header on, the provenance lines left empty
};

CsvProvenance splitCsvProvenance(const std::string& text, const std::string& file);

// The lines that read back as `synthetic`, `provenance` and `generator`. Throws LoadError
// (naming `file`) for a provenance that one line cannot hold: empty, with a line break, with
// white space at either end, or not valid UTF-8.
std::string csvProvenanceLines(bool synthetic, const std::string& provenance, const Json& generator,
                               const std::string& file);

} // namespace acsel
