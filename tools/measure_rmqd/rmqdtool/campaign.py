"""One measurement campaign: calibrate once, cache the oracle's top-m once, then measure each
planned candidate's RMQD and write quality-set rows (docs/FORMATS.md 7)."""
import json
import os
import sys
import tempfile

import torch

from . import recipe as recipes
from .model import Runner
from .rmqd import OracleCache, token_kl
from .safetensors import save_file

# Where ModelOpt's own calibration would give a different (lower) RMQD than the max
# calibration this tool applies: the measured value is then an upper bound for that recipe.
ALGORITHM_NOTES = {
    "smoothquant": "SmoothQuant migrates activation outliers into the weights (per-channel "
                   "smoothing, alpha 0.5) before int8 quantization; measured here with plain max "
                   "calibration, so this RMQD is an upper bound of ModelOpt's",
    "awq": "AWQ searches per-channel activation-aware scales (awq_lite, alpha step 0.1) before "
           "int4 quantization; measured here with plain max block scales, so this RMQD is an "
           "upper bound of ModelOpt's",
    "gptq": "GPTQ compensates each column's rounding error with the Hessian of the layer "
            "inputs; measured here with round-to-nearest max scales, so this RMQD is an upper "
            "bound of ModelOpt's",
}


class PlanError(ValueError):
    pass


def load_manifest(path):
    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise PlanError(f"{path}: {e}") from e
    if m.get("kind") != "acsel-quality-plan" or m.get("schema_version") != 1:
        raise PlanError(f"{path}: expected kind acsel-quality-plan, schema_version 1")
    model = m.get("model")
    if not isinstance(model, dict) or not isinstance(model.get("name"), str) or \
            not isinstance(model.get("layers"), int):
        raise PlanError(f"{path}: /model: expected {{name, hf_id, layers}}")
    if not isinstance(m.get("candidates"), list):
        raise PlanError(f"{path}: /candidates: expected a list")
    for i, c in enumerate(m["candidates"]):
        for key in ("id", "recipe", "bands", "algorithm", "lm_head_quantized", "kv", "split"):
            if key not in c:
                raise PlanError(f"{path}: /candidates/{i}: missing '{key}'")
    return m


def check_recipe(candidate, rec, where):
    """The recipe file must describe exactly the candidate the plan lists."""
    got = {"bands": rec.bands, "algorithm": rec.algorithm,
           "lm_head_quantized": rec.spec.lm_head != "bf16", "kv": rec.spec.kv}
    for key, value in got.items():
        if candidate[key] != value:
            raise PlanError(f"{where}: the recipe gives {key} {value!r} but the plan lists "
                            f"{candidate[key]!r}")


def write_atomic(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".measure_rmqd.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


class Campaign:
    def __init__(self, checkpoint, oracle_checkpoint, calib_seqs, eval_seqs, device, dtype,
                 batch, top_m, cache_weights=True):
        self.model = Runner(checkpoint, device, dtype, batch, cache_weights)
        # The oracle runs once: its weights are never cached.
        self.oracle_model = Runner(oracle_checkpoint, device, dtype, batch, False) \
            if oracle_checkpoint is not None else self.model
        self.calib = calib_seqs
        self.eval = eval_seqs
        self.top_m = top_m
        self.amax = {}
        self.oracle = None

    def prepare(self):
        """Max calibration (the unquantized model's absolute maxima over the calibration
        sequences, as ModelOpt's calibration pass) and the oracle's top-m cache."""
        self.model.run(self.calib, collect=self.amax)
        parts = []
        s = self.eval.shape[1]

        def keep(first, logits):
            parts.append(OracleCache.from_logits(logits.reshape(-1, logits.shape[-1]).float(),
                                                 self.top_m))
        self.oracle_model.run(self.eval, on_logits=keep)
        self.oracle = OracleCache.concat(parts)
        if self.oracle_model.arch.vocab != self.model.arch.vocab:
            raise PlanError(f"the oracle's vocabulary {self.oracle_model.arch.vocab} differs "
                            f"from the model's {self.model.arch.vocab}: they must share a "
                            "tokenizer")
        assert self.oracle.ids.shape[0] == self.eval.shape[0] * s

    def measure(self, spec, keep_logits=False):
        """(RMQD, tokens, worst token KL, logits [T, V] or None) of one candidate."""
        s = self.eval.shape[1]
        total = [0.0, 0, 0.0]
        kept = []

        def score(first, logits):
            # RMQD from float32 logits, the values a dump stores and `acsel rmqd` reads.
            flat = logits.reshape(-1, logits.shape[-1]).float()
            kl = token_kl(self.oracle.slice(first * s, flat.shape[0]), flat)
            total[0] += float(kl.sum())
            total[1] += flat.shape[0]
            total[2] = max(total[2], float(kl.max()))
            if keep_logits:
                kept.append(flat.cpu())
        self.model.run(self.eval, spec=spec, amax=self.amax, on_logits=score)
        return total[0] / total[1], total[1], total[2], torch.cat(kept) if keep_logits else None

    def save_oracle(self, path):
        save_file(self.oracle.tensors(), path)


def rows_text(provenance, rows):
    out = "# synthetic: false\n# provenance: " + provenance + "\n"
    out += "model,algorithm,lm_head_quantized,kv,bands,rmqd,split\n"
    for r in rows:
        out += ",".join([r["model"], r["algorithm"], "true" if r["lm_head_quantized"] else "false",
                         r["kv"], r["bands"], repr(r["rmqd"]), r["split"]]) + "\n"
    return out


def run_plan(manifest_path, campaign, model_name, output, provenance, only=None,
             dump_logits=None, self_oracle=True, out=sys.stdout):
    """Measures every candidate of the plan (or those named in `only`), writing the rows file
    after each one (atomically: an interrupted campaign keeps the rows measured so far)."""
    manifest = load_manifest(manifest_path)
    plan_dir = os.path.dirname(os.path.abspath(manifest_path))
    if manifest["model"]["name"] != model_name:
        raise PlanError(f"{manifest_path}: the plan is for {manifest['model']['name']}, "
                        f"not {model_name}")
    layers = campaign.model.arch.layers
    if manifest["model"]["layers"] != layers:
        raise PlanError(f"{manifest_path}: the plan's model has {manifest['model']['layers']} "
                        f"layers, the checkpoint {layers}")
    candidates = [c for c in manifest["candidates"] if only is None or c["id"] in only]
    recs = []
    for c in candidates:  # check every recipe before the first long measurement
        path = os.path.join(plan_dir, c["recipe"])
        rec = recipes.load_recipe(path, campaign.model.arch)
        check_recipe(c, rec, path)
        recs.append(rec)
    campaign.prepare()
    if dump_logits:
        os.makedirs(dump_logits, exist_ok=True)
        campaign.save_oracle(os.path.join(dump_logits, "oracle.safetensors"))
    rows = []
    results = []
    for c, rec in zip(candidates, recs):
        value, tokens, worst, logits = campaign.measure(rec.spec, keep_logits=bool(dump_logits))
        if dump_logits:
            save_file({"logits": logits}, os.path.join(dump_logits, c["id"] + ".safetensors"))
        note = ALGORITHM_NOTES.get(rec.algorithm)
        print(f"{c['id']}  {c['bands']}  {rec.algorithm}  kv {rec.spec.kv}  lm_head "
              f"{rec.spec.lm_head}: RMQD {value:.6g} nats over {tokens} tokens (worst token "
              f"{worst:.4g})", file=out)
        if note:
            print(f"  note: {note}", file=out)
        results.append({"id": c["id"], "bands": c["bands"], "rmqd": value, "tokens": tokens,
                        "max_token_kl": worst, "algorithm_note": note})
        quantized = c["bands"] != f"0-{layers - 1}:bf16" or c["kv"] != "bf16"
        if self_oracle and not quantized:
            print("  not a quality-set row: the bf16 model against its own weights is 0 by "
                  "definition (give --oracle-checkpoint, the family's oracle, as the paper)",
                  file=out)
            continue
        if value <= 0:
            print("  not a quality-set row: RMQD is not > 0", file=out)
            continue
        rows.append({"model": model_name, "algorithm": c["algorithm"],
                     "lm_head_quantized": c["lm_head_quantized"], "kv": c["kv"],
                     "bands": c["bands"], "rmqd": value, "split": c["split"]})
        write_atomic(output, rows_text(provenance, rows))
    if not rows:
        write_atomic(output, rows_text(provenance, rows))
    return results
