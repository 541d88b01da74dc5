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
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(strip_);
    layout->addWidget(predictionLabel_);
    title_->setText(tr("Band editor: select a configuration on the plot"));
    connect(strip_, &BandStrip::recipeChanged, this, &BandEditor::onRecipeChanged);
}

void BandEditor::setPredictor(Predictor predictor)
{
    predictor_ = std::move(predictor);
    repredict();
}

void BandEditor::setConfig(const Config& config, const QString& modelName,
                           std::vector<Format> availableFormats)
{
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
