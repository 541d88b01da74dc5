#!/usr/bin/env python3
"""The bad-input corpus: generated malformed inputs of every kind the acsel CLI reads, and
controls, run against a built acsel (docs/FUZZING.md, "The bad-input corpus").

    corpus.py ACSEL SOURCE_DIR WORK_DIR [--list]

Every bad case must exit 2 within 10 s with exactly one line on stderr that names the file
and the field (a JSON pointer, a CSV line and column, a YAML key or the CLI option); every
control must exit 0. Exit status 0 when every case holds. The cases are derived from the
repository's own files (datasets/, tests/data/) by one edit each, so the generator needs no
data of its own; nothing is read from ../shared (tables come from tests/data/latency)."""

import copy
import json
import os
import shutil
import stat
import subprocess
import sys
import time

ACSEL, SOURCE, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
DATASETS = os.path.join(SOURCE, "datasets")
FIXTURE_TABLES = os.path.join(SOURCE, "tests", "data", "latency")
# A hang detector, not a speed test: sanitizer builds run each case several times slower.
TIMEOUT_S = int(os.environ.get("ACSEL_CORPUS_TIMEOUT_S", "10"))
shutil.rmtree(WORK, ignore_errors=True)  # FIFOs and symlink loops are made afresh
os.makedirs(WORK)

cases = []  # (name, argv, expect, file, field)


def path(*parts):
    return os.path.join(WORK, *parts)


def write(name, text, mode="w"):
    p = path(name)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, mode) as f:
        f.write(text)
    return p


def load(p):
    with open(p) as f:
        return json.load(f)


def bad(name, argv, file, field):
    cases.append((name, argv, "bad", file, field))


def ok(name, argv):
    cases.append((name, argv, "ok", None, None))


# ---- a tables folder made of the fixture tables, one GPU (names as AIC's) ----------------
YAML = ("gpu:\n  mem_bw: 2000000000000\n  mem_bw_empirical_scaling_factor: 0.8\n"
        "  mem_empirical_constant_latency: 0.000003\n  mem_capacity: 85899345920\n"
        "  bfloat16_tc_flops: 989000000000000\n  fp8_tc_flops: 1978000000000000\n"
        "  sm_version: 90\nmisc:\n  other_mem: 3758096384\n")
TABLE_FILES = ["gemm_perf.csv", "context_attention_perf.csv", "generation_attention_perf.csv"]


def tables(name, yaml=YAML, replace=None):
    """A tables folder <name>/fixture_gpu/vllm/1.0 with one file replaced ({file: text})."""
    root = path(name)
    version = os.path.join(root, "fixture_gpu", "vllm", "1.0")
    os.makedirs(version, exist_ok=True)
    with open(os.path.join(root, "fixture_gpu", "system.yaml"), "w") as f:
        f.write(yaml)
    for t in TABLE_FILES:
        src = os.path.join(FIXTURE_TABLES, t)
        dst = os.path.join(version, t)
        if replace and t in replace:
            with open(dst, "w") as f:
                f.write(replace[t])
        else:
            shutil.copyfile(src, dst)
    return root, version


GOOD_TABLES, GOOD_VERSION = tables("tables_good")
WS = load(os.path.join(DATASETS, "workspace.json"))
for key in ("platforms", "utilisation", "request_overheads"):
    WS[key] = os.path.join(DATASETS, WS[key])
WS["quality"]["file"] = os.path.join(DATASETS, WS["quality"]["file"])


def workspace(name, doc=None, text=None):
    return write(name + "/workspace.json", text if text is not None else json.dumps(doc, indent=1))


def info(ws, tables_dir=GOOD_TABLES):
    return ["info", "--workspace", ws, "--tables", tables_dir]


WS_GOOD = workspace("ws_good", WS)
ok("workspace: the default (absolute paths)", info(WS_GOOD))
ok("workspace: the default, no tables folder", ["info", "--workspace", WS_GOOD])

# ---- workspace: one edit each --------------------------------------------------------------
def ws_case(label, edit, field, expect_file=None):
    doc = copy.deepcopy(WS)
    edit(doc)
    name = "ws_%03d" % len(cases)
    p = workspace(name, doc)
    bad("workspace: " + label, info(p), expect_file or p, field)


def setter(*keys, value=None, delete=False):
    def edit(doc):
        node = doc
        for k in keys[:-1]:
            node = node[k]
        if delete:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value
    return edit


for key in ("schema_version", "name", "models"):
    ws_case("missing " + key, setter(key, delete=True), "/" + key)
for key, value in (("schema_version", "1"), ("schema_version", 1.5), ("schema_version", 99),
                   ("name", 1), ("models", {}), ("models", []), ("platforms", 1),
                   ("utilisation", []), ("quality", "q.json")):
    ws_case("%s = %r" % (key, value), setter(key, value=value), "/" + key)
for key, value in (("file", 1), ("synthetic", "yes")):
    ws_case("quality.%s = %r" % (key, value), setter("quality", key, value=value), "/quality/" + key)
ws_case("quality.synthetic missing", setter("quality", "synthetic", delete=True),
        "/quality/synthetic")
for typo in ("utilization", "qualty", "platform", "Models"):
    ws_case("misspelt key " + typo, setter(typo, value=WS.get("quality")), "/" + typo)
ws_case("misspelt quality.fille", setter("quality", "fille", value="x"), "/quality/fille")
ws_case("misspelt models[0].hfid", setter("models", 0, "hfid", value="x"), "/models/0/hfid")
for key in ("platforms", "utilisation", "request_overheads"):
    ws_case(key + " missing file", setter(key, value="none/%s.json" % key), "/" + key)
    ws_case(key + " is a folder", setter(key, value=DATASETS), "/" + key)
    ws_case(key + " is /dev/zero", setter(key, value="/dev/zero"), "/" + key)
ws_case("quality file missing", setter("quality", "file", value="none.json"), "/quality/file")
ws_case("quality file is a folder", setter("quality", "file", value=DATASETS), "/quality/file")
ws_case("models[1] not an object", setter("models", 1, value="Qwen3-8B"), "/models/1")
ws_case("duplicate model name", setter("models", 1, "name", value=WS["models"][0]["name"]),
        "/models/1/name")
for key in ("name", "hf_id", "config"):
    ws_case("models[0] without " + key, setter("models", 0, key, delete=True), "/models/0/" + key)
CONFIG_KEYS = ["num_hidden_layers", "hidden_size", "num_attention_heads", "intermediate_size",
               "vocab_size"]
for m in (0, 2):
    for key in CONFIG_KEYS:
        ptr = "/models/%d/config/%s" % (m, key)
        ws_case("models[%d] config %s missing" % (m, key),
                setter("models", m, "config", key, delete=True), ptr)
        for value in ("4096", 0, -1, 2.5, 10 ** 12, None, True):
            ws_case("models[%d] config %s = %r" % (m, key, value),
                    setter("models", m, "config", key, value=value), ptr)
for m in (0, 2):
    ws_case("models[%d] model_type unknown" % m,
            setter("models", m, "config", "model_type", value="mamba"),
            "/models/%d/config/model_type" % m)
    ws_case("models[%d] kv heads do not divide" % m,
            setter("models", m, "config", "num_key_value_heads", value=7),
            "/models/%d/config" % m)
    ws_case("models[%d] num_hidden_layers 1025" % m,
            setter("models", m, "config", "num_hidden_layers", value=1025),
            "/models/%d/config/num_hidden_layers" % m)
ok("workspace: extra config.json keys are taken",
   info(workspace("ws_extra_hf", {**WS, "models": [
       {**WS["models"][0], "config": {**WS["models"][0]["config"], "rope_theta": 1e6,
                                       "architectures": ["Qwen3ForCausalLM"]}}]})))

# Text-level faults: duplicate keys, syntax, numbers beyond a double.
TEXT = json.dumps(WS, indent=1)
for label, old, new, field in (
        ("duplicate top-level name", '"name": "%s",' % WS["name"],
         '"name": "a", "name": "b",', "/name"),
        ("duplicate key in a model config", '"num_hidden_layers": 28,',
         '"num_hidden_layers": 28, "num_hidden_layers": 36,', "/models/0/config/num_hidden_layers"),
        ("duplicate quality.file", '"synthetic": true', '"synthetic": true, "synthetic": false',
         "/quality/synthetic"),
        ("number beyond a double", '"num_hidden_layers": 28,', '"num_hidden_layers": 1e400,',
         "number")):
    assert old in TEXT, old
    p = workspace("ws_text_%03d" % len(cases), text=TEXT.replace(old, new, 1))
    bad("workspace: " + label, info(p), p, field)
for cut in (1, 17, 100, 500, 1000, len(TEXT) // 2, len(TEXT) - 2):
    p = workspace("ws_cut_%d" % cut, text=TEXT[:cut])
    bad("workspace: truncated at byte %d" % cut, info(p), p, "ends early")
for label, text in (("trailing comma", TEXT.rstrip()[:-1].rstrip() + ",}"),
                    ("comment", "// c\n" + TEXT), ("not an object", "[1, 2]"),
                    ("a string", '"workspace"'), ("NaN literal", TEXT.replace("28", "NaN", 1))):
    p = workspace("ws_syntax_%03d" % len(cases), text=text)
    bad("workspace: " + label, info(p), p, "/" if label in ("not an object", "a string") else "")

# The file itself: empty, folder, FIFO, device, oversized, symlink loop, non-UTF-8 name.
p = workspace("ws_empty", text="")
bad("workspace: empty file", info(p), p, "empty")
bad("workspace: a folder", info(path("ws_good")), path("ws_good"), "directory")
fifo = path("ws_fifo.json")
os.mkfifo(fifo)
bad("workspace: a FIFO", info(fifo), fifo, "FIFO")
bad("workspace: /dev/zero", info("/dev/zero"), "/dev/zero", "character device")
big = path("ws_big.json")
with open(big, "wb") as f:
    f.truncate((64 << 20) + 1)
bad("workspace: 64 MiB + 1 byte", info(big), big, "at most 64 MiB")
loop = path("ws_loop.json")
os.symlink(loop, loop)
bad("workspace: symlink loop", info(loop), loop, "symbolic links")
bad("workspace: missing", info(path("none.json")), path("none.json"), "No such file")
latin1 = os.fsencode(path("")) + b"caf\xe9.json"
with open(latin1, "w") as f:
    f.write(json.dumps(WS))
ok("workspace: a non-UTF-8 file name", info(os.fsdecode(latin1)))
link = path("ws_link.json")
os.symlink(WS_GOOD, link)
ok("workspace: through a symlink", info(link))

# ---- platforms and utilisation files (through the workspace) -------------------------------
PLATFORMS = load(os.path.join(DATASETS, "platforms.json"))


def referenced(kind, label, doc, field, command=None):
    name = "%s_%03d" % (kind, len(cases))
    f = write(name + "/%s.json" % kind, json.dumps(doc))
    ws = copy.deepcopy(WS)
    ws[kind] = f
    w = workspace(name, ws)
    bad("%s: %s" % (kind, label), command(w) if command else info(w), f, field)


def edited(doc, edit):
    d = copy.deepcopy(doc)
    edit(d)
    return d


for i in (0, 5):
    for key in ("memory_capacity_gib", "memory_bandwidth_gb_s"):
        for value in (0, -1, 1e9, "48"):
            referenced("platforms", "platforms[%d].%s = %r" % (i, key, value),
                       edited(PLATFORMS, setter("platforms", i, key, "value", value=value)),
                       "/platforms/%d/%s" % (i, key))
    referenced("platforms", "platforms[%d] without id" % i,
               edited(PLATFORMS, setter("platforms", i, "id", delete=True)), "/platforms/%d/id" % i)
for key, value in (("bw_scaling", 1e6), ("bw_scaling", 0), ("constant_latency_us", -1)):
    referenced("platforms", "memory_op_model.%s = %r" % (key, value),
               edited(PLATFORMS, setter("memory_op_model", key, value=value)),
               "/memory_op_model/" + key)
referenced("platforms", "duplicate platform id",
           edited(PLATFORMS, setter("platforms", 1, "id", value=PLATFORMS["platforms"][0]["id"])),
           "/platforms/1")
referenced("platforms", "kind", edited(PLATFORMS, setter("kind", value="acsel-workspace")), "/kind")

UTIL = load(os.path.join(DATASETS, "utilisation.json"))
SEARCH_ARGS = ["--model", "Qwen3-0.6B", "--stack", "jetson_agx_thor/vllm", "--tables", GOOD_TABLES]


# A saved surrogate spares each search the fit on the quality set (seconds under ASan); the
# quality cases fit, since the quality set is what they test.
SURROGATE = ["--surrogate", os.path.join(SOURCE, "tests", "fuzz", "corpus", "surrogate",
                                         "engine_schema3.json")]


def search(ws, *extra, fit=False):
    return ["search", "--workspace", ws, *SEARCH_ARGS, *extra] + ([] if fit else SURROGATE)


ok("search: the default workspace on a spec-only stack", search(WS_GOOD))
first = next(i for i, v in enumerate(UTIL["grids"][0]["log_utilisation"]) if v is not None)
for value in (20, 3.5, -11, "0.5", True):
    referenced("utilisation", "log_utilisation = %r" % (value,),
               edited(UTIL, setter("grids", 0, "log_utilisation", first, value=value)),
               "/grids/0/log_utilisation/%d" % first, command=search)
for key, value in (("sol_constant_us", -1), ("schema_version", 99), ("kind", "x"),
                   ("grids", {})):
    referenced("utilisation", "%s = %r" % (key, value), edited(UTIL, setter(key, value=value)),
               "/" + key, command=search)
referenced("utilisation", "a grid's op", edited(UTIL, setter("grids", 0, "op", value="conv")),
           "/grids/0/op", command=search)
referenced("utilisation", "a grid one value short",
           edited(UTIL, lambda d: d["grids"][0]["log_utilisation"].pop()),
           "/grids/0/log_utilisation", command=search)

OVERHEADS = load(os.path.join(DATASETS, "request_overheads.json"))
for key, value in (("stack", "h100_sxm"), ("release", ""), ("overhead_ms", -1),
                   ("overhead_ms", "152"), ("fitted", " ")):
    referenced("request_overheads", "entries[0].%s = %r" % (key, value),
               edited(OVERHEADS, setter("entries", 0, key, value=value)), "/entries/0/" + key)
referenced("request_overheads", "a second entry for a release",
           edited(OVERHEADS, lambda d: d["entries"].append(copy.deepcopy(d["entries"][0]))),
           "/entries/%d/release" % len(OVERHEADS["entries"]))
referenced("request_overheads", "schema_version = 99",
           edited(OVERHEADS, setter("schema_version", value=99)), "/schema_version")

# ---- quality set (through the workspace; the search fits the surrogate on it) --------------
QUALITY = load(WS["quality"]["file"])


def quality(label, doc, field):
    name = "quality_%03d" % len(cases)
    f = write(name + "/quality.json", json.dumps(doc))
    ws = copy.deepcopy(WS)
    ws["quality"]["file"] = f
    bad("quality: " + label, search(workspace(name, ws), fit=True), f, field)


for r in (0, 7):
    for key, value in (("rmqd", -1), ("rmqd", 0), ("rmqd", "0.5"), ("rmqd", 1e301),
                       ("bands", "0-99:fp8"), ("bands", "0-27:fp6"), ("bands", ""),
                       ("model", "Qwen9"), ("algorithm", "rtn"), ("kv", "int4"),
                       ("split", "test"), ("lm_head_quantized", "no")):
        quality("rows[%d].%s = %r" % (r, key, value),
                edited(QUALITY, setter("rows", r, key, value=value)), "/rows/%d/%s" % (r, key))
    quality("rows[%d] without rmqd" % r, edited(QUALITY, setter("rows", r, "rmqd", delete=True)),
            "/rows/%d/rmqd" % r)
quality("rows empty", edited(QUALITY, setter("rows", value=[])), "/rows")
quality("rows[7] again, another rmqd and split",
        edited(QUALITY, lambda d: d["rows"].append(dict(d["rows"][7], rmqd=0.5, split="heldout"))),
        "/rows/%d: duplicate configuration" % len(QUALITY["rows"]))
quality("kind", edited(QUALITY, setter("kind", value="acsel-platforms")), "/kind")
CSV_HEAD = "model,algorithm,lm_head_quantized,kv,bands,rmqd,split\n"
CSV_ROW = "Qwen3-0.6B,max,false,bf16,0-27:fp8/full,0.05,train\n"
for label, text, field in (("rmqd decimal comma", CSV_HEAD + CSV_ROW.replace("0.05", "0,05"),
                            "line 2"),
                           ("rmqd text", CSV_HEAD + CSV_ROW.replace("0.05", "abc"), "column 'rmqd'"),
                           ("missing column", CSV_HEAD.replace(",split", "") + CSV_ROW, "split"),
                           ("header only", CSV_HEAD, "no measurement rows"),
                           ("a row twice", CSV_HEAD + CSV_ROW + CSV_ROW.replace("0.05", "0.06"),
                            "line 3: duplicate configuration")):
    name = "qcsv_%03d" % len(cases)
    f = write(name + "/quality.csv", text)
    ws = copy.deepcopy(WS)
    ws["quality"]["file"] = f
    bad("quality CSV: " + label, search(workspace(name, ws), fit=True), f, field)

# ---- silicon measurements (predict; loaded before any row is mapped onto a stack) ----------
with open(os.path.join(FIXTURE_TABLES, "silicon_small.csv")) as f:
    SILICON = f.read().splitlines(keepends=True)  # header, then rows on lines 2..
for label, extra, field in (
        ("an id twice", [SILICON[1].split(",")[0] + SILICON[2][SILICON[2].index(","):]],
         "line %d, column 'id': duplicate row id" % (len(SILICON) + 1)),
        ("a measurement twice, another id",
         ["again" + SILICON[1][SILICON[1].index(","):].replace("200.0", "205.0")],
         "line %d: duplicate of the measurement on line 2" % (len(SILICON) + 1))):
    f = write("silicon_%03d/silicon.csv" % len(cases), "".join(SILICON + extra))
    bad("silicon CSV: " + label, ["predict", "--workspace", WS_GOOD, "--tables", GOOD_TABLES,
                                  "--measurements", f], f, field)

# ---- request file ---------------------------------------------------------------------------
REQUEST = {"schema_version": 1, "stack": "jetson_agx_thor/vllm",
           "request": {"isl": 512, "osl": 128, "concurrency": 1, "ttft_budget_ms": 800,
                       "tpot_budget_ms": 40, "memory_budget_gib": 32, "mode": "static"},
           "models": ["Qwen3-0.6B"]}


def request_argv(f):
    return ["search", "--workspace", WS_GOOD, "--tables", GOOD_TABLES, "--request", f] + SURROGATE


ok("request: a valid one", request_argv(write("request_ok.json", json.dumps(REQUEST))))


def request(label, doc=None, field="", text=None):
    f = write("request_%03d.json" % len(cases), text if text is not None else json.dumps(doc))
    bad("request: " + label, request_argv(f), f, field)


for key in ("isl", "osl", "concurrency", "ttft_budget_ms", "tpot_budget_ms", "memory_budget_gib"):
    # A huge budget is a loose one, not an error; a huge token count is refused.
    for value in (0, -5, "1", None) + ((1e12,) if key in ("isl", "osl", "concurrency") else ()):
        request("request.%s = %r" % (key, value),
                edited(REQUEST, setter("request", key, value=value)), "/request/" + key)
request("mode", edited(REQUEST, setter("request", "mode", value="batch")), "/request/mode")
request("models []", edited(REQUEST, setter("models", value=[])), "/models")
request("a model twice", edited(REQUEST, setter("models", value=["Qwen3-0.6B", "Qwen3-0.6B"])),
        "/models/1")
request("unknown model", edited(REQUEST, setter("models", value=["Qwen9"])), "/models/0")
request("unknown stack", edited(REQUEST, setter("stack", value="h900/vllm")), "/stack")
request("unknown key", edited(REQUEST, setter("budget", value=1)), "/budget")
request("two stack keys", field="/stack",
        text=json.dumps(REQUEST).replace('"stack": "jetson_agx_thor/vllm"',
                                         '"stack": "jetson_agx_thor/vllm", "stack": "x/y"'))

# ---- system.yaml and operator tables (tables folder walk, then first use) -------------------
def yaml_case(label, old, new, field):
    assert old in YAML, old
    root, _ = tables("tables_yaml_%03d" % len(cases), yaml=YAML.replace(old, new, 1))
    bad("system.yaml: " + label, ["info", "--workspace", WS_GOOD, "--tables", root],
        os.path.join(root, "fixture_gpu", "system.yaml"), field)


for key, old in (("mem_bw", "2000000000000"), ("mem_capacity", "85899345920"),
                 ("bfloat16_tc_flops", "989000000000000")):
    for value in ("0", "-1", "fast", "1,5e12", ".nan"):
        yaml_case("%s: %s" % (key, value), "%s: %s" % (key, old), "%s: %s" % (key, value),
                  "gpu." + key)
for value in ("1e6", "0", "1.5", "-0.8"):
    yaml_case("mem_bw_empirical_scaling_factor: " + value, "scaling_factor: 0.8",
              "scaling_factor: " + value, "gpu.mem_bw_empirical_scaling_factor")
for value in ("1", "-1e-6"):
    yaml_case("mem_empirical_constant_latency: " + value, "constant_latency: 0.000003",
              "constant_latency: " + value, "gpu.mem_empirical_constant_latency")
for value in ("1e300", "0", "89.5"):
    yaml_case("sm_version: " + value, "sm_version: 90", "sm_version: " + value, "gpu.sm_version")
yaml_case("no gpu section", "gpu:", "cpu:", "gpu")
yaml_case("invalid YAML", "gpu:\n", "gpu: [\n", "line")

with open(os.path.join(FIXTURE_TABLES, "gemm_perf.csv")) as f:
    GEMM = f.read()
GEMM_HEAD, GEMM_FIRST = GEMM.split("\n")[0], GEMM.split("\n")[1]
COLS = GEMM_HEAD.split(",")


def gemm_row(**values):
    fields = GEMM_FIRST.split(",")
    for k, v in values.items():
        fields[COLS.index(k)] = v
    return ",".join(fields)


def table_case(label, text, field, table="gemm_perf.csv"):
    """The damaged table is refused by a search and, with the same message, by `acsel info`,
    which loads every table it lists."""
    root, version = tables("tables_csv_%03d" % len(cases), replace={table: text})
    bad("operator table: " + label,
        ["search", "--workspace", WS_GOOD, "--tables", root, "--stack", "fixture_gpu/vllm",
         "--model", "Qwen3-0.6B"] + SURROGATE, os.path.join(version, table), field)
    bad("operator table, info: " + label, info(WS_GOOD, root), os.path.join(version, table), field)


for value in ("nan", "-1", "0", "1e-300", "1e9", "fast", "", "inf"):
    table_case("latency = %r" % value, GEMM_HEAD + "\n" + gemm_row(latency=value) + "\n" + GEMM,
               "line 2, column 'latency'")
for col in ("m", "n", "k"):
    for value in ("one", "0", "-4", "1.5", "99999999999"):
        table_case("%s = %r" % (col, value),
                   GEMM_HEAD + "\n" + gemm_row(**{col: value}) + "\n" + GEMM,
                   "line 2, column '%s'" % col)
table_case("header only", GEMM_HEAD + "\n", "gemm_dtype")
table_case("only unknown dtypes", GEMM_HEAD + "\n" + gemm_row(gemm_dtype="int3") + "\n",
           "gemm_dtype")
table_case("latency column twice", GEMM_HEAD + ",latency\n" + GEMM_FIRST + ",0.5\n", "line 1")
table_case("latency column missing",
           GEMM_HEAD.replace(",latency", "") + "\n" + GEMM_FIRST.rsplit(",", 1)[0] + "\n",
           "missing column 'latency'")
table_case("a row one field short", GEMM + GEMM_FIRST.rsplit(",", 1)[0] + "\n", "line")
table_case("empty file", "", "empty")
for t in ("context_attention_perf.csv", "generation_attention_perf.csv"):
    with open(os.path.join(FIXTURE_TABLES, t)) as f:
        text = f.read()
    head, first = text.split("\n")[0], text.split("\n")[1]
    table_case(t + " header only", head + "\n", "no data rows", table=t)

    def attention_row(**values):
        fields = first.split(",")
        for k, v in values.items():
            fields[head.split(",").index(k)] = v
        return ",".join(fields)

    for value in ("nan", "-1", "1e300", "1e-300"):
        table_case("%s latency = %r" % (t, value),
                   head + "\n" + attention_row(latency=value) + "\n" + text.split("\n", 1)[1],
                   "line 2, column 'latency'", table=t)
    table_case(t + " kv_cache_dtype = 'int4'",
               head + "\n" + attention_row(kv_cache_dtype="int4") + "\n" + text.split("\n", 1)[1],
               "line 2, column 'kv_cache_dtype'", table=t)
for t in TABLE_FILES:  # the walk reads gemm_perf.csv, the first search the other two
    root, version = tables("tables_dir_%03d" % len(cases))
    os.remove(os.path.join(version, t))
    os.mkdir(os.path.join(version, t))
    bad("operator table: %s is a folder" % t,
        ["search", "--workspace", WS_GOOD, "--tables", root, "--stack", "fixture_gpu/vllm",
         "--model", "Qwen3-0.6B"] + SURROGATE, os.path.join(version, t), "directory")
root, version = tables("tables_fifo")
os.remove(os.path.join(version, "gemm_perf.csv"))
os.mkfifo(os.path.join(version, "gemm_perf.csv"))
bad("operator table: gemm_perf.csv is a FIFO", info(WS_GOOD, root),
    os.path.join(version, "gemm_perf.csv"), "FIFO")
root, version = tables("tables_loop")
os.symlink(os.path.join(root, "loop_gpu"), os.path.join(root, "loop_gpu"))
bad("tables folder: a symlink loop", info(WS_GOOD, root), os.path.join(root, "loop_gpu"),
    "symbolic links")
bad("tables folder: missing", info(WS_GOOD, path("no_tables")), path("no_tables"), "does not exist")
# The fixture tables are slow made-up numbers: loose budgets, so that an answer exists.
ok("tables folder: the fixture tables, search",
   ["search", "--workspace", WS_GOOD, "--tables", GOOD_TABLES, "--stack", "fixture_gpu/vllm",
    "--model", "Qwen3-0.6B", "--ttft", "100000", "--tpot", "100000"] + SURROGATE)

# ---- configuration JSON (export) ------------------------------------------------------------
CONFIG = load(os.path.join(SOURCE, "tests", "data", "export", "qwen3_8b_fp8_nvfp4_bf16.config.json"))
CONFIG["stack"] = "b200_sxm/trtllm"


def export_argv(f, out):
    return ["export", "--workspace", WS_GOOD, "--config", f, "--as", "modelopt-yaml", "-o", out]


ok("export: a valid configuration", export_argv(write("config_ok.json", json.dumps(CONFIG)),
                                                path("config_ok.yaml")))
for label, edit, field in (
        ("batch 0", setter("config", "batch", value=0), "/config/batch"),
        ("bands []", setter("config", "bands", value=[]), "/config/bands"),
        ("band format fp6", setter("config", "bands", 1, "format", value="fp6"),
         "/config/bands/1/format"),
        ("band scope", setter("config", "bands", 0, "scope", value="qkv"), "/config/bands/0/scope"),
        ("gap between bands", setter("config", "bands", 1, "first_layer", value=11), "/config/bands"),
        ("last layer beyond the model", setter("config", "bands", 2, "last_layer", value=99),
         "/config/bands"),
        ("model not in the workspace",
         lambda d: d["model"].update(name="Qwen9", hf_id="Qwen/Qwen9"), "/model"),
        ("hf_id differs", setter("model", "hf_id", value="x/y"), "/model/hf_id"),
        ("unknown top-level key", setter("confg", value={}), "/confg")):
    f = write("config_%03d.json" % len(cases), json.dumps(edited(CONFIG, edit)))
    bad("configuration: " + label, export_argv(f, path("config_%03d.yaml" % len(cases))), f, field)

# ---- files that parse but mean nothing (refused where they would silently do nothing) ------
ws_case("models[0].name empty", setter("models", 0, "name", value=""), "/models/0/name")
ws_case("models[0].name blank", setter("models", 0, "name", value="  "), "/models/0/name")
ws_case("models[0].hf_id empty", setter("models", 0, "hf_id", value=""), "/models/0/hf_id")
FMC_ENTRY = {"stack": "jetson_agx_thor/vllm", "ttft": {"gamma": 1, "delta": 0.1},
             "tpot": {"gamma": 1, "delta": 0}, "rows_used": ["r1"]}


def fmc_file(label, stacks):
    return write("fmc_%03d.json" % len(cases), json.dumps(
        {"schema_version": 1, "kind": "acsel-fmc", "tau": 0.5, "serving_mode": "static",
         "stacks": stacks}))


for label, stacks in (("no stacks", []),
                      ("only stacks the workspace lacks",
                       [dict(FMC_ENTRY, stack="h900/vllm"), dict(FMC_ENTRY, stack="x/y")])):
    f = fmc_file(label, stacks)
    bad("FMC file: " + label, search(WS_GOOD, "--fmc", f), f, "/stacks")
ok("FMC file: one stack the workspace lacks, one it has (a warning)",
   search(WS_GOOD, "--fmc", fmc_file("partial", [FMC_ENTRY, dict(FMC_ENTRY, stack="x/y")])))
SURROGATE_DOC = load(SURROGATE[1])
f = write("surrogate_unknown_models.json", json.dumps(dict(SURROGATE_DOC, model_offsets=[
    dict(o, model="Other-%d" % i) for i, o in enumerate(SURROGATE_DOC["model_offsets"])])))
bad("surrogate: offsets only of models the workspace lacks",
    ["search", "--workspace", WS_GOOD, *SEARCH_ARGS, "--surrogate", f], f, "/model_offsets")
f = write("surrogate_one_unknown.json", json.dumps(dict(SURROGATE_DOC, model_offsets=[
    dict(o, model="Other") if i == 0 else o
    for i, o in enumerate(SURROGATE_DOC["model_offsets"])])))
ok("surrogate: one offset of a model the workspace lacks (said, ignored)",
   ["search", "--workspace", WS_GOOD, *SEARCH_ARGS, "--surrogate", f])

# ---- calibration from too few rows (fixture tables; rows of Qwen3-0.6B bf16) ----------------
def silicon_rows(name, sweeps):
    """sweeps: [(isl, osl, [concurrency, ...]), ...] -> a silicon CSV for fixture_gpu/vllm."""
    lines = [SILICON[0].rstrip("\n")]
    for isl, osl, concurrencies in sweeps:
        for c in concurrencies:
            lines.append("q_%d_%d_c%d,vllm,1.0,Qwen/Qwen3-0.6B,fixture_gpu,agg,%d,%d,,%d,1,1,%g,%g"
                         % (isl, osl, c, isl, osl, c, 50.0 + c, 5.0 + 0.1 * c))
    return write("calibrate_%s/silicon.csv" % name, "\n".join(lines) + "\n")


def calibrate(f, *extra):
    return ["calibrate", "--workspace", WS_GOOD, "--tables", GOOD_TABLES, "--measurements", f,
            "-o", f + ".fmc.json", "--force", *extra]


for label, sweeps in (("one row", [(512, 128, [1])]),
                      ("three rows of one sweep", [(512, 128, [1, 2, 4])]),
                      ("two rows of two sweeps", [(512, 128, [1]), (1024, 128, [1])]),
                      ("three rows of one concurrency",
                       [(512, 128, [4]), (1024, 128, [4]), (2048, 128, [4])])):
    f = silicon_rows(label.replace(" ", "_"), sweeps)
    bad("calibrate: " + label, calibrate(f), f,
        "needs at least 3 rows per stack, 2 of them independent")
ok("calibrate: three rows of one sweep with --allow-few",
   calibrate(silicon_rows("allow_few", [(512, 128, [1, 2, 4])]), "--allow-few"))
ok("calibrate: four rows of two sweeps",
   calibrate(silicon_rows("enough", [(512, 128, [1, 2]), (1024, 128, [1, 2])])))

# ---- RMQD oracle: a valid header promising 1.5 GiB of zeros (a sparse file) ----------------
T, M = 8 << 20, 16  # tokens x bins; ids I64 + probs F32 per bin, one F32 tail per token
ids_end, probs_end = T * M * 8, T * M * 12
header = json.dumps({"topk_ids": {"dtype": "I64", "shape": [T, M], "data_offsets": [0, ids_end]},
                     "topk_probs": {"dtype": "F32", "shape": [T, M],
                                    "data_offsets": [ids_end, probs_end]},
                     "tail_mass": {"dtype": "F32", "shape": [T],
                                   "data_offsets": [probs_end, probs_end + T * 4]}}).encode()
oracle = path("oracle_sparse.safetensors")
with open(oracle, "wb") as f:
    f.write(len(header).to_bytes(8, "little") + header)
    f.truncate(8 + len(header) + probs_end + T * 4)
bad("RMQD oracle: 1.5 GiB sparse, token 0 all zeros",
    ["rmqd", "--oracle", oracle, "--candidate", oracle], oracle, "/topk_probs token 0")

# ---- CLI options ----------------------------------------------------------------------------
for label, argv, field in (
        ("unknown option", ["info", "--workspace", WS_GOOD, "--colour"], "--colour"),
        ("missing value", ["search", "--workspace", WS_GOOD, "--isl"], "--isl"),
        ("isl text", search(WS_GOOD, "--isl", "many"), "--isl"),
        ("isl decimal comma", search(WS_GOOD, "--ttft", "0,5"), "--ttft"),
        ("isl negative", search(WS_GOOD, "--isl", "-1"), "--isl"),
        ("isl beyond int", search(WS_GOOD, "--isl", "99999999999"), "--isl"),
        ("ttft nan", search(WS_GOOD, "--ttft", "nan"), "--ttft"),
        ("memory inf", search(WS_GOOD, "--memory", "inf"), "--memory"),
        ("mode", search(WS_GOOD, "--mode", "batch"), "--mode"),
        ("algo", search(WS_GOOD, "--algo", "sa"), "--algo"),
        ("unknown model", search(WS_GOOD, "--model", "Qwen9"), "Qwen9"),
        ("unknown stack", ["search", "--workspace", WS_GOOD, "--stack", "x/y"], "x/y"),
        ("export over an existing file", export_argv(path("config_ok.json"),
                                                     path("config_ok.json")), "--force")):
    bad("CLI: " + label, argv, None, field)
ok("CLI: ttft with a decimal point", search(WS_GOOD, "--ttft", "900.5"))
# Every message names the option or the path, the operation, and what was expected.
os.makedirs(path("out_folder"), exist_ok=True)
write("exists.json", "{}")
for label, argv, file, field in (
        ("export into a missing folder",
         export_argv(path("config_ok.json"), path("no_folder", "x.yaml")),
         path("no_folder", "x.yaml"), "does not exist (expected a file in an existing folder)"),
        ("export onto a folder", export_argv(path("config_ok.json"), path("out_folder")),
         path("out_folder"), "is a folder (expected a file name)"),
        ("search --mode value", search(WS_GOOD, "--mode", "batch"), None,
         "--mode 'batch': expected static or continuous"),
        ("search --model value", search(WS_GOOD, "--model", "Qwen9"), None,
         "--model: unknown model 'Qwen9' (expected one of: Qwen3-0.6B"),
        ("search --stack value", ["search", "--workspace", WS_GOOD, "--stack", "x/y"], None,
         "--stack: unknown stack 'x/y' (expected"),
        ("eval --stacks value", ["eval", "--workspace", WS_GOOD, "--stacks", "x/y"], None,
         "--stacks: unknown stack 'x/y' (expected"),
        ("plan latency --output onto a file",
         ["plan", "latency", "--workspace", WS_GOOD, "--tables", GOOD_TABLES, "--stack",
          "fixture_gpu/vllm", "-o", path("exists.json")], path("exists.json"),
         "--output"),
        ("report quality --save onto a file",
         ["report", "quality", "--workspace", WS_GOOD, "--save", path("exists.json")],
         path("exists.json"), "--save")):
    bad("CLI: " + label, argv, file, field)


# ---- run ------------------------------------------------------------------------------------
def run(case):
    name, argv, expect, file, field = case
    env = dict(os.environ, ACSEL_TABLES="", ACSEL_WORKSPACE="", QT_QPA_PLATFORM="offscreen")
    try:
        r = subprocess.run([ACSEL] + argv, capture_output=True, timeout=TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired:
        return "timed out after %d s" % TIMEOUT_S
    err = r.stderr.decode("utf-8", "replace")
    if expect == "ok":
        return None if r.returncode == 0 else "exit %d: %s" % (r.returncode, err.strip()[:300])
    lines = err.rstrip("\n").split("\n")
    if r.returncode != 2:
        return "exit %d, expected 2: %s" % (r.returncode, err.strip()[:300])
    if len(lines) != 1 or not lines[0]:
        return "expected one line on stderr, got %d: %s" % (len(lines), err[:300])
    if file and file not in lines[0]:
        return "the error does not name %s: %s" % (file, lines[0])
    if field and field not in lines[0]:
        return "the error does not name '%s': %s" % (field, lines[0])
    return None


if "--list" in sys.argv:
    for c in cases:
        print(c[2], c[0])
    sys.exit(0)
start = time.time()
failures = 0
for c in cases:
    why = run(c)
    if why:
        failures += 1
        print("FAIL %s: %s" % (c[0], why))
n_bad = sum(1 for c in cases if c[2] == "bad")
print("corpus: %d cases (%d bad, %d controls), %d failed, %.1f s"
      % (len(cases), n_bad, len(cases) - n_bad, failures, time.time() - start))
sys.exit(1 if failures else 0)
