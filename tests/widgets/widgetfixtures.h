// Hand-made data for the widget tests: a small workspace and point sets whose numbers are
// chosen by the tests, so every expected value can be worked out independently.
#pragma once

#include "core/model/workspace.h"
#include "viewmodel/plotdata.h"

#include <cmath>
#include <memory>
#include <random>
#include <tuple>

namespace fixtures
{

// One platform with 80e9 bytes, one stack with fp8 / int8 / bf16, two qwen3 models (28 and
// 36 layers) and one llama model.
inline acsel::Workspace smallWorkspace()
{
    acsel::Workspace ws;
    ws.name = "widget test workspace";
    acsel::Platform p;
    p.id = "test_gpu";
    p.name = "Test GPU 80GB";
    p.memCapacityBytes = 80e9;
    ws.platforms.push_back(p);
    acsel::Stack s;
    s.id = "test_gpu/trtllm";
    s.backend = "trtllm";
    s.version = "1.0";
    s.formats = {acsel::Format::Int8, acsel::Format::Fp8, acsel::Format::Bf16};
    ws.stacks.push_back(s);
    for (auto [name, layers, family] :
         {std::tuple{"Small", 28, "qwen3"}, std::tuple{"Big", 36, "qwen3"},
          std::tuple{"Other", 32, "llama"}}) {
        acsel::ModelArch m;
        m.name = name;
        m.family = family;
        m.layers = layers;
        ws.models.push_back(m);
    }
    return ws;
}

// n points with seeded random predictions (ttft 10..1000 ms, tpot 1..100 ms, memory 1..80 GiB,
// rmqd 0..1), every tenth uniform, two models.
inline std::shared_ptr<acsel::gui::PointSet> randomPoints(std::size_t n, unsigned seed = 7)
{
    auto set = std::make_shared<acsel::gui::PointSet>();
    set->modelNames = {"Small", "Big"};
    set->provenance = "hand-made test points";
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    for (std::size_t i = 0; i < n; ++i) {
        acsel::gui::PlotPoint p;
        p.ttftMs = 10 * std::pow(100.0, u(rng));
        p.tpotMs = std::pow(100.0, u(rng));
        p.memoryGiB = 1 + 79 * u(rng);
        p.rmqd = u(rng);
        p.configId = static_cast<std::uint32_t>(i);
        p.model = static_cast<std::uint16_t>(i % 2);
        p.uniform = i % 10 == 0;
        p.family = p.uniform ? acsel::Format::Fp8 : acsel::Format::Int8;
        set->points.push_back(p);
        acsel::Config c;
        c.model = p.model;
        c.recipe = acsel::BandRecipe::uniform(28, acsel::Format::Fp8);
        set->configs.push_back(c);
    }
    return set;
}

} // namespace fixtures
