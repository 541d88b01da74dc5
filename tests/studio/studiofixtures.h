// Shared by the tests that drive the real MainWindow offscreen.
#pragma once

#include "core/model/bandrecipe.h"

#include <QMessageBox>
#include <QWidget>

namespace acsel::studio::test
{

// The window scores and searches on two cores that other builds share: generous waits.
constexpr int kSlowMs = 120000;

// The recipe with its first cut moved by one layer (or a cut added at layer 1): an edit that
// keeps the recipe valid, whatever the recommendation was.
inline BandRecipe nudged(const BandRecipe& r)
{
    BandRecipe out;
    if (r.size() == 1) {
        out.push({0, 1, r[0].format, r[0].scope});
        out.push({1, r[0].end, Format::Bf16, Scope::Full});
        return out;
    }
    const int cut = r[0].end + (r[0].end - r[0].begin > 1 ? -1 : 1);
    out.push({r[0].begin, cut, r[0].format, r[0].scope});
    out.push({cut, r[1].end, r[1].format, r[1].scope});
    for (int i = 2; i < r.size(); ++i)
        out.push(r[i]);
    return out;
}

// The message box the window shows, if any.
inline QMessageBox* openBox(QWidget& window)
{
    for (QMessageBox* b : window.findChildren<QMessageBox*>())
        if (b->isVisible())
            return b;
    return nullptr;
}

} // namespace acsel::studio::test
