#include "viewmodel/exportnote.h"

namespace acsel::gui
{

std::string exportNote(const PredictionView& p, const std::string& note)
{
    if (p.admitted)
        return note;
    return "REJECTED by the gate (" + p.verdict + "), exported on request" +
           (note.empty() ? std::string() : "; " + note);
}

} // namespace acsel::gui
