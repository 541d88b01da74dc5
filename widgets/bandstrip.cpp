#include "widgets/bandstrip.h"

#include "viewmodel/bandedits.h"
#include "widgets/bandeditcommands.h"
#include "widgets/bandpainter.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QPainter>
#include <QUndoStack>
#include <algorithm>
#include <cmath>

namespace acsel::gui
{

namespace
{
constexpr int kMargin = 8;
constexpr int kGrab = 6;        // pixels either side of a boundary that start a drag
constexpr int kAxisHeight = 16; // layer numbers under the strip

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
} // namespace

BandStrip::BandStrip(QWidget* parent) : QWidget(parent), undo_(new QUndoStack(this))
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    formats_.assign(kAllFormats.begin(), kAllFormats.end());
    setAccessibleName(tr("Band editor"));
}

void BandStrip::setAvailableFormats(std::vector<Format> formats)
{
    formats_ = std::move(formats);
}

void BandStrip::setMoe(bool moe)
{
    moe_ = moe;
    update();
}

void BandStrip::setRecipe(const BandRecipe& recipe)
{
    undo_->clear();
    focusedCut_ = recipe.size() > 1 ? 0 : -1;
    showRecipe(recipe);
}

void BandStrip::edit(const BandRecipe& next, const QString& text)
{
    if (next == recipe_)
        return;
    undo_->push(new RecipeEditCommand(this, recipe_, next, text));
}

void BandStrip::showRecipe(const BandRecipe& recipe)
{
    recipe_ = recipe;
    if (focusedCut_ >= recipe_.size() - 1)
        focusedCut_ = recipe_.size() - 2;
    if (focusedCut_ < 0 && recipe_.size() > 1)
        focusedCut_ = 0;
    update();
    emit recipeChanged(recipe_);
}

void BandStrip::setFocusedCut(int cut)
{
    focusedCut_ = std::clamp(cut, -1, recipe_.size() - 2);
    update();
}

QRect BandStrip::stripRect() const
{
    return QRect(kMargin, kMargin, width() - 2 * kMargin, height() - 2 * kMargin - kAxisHeight);
}

int BandStrip::layerX(int layer) const
{
    return bandLayerX(stripRect(), recipe_.numLayers(), layer);
}

int BandStrip::layerAt(int x) const
{
    const QRect r = stripRect();
    const int layers = std::max(1, recipe_.numLayers());
    const double f = static_cast<double>(x - r.left()) / std::max(1, r.width());
    return std::clamp(static_cast<int>(std::lround(f * layers)), 0, layers);
}

int BandStrip::bandAt(QPoint pos) const
{
    if (recipe_.size() == 0)
        return -1;
    const QRect r = stripRect();
    const int layers = recipe_.numLayers();
    const double f = static_cast<double>(pos.x() - r.left()) / std::max(1, r.width());
    const int layer = std::clamp(static_cast<int>(std::floor(f * layers)), 0, layers - 1);
    for (int i = 0; i < recipe_.size(); ++i)
        if (layer < recipe_[i].end)
            return i;
    return recipe_.size() - 1;
}

int BandStrip::cutNear(int x) const
{
    int best = -1;
    int bestD = kGrab + 1;
    for (int c = 0; c + 1 < recipe_.size(); ++c) {
        const int d = std::abs(layerX(recipe_[c].end) - x);
        if (d < bestD) {
            bestD = d;
            best = c;
        }
    }
    return best;
}

QSize BandStrip::sizeHint() const
{
    return {640, 76};
}
QSize BandStrip::minimumSizeHint() const
{
    return {200, 56};
}

void BandStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette pal = palette();
    const QRect strip = stripRect();
    const int layers = recipe_.numLayers();
    if (layers == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No configuration selected"));
        return;
    }
    paintBands(p, strip, recipe_, pal, moe_, true);
    // Layer ticks and numbers.
    p.setPen(pal.color(QPalette::WindowText));
    const int step = layers <= 32 ? 4 : 8;
    for (int k = 0; k <= layers; ++k) {
        const int x = layerX(k);
        const bool labelled = k % step == 0 || k == layers;
        p.drawLine(x, strip.bottom() + 1, x, strip.bottom() + (labelled ? 5 : 3));
        if (labelled)
            p.drawText(QRect(x - 20, strip.bottom() + 4, 40, kAxisHeight - 2),
                       Qt::AlignHCenter | Qt::AlignTop, QString::number(k));
    }
    // Boundaries: the focused one is drawn thicker in the highlight colour.
    for (int c = 0; c + 1 < recipe_.size(); ++c) {
        const int x = layerX(recipe_[c].end);
        const bool focused = c == focusedCut_ && hasFocus();
        p.setPen(QPen(focused ? pal.color(QPalette::Highlight) : pal.color(QPalette::WindowText),
                      focused ? 4 : 2));
        p.drawLine(x, strip.top() - 4, x, strip.bottom() + 4);
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(strip.adjusted(0, 0, -1, -1));
}

void BandStrip::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(e);
    dragCut_ = cutNear(e->pos().x());
    if (dragCut_ >= 0) {
        dragStart_ = recipe_;
        setFocusedCut(dragCut_);
    }
}

void BandStrip::mouseMoveEvent(QMouseEvent* e)
{
    if (dragCut_ < 0) {
        setCursor(cutNear(e->pos().x()) >= 0 ? Qt::SplitHCursor : Qt::ArrowCursor);
        return;
    }
    // Live preview while dragging; the undo step is recorded on release.
    if (const auto moved = moveCut(dragStart_, dragCut_, layerAt(e->pos().x()));
        moved && !(*moved == recipe_))
        showRecipe(*moved);
}

void BandStrip::mouseReleaseEvent(QMouseEvent* e)
{
    if (dragCut_ < 0 || e->button() != Qt::LeftButton)
        return QWidget::mouseReleaseEvent(e);
    const int cut = dragCut_;
    dragCut_ = -1;
    const BandRecipe moved = recipe_;
    if (moved == dragStart_)
        return;
    recipe_ = dragStart_; // the command's redo shows the moved recipe again
    edit(moved, tr("move boundary %1 to layer %2").arg(cut + 1).arg(moved[cut].end));
}

void BandStrip::mouseDoubleClickEvent(QMouseEvent* e)
{
    openMenu(e->pos());
}
void BandStrip::contextMenuEvent(QContextMenuEvent* e)
{
    openMenu(e->pos());
}

void BandStrip::openMenu(QPoint pos)
{
    const int band = bandAt(pos);
    if (band < 0)
        return;
    const int layer = std::clamp(layerAt(pos.x()), recipe_[band].begin, recipe_[band].end);
    QMenu* menu = bandMenu(band, layer, this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(mapToGlobal(pos));
}

QMenu* BandStrip::bandMenu(int band, int atLayer, QWidget* parent)
{
    auto* menu = new QMenu(parent);
    const Band b = recipe_[band];
    // An action that applies `next` if it exists (its undo step named `step`); disabled (with
    // the reason) if illegal.
    auto offer = [this](QMenu* m, const QString& text, const QString& step,
                        const std::optional<BandRecipe>& next, bool checked = false) {
        QAction* a = m->addAction(text);
        a->setCheckable(checked);
        a->setChecked(checked);
        a->setEnabled(next.has_value() && !checked);
        if (!next)
            a->setToolTip(tr("Not legal: no calibration algorithm fits every band"));
        if (next)
            connect(a, &QAction::triggered, this, [this, step, r = *next] { edit(r, step); });
    };
    const int number = band + 1; // as the user counts bands
    QMenu* fmt = menu->addMenu(tr("Format"));
    for (Format f : formats_)
        offer(fmt, qs(toString(f)), tr("band %1 format %2").arg(number).arg(qs(toString(f))),
              setBand(recipe_, band, f, f == Format::Bf16 ? Scope::Full : b.scope), f == b.format);
    QMenu* scope = menu->addMenu(tr("Scope"));
    scope->setEnabled(b.format != Format::Bf16);
    for (Scope s : kAllScopes)
        offer(scope, qs(toString(s, moe_)),
              tr("band %1 scope %2").arg(number).arg(qs(toString(s, moe_))),
              setBand(recipe_, band, b.format, s), s == b.scope);
    if (recipe_.size() < BandRecipe::kMaxBands && atLayer > b.begin && atLayer < b.end) {
        QMenu* split = menu->addMenu(tr("Split at layer %1, right part as").arg(atLayer));
        for (Format f : formats_)
            for (Scope s : kAllScopes) {
                if (f == Format::Bf16 && s != Scope::Full)
                    continue;
                const QString name = bandLabel({0, 1, f, s}, moe_);
                if (const auto next = splitBand(recipe_, band, atLayer, f, s))
                    offer(split, name,
                          tr("split band %1 at layer %2, right part %3")
                              .arg(number)
                              .arg(atLayer)
                              .arg(name),
                          next);
            }
    }
    if (band > 0)
        offer(menu, tr("Merge into the left band"),
              tr("merge band %1 into band %2").arg(number).arg(number - 1),
              mergeWithNext(recipe_, band - 1));
    if (band + 1 < recipe_.size())
        offer(menu, tr("Merge into the right band"),
              tr("merge band %1 into band %2").arg(number).arg(number + 1),
              mergeIntoNext(recipe_, band));
    return menu;
}

void BandStrip::keyPressEvent(QKeyEvent* e)
{
    const int cuts = recipe_.size() - 1;
    if (cuts <= 0)
        return QWidget::keyPressEvent(e);
    switch (e->key()) {
    case Qt::Key_Up:
    case Qt::Key_Down:
        setFocusedCut(((focusedCut_ + (e->key() == Qt::Key_Down ? 1 : -1)) % cuts + cuts) % cuts);
        return;
    case Qt::Key_Left:
    case Qt::Key_Right: {
        const int c = std::max(0, focusedCut_);
        const int to = recipe_[c].end + (e->key() == Qt::Key_Right ? 1 : -1);
        if (const auto moved = moveCut(recipe_, c, to))
            edit(*moved, tr("move boundary %1 to layer %2").arg(c + 1).arg((*moved)[c].end));
        return;
    }
    default:
        QWidget::keyPressEvent(e);
    }
}

} // namespace acsel::gui
