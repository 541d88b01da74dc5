"""Applying a ModelOpt recipe the way ModelOpt does (in order, fnmatch, later entries win),
on hand-written recipes whose outcome is worked out in the comments."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import yaml  # noqa: E402

from rmqdtool.checkpoint import Arch  # noqa: E402
from rmqdtool.recipe import RecipeError, parse_recipe  # noqa: E402

FP8 = "{num_bits: e4m3, axis: null}"
NVFP4 = "{num_bits: e2m1, block_sizes: {-1: 16, type: dynamic, scale_bits: e4m3}}"


def dense(layers):
    """A dense decoder of this many layers (the recipe only needs its module names)."""
    return Arch({"model_type": "llama", "num_hidden_layers": layers, "hidden_size": 64,
                 "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 320})


def recipe(entries, algorithm="max"):
    lines = ["metadata:", "  recipe_type: ptq", "quantize:", f"  algorithm: {algorithm}",
             "  quant_cfg:"]
    lines += [f"    - {e}" for e in entries]
    return yaml.safe_load("\n".join(lines))


class RecipeTest(unittest.TestCase):
    def test_globs_in_order_later_wins(self):
        # everything off; every weight and input of layer 0 and 1 fp8 ('*layers.[01].*');
        # then layer 1's MLP weights and inputs nvfp4 (later wins) -> layer 0 fp8/full, layer 1 attention fp8
        # and MLP nvfp4: a layer mixing two quantized formats is not a band recipe.
        r = recipe(["{quantizer_name: '*', enable: false}",
                    f"{{quantizer_name: '*layers.[01].*_proj.weight_quantizer', cfg: {FP8}}}",
                    f"{{quantizer_name: '*layers.[01].*_proj.input_quantizer', cfg: {FP8}}}",
                    f"{{quantizer_name: '*layers.1.mlp.*.weight_quantizer', cfg: {NVFP4}}}",
                    f"{{quantizer_name: '*layers.1.mlp.*.input_quantizer', cfg: {NVFP4}}}"])
        with self.assertRaisesRegex(RecipeError, "layer 1: attention fp8 and MLP nvfp4"):
            parse_recipe(r, dense(2))

    def test_enable_only_entry_toggles(self):
        # fp8 everywhere, then layer 1's attention switched off by enable-only entries:
        # layer 0 fp8/full, layer 1 fp8/mlp; KV fp8 in both layers; lm_head stays off.
        r = recipe(["{quantizer_name: '*', enable: false}",
                    f"{{quantizer_name: '*_proj.weight_quantizer', cfg: {FP8}}}",
                    f"{{quantizer_name: '*_proj.input_quantizer', cfg: {FP8}}}",
                    "{quantizer_name: '*layers.1.self_attn.*_proj.*', enable: false}",
                    "{quantizer_name: '*[kv]_bmm_quantizer', cfg: {num_bits: e4m3}}",
                    "{quantizer_name: 'lm_head.*', enable: false}"])
        got = parse_recipe(r, dense(2))
        self.assertEqual(got.bands, "0-0:fp8/full;1-1:fp8/mlp")
        self.assertEqual(got.spec.kv, "fp8")
        self.assertEqual(got.spec.lm_head, "bf16")
        self.assertEqual(got.spec.layers[1]["q_proj"], "bf16")
        self.assertEqual(got.spec.layers[1]["down_proj"], "fp8")

    def test_weight_only_and_w8a8(self):
        # int8 per-channel weights, inputs left disabled by '*': int8_wo; the same with int8
        # per-tensor inputs enabled: W8A8 (int8, SmoothQuant's format).
        off = "{quantizer_name: '*', enable: false}"
        w8 = "{quantizer_name: '*_proj.weight_quantizer', cfg: {num_bits: 8, axis: 0}}"
        a8 = "{quantizer_name: '*_proj.input_quantizer', cfg: {num_bits: 8, axis: null}}"
        got = parse_recipe(recipe([off, w8]), dense(1))
        self.assertEqual((got.bands, got.algorithm), ("0-0:int8_wo/full", "max"))
        got = parse_recipe(recipe([off, w8, a8], "smoothquant"), dense(1))
        self.assertEqual((got.bands, got.algorithm), ("0-0:int8/full", "smoothquant"))

    def test_default_quantizer_is_refused(self):
        # without a disable-all entry the output quantizers stay at ModelOpt's default (on).
        with self.assertRaisesRegex(RecipeError, "output_quantizer is enabled"):
            parse_recipe(recipe([f"{{quantizer_name: '*weight_quantizer', cfg: {FP8}}}"]),
                         dense(1))

    def test_fused_groups_must_agree(self):
        r = recipe(["{quantizer_name: '*', enable: false}",
                    f"{{quantizer_name: '*q_proj.[wi]*_quantizer', cfg: {FP8}}}"])
        with self.assertRaisesRegex(RecipeError, "fused"):
            parse_recipe(r, dense(1))

    def test_awq_mapping_and_unknown_attribute(self):
        int4 = ("{quantizer_name: '*mlp.*weight_quantizer', cfg: {num_bits: 4, block_sizes: "
                "{-1: 128, type: static}}}")
        got = parse_recipe(recipe(["{quantizer_name: '*', enable: false}", int4],
                                  "{method: awq_lite, alpha_step: 0.1}"), dense(3))
        self.assertEqual((got.bands, got.algorithm), ("0-2:int4_wo/mlp", "awq"))
        with self.assertRaisesRegex(RecipeError, "unsupported quantizer attribute 'fake_quant'"):
            parse_recipe(recipe(["{quantizer_name: '*', cfg: {num_bits: 8, fake_quant: true}}"]),
                         dense(1))


if __name__ == "__main__":
    unittest.main()
