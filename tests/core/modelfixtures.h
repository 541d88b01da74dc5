// Model architectures and configurations shared by the core tests: Llama-3.1-8B with its
// published dimensions (Hugging Face config.json), and a small synthetic Llama-shaped model
// whose operator shapes are easy to work out by hand.
#pragma once

#include "core/model/bandrecipe.h"
#include "core/model/config.h"
#include "core/model/modelarch.h"

namespace acsel::test
{

// meta-llama/Llama-3.1-8B: 8,030,261,248 parameters.
inline ModelArch llama31_8b()
{
    ModelArch a;
    a.name = "Llama-3.1-8B";
    a.layers = 32;
    a.hidden = 4096;
    a.heads = 32;
    a.kvHeads = 8;
    a.headDim = 128;
    a.intermediate = 14336;
    a.vocab = 128256;
    return a;
}

// Not a real model: hidden 256, 4 heads of 64 (2 KV heads), MLP 512, vocabulary 1000.
inline ModelArch tinyArch(int layers)
{
    ModelArch a;
    a.name = "tiny";
    a.layers = layers;
    a.hidden = 256;
    a.heads = 4;
    a.kvHeads = 2;
    a.headDim = 64;
    a.intermediate = 512;
    a.vocab = 1000;
    return a;
}

// bf16 KV, max calibration, bf16 lm_head: what the tests change, they set on the result.
inline Config configOf(const BandRecipe& recipe, int batch)
{
    Config c;
    c.batch = batch;
    c.recipe = recipe;
    return c;
}

} // namespace acsel::test
