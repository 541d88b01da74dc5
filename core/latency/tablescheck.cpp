#include "core/latency/tablescheck.h"

#include "core/latency/tableopcosts.h"

#include <atomic>
#include <exception>
#include <thread>

namespace acsel
{

std::vector<StackTablesInfo> checkStackTables(const std::vector<TableStack>& stacks)
{
    // A folder of 18 stacks is about 170 MB of CSV: the stacks load in parallel and the first
    // error is taken in the given order, as one by one.
    std::vector<StackTablesInfo> out(stacks.size());
    std::vector<std::exception_ptr> errors(stacks.size());
    std::atomic<std::size_t> next{0};
    auto drain = [&] {
        for (std::size_t i = next++; i < stacks.size(); i = next++) {
            try {
                out[i] = TableOpCosts::load(*stacks[i].stack, *stacks[i].platform).loadInfo();
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < std::thread::hardware_concurrency() && t < stacks.size(); ++t)
            pool.emplace_back(drain);
        drain();
    }
    for (const std::exception_ptr& e : errors)
        if (e)
            std::rethrow_exception(e);
    return out;
}

} // namespace acsel
