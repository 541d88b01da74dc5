// The note an exported file's header carries (ExportInput::predictionNote): where the
// predictions come from and, for a configuration the gate rejected that the user chose to export
// anyway, the rejection first, so that the file never passes for an answer.
#pragma once

#include "viewmodel/explorertypes.h"

#include <string>

namespace acsel::gui
{

// "REJECTED by the gate (memory 76.2 GiB exceeds the budget 75.0 GiB), exported on request;
// <note>" for a rejected prediction, else `note`.
std::string exportNote(const PredictionView& p, const std::string& note);

} // namespace acsel::gui
