// The band strip of one configuration plus its live full-model prediction: every edit
// (drag, nudge, menu, undo, redo) re-predicts the configuration through the predictor the
// application provides and reports it, so the plot can move the point.
#pragma once

#include "widgets/explorertypes.h"

#include <QWidget>
#include <functional>
#include <optional>

class QLabel;
class QToolButton;

namespace acsel::gui
{

class BandStrip;

class BandEditor : public QWidget
{
    Q_OBJECT
public:
    using Predictor = std::function<Prediction(const acsel::Config&)>;

    explicit BandEditor(QWidget* parent = nullptr);

    // Empty predictor: edits still work, the prediction line says none is connected.
    void setPredictor(Predictor predictor);
    // Loads a configuration (clears the undo history) and predicts it.
    void setConfig(const acsel::Config& config, const QString& modelName,
                   std::vector<acsel::Format> availableFormats);
    const acsel::Config& config() const { return config_; }
    const std::optional<Prediction>& prediction() const { return prediction_; }
    BandStrip* strip() const { return strip_; }
    // Re-predicts with the current predictor (e.g. after the request changed).
    void repredict();

signals:
    // After every change of the recipe, with its new prediction (if a predictor is set).
    void configPredicted(const acsel::Config& config,
                         const std::optional<acsel::gui::Prediction>& p);

private:
    void onRecipeChanged(const acsel::BandRecipe& r);

    BandStrip* strip_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* predictionLabel_ = nullptr;
    Predictor predictor_;
    acsel::Config config_;
    std::optional<Prediction> prediction_;
    QString modelName_;
};

} // namespace acsel::gui
