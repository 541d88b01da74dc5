"""Mixture-of-experts checkpoints: tiny random Qwen3-MoE (layers 0 and 2 MoE, layer 1 dense),
Qwen2-MoE (a shared expert) and Mixtral checkpoints written by tinymodel.py, with recipes from
`acsel export` and `acsel plan quality` (ACSEL_BIN). Checked against the checkpoint's own
tensors, by module name: the router and the shared expert's gate run bit-identical; a band's
`experts` scope quantizes every routed expert and the shared expert, each with its own scale,
and nothing of attention; every expert is calibrated on every token (as ModelOpt); RMQD is 0
for bf16 and finite and > 0 for a quantized recipe, and `acsel rmqd` agrees."""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

import torch  # noqa: E402
import yaml  # noqa: E402

import tinymodel  # noqa: E402
from common import campaign  # noqa: E402
from rmqdtool.checkpoint import Arch, Checkpoint, CheckpointError  # noqa: E402
from rmqdtool.model import Runner  # noqa: E402
from rmqdtool.recipe import RecipeError, load_recipe, parse_recipe  # noqa: E402

ACSEL = os.environ.get("ACSEL_BIN")
MEASURE = os.path.join(HERE, "..", "measure_rmqd.py")
FP8 = "{num_bits: e4m3, axis: null}"


def acsel(*args):
    r = subprocess.run([ACSEL, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"acsel {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return r.stdout


def is_gate(name):
    """The router ("...mlp.gate", "...block_sparse_moe.gate") or the shared expert's gate."""
    return name.endswith(".gate") or name.endswith(".shared_expert_gate")


class MoeRecipeRulesTest(unittest.TestCase):
    """Hand-written recipes on the tiny Qwen2-MoE (no acsel needed)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="measure_rmqd_moe.")
        folder = os.path.join(cls.tmp.name, "qwen2_moe")
        tinymodel.write(folder, "qwen2_moe")
        cls.arch = Checkpoint(folder).arch

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def recipe(self, *entries):
        lines = ["metadata:", "  recipe_type: ptq", "quantize:", "  algorithm: max",
                 "  quant_cfg:", "    - {quantizer_name: '*', enable: false}"]
        return yaml.safe_load("\n".join(lines + [f"    - {e}" for e in entries]))

    def test_every_expert_and_the_shared_one_in_one_format(self):
        # fp8 on every MLP linear named *_proj: routed experts, shared expert; the gates are
        # not *_proj modules, so stay off: layers 0-1 fp8 on the MLP.
        mlp = [f"{{quantizer_name: '*mlp.*_proj.{q}_quantizer', cfg: {FP8}}}"
               for q in ("weight", "input")]
        self.assertEqual(parse_recipe(self.recipe(*mlp), self.arch).bands, "0-1:fp8/mlp")
        # The shared expert left out of layer 1: its experts mix two formats.
        off = "{quantizer_name: '*layers.1.mlp.shared_expert.*', enable: false}"
        with self.assertRaisesRegex(RecipeError, "layer 1: gate_proj of its experts in bf16, "
                                                 "fp8; a band gives every expert"):
            parse_recipe(self.recipe(*mlp, off), self.arch)

    def test_dense_model_type_with_expert_fields_is_refused(self):
        # Qwen3-30B-A3B's fields under model_type qwen3 would run as a small dense model.
        cfg = {"model_type": "qwen3", "num_hidden_layers": 2, "hidden_size": 64,
               "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 320,
               "num_experts": 4}
        with self.assertRaisesRegex(CheckpointError, "config.json: 'num_experts' describes "
                                                     "experts but model_type 'qwen3' is a dense"):
            Arch(cfg)

    def test_router_and_shared_gate_are_never_quantized(self):
        mlp = [f"{{quantizer_name: '*mlp.*_proj.{q}_quantizer', cfg: {FP8}}}"
               for q in ("weight", "input")]
        for module in ("model.layers.0.mlp.gate", "model.layers.1.mlp.shared_expert_gate"):
            entry = f"{{quantizer_name: '{module}.weight_quantizer', cfg: {FP8}}}"
            with self.assertRaisesRegex(RecipeError, f"{module}.weight_quantizer is enabled; "
                                                     "the MoE router"):
                parse_recipe(self.recipe(*mlp, entry), self.arch)


def config_json(model, bands):
    name = tinymodel.MODEL_NAMES[model]
    return {"schema_version": 1, "model": {"name": name, "hf_id": "acsel-test/" + name.lower()},
            "stack": "b200_sxm/trtllm",
            "request": {"isl": 128, "osl": 32, "concurrency": 1, "ttft_budget_ms": 100.0,
                        "tpot_budget_ms": 10.0, "memory_budget_gib": 8.0, "mode": "static"},
            "config": {"batch": 1, "bands": bands, "algorithm": "max",
                       "lm_head_quantized": False, "kv_cache": "bf16"}}


@unittest.skipUnless(ACSEL, "ACSEL_BIN not set (CTest sets it to the built acsel)")
class MoeAcselTest(unittest.TestCase):
    FAMILIES = ("qwen3_moe", "qwen2_moe", "mixtral")

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="measure_rmqd_moe_acsel.")
        cls.dir = cls.tmp.name
        cls.ckpt = {}
        for seed, family in enumerate(cls.FAMILIES):
            folder = os.path.join(cls.dir, family)
            tinymodel.write(folder, family, seed=seed)
            cls.ckpt[family] = Checkpoint(folder)
        cls.text = os.path.join(cls.dir, "calib.txt")
        tinymodel.calibration_text(cls.text, words=3000)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def exported(self, family, bands):
        path = os.path.join(self.dir, f"{family}.config.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(config_json(family, bands), f)
        out = os.path.join(self.dir, f"{family}.yaml")
        acsel("export", "--workspace", tinymodel.WORKSPACE, "--config", path, "--as",
              "modelopt-yaml", "-o", out, "--force")
        return load_recipe(out, self.ckpt[family].arch)

    def test_experts_scope_quantizes_each_expert_never_the_gates(self):
        # Layer 0 fp8 on its experts, the other layers nvfp4 on attention. Per module, from
        # the checkpoint: layer 0's routed and shared experts quantized (fp8, one scale per
        # expert: each keeps its own largest magnitude), its attention and gates untouched;
        # the other layers' attention quantized, their MLP and gates untouched.
        # Quantized MLP modules of layer 0 by hand: 4 experts x 3 (+ 3 shared for Qwen2-MoE).
        want = {"qwen3_moe": 12, "qwen2_moe": 15, "mixtral": 12}
        for family in self.FAMILIES:
            ckpt = self.ckpt[family]
            last = ckpt.arch.layers - 1
            rec = self.exported(family, [
                {"first_layer": 0, "last_layer": 0, "format": "fp8", "scope": "experts"},
                {"first_layer": 1, "last_layer": last, "format": "nvfp4", "scope": "attn"}])
            self.assertEqual(rec.bands, f"0-0:fp8/mlp;1-{last}:nvfp4/attn", family)
            runner = Runner(ckpt)
            gates = 0
            for layer in range(ckpt.arch.layers):
                w = runner.layer_weights(layer, rec.spec.layers[layer])
                quantized_mlp = 0
                for name, got in w.items():
                    orig = ckpt.get(name + ".weight").float()
                    attention = ".self_attn." in name
                    where = f"{family} {name}"
                    if is_gate(name) or attention == (layer == 0):
                        self.assertTrue(torch.equal(got, orig), where)
                        gates += is_gate(name)
                        continue
                    self.assertFalse(torch.equal(got, orig), where)
                    if layer == 0:
                        quantized_mlp += 1
                        top = float(orig.abs().max())
                        self.assertLess(abs(float(got.abs().max()) - top), 1e-6 * top, where)
                if layer == 0:
                    self.assertEqual(quantized_mlp, want[family], family)
            # routers of every MoE layer (+ the shared gates): Qwen3-MoE layers 0 and 2
            self.assertEqual(gates, {"qwen3_moe": 2, "qwen2_moe": 4, "mixtral": 2}[family])

    def test_every_expert_calibrated_on_every_token(self):
        # ModelOpt runs every token through every expert while calibrating: the inputs of
        # gate/up (w1/w3) are the block's input for all experts, so their maxima are equal;
        # the down projections' (w2) inputs differ per expert.
        for family in self.FAMILIES:
            amax = campaign(self.ckpt[family]).amax
            block = "model.layers.0." + ("block_sparse_moe" if family == "mixtral" else "mlp")
            names = ("w1", "w3", "w2") if family == "mixtral" else \
                ("gate_proj", "up_proj", "down_proj")
            for lin in names:
                values = [amax[f"{block}.experts.{e}.{lin}"] for e in range(4)]
                self.assertGreater(min(values), 0, family)
                self.assertEqual(len(set(values)) == 1, lin != names[2], f"{family} {values}")
            self.assertNotIn(f"{block}.gate", amax)

    def test_campaign_end_to_end_and_acsel_rmqd_agrees(self):
        ckpt = os.path.join(self.dir, "qwen3_moe")
        plan = os.path.join(self.dir, "plan")
        acsel("plan", "quality", "--workspace", tinymodel.WORKSPACE, "--model",
              tinymodel.MODEL_NAMES["qwen3_moe"], "-o", plan, "--band-recipes", "4",
              "--seed", "7")
        with open(os.path.join(plan, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        pick = {c["bands"] + "|" + c["kv"]: c["id"] for c in manifest["candidates"]
                if c["algorithm"] == "max" and not c["lm_head_quantized"]}
        ids = [pick["0-2:bf16|bf16"], pick["0-2:fp8/mlp|bf16"], pick["0-2:nvfp4/full|bf16"]]
        rows = os.path.join(self.dir, "rows.csv")
        dump = os.path.join(self.dir, "dump")
        r = subprocess.run([sys.executable, MEASURE, "--checkpoint", ckpt, "--plan",
                            os.path.join(plan, "manifest.json"), "--text", self.text,
                            "--output", rows, "--seq-len", "32", "--sequences", "4",
                            "--calib-sequences", "2", "--top-m", "48", "--dump-logits", dump,
                            "--only", ",".join(ids)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        got = {}
        for cid in ids:
            line = next(l for l in r.stdout.splitlines() if l.startswith(cid + " "))
            own = float(line.split("RMQD ")[1].split(" ")[0])
            got[cid] = json.loads(acsel(
                "rmqd", "--oracle", os.path.join(dump, "oracle.safetensors"), "--candidate",
                os.path.join(dump, cid + ".safetensors"), "--json"))["rmqd"]
            self.assertTrue(math.isfinite(got[cid]), cid)
            self.assertAlmostEqual(got[cid], own, delta=1e-5 * max(own, 1e-9), msg=cid)
        bf16, fp8_experts, nvfp4 = (got[i] for i in ids)
        self.assertLess(abs(bf16), 1e-6)
        self.assertGreater(fp8_experts, 1e-6)
        self.assertGreater(nvfp4, fp8_experts)
        # The two quantized candidates are rows (bf16 against itself is not); quality add
        # takes them for the MoE model.
        qset = os.path.join(self.dir, "moe_quality.json")
        out = acsel("quality", "add", qset, rows, "--workspace", tinymodel.WORKSPACE)
        self.assertIn(f"created {qset} with 2 measured rows", out)


if __name__ == "__main__":
    unittest.main()
