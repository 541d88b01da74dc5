#include "guidetopics.h"

#include <QObject>
#include <QVariant>

namespace acsel::studio
{

std::vector<GuideTopic> termTopics()
{
    return {
        {QObject::tr("What is RMQD?"), QStringLiteral("GUIDE.md#5-reading-a-recommendation")},
        {QObject::tr("What is FMC calibration?"),
         QStringLiteral("DATA.md#3-measured-profiles-fmc-calibration")},
        {QObject::tr("What is FracMix (screened)?"),
         QStringLiteral("SEARCH.md#fracmix-table-and-why-exact-is-exact")},
        {QObject::tr("What are scopes and calibration algorithms?"),
         QStringLiteral("METHOD.md#1-objects")},
        {QObject::tr("What is the gate?"), QStringLiteral("METHOD.md#4-admission-gate-and-search")},
    };
}

QString topicOf(const QObject* o)
{
    for (; o; o = o->parent())
        if (const QVariant t = o->property(kGuideTopicProperty); t.isValid())
            return t.toString();
    return QStringLiteral("GUIDE.md");
}

} // namespace acsel::studio
