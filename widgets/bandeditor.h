// The band strip of one configuration plus its live full-model prediction: every edit
// (drag, nudge, menu, undo, redo) re-predicts the configuration through the predictor the
// application provides and reports it, so the plot can move the point. An edit is never
// dropped: a new recommendation replaces only a configuration that follows the recommendation
// and has no undo history; otherwise it is offered ("Load recommendation" / "Revert edits")
// and Undo keeps working. Beside the bands, the batch, the KV-cache format, the calibration
// algorithm (those that fit every band) and whether lm_head is quantized are editable, each
// change one undo step on the same stack as the band edits.
#pragma once

#include "viewmodel/explorertypes.h"

#include <QWidget>
#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace acsel::gui
{

class BandStrip;
class ElidedLabel;

class BandEditor : public QWidget
{
    Q_OBJECT
public:
    using Predictor = std::function<PredictionView(const acsel::Config&)>;

    explicit BandEditor(QWidget* parent = nullptr);
    // Disconnects from the undo stack first: it announces its clearing while destroyed.
    ~BandEditor() override;

    // Empty predictor: edits still work, the prediction line says none is connected.
    void setPredictor(Predictor predictor);
    // Per workspace model, whether it has experts: its strip names the MLP scope "experts".
    void setMoeModels(std::vector<bool> moe);
    // Where a configuration came from: the search's recommendation, or the user's choice (a
    // clicked point, a restored session).
    enum class Origin { Recommendation, Chosen };
    // Loads a configuration (clears the undo history and any offer) and predicts it.
    void setConfig(const acsel::Config& config, const QString& modelName,
                   std::vector<acsel::Format> availableFormats, Origin origin = Origin::Chosen);
    // True when a new recommendation may replace what is shown: nothing is shown, or the
    // recommendation is, untouched (no undo history).
    bool followsRecommendation() const;
    // Shows the recommendation, or offers it above the strip when followsRecommendation is
    // false (the shown configuration and its undo history stay).
    void showRecommendation(const acsel::Config& config, const QString& modelName,
                            std::vector<acsel::Format> availableFormats);
    // The offered recommendation, if one waits; loading it is one undo step when it differs
    // from the shown configuration only in its bands.
    const std::optional<acsel::Config>& offered() const { return offered_; }
    void loadOffered();
    // Takes the offer back (the request it answered is gone; the shown configuration stays).
    void withdrawOffer();
    // Back to the configuration as loaded (the undo stack's start; Redo brings the edits back).
    void revertEdits();
    const acsel::Config& config() const { return config_; }
    const std::optional<PredictionView>& prediction() const { return prediction_; }
    BandStrip* strip() const { return strip_; }
    // Re-predicts with the current predictor (e.g. after the request changed).
    void repredict();
    // What the settings row edits (the rest of the configuration is the recipe and model).
    struct Settings {
        int batch = 1;
        acsel::KvFormat kv = acsel::KvFormat::Bf16;
        acsel::Algorithm algorithm = acsel::Algorithm::Max;
        bool lmHeadQuantized = false;
        bool operator==(const Settings&) const = default;
    };
    // One undo step (when it changes anything), as the settings row's controls make it.
    void editSettings(const Settings& s);

signals:
    // After every change of the recipe, with its new prediction (if a predictor is set).
    void configPredicted(const acsel::Config& config,
                         const std::optional<acsel::gui::PredictionView>& p);

private:
    void onRecipeChanged(const acsel::BandRecipe& r);
    void updateOffer();
    Settings settings() const;
    void applySettings(const Settings& s); // from the undo stack
    void showSettings();                   // the controls follow config_

    QSpinBox* batch_ = nullptr;
    QComboBox* kv_ = nullptr;
    QComboBox* algorithm_ = nullptr;
    QCheckBox* lmHead_ = nullptr;

    BandStrip* strip_ = nullptr;
    ElidedLabel* title_ = nullptr;
    ElidedLabel* predictionLabel_ = nullptr;
    QWidget* offerBar_ = nullptr;
    QLabel* offerText_ = nullptr;
    QToolButton* revert_ = nullptr;
    Predictor predictor_;
    acsel::Config config_;
    std::optional<PredictionView> prediction_;
    QString modelName_;
    std::vector<bool> moeModels_;
    bool isMoe(int model) const;
    Origin origin_ = Origin::Chosen;
    bool loaded_ = false;
    std::optional<acsel::Config> offered_;
    QString offeredModel_;
    std::vector<acsel::Format> offeredFormats_;
};

} // namespace acsel::gui
