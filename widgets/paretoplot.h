// The quality-latency plot: every candidate configuration as a point (x = predicted latency on
// a chosen axis, y = predicted RMQD), uniform and band configurations as two marker shapes,
// coloured by model or format family; infeasible points faded; the latency budget as a line
// with the infeasible side shaded; the Pareto frontier as a step line; recommended, selected
// and pinned configurations marked. Hover shows the configuration, click selects it.
#pragma once

#include "viewmodel/plotdata.h"
#include "viewmodel/plotscoring.h"

#include <QPointF>
#include <QVector>
#include <QWidget>
#include <array>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QCPGraphData;
class QCPItemStraightLine;
class QCPItemRect;
class QCPItemLine;
class QCPItemText;
class QCPLayer;
class QComboBox;
class QCheckBox;
class QLabel;
class QMouseEvent;

namespace acsel::gui
{

class ElidedLabel;

class PointCloud;

// A configuration drawn on top of the cloud (recommended, being edited, pinned); it may be
// outside the point set (a hand-edited recipe), so it carries its own numbers.
struct MarkedPoint {
    double ttftMs = 0;
    double tpotMs = 0;
    double rmqd = 0;
};

class ParetoPlot : public QWidget
{
    Q_OBJECT
public:
    explicit ParetoPlot(QWidget* parent = nullptr);
    ~ParetoPlot() override;

    void setPoints(std::shared_ptr<const PointSet> points); // refits the view
    void setBudgets(const Budgets& budgets);
    void setAxis(LatencyAxis axis);
    void setLogY(bool on);
    void setLogX(bool on);
    void setColourBy(ColourBy by);
    void setRecommended(std::optional<MarkedPoint> p);
    // The best uniform configuration for the same request, as its own mark above the cloud.
    void setBestUniform(std::optional<MarkedPoint> p);
    void setSelected(std::optional<MarkedPoint> p);
    // Drawn as squares numbered 1..n (Compare's rows); pins closer than kPinGap pixels are
    // moved apart on screen, each tied to its point by a thin line.
    void setPinned(const std::vector<MarkedPoint>& pins);
    static constexpr double kPinGap = 18;
    // Where each pin's square is drawn, in the plot's pixels (after a replot); none for a pin
    // off the stack (not predicted).
    std::vector<std::optional<QPointF>> pinnedPixels() const;

    LatencyAxis axis() const { return axis_; }
    ColourBy colourBy() const { return colourBy_; }
    bool logX() const { return logX_; }
    bool logY() const { return logY_; }
    const Budgets& budgets() const { return budgets_; }
    const std::optional<MarkedPoint>& recommended() const { return recommendedMark_; }
    const std::optional<MarkedPoint>& bestUniform() const { return bestUniformMark_; }
    const ScoredView& scored() const { return scored_; }
    const PointSet* pointSet() const { return points_.get(); }
    // Position of a configuration's point in this widget's coordinates (after a replot).
    QPoint pixelOf(std::uint32_t configId) const;
    // The configuration whose point is nearest to pos within radius pixels.
    std::optional<std::uint32_t> configAt(QPoint pos, int radius = 6) const;
    QString describe(std::uint32_t configId) const;
    // PNG, SVG or PDF by suffix; width/height 0 = current size of the plot, which the
    // provenance caption is added under (a PNG of that size is scaled to at least 1600 pixels
    // wide). False on failure.
    bool saveImage(const QString& fileName, int width = 0, int height = 0);
    // The same image as bytes: "png" or "svg"; empty on failure.
    QByteArray encodeImage(const QString& suffix, int width = 0, int height = 0);
    void resetView();
    QCustomPlot* customPlot() const { return plot_; }
    // The configuration under the mouse (its circle drawn), if any.
    std::optional<std::uint32_t> hovered() const { return hovered_; }
    // The plot's provenance line (red when synthetic); saved images carry it under the plot.
    QString provenance() const;

signals:
    void pointClicked(std::uint32_t configId);
    // After every re-score: points, feasible points, milliseconds spent re-scoring and
    // rebuilding the plot data (the replot itself is queued).
    void rescored(qint64 total, qint64 feasible, double milliseconds);
    // The axis, a log scale or the colouring changed (by the user or a setter).
    void viewChanged();

protected:
    void changeEvent(QEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void buildControls();
    void applyPalette();
    void rescore();
    void rebuildSeries();
    void updateBudgetItems();
    void updateMarks();
    void placePins(); // after every layout: screen positions depend on the axes
    void fitView();
    double plotY(double rmqd) const;
    QCPGraph* markGraph(QCPGraph*& g, const QString& name);
    void onMouseMove(QMouseEvent* e);
    void onMousePress(QMouseEvent* e);
    void clearHover();
    // The plot in width x height minus the provenance caption under it.
    bool renderImage(QPaintDevice& device, int width, int height, bool vector);
    QSize imageSize(int width, int height) const; // with the caption
    QFont captionFont() const;
    int captionHeightFor(int width) const;
    void onMouseRelease(QMouseEvent* e);

    QCustomPlot* plot_ = nullptr;
    QComboBox* axisBox_ = nullptr;
    QComboBox* colourBox_ = nullptr;
    QCheckBox* logYBox_ = nullptr;
    QCheckBox* logXBox_ = nullptr;
    ElidedLabel* provenance_ = nullptr;

    std::shared_ptr<const PointSet> points_;
    ScoredView scored_;
    Budgets budgets_;
    LatencyAxis axis_ = LatencyAxis::Ttft;
    ColourBy colourBy_ = ColourBy::Model;
    bool logY_ = false;
    bool logX_ = false;
    bool autoFit_ = true; // until the user pans or zooms

    PointCloud* cloud_ = nullptr;       // every point, styled by category x uniform x feasible
    std::vector<QCPGraph*> legendKeys_; // empty graphs: one legend entry per colour category
    QCPGraph* frontier_ = nullptr;
    QCPGraph* recommended_ = nullptr;
    QCPGraph* bestUniform_ = nullptr;
    QCPGraph* selected_ = nullptr;
    QCPGraph* pinned_ = nullptr;
    QCPGraph* hover_ = nullptr;
    QCPGraph* uniformKey_ = nullptr; // legend-only entries explaining the marker shapes
    QCPGraph* bandKey_ = nullptr;
    QCPLayer* hoverLayer_ = nullptr;
    QCPItemStraightLine* budgetLine_ = nullptr;
    QCPItemRect* infeasibleRegion_ = nullptr;
    struct PinItems {
        QCPItemText* mark = nullptr;   // the numbered square
        QCPItemLine* leader = nullptr; // from its point, when moved apart from another pin
    };
    std::vector<PinItems> pinItems_;
    std::optional<MarkedPoint> recommendedMark_;
    std::optional<MarkedPoint> bestUniformMark_;
    std::optional<MarkedPoint> selectedMark_;
    std::vector<MarkedPoint> pinnedMarks_;
    QPoint pressPos_;
    std::optional<std::uint32_t> hovered_;
    std::array<bool, acsel::kFormatCount> families_{}; // formats that colour some point
};

} // namespace acsel::gui
