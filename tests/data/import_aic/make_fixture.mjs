// Writes a small AIConfigurator checkout for the import-aic test with hyparquet-writer: one GPU
// ("tiny_gpu") whose trtllm backend has tables in 1.0.0 and 1.0.0rc3 (the import must take
// 1.0.0), and a vllm backend missing its generation table (not a stack). The values exercise
// what the conversion must do: drop framework/version/device/op_name, keep record order (the
// duplicate key stays twice), integers as integers, 6 significant digits without exponent.
// Every value is one the tables loader accepts (docs/DATA.md, "Plausibility bounds"): the
// import loads what it wrote before it keeps it.
// Usage: node make_fixture.mjs AIC_DIR NODE_MODULES   (tools/import_aic/node_modules)
import { mkdirSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [root, modules] = process.argv.slice(2);
const { parquetWriteFile } = await import(
  pathToFileURL(`${modules}/hyparquet-writer/src/node.js`).href
);
const systems = `${root}/aic-core/src/aiconfigurator_core/systems`;
const data = `${systems}/data/tiny_gpu`;

const str = (name, n, v) => ({ name, data: Array(n).fill(v), type: "STRING" });
const i32 = (name, data) => ({ name, data, type: "INT32" });
const f64 = (name, data) => ({ name, data, type: "DOUBLE" });

function write(dir, table, columns) {
  mkdirSync(dir, { recursive: true });
  parquetWriteFile({ filename: `${dir}/${table}.parquet`, columnData: columns });
}

function gemm(dir, scale) {
  const n = 4;
  write(dir, "gemm_perf", [
    str("framework", n, "TRTLLM"),
    str("version", n, "1.0.0"),
    str("device", n, "Tiny GPU"),
    str("op_name", n, "gemm"),
    { name: "kernel_source", data: ["torch_flow", "torch_flow", "torch_flow", "cutlass"], type: "STRING" },
    { name: "gemm_dtype", data: ["bfloat16", "fp8", "bfloat16", "bfloat16"], type: "STRING" },
    i32("m", [1, 16, 4096, 1]),
    i32("n", [128, 128, 65536, 128]),
    i32("k", [128, 128, 51200, 128]),
    f64("latency", [0.0123456789 * scale, 39.301, 123456.789, 0.0000015]),
  ]);
}

function attention(dir, table, isl) {
  const n = 2;
  write(dir, table, [
    str("framework", n, "TRTLLM"),
    str("version", n, "1.0.0"),
    str("device", n, "Tiny GPU"),
    str("op_name", n, table),
    str("kernel_source", n, "torch_flow"),
    i32("batch_size", [1, 8]),
    i32("isl", isl),
    i32("num_heads", [32, 32]),
    i32("num_key_value_heads", [8, 8]),
    i32("head_dim", [128, 128]),
    i32("window_size", [0, 0]),
    i32("beam_width", [1, 1]),
    str("attn_dtype", n, "bfloat16"),
    { name: "kv_cache_dtype", data: ["bfloat16", "fp8"], type: "STRING" },
    i32("step", [0, 0]),
    f64("latency", [1.5, 2.0000004]),
  ]);
}

for (const [version, scale] of [["1.0.0", 1], ["1.0.0rc3", 2]]) {
  gemm(`${data}/gemm/trtllm/${version}`, scale);
  attention(`${data}/attention/trtllm/${version}`, "context_attention_perf", [128, 1024]);
  attention(`${data}/attention/trtllm/${version}`, "generation_attention_perf", [128, 1024]);
}
gemm(`${data}/gemm/vllm/0.24.0`, 1);
attention(`${data}/attention/vllm/0.24.0`, "context_attention_perf", [128, 1024]);

writeFileSync(
  `${systems}/tiny_gpu.yaml`,
  [
    "# a made-up GPU for the import-aic test (not a real device)",
    "data_dir: data/tiny_gpu",
    "gpu:",
    "  mem_bw: 1000000000000",
    "  mem_capacity: 25769803776",
    "  mem_empirical_constant_latency: 0.000003",
    "  mem_bw_empirical_scaling_factor: 0.8",
    "  bfloat16_tc_flops: 100000000000000",
    "  fp8_tc_flops: 200000000000000",
    "  sm_version: 89",
    "misc:",
    "  other_mem: 1073741824",
    "",
  ].join("\n"),
);
