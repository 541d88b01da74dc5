// The quality-latency frontier as a picture (PNG and SVG), drawn with QPainter alone: no widget,
// so the CLI draws the results folder's plot in any build, with no window system. The caller
// says what each element is; the image says it too (legend, axis titles, caption), and data
// marked synthetic carries a SYNTHETIC stamp.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace acsel::render
{

struct CloudPoint {
    double latency = 0, rmqd = 0;
    int series = 0; // index into FrontierImage::seriesNames (its colour)
    bool feasible = false;
};

struct Mark {
    double latency = 0, rmqd = 0;
};

struct FrontierImage {
    std::string title;
    std::string xTitle, yTitle;
    std::vector<std::string> seriesNames; // the cloud's series (models), one colour each
    std::string cloudName;                // what the cloud is, for the legend
    std::vector<CloudPoint> cloud;
    std::string frontierName; // what the frontier is, for the legend
    std::vector<Mark> frontier;
    std::optional<double> budget; // a vertical line at this latency
    std::string budgetName;
    std::optional<Mark> answer, bestUniform;
    std::string caption; // where the numbers come from, under the plot
    bool synthetic = false;
};

struct EncodedImages {
    std::string png, svg; // the files' bytes; both empty when drawing failed
};

// Needs a QGuiApplication (fonts); latency on a log axis, RMQD on a linear one.
EncodedImages drawFrontierImage(const FrontierImage& image, int width, int height);

} // namespace acsel::render
