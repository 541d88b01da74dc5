// renderFrontierPlot in a build without the GUI (ACSEL_BUILD_GUI=OFF): no plot widget to draw
// with (see frontierplot.h).
#include "app/cli/frontierplot.h"

namespace acsel::cli
{

FrontierPlot renderFrontierPlot(const FrontierPlotInput&)
{
    FrontierPlot out;
    out.unavailable = "this acsel was built without the GUI (ACSEL_BUILD_GUI=OFF), whose plot "
                      "code draws the figure";
    return out;
}

} // namespace acsel::cli
