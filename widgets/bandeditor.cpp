#include "widgets/bandeditor.h"

#include "core/model/configspace.h"
#include "viewmodel/predictiontext.h"
#include "widgets/bandstrip.h"
#include "widgets/elidedlabel.h"
#include "widgets/undoactions.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

namespace acsel::gui
{

namespace
{
// A quantized lm_head runs at the last band's format, so that band must not be bf16.
bool lmHeadQuantizable(const BandRecipe& r)
{
    return r.size() > 0 && r[r.size() - 1].format != Format::Bf16;
}

// A change of the settings row: batch, KV format, algorithm, lm_head.
class SettingsCommand : public QUndoCommand
{
public:
    using Apply = std::function<void(const BandEditor::Settings&)>;
    SettingsCommand(BandEditor::Settings before, BandEditor::Settings after, Apply apply,
                    const QString& text)
        : QUndoCommand(text), before_(before), after_(after), apply_(std::move(apply))
    {
    }
    void redo() override { apply_(after_); }
    void undo() override { apply_(before_); }

private:
    BandEditor::Settings before_, after_;
    Apply apply_;
};
} // namespace

BandEditor::BandEditor(QWidget* parent) : QWidget(parent)
{
    strip_ = new BandStrip(this);
    title_ = new ElidedLabel(this);
    title_->setObjectName(QStringLiteral("editorTitle"));
    predictionLabel_ = new ElidedLabel(this);
    predictionLabel_->setObjectName(QStringLiteral("editorPrediction"));
    // Undo and Redo keep their one word: the edit they name is in the tooltip (a label that
    // grows with each edit would widen the window).
    auto button = [this](QAction* action, const QString& label, const char* name) {
        auto* b = new QToolButton(this);
        b->setObjectName(QLatin1String(name));
        b->setText(label);
        connect(b, &QToolButton::clicked, action, &QAction::trigger);
        auto follow = [b, action] {
            b->setEnabled(action->isEnabled());
            b->setToolTip(action->text().remove(QLatin1Char('&')));
        };
        connect(action, &QAction::changed, b, follow);
        follow();
        return b;
    };
    auto* undo = button(createUndoAction(strip_->undoStack(), this), tr("Undo"), "editorUndo");
    auto* redo = button(createRedoAction(strip_->undoStack(), this), tr("Redo"), "editorRedo");
    batch_ = new QSpinBox(this);
    batch_->setObjectName(QStringLiteral("editorBatch"));
    batch_->setRange(1, kMaxConcurrency);
    batch_->setPrefix(tr("batch "));
    batch_->setToolTip(tr("The static batch, or the in-flight batch under continuous batching"));
    kv_ = new QComboBox(this);
    kv_->setObjectName(QStringLiteral("editorKv"));
    for (const KvFormat k : {KvFormat::Bf16, KvFormat::Fp8})
        kv_->addItem(tr("%1 KV").arg(fromView(toString(k))), static_cast<int>(k));
    kv_->setToolTip(tr("The KV-cache format (fp8 needs a stack whose attention tables have it)"));
    algorithm_ = new QComboBox(this);
    algorithm_->setObjectName(QStringLiteral("editorAlgorithm"));
    algorithm_->setToolTip(tr("The calibration algorithm: only those that fit every band's "
                              "format are offered (max, smoothquant, awq, gptq)"));
    lmHead_ = new QCheckBox(tr("lm_head quantized"), this);
    lmHead_->setObjectName(QStringLiteral("editorLmHead"));
    lmHead_->setToolTip(tr("Runs lm_head at the last band's format; needs a last band that is "
                           "not bf16"));
    connect(batch_, &QSpinBox::valueChanged, this, [this](int b) {
        Settings s = settings();
        s.batch = b;
        editSettings(s);
    });
    connect(kv_, &QComboBox::currentIndexChanged, this, [this] {
        Settings s = settings();
        s.kv = static_cast<KvFormat>(kv_->currentData().toInt());
        editSettings(s);
    });
    connect(algorithm_, &QComboBox::currentIndexChanged, this, [this] {
        if (algorithm_->currentIndex() < 0)
            return;
        Settings s = settings();
        s.algorithm = static_cast<Algorithm>(algorithm_->currentData().toInt());
        editSettings(s);
    });
    connect(lmHead_, &QCheckBox::toggled, this, [this](bool on) {
        Settings s = settings();
        s.lmHeadQuantized = on;
        editSettings(s);
    });
    auto* top = new QHBoxLayout;
    top->addWidget(title_, 1);
    for (QWidget* w : std::initializer_list<QWidget*>{batch_, kv_, algorithm_, lmHead_, undo, redo})
        top->addWidget(w);
    offerBar_ = new QWidget(this);
    offerBar_->setObjectName(QStringLiteral("recommendationOffer"));
    offerText_ = new QLabel(offerBar_);
    offerText_->setWordWrap(true);
    auto* load = new QToolButton(offerBar_);
    load->setObjectName(QStringLiteral("loadRecommendation"));
    load->setText(tr("Load recommendation"));
    load->setToolTip(tr("Show the new recommendation here; Undo brings your edit back"));
    revert_ = new QToolButton(offerBar_);
    revert_->setObjectName(QStringLiteral("revertEdits"));
    revert_->setText(tr("Revert edits"));
    revert_->setToolTip(tr("Back to the configuration as loaded; Redo brings the edits back"));
    auto* offer = new QHBoxLayout(offerBar_);
    offer->setContentsMargins(0, 0, 0, 0);
    offer->addWidget(offerText_, 1);
    offer->addWidget(load);
    offer->addWidget(revert_);
    offerBar_->hide();
    connect(load, &QToolButton::clicked, this, &BandEditor::loadOffered);
    connect(revert_, &QToolButton::clicked, this, &BandEditor::revertEdits);
    connect(strip_->undoStack(), &QUndoStack::indexChanged, this, &BandEditor::updateOffer);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(offerBar_);
    layout->addWidget(strip_);
    layout->addWidget(predictionLabel_);
    title_->setText(tr("Band editor: select a configuration on the plot"));
    showSettings();
    connect(strip_, &BandStrip::recipeChanged, this, &BandEditor::onRecipeChanged);
}

BandEditor::~BandEditor()
{
    disconnect(strip_->undoStack(), nullptr, this, nullptr);
}

void BandEditor::setPredictor(Predictor predictor)
{
    predictor_ = std::move(predictor);
    repredict();
}

void BandEditor::setMoeModels(std::vector<bool> moe)
{
    moeModels_ = std::move(moe);
}

bool BandEditor::isMoe(int model) const
{
    return model >= 0 && static_cast<std::size_t>(model) < moeModels_.size() &&
           moeModels_[static_cast<std::size_t>(model)];
}

void BandEditor::setConfig(const Config& config, const QString& modelName,
                           std::vector<Format> availableFormats, Origin origin)
{
    origin_ = origin;
    loaded_ = true;
    offered_.reset();
    offerBar_->hide();
    config_ = config;
    modelName_ = modelName;
    strip_->setAvailableFormats(std::move(availableFormats));
    title_->setText(
        tr("%1, %2 layers. Drag a boundary, arrows nudge it, right-click a band to edit")
            .arg(modelName)
            .arg(config.recipe.numLayers()));
    strip_->setMoe(isMoe(config.model));
    strip_->setRecipe(config.recipe);
    showSettings();
}

BandEditor::Settings BandEditor::settings() const
{
    return {config_.batch, config_.kv, config_.algorithm, config_.lmHeadQuantized};
}

void BandEditor::editSettings(const Settings& s)
{
    if (s == settings() || !loaded_) {
        showSettings(); // e.g. a control set back to what is shown
        return;
    }
    // The undo step says what it sets, e.g. "KV format fp8".
    QString what = tr("batch %1").arg(s.batch);
    if (s.kv != config_.kv)
        what = tr("KV format %1").arg(fromView(toString(s.kv)));
    else if (s.algorithm != config_.algorithm)
        what = tr("calibration algorithm %1").arg(fromView(toString(s.algorithm)));
    else if (s.lmHeadQuantized != config_.lmHeadQuantized)
        what = s.lmHeadQuantized ? tr("lm_head quantized") : tr("lm_head in bf16");
    strip_->undoStack()->push(new SettingsCommand(
        settings(), s, [this](const Settings& x) { applySettings(x); }, what));
}

void BandEditor::applySettings(const Settings& s)
{
    config_.batch = s.batch;
    config_.kv = s.kv;
    config_.algorithm = s.algorithm;
    config_.lmHeadQuantized = s.lmHeadQuantized;
    repredict();
}

void BandEditor::showSettings()
{
    const QSignalBlocker b1(batch_), b2(kv_), b3(algorithm_), b4(lmHead_);
    batch_->setValue(config_.batch);
    kv_->setCurrentIndex(kv_->findData(static_cast<int>(config_.kv)));
    algorithm_->clear();
    for (const Algorithm a : ConfigSpace::fittingAlgorithms(config_.recipe))
        algorithm_->addItem(fromView(toString(a)), static_cast<int>(a));
    algorithm_->setCurrentIndex(algorithm_->findData(static_cast<int>(config_.algorithm)));
    lmHead_->setEnabled(lmHeadQuantizable(config_.recipe));
    lmHead_->setChecked(config_.lmHeadQuantized);
    for (QWidget* w : std::initializer_list<QWidget*>{batch_, kv_, algorithm_})
        w->setEnabled(loaded_);
}

bool BandEditor::followsRecommendation() const
{
    return !loaded_ || (origin_ == Origin::Recommendation && strip_->undoStack()->count() == 0);
}

void BandEditor::showRecommendation(const Config& config, const QString& modelName,
                                    std::vector<Format> availableFormats)
{
    if (followsRecommendation()) {
        setConfig(config, modelName, std::move(availableFormats), Origin::Recommendation);
        return;
    }
    if (config == config_) { // the edit arrived at the recommendation: nothing to offer
        offered_.reset();
        offerBar_->hide();
        return;
    }
    offered_ = config;
    offeredModel_ = modelName;
    offeredFormats_ = std::move(availableFormats);
    offerText_->setText(
        tr("New recommendation: %1").arg(configSummary(config, modelName, isMoe(config.model))));
    offerBar_->show();
    updateOffer();
}

void BandEditor::loadOffered()
{
    if (!offered_)
        return;
    const Config next = *offered_;
    Config sameButBands = config_;
    sameButBands.recipe = next.recipe;
    sameButBands.algorithm = next.algorithm;
    if (sameButBands == next && next.recipe.numLayers() == config_.recipe.numLayers()) {
        offered_.reset();
        offerBar_->hide();
        strip_->edit(next.recipe, tr("load the recommendation"));
        config_.algorithm = next.algorithm;
        repredict();
        return;
    }
    setConfig(next, offeredModel_, offeredFormats_, Origin::Recommendation);
}

void BandEditor::withdrawOffer()
{
    offered_.reset();
    offerBar_->hide();
}

void BandEditor::revertEdits()
{
    strip_->undoStack()->setIndex(0);
}

void BandEditor::updateOffer()
{
    revert_->setEnabled(strip_->undoStack()->index() > 0);
}

void BandEditor::repredict()
{
    onRecipeChanged(strip_->recipe());
}

void BandEditor::onRecipeChanged(const BandRecipe& r)
{
    config_.recipe = r;
    // A new band format may rule out the algorithm: keep the first one that fits every band.
    const std::vector<Algorithm> fits = ConfigSpace::fittingAlgorithms(r);
    if (!fits.empty() && std::find(fits.begin(), fits.end(), config_.algorithm) == fits.end())
        config_.algorithm = fits.front();
    if (!lmHeadQuantizable(r))
        config_.lmHeadQuantized = false;
    showSettings();
    if (predictor_ && r.size() > 0) {
        prediction_ = predictor_(config_);
        predictionLabel_->setText(
            predictionSummary(*prediction_) +
            QStringLiteral(" · %1").arg(fromView(toString(config_.algorithm))));
    } else {
        prediction_.reset();
        predictionLabel_->setText(
            r.size() > 0 ? tr("No prediction engine connected: no numbers for this recipe")
                         : QString());
    }
    emit configPredicted(config_, prediction_);
}

} // namespace acsel::gui
