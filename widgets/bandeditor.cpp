#include "widgets/bandeditor.h"

#include "core/model/configspace.h"
#include "widgets/bandstrip.h"
#include "widgets/predictiontext.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

namespace acsel::gui
{

BandEditor::BandEditor(QWidget* parent) : QWidget(parent)
{
    strip_ = new BandStrip(this);
    title_ = new QLabel(this);
    predictionLabel_ = new QLabel(this);
    predictionLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* undo = new QToolButton(this);
    auto* redo = new QToolButton(this);
    undo->setDefaultAction(strip_->undoStack()->createUndoAction(this, tr("Undo")));
    redo->setDefaultAction(strip_->undoStack()->createRedoAction(this, tr("Redo")));
    auto* top = new QHBoxLayout;
    top->addWidget(title_, 1);
    top->addWidget(undo);
    top->addWidget(redo);
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
    title_->setText(tr("<b>%1</b>, %2 layers, batch %3. Drag a boundary, arrows nudge it, "
                       "right-click a band to edit")
                        .arg(modelName.toHtmlEscaped())
                        .arg(config.recipe.numLayers())
                        .arg(config.batch));
    strip_->setRecipe(config.recipe);
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
    offerText_->setText(tr("New recommendation: %1").arg(configSummary(config, modelName)));
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
