// A one-line plain-text label that never asks for more width than it is given: a text too long
// for its width is elided at the right and the full text is its tooltip. For labels whose text
// grows with the data (a model name, a prediction, a count) in a window that must still fit a
// laptop screen: a QLabel's minimum width is its whole text, which widens the window.
#pragma once

#include <QWidget>

namespace acsel::gui
{

class ElidedLabel : public QWidget
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    void setText(const QString& text);
    const QString& text() const { return text_; }
    // What fits the current width (the text, or its start and an ellipsis).
    QString shownText() const;

    QSize sizeHint() const override;        // the whole text on one line
    QSize minimumSizeHint() const override; // a few characters
protected:
    void paintEvent(QPaintEvent* e) override;

private:
    QString text_;
};

} // namespace acsel::gui
