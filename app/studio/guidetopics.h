// Where the user guide explains the window's words and parts: the Help menu's "What is ...?"
// entries open these pages at their section, and F1 opens the section about the part of the
// window with the focus.
#pragma once

#include <QString>
#include <vector>

class QObject;

namespace acsel::studio
{

struct GuideTopic {
    QString question; // "What is RMQD?"
    QString page;     // "GUIDE.md#5-reading-a-recommendation", relative to the docs folder
};

std::vector<GuideTopic> termTopics();

// The dynamic property a part of the window names its page with.
inline constexpr char kGuideTopicProperty[] = "guideTopic";
// The page of the part o belongs to (o's or its nearest parent's property); GUIDE.md when none.
QString topicOf(const QObject* o);

} // namespace acsel::studio
