"""The companion with the acsel CLI (ACSEL_BIN, set by CTest): the recipe it applies is the
one `acsel export` wrote, layer by layer; `acsel rmqd` on its dumped logits gives its own
RMQD; and the campaign of docs/QUALITY.md 9 runs end to end (plan -> measure -> quality add)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

import tinymodel  # noqa: E402
from rmqdtool.checkpoint import Checkpoint  # noqa: E402
from rmqdtool.model import LINEARS  # noqa: E402
from rmqdtool.recipe import load_recipe  # noqa: E402

ACSEL = os.environ.get("ACSEL_BIN")
MEASURE = os.path.join(HERE, "..", "measure_rmqd.py")
WORKSPACE = tinymodel.WORKSPACE
ATTENTION = ("q_proj", "k_proj", "v_proj", "o_proj")


def acsel(*args):
    r = subprocess.run([ACSEL, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"acsel {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return r.stdout


def config_json(bands, kv="bf16", lm_head=False, algorithm="max"):
    return {"schema_version": 1, "model": {"name": "Tiny-Qwen3-2L",
                                           "hf_id": "acsel-test/tiny-qwen3-2l"},
            "stack": "b200_sxm/trtllm",
            "request": {"isl": 128, "osl": 32, "concurrency": 1, "ttft_budget_ms": 100.0,
                        "tpot_budget_ms": 10.0, "memory_budget_gib": 8.0, "mode": "static"},
            "config": {"batch": 1, "bands": bands, "algorithm": algorithm,
                       "lm_head_quantized": lm_head, "kv_cache": kv}}


@unittest.skipUnless(ACSEL, "ACSEL_BIN not set (CTest sets it to the built acsel)")
class AcselTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="measure_rmqd_acsel.")
        cls.dir = cls.tmp.name
        cls.ckpt = os.path.join(cls.dir, "tiny")
        tinymodel.write(cls.ckpt, "qwen3", seed=0)
        cls.text = os.path.join(cls.dir, "calib.txt")
        tinymodel.calibration_text(cls.text, words=3000)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def measure(self, plan, out, *extra):
        r = subprocess.run([sys.executable, MEASURE, "--checkpoint", self.ckpt, "--plan", plan,
                            "--text", self.text, "--output", out, "--seq-len", "32",
                            "--sequences", "4", "--calib-sequences", "2", "--top-m", "48",
                            *extra], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_exported_recipe_is_applied_layer_by_layer(self):
        # Layer 0 nvfp4 on attention only, layer 1 fp8 everywhere, fp8 KV cache, lm_head fp8.
        cfg = config_json([{"first_layer": 0, "last_layer": 0, "format": "nvfp4", "scope": "attn"},
                           {"first_layer": 1, "last_layer": 1, "format": "fp8", "scope": "full"}],
                          kv="fp8", lm_head=True)
        path = os.path.join(self.dir, "export.config.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(cfg, f)
        yaml_path = os.path.join(self.dir, "export.yaml")
        acsel("export", "--workspace", WORKSPACE, "--config", path, "--as", "modelopt-yaml",
              "-o", yaml_path)
        rec = load_recipe(yaml_path, Checkpoint(self.ckpt).arch)
        expected = [{lin: "nvfp4" if lin in ATTENTION else "bf16" for lin in LINEARS},
                    {lin: "fp8" for lin in LINEARS}]
        self.assertEqual(rec.spec.layers, expected)
        self.assertEqual((rec.spec.kv, rec.spec.lm_head, rec.algorithm), ("fp8", "fp8", "max"))
        self.assertEqual(rec.bands, "0-0:nvfp4/attn;1-1:fp8/full")

    def test_campaign_end_to_end_and_acsel_rmqd_agrees(self):
        plan = os.path.join(self.dir, "plan")
        out = acsel("plan", "quality", "--workspace", WORKSPACE, "--model", "Tiny-Qwen3-2L",
                    "-o", plan, "--band-recipes", "4", "--seed", "7")
        self.assertIn("band recipes", out)
        with open(os.path.join(plan, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        # Every recipe file applies to exactly the configuration the manifest lists.
        for c in manifest["candidates"]:
            rec = load_recipe(os.path.join(plan, c["recipe"]), Checkpoint(self.ckpt).arch)
            self.assertEqual(rec.bands, c["bands"], c["id"])
            self.assertEqual(rec.spec.kv, c["kv"], c["id"])
        rows = os.path.join(self.dir, "rows.csv")
        dump = os.path.join(self.dir, "dump")
        ids = [c["id"] for c in manifest["candidates"]]
        some = [ids[0], ids[-1], next(c["id"] for c in manifest["candidates"]
                                      if c["bands"] == "0-1:bf16" and c["kv"] == "fp8")]
        report = self.measure(os.path.join(plan, "manifest.json"), rows, "--dump-logits", dump,
                              "--only", ",".join(some))
        for cid in some:
            line = next(l for l in report.splitlines() if l.startswith(cid + " "))
            own = float(line.split("RMQD ")[1].split(" ")[0])
            got = json.loads(acsel("rmqd", "--oracle", os.path.join(dump, "oracle.safetensors"),
                                   "--candidate", os.path.join(dump, cid + ".safetensors"),
                                   "--json"))
            self.assertGreater(got["rmqd"], 1e-6, cid)
            # The report prints 6 significant digits; the rows file keeps every digit.
            self.assertAlmostEqual(got["rmqd"] / own, 1.0, delta=1e-5, msg=cid)
            self.assertEqual(got["tokens"], 4 * 32)
        with open(rows, encoding="utf-8") as f:
            lines = f.read().splitlines()
        values = {l.split(",")[4] + "|" + l.split(",")[3]: float(l.split(",")[5])
                  for l in lines[3:]}
        got = json.loads(acsel("rmqd", "--oracle", os.path.join(dump, "oracle.safetensors"),
                               "--candidate", os.path.join(dump, some[-1] + ".safetensors"),
                               "--json"))
        self.assertAlmostEqual(values["0-1:bf16|fp8"], got["rmqd"], delta=1e-9 * got["rmqd"])

        # quality add: a new set from the rows; adding them again is refused (duplicates).
        qset = os.path.join(self.dir, "tiny_quality.json")
        out = acsel("quality", "add", qset, rows, "--workspace", WORKSPACE)
        self.assertIn(f"created {qset} with {len(some)} measured rows", out)
        r = subprocess.run([ACSEL, "quality", "add", qset, rows, "--workspace", WORKSPACE],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("duplicate configuration", r.stderr)
        with open(qset, encoding="utf-8") as f:
            saved = json.load(f)
        self.assertFalse(saved["synthetic"])
        self.assertEqual(sorted(row["bands"] + row["kv"] for row in saved["rows"]),
                         sorted(c["bands"] + c["kv"] for c in manifest["candidates"]
                                if c["id"] in some))


if __name__ == "__main__":
    unittest.main()
