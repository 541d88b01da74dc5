#include "viewmodel/exportnote.h"

#include "core/export/exportinput.h"

namespace acsel::gui
{

std::string exportNote(const PredictionView& p, const std::string& note)
{
    return p.admitted ? note : rejectedNote(p.verdict, note);
}

} // namespace acsel::gui
