// The band editor strip: a model's layers left to right, the recipe's 1-3 bands as coloured
// segments labelled format/scope. Drag a boundary (snaps to layers); Left/Right move the focused
// boundary by one layer, Up/Down pick which boundary has focus; right-click or double-click a
// band to change its format or scope, split it or merge it. Every edit is one undo step.
#pragma once

#include "core/model/bandrecipe.h"

#include <QWidget>
#include <vector>

class QUndoStack;
class QMenu;

namespace acsel::gui
{

class BandStrip : public QWidget
{
    Q_OBJECT
public:
    explicit BandStrip(QWidget* parent = nullptr);

    // Formats the selected stack can run (the format menu offers only these).
    void setAvailableFormats(std::vector<acsel::Format> formats);
    // The model has experts: the MLP scope is labelled "experts" (bands and menu).
    void setMoe(bool moe);
    // Loads a recipe (e.g. the recommendation): clears the undo history.
    void setRecipe(const acsel::BandRecipe& recipe);
    const acsel::BandRecipe& recipe() const { return recipe_; }
    // Applies an edit as one undo step (no-op if equal to the current recipe).
    void edit(const acsel::BandRecipe& next, const QString& text);
    QUndoStack* undoStack() const { return undo_; }

    int focusedCut() const { return focusedCut_; }
    void setFocusedCut(int cut);
    // Geometry, for painting, hit tests and tests: x of the left edge of layer k (k = L gives
    // the right edge), the band under a point, the strip's rectangle.
    int layerX(int layer) const;
    int layerAt(int x) const; // nearest layer boundary, 0..L
    int bandAt(QPoint pos) const;
    QRect stripRect() const;
    // The context menu of a band, exposed so tests and keyboard users can trigger its actions.
    QMenu* bandMenu(int band, int atLayer, QWidget* parent);

    // Used by the undo commands: shows a recipe without recording an undo step.
    void showRecipe(const acsel::BandRecipe& recipe);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // Whenever the shown recipe changes (including live during a drag and on undo/redo).
    void recipeChanged(const acsel::BandRecipe& recipe);

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    int cutNear(int x) const; // boundary index within grab distance, or -1
    void openMenu(QPoint pos);

    acsel::BandRecipe recipe_;
    acsel::BandRecipe dragStart_;
    std::vector<acsel::Format> formats_;
    bool moe_ = false;
    QUndoStack* undo_ = nullptr;
    int focusedCut_ = -1;
    int dragCut_ = -1;
};

} // namespace acsel::gui
