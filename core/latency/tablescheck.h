// Loads the operator tables of a list of stacks, as a search does at its first use of each, so
// that a tables folder is checked whole when it is listed (`acsel info`) or written
// (`acsel import-aic`): a damaged table gets the same LoadError there as in a search.
#pragma once

#include "core/data/aictables.h"
#include "core/model/platform.h"

#include <vector>

namespace acsel
{

struct TableStack {
    const Stack* stack;
    const Platform* platform;
};

// Per stack (in the order given): what the gemm, context and generation loaders kept.
using StackTablesInfo = std::vector<TableLoadInfo>;

// Loads every stack's three tables (several stacks at once); throws the LoadError of the first
// stack, in the order given, whose tables do not load.
std::vector<StackTablesInfo> checkStackTables(const std::vector<TableStack>& stacks);

} // namespace acsel
