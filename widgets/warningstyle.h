// The look of a warning line (the serving-model mismatch, an extrapolated RMQD): amber with
// dark text, readable in light and dark palettes alike.
#pragma once

class QLabel;

namespace acsel::gui
{

void styleAsWarning(QLabel& label);

} // namespace acsel::gui
