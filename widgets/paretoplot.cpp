#include "widgets/paretoplot.h"

#include "widgets/elidedlabel.h"
#include "widgets/logticker.h"
#include "widgets/markspread.h"
#include "widgets/plotcolours.h"
#include "widgets/pointcloud.h"

#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineF>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace acsel::gui
{

namespace
{
// Log axes cannot show 0 (bf16 matches the oracle exactly): such points sit on this floor.
constexpr double kLogFloor = 1e-5;
constexpr int kFadedAlpha = 45;
constexpr int kMinPngWidth = 1600; // pixels of a PNG saved at the plot's size
constexpr int kCaptionMargin = 6;

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// Cloud markers as pixmaps: blitting is ~20x faster than QPainter::drawEllipse per point
// (measured in bench_gui_plot), which is what keeps 50k points within a frame.
QPixmap markerPixmap(bool diamond, const QColor& colour, double size, qreal dpr)
{
    const int px = static_cast<int>(std::ceil((size + 2) * dpr));
    QPixmap pm(px, px);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    const double c = px / dpr / 2.0;
    const double r = size / 2.0;
    if (diamond)
        p.drawPolygon(QPolygonF(
            {QPointF(c, c - r), QPointF(c + r, c), QPointF(c, c + r), QPointF(c - r, c)}));
    else
        p.drawEllipse(QPointF(c, c), r, r);
    return pm;
}
} // namespace

ParetoPlot::ParetoPlot(QWidget* parent) : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setPlottingHint(QCP::phFastPolylines, true);
    plot_->setNoAntialiasingOnDrag(true);
    plot_->xAxis->setLabel(tr("Predicted TTFT (ms)"));
    plot_->yAxis->setLabel(tr("Predicted RMQD (mean KL)")); // short: a laptop's plot is low
    plot_->legend->setVisible(true);
    // Legend in its own column right of the axis rect, so it never hides points.
    plot_->plotLayout()->addElement(0, 1, plot_->legend);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foRowsFirst);

    plot_->addLayer(QStringLiteral("hover"), plot_->layer(QStringLiteral("main")),
                    QCustomPlot::limAbove);
    hoverLayer_ = plot_->layer(QStringLiteral("hover"));
    hoverLayer_->setMode(QCPLayer::lmBuffered); // hover repaints only this layer

    infeasibleRegion_ = new QCPItemRect(plot_);
    infeasibleRegion_->setLayer(QStringLiteral("background"));
    infeasibleRegion_->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    infeasibleRegion_->bottomRight->setType(QCPItemPosition::ptAxisRectRatio);
    infeasibleRegion_->bottomRight->setCoords(1, 1);
    infeasibleRegion_->setPen(Qt::NoPen);
    budgetLine_ = new QCPItemStraightLine(plot_);
    budgetLine_->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
    budgetLine_->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);

    cloud_ = new PointCloud(plot_->xAxis, plot_->yAxis);
    cloud_->setLayer(QStringLiteral("main"));
    frontier_ = plot_->addGraph();
    frontier_->setName(tr("Pareto frontier"));
    frontier_->setLineStyle(QCPGraph::lsStepLeft);
    frontier_->setAdaptiveSampling(false);
    uniformKey_ = plot_->addGraph();
    uniformKey_->setName(tr("uniform"));
    uniformKey_->setLineStyle(QCPGraph::lsNone);
    bandKey_ = plot_->addGraph();
    bandKey_->setName(tr("band (2-3 bands)"));
    bandKey_->setLineStyle(QCPGraph::lsNone);
    markGraph(pinned_, tr("pinned")); // its legend key: the numbered squares are items
    markGraph(selected_, tr("selected"));
    markGraph(bestUniform_, tr("best uniform"));
    markGraph(recommended_, tr("recommended"));
    markGraph(hover_, QString());
    hover_->setLayer(hoverLayer_);
    hover_->removeFromLegend();
    // Marks on their own layer above the cloud, whatever order graphs are created in.
    plot_->addLayer(QStringLiteral("marks"), plot_->layer(QStringLiteral("main")),
                    QCustomPlot::limAbove);
    for (QCPGraph* g : {frontier_, pinned_, selected_, bestUniform_, recommended_})
        g->setLayer(QStringLiteral("marks"));

    connect(plot_, &QCustomPlot::mouseMove, this, &ParetoPlot::onMouseMove);
    connect(plot_, &QCustomPlot::mousePress, this, &ParetoPlot::onMousePress);
    connect(plot_, &QCustomPlot::mouseRelease, this, &ParetoPlot::onMouseRelease);
    connect(plot_, &QCustomPlot::mouseWheel, this, [this] { autoFit_ = false; });
    connect(plot_, &QCustomPlot::afterLayout, this, &ParetoPlot::placePins);
    plot_->installEventFilter(this); // the hover circle goes when the mouse leaves
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { updateBudgetItems(); });

    buildControls();
    applyPalette();
    rebuildSeries();
}

ParetoPlot::~ParetoPlot() = default;

QCPGraph* ParetoPlot::markGraph(QCPGraph*& g, const QString& name)
{
    g = plot_->addGraph();
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setAdaptiveSampling(false);
    return g;
}

void ParetoPlot::buildControls()
{
    auto* bar = new QHBoxLayout;
    axisBox_ = new QComboBox(this);
    axisBox_->addItem(tr("x: TTFT (ms)"));
    axisBox_->addItem(tr("x: TPOT (ms)"));
    axisBox_->addItem(tr("x: max(TTFT/L1, TPOT/L2)"));
    axisBox_->setToolTip(tr("Latency axis"));
    colourBox_ = new QComboBox(this);
    colourBox_->addItem(tr("Colour by model"));
    colourBox_->addItem(tr("Colour by format family"));
    logYBox_ = new QCheckBox(tr("Log RMQD"), this);
    logXBox_ = new QCheckBox(tr("Log latency"), this);
    auto* reset = new QToolButton(this);
    reset->setText(tr("Reset view"));
    // One line, always there (elided, the whole text its tooltip): the uniform configurations'
    // longer provenance, then the complete set's, must not move the plot under the hand.
    provenance_ = new ElidedLabel(this);
    provenance_->setObjectName(QStringLiteral("plotProvenance"));
    bar->addWidget(axisBox_);
    bar->addWidget(colourBox_);
    bar->addWidget(logXBox_);
    bar->addWidget(logYBox_);
    bar->addWidget(reset);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(provenance_);
    layout->addWidget(plot_, 1);
    connect(axisBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int i) { setAxis(static_cast<LatencyAxis>(i)); });
    connect(colourBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int i) { setColourBy(i == 0 ? ColourBy::Model : ColourBy::FormatFamily); });
    connect(logYBox_, &QCheckBox::toggled, this, &ParetoPlot::setLogY);
    connect(logXBox_, &QCheckBox::toggled, this, &ParetoPlot::setLogX);
    connect(reset, &QToolButton::clicked, this, &ParetoPlot::resetView);
}

void ParetoPlot::setPoints(std::shared_ptr<const PointSet> points)
{
    points_ = std::move(points);
    scored_.orderSource = nullptr; // a new set may reuse the old one's address
    clearHover();
    families_.fill(false);
    if (points_)
        for (const PlotPoint& p : points_->points)
            families_[static_cast<std::size_t>(p.family)] = true;
    autoFit_ = true;
    const bool synthetic = points_ && points_->synthetic;
    provenance_->setText(points_ ? qs(points_->provenance) : QString());
    QFont font = provenance_->font();
    font.setBold(synthetic);
    provenance_->setFont(font);
    QPalette pal; // empty: the theme's, inherited
    if (synthetic)
        pal.setColor(QPalette::WindowText, QColor(0xb0, 0x00, 0x20));
    provenance_->setPalette(pal);
    rebuildSeries();
    rescore();
}

void ParetoPlot::setBudgets(const Budgets& budgets)
{
    if (budgets == budgets_)
        return;
    budgets_ = budgets;
    rescore();
}

void ParetoPlot::setAxis(LatencyAxis axis)
{
    if (axisBox_->currentIndex() != static_cast<int>(axis)) {
        axisBox_->setCurrentIndex(static_cast<int>(axis)); // re-enters via the signal
        return;
    }
    const bool changed = axis_ != axis;
    axis_ = axis;
    static const char* const labels[] = {"Predicted TTFT (ms)", "Predicted TPOT (ms)",
                                         "Normalised latency max(TTFT/L1, TPOT/L2)"};
    plot_->xAxis->setLabel(tr(labels[static_cast<int>(axis)]));
    autoFit_ = true;
    rescore();
    if (changed)
        emit viewChanged();
}

void ParetoPlot::setLogY(bool on)
{
    logYBox_->setChecked(on);
    if (logY_ == on)
        return;
    logY_ = on;
    plot_->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    plot_->yAxis->setTicker(on ? QSharedPointer<QCPAxisTicker>(new LogTicker)
                               : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    autoFit_ = true;
    rescore();
    emit viewChanged();
}

void ParetoPlot::setLogX(bool on)
{
    logXBox_->setChecked(on);
    if (logX_ == on)
        return;
    logX_ = on;
    plot_->xAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    plot_->xAxis->setTicker(on ? QSharedPointer<QCPAxisTicker>(new LogTicker)
                               : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    autoFit_ = true;
    rescore();
    emit viewChanged();
}

void ParetoPlot::setColourBy(ColourBy by)
{
    colourBox_->setCurrentIndex(by == ColourBy::Model ? 0 : 1);
    if (colourBy_ == by)
        return;
    colourBy_ = by;
    rebuildSeries();
    rescore();
    emit viewChanged();
}

void ParetoPlot::setRecommended(std::optional<MarkedPoint> p)
{
    recommendedMark_ = p;
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ParetoPlot::setBestUniform(std::optional<MarkedPoint> p)
{
    bestUniformMark_ = p;
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ParetoPlot::setSelected(std::optional<MarkedPoint> p)
{
    selectedMark_ = p;
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ParetoPlot::setPinned(const std::vector<MarkedPoint>& pins)
{
    pinnedMarks_ = pins;
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

double ParetoPlot::plotY(double rmqd) const
{
    return logY_ ? std::max(rmqd, kLogFloor) : rmqd;
}

// Styles of the cloud: category x (uniform, band) x (feasible, faded); legend entries are empty
// graphs that are kept and renamed, never rebuilt.
void ParetoPlot::rebuildSeries()
{
    const int categories =
        colourBy_ == ColourBy::FormatFamily
            ? kFormatCount
            : std::max<int>(1, points_ ? static_cast<int>(points_->modelNames.size()) : 1);
    const QPalette pal = palette();
    const qreal dpr = devicePixelRatioF();
    std::vector<PointCloud::Style> styles;
    while (static_cast<int>(legendKeys_.size()) < categories) {
        QCPGraph* g = plot_->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        legendKeys_.push_back(g);
    }
    for (int c = 0; c < static_cast<int>(legendKeys_.size()); ++c) {
        const QColor colour = colourBy_ == ColourBy::FormatFamily
                                  ? formatColour(static_cast<Format>(c), pal)
                                  : categoryColour(c, pal);
        QColor faded = colour;
        faded.setAlpha(kFadedAlpha);
        styles.push_back({colour, true, 10});
        styles.push_back({faded, true, 10});
        styles.push_back({colour, false, 4.5});
        styles.push_back({faded, false, 4.5});
        QCPGraph* key = legendKeys_[static_cast<std::size_t>(c)];
        key->setScatterStyle(QCPScatterStyle(markerPixmap(false, colour, 7, dpr)));
        QString name;
        if (colourBy_ == ColourBy::FormatFamily)
            name = qs(toString(static_cast<Format>(c)));
        else if (points_ && c < static_cast<int>(points_->modelNames.size()))
            name = QString::fromStdString(points_->modelNames[static_cast<std::size_t>(c)]);
        key->setName(name);
        key->removeFromLegend();
        // By format: only the families the points have (the stack's formats), not all seven.
        const bool shown = colourBy_ == ColourBy::FormatFamily
                               ? c < kFormatCount && families_[static_cast<std::size_t>(c)]
                               : c < categories;
        if (shown && !name.isEmpty())
            key->addToLegend();
    }
    cloud_->setStyles(std::move(styles));
}

void ParetoPlot::rescore()
{
    QElapsedTimer timer;
    timer.start();
    static const std::vector<PlotPoint> kNone;
    const std::vector<PlotPoint>& pts = points_ ? points_->points : kNone;
    scorePoints(pts, axis_, budgets_, scored_);
    clearHover(); // the hovered point may have moved

    // Faded points first, then feasible bands, then feasible uniform ones on top.
    std::vector<PointCloud::Point>& cloud = cloud_->points();
    cloud.clear();
    const bool byFormat = colourBy_ == ColourBy::FormatFamily;
    const std::size_t categories = legendKeys_.size();
    for (int pass = 0; pass < 3; ++pass)
        for (std::size_t i = 0; i < pts.size(); ++i) {
            const PlotPoint& p = pts[i];
            const bool ok = scored_.feasible[i] != 0;
            if ((pass == 0) == ok || (pass == 1 && p.uniform) || (pass == 2 && !p.uniform))
                continue;
            const std::size_t cat = std::min<std::size_t>(
                byFormat ? static_cast<std::size_t>(p.family) : p.model, categories - 1);
            const auto style =
                static_cast<std::uint16_t>(cat * 4 + (p.uniform ? 0u : 2u) + (ok ? 0u : 1u));
            cloud.push_back({scored_.x[i], plotY(p.rmqd), style});
        }
    QVector<QCPGraphData> front;
    front.reserve(static_cast<qsizetype>(scored_.frontier.size()));
    for (const std::uint32_t i : scored_.frontier)
        front.append(QCPGraphData(scored_.x[i], plotY(pts[i].rmqd)));
    frontier_->data()->set(front, true);
    updateMarks();
    updateBudgetItems();
    if (autoFit_)
        fitView();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    emit rescored(static_cast<qint64>(pts.size()), scored_.feasibleCount,
                  static_cast<double>(timer.nsecsElapsed()) / 1e6);
}

void ParetoPlot::updateMarks()
{
    auto mark = [this](const MarkedPoint& m) {
        PlotPoint p;
        p.ttftMs = m.ttftMs;
        p.tpotMs = m.tpotMs;
        return QCPGraphData(latencyX(p, axis_, budgets_), plotY(m.rmqd));
    };
    auto setOne = [&](QCPGraph* g, const std::optional<MarkedPoint>& m) {
        QVector<QCPGraphData> d;
        if (m && std::isfinite(mark(*m).key))
            d.append(mark(*m));
        g->data()->set(d);
    };
    setOne(recommended_, recommendedMark_);
    setOne(bestUniform_, bestUniformMark_);
    setOne(selected_, selectedMark_);
    while (pinItems_.size() < pinnedMarks_.size()) {
        PinItems p{new QCPItemText(plot_), new QCPItemLine(plot_)};
        p.mark->setLayer(QStringLiteral("marks"));
        p.mark->setClipToAxisRect(true);
        p.mark->setPositionAlignment(Qt::AlignCenter);
        p.mark->position->setType(QCPItemPosition::ptAbsolute);
        p.mark->setPadding(QMargins(4, 1, 4, 1));
        p.leader->setLayer(QStringLiteral("marks"));
        p.leader->setClipToAxisRect(true);
        p.leader->end->setType(QCPItemPosition::ptAbsolute);
        pinItems_.push_back(p);
    }
    const QPalette pal = palette();
    for (std::size_t i = 0; i < pinItems_.size(); ++i) {
        const PinItems& p = pinItems_[i];
        bool shown = i < pinnedMarks_.size();
        if (shown) {
            const QCPGraphData d = mark(pinnedMarks_[i]);
            shown = std::isfinite(d.key) && std::isfinite(d.value); // else not predicted
            p.leader->start->setCoords(d.key, d.value);
        }
        p.mark->setVisible(shown);
        p.leader->setVisible(false); // placePins shows it when the square moved
        p.mark->setText(QString::number(i + 1));
        p.mark->setColor(pal.color(QPalette::WindowText));
        p.mark->setPen(QPen(pal.color(QPalette::WindowText), 2));
        p.mark->setBrush(pal.brush(QPalette::Base));
        p.leader->setPen(QPen(pal.color(QPalette::WindowText), 1));
    }
    placePins();
}

void ParetoPlot::placePins()
{
    // A square whose point is near the plot's edge is kept whole inside it.
    const QRectF area(plot_->axisRect()->rect());
    const QRectF inside = area.adjusted(kPinGap / 2, kPinGap / 2, -kPinGap / 2, -kPinGap / 2);
    std::vector<QPointF> points, wanted;
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < pinItems_.size(); ++i)
        if (pinItems_[i].mark->visible()) {
            const QPointF p = pinItems_[i].leader->start->pixelPosition();
            points.push_back(p);
            wanted.push_back(area.contains(p) && inside.isValid()
                                 ? QPointF(std::clamp(p.x(), inside.left(), inside.right()),
                                           std::clamp(p.y(), inside.top(), inside.bottom()))
                                 : p);
            shown.push_back(i);
        }
    const std::vector<QPointF> at = spreadMarks(wanted, kPinGap, inside);
    for (std::size_t k = 0; k < shown.size(); ++k) {
        const PinItems& p = pinItems_[shown[k]];
        p.mark->position->setCoords(at[k]);
        p.leader->end->setCoords(at[k]);
        // Not std::hypot: its glibc 2.35 symbol would raise the package's libc6 dependency.
        p.leader->setVisible(QLineF(points[k], at[k]).length() > 0.5);
    }
}

std::vector<std::optional<QPointF>> ParetoPlot::pinnedPixels() const
{
    std::vector<std::optional<QPointF>> out;
    for (std::size_t i = 0; i < pinnedMarks_.size() && i < pinItems_.size(); ++i)
        out.push_back(pinItems_[i].mark->visible()
                          ? std::optional(pinItems_[i].mark->position->pixelPosition())
                          : std::nullopt);
    return out;
}

void ParetoPlot::updateBudgetItems()
{
    const double bx = budgetX(axis_, budgets_);
    budgetLine_->point1->setCoords(bx, 0);
    budgetLine_->point2->setCoords(bx, 1);
    infeasibleRegion_->topLeft->setCoords(bx, 0);
    // The shaded side is right of the budget; hide it when the budget is off the right edge
    // (the rect would otherwise flip to the left side).
    infeasibleRegion_->setVisible(bx < plot_->xAxis->range().upper);
}

void ParetoPlot::fitView()
{
    const std::vector<PlotPoint>* pts = points_ ? &points_->points : nullptr;
    if (!pts || pts->empty()) {
        plot_->xAxis->setRange(logX_ ? 0.1 : 0, budgetX(axis_, budgets_) * 1.5);
        plot_->yAxis->setRange(logY_ ? kLogFloor : 0, 1);
        return;
    }
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (std::size_t i = 0; i < pts->size(); ++i) {
        x0 = std::min(x0, scored_.x[i]);
        x1 = std::max(x1, scored_.x[i]);
        const double y = plotY((*pts)[i].rmqd);
        y0 = std::min(y0, y);
        y1 = std::max(y1, y);
    }
    // Keep the budget line in view when it is near the cloud.
    const double bx = budgetX(axis_, budgets_);
    if (bx <= x1 * 3)
        x1 = std::max(x1, bx);
    auto pad = [](double lo, double hi, bool log) {
        if (log)
            return QCPRange(lo / 1.25, hi * 1.25);
        const double m = (hi - lo) * 0.05 + 1e-9;
        return QCPRange(lo - m, hi + m);
    };
    plot_->xAxis->setRange(pad(x0, x1, logX_));
    plot_->yAxis->setRange(pad(y0, y1, logY_));
}

void ParetoPlot::resetView()
{
    autoFit_ = true;
    fitView();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QPoint ParetoPlot::pixelOf(std::uint32_t configId) const
{
    if (!points_)
        return {};
    for (std::size_t i = 0; i < points_->points.size(); ++i)
        if (points_->points[i].configId == configId) {
            const double px = plot_->xAxis->coordToPixel(scored_.x[i]);
            const double py = plot_->yAxis->coordToPixel(plotY(points_->points[i].rmqd));
            return plot_->mapTo(
                this, QPoint(static_cast<int>(std::lround(px)), static_cast<int>(std::lround(py))));
        }
    return {};
}

std::optional<std::uint32_t> ParetoPlot::configAt(QPoint pos, int radius) const
{
    if (!points_ || scored_.order.empty())
        return std::nullopt;
    const QPoint local = plot_->mapFrom(this, pos);
    const double r = radius;
    double lo = plot_->xAxis->pixelToCoord(local.x() - r);
    double hi = plot_->xAxis->pixelToCoord(local.x() + r);
    if (lo > hi)
        std::swap(lo, hi);
    // Only points whose x is within the radius: a binary search in the x order.
    const double* x = scored_.x.data();
    auto first = std::lower_bound(scored_.order.begin(), scored_.order.end(), lo,
                                  [x](std::uint32_t i, double v) { return x[i] < v; });
    std::optional<std::uint32_t> best;
    double bestD = r * r;
    for (auto it = first; it != scored_.order.end() && x[*it] <= hi; ++it) {
        const PlotPoint& p = points_->points[*it];
        const double dx = plot_->xAxis->coordToPixel(x[*it]) - local.x();
        const double dy = plot_->yAxis->coordToPixel(plotY(p.rmqd)) - local.y();
        const double d = dx * dx + dy * dy;
        if (d <= bestD) {
            bestD = d;
            best = p.configId;
        }
    }
    return best;
}

QString ParetoPlot::describe(std::uint32_t configId) const
{
    if (!points_ || configId >= points_->configs.size())
        return {};
    const Config& c = points_->configs[configId];
    const PlotPoint* p = nullptr;
    for (const PlotPoint& q : points_->points)
        if (q.configId == configId) {
            p = &q;
            break;
        }
    QString model =
        c.model >= 0 && static_cast<std::size_t>(p ? p->model : 0) < points_->modelNames.size()
            ? QString::fromStdString(points_->modelNames[p ? p->model : 0])
            : QString();
    QString text = tr("<b>%1</b>, batch %2, %3%4%5<br>%6")
                       .arg(model.toHtmlEscaped())
                       .arg(c.batch)
                       .arg(qs(toString(c.algorithm)))
                       .arg(c.lmHeadQuantized ? tr(", lm_head quantized") : QString())
                       .arg(c.kv == KvFormat::Fp8 ? tr(", fp8 KV") : QString())
                       .arg(QString::fromStdString(c.recipe.describe()).toHtmlEscaped());
    if (p)
        text += tr("<br>TTFT %1 ms, TPOT %2 ms, memory %3 GiB, RMQD %4")
                    .arg(p->ttftMs, 0, 'f', 1)
                    .arg(p->tpotMs, 0, 'f', 2)
                    .arg(p->memoryGiB, 0, 'f', 1)
                    .arg(p->rmqd, 0, 'g', 3);
    if (points_->synthetic)
        text += tr("<br><i>synthetic data</i>");
    return text;
}

void ParetoPlot::onMouseMove(QMouseEvent* e)
{
    if (e->buttons() != Qt::NoButton) {
        autoFit_ = false; // a drag pans the view
        return;
    }
    const QPoint pos = plot_->mapTo(this, e->pos());
    const std::optional<std::uint32_t> id = configAt(pos);
    if (id == hovered_)
        return;
    hovered_ = id;
    QVector<QCPGraphData> d;
    if (id) {
        const QPoint px = plot_->mapFrom(this, pixelOf(*id));
        d.append(
            QCPGraphData(plot_->xAxis->pixelToCoord(px.x()), plot_->yAxis->pixelToCoord(px.y())));
        QToolTip::showText(e->globalPosition().toPoint(), describe(*id), plot_);
    } else {
        QToolTip::hideText();
    }
    hover_->data()->set(d);
    hoverLayer_->replot();
}

void ParetoPlot::clearHover()
{
    if (!hovered_ && hover_->data()->isEmpty())
        return;
    hovered_.reset();
    hover_->data()->clear();
    QToolTip::hideText();
    hoverLayer_->replot();
}

bool ParetoPlot::eventFilter(QObject* watched, QEvent* e)
{
    if (watched == plot_ && e->type() == QEvent::Leave)
        clearHover();
    return QWidget::eventFilter(watched, e);
}

void ParetoPlot::onMousePress(QMouseEvent* e)
{
    pressPos_ = e->pos();
}

void ParetoPlot::onMouseRelease(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || (e->pos() - pressPos_).manhattanLength() > 3)
        return;
    if (const std::optional<std::uint32_t> id = configAt(plot_->mapTo(this, e->pos())))
        emit pointClicked(*id);
}

QString ParetoPlot::provenance() const
{
    return provenance_->text();
}

QFont ParetoPlot::captionFont() const
{
    QFont font = provenance_->font();
    font.setBold(points_ && points_->synthetic);
    return font;
}

int ParetoPlot::captionHeightFor(int width) const
{
    const QString caption = provenance();
    if (caption.isEmpty())
        return 0;
    const QRect box = QFontMetrics(captionFont())
                          .boundingRect(QRect(0, 0, width - 2 * kCaptionMargin, 100000),
                                        Qt::TextWordWrap, caption);
    return box.height() + 2 * kCaptionMargin;
}

bool ParetoPlot::renderImage(QPaintDevice& device, int width, int height, bool vector)
{
    // The plot, then its provenance line under it in the window's style (bold red when the
    // data are synthetic): a saved figure says where its numbers come from.
    const QString caption = provenance();
    const QFont font = captionFont();
    const int margin = kCaptionMargin;
    const int captionHeight = captionHeightFor(width);
    QCPPainter painter;
    if (!painter.begin(&device))
        return false;
    if (vector)
        painter.setMode(
            QCPPainter::pmVectorized); // the cloud rasterises itself, the rest stays vector
    painter.fillRect(QRect(0, 0, width, height), palette().brush(QPalette::Base));
    plot_->toPainter(&painter, width, height - captionHeight);
    if (captionHeight > 0) {
        painter.setFont(font);
        painter.setPen(points_ && points_->synthetic ? QColor(0xb0, 0x00, 0x20)
                                                     : palette().color(QPalette::WindowText));
        painter.drawText(QRect(margin, height - captionHeight + margin, width - 2 * margin,
                               captionHeight - 2 * margin),
                         Qt::TextWordWrap, caption);
    }
    painter.end();
    return true;
}

QSize ParetoPlot::imageSize(int width, int height) const
{
    const int w = width > 0 ? width : plot_->width();
    return {w, (height > 0 ? height : plot_->height()) + captionHeightFor(w)};
}

QByteArray ParetoPlot::encodeImage(const QString& suffix, int width, int height)
{
    const QSize size = imageSize(width, height);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly))
        return {};
    if (suffix == QLatin1String("png")) {
        // At the plot's own size a PNG is too coarse for a slide or a paper: drawn at that
        // size, scaled to kMinPngWidth pixels (text and marks grow with it).
        const double scale =
            width > 0 ? 1.0 : std::max(1.0, static_cast<double>(kMinPngWidth) / size.width());
        QImage image((QSizeF(size) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        if (!renderImage(image, size.width(), size.height(), false) || !image.save(&buffer, "PNG"))
            return {};
        return bytes;
    }
    if (suffix != QLatin1String("svg"))
        return {};
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(tr("ACSeL Studio quality-latency plot"));
        if (!renderImage(svg, size.width(), size.height(), true))
            return {};
    } // the generator writes the closing tags when it goes
    return bytes;
}

bool ParetoPlot::saveImage(const QString& fileName, int width, int height)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix == QLatin1String("pdf")) {
        const QSize size = imageSize(width, height);
        {
            QPdfWriter pdf(fileName);
            pdf.setCreator(tr("ACSeL Studio"));
            pdf.setTitle(tr("ACSeL Studio quality-latency plot"));
            pdf.setResolution(72); // one device unit per point: the page is w x h points
            pdf.setPageSize(
                QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            if (!renderImage(pdf, size.width(), size.height(), true))
                return false;
        }
        return QFileInfo(fileName).size() > 0;
    }
    const QByteArray bytes = encodeImage(suffix, width, height);
    if (bytes.isEmpty())
        return false;
    QSaveFile file(fileName); // atomic: the old image or the new one, never half of it
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.commit();
}

void ParetoPlot::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        applyPalette();
        rebuildSeries();
        rescore();
    }
}

void ParetoPlot::applyPalette()
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(90);
    plot_->setBackground(pal.brush(QPalette::Base));
    plot_->legend->setBrush(pal.brush(QPalette::Base));
    plot_->legend->setTextColor(text);
    plot_->legend->setBorderPen(QPen(grid));
    for (QCPAxis* a : {plot_->xAxis, plot_->yAxis}) {
        a->setBasePen(QPen(text));
        a->setTickPen(QPen(text));
        a->setSubTickPen(QPen(text));
        a->setTickLabelColor(text);
        a->setLabelColor(text);
        a->grid()->setPen(QPen(grid, 0, Qt::DotLine));
    }
    const QColor bad = isDarkPalette(pal) ? QColor(255, 90, 90) : QColor(200, 0, 0);
    QColor shade = bad;
    shade.setAlpha(28);
    infeasibleRegion_->setBrush(shade);
    budgetLine_->setPen(QPen(bad, 1.5, Qt::DashLine));
    frontier_->setPen(QPen(text, 1.8));
    const QColor neutral = pal.color(QPalette::WindowText);
    uniformKey_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, neutral, neutral, 9));
    bandKey_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, neutral, 5));
    const QColor rec = recommendedColour(pal);
    recommended_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(rec, 2.5), Qt::NoBrush, 18));
    bestUniform_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(rec, 2.5), Qt::NoBrush, 16));
    selected_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
                                               QPen(selectedColour(pal), 2.5), Qt::NoBrush, 16));
    pinned_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(text, 2), Qt::NoBrush, 13));
    hover_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 1.5), Qt::NoBrush, 12));
}

} // namespace acsel::gui
