// What every export format is written from: the configuration, the model it is for, the
// request it was chosen for and the predictions, if any.
#pragma once

#include "core/data/configjson.h"
#include "core/model/config.h"
#include "core/model/modelarch.h"

#include <optional>
#include <string>

namespace acsel
{

struct ExportInput {
    ModelArch arch;
    Config config;
    Request request;
    std::optional<Prediction> predictions;
    std::string predictionNote{}; // empty: nothing to say
};

// The folder ModelOpt's export writes the quantized checkpoint to (hf_ptq.py --export_path in
// the recipe's header and howToApply) and so the folder `launch` serves: "<model>-acsel".
std::string exportFolder(const ModelArch& arch);

// The note of a configuration the gate rejected that is exported anyway (the window after its
// question, acsel export --allow-rejected): the rejection first, so that the file never passes
// for an answer. "REJECTED by the gate (<verdict>), exported on request; <note>".
std::string rejectedNote(const std::string& verdict, const std::string& note);

// One paragraph naming the tool and version, the model, the bands, the algorithm and
// exclusions, the request and the predicted TTFT/TPOT/memory/RMQD: the recipe's description.
std::string describeExport(const ExportInput& in);

} // namespace acsel
