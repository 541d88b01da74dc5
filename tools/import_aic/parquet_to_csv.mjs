// One AIConfigurator Parquet table to the CSV layout acsel reads (docs/DATA.md 1): the header
// is the Parquet column names in order without the columns that are constant per file and say
// nothing about the operator (framework, version, device, op_name); one row per record in file
// order (order decides duplicate keys); integers as integers; other numbers rounded to 6
// significant digits without exponent; "\n" line ends.
// Usage: node parquet_to_csv.mjs IN.parquet OUT.csv   (silent on success; exit 2 with a reason)
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { writeFileSync, renameSync } from "node:fs";

const dropped = new Set(["framework", "version", "device", "op_name"]);

// 6 significant digits, never in exponent form (1e-7 -> 0.0000001).
function formatNumber(v) {
  if (typeof v === "bigint") return v.toString();
  if (Number.isInteger(v)) return v.toString();
  if (!Number.isFinite(v)) throw new Error(`non-finite value ${v}`);
  const rounded = Number(v.toPrecision(6));
  const digits = Math.max(0, 5 - Math.floor(Math.log10(Math.abs(rounded))));
  let s = rounded.toFixed(Math.min(digits, 100));
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s;
}

function cell(v, column) {
  if (v === null || v === undefined) throw new Error(`empty value in column ${column}`);
  if (typeof v === "string") {
    if (/[,"\n\r]/.test(v)) throw new Error(`value "${v}" of column ${column} needs quoting`);
    return v;
  }
  if (typeof v === "boolean") return v ? "1" : "0";
  return formatNumber(v);
}

async function main() {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error("usage: node parquet_to_csv.mjs IN.parquet OUT.csv");
  const file = await asyncBufferFromFile(input);
  const metadata = await parquetMetadataAsync(file);
  const columns = metadata.schema
    .slice(1)
    .filter((s) => !s.num_children)
    .map((s) => s.name)
    .filter((n) => !dropped.has(n));
  const rows = await parquetReadObjects({ file, metadata, columns, compressors });
  let text = columns.join(",") + "\n";
  for (const r of rows) text += columns.map((c) => cell(r[c], c)).join(",") + "\n";
  const tmp = output + ".tmp";
  writeFileSync(tmp, text);
  renameSync(tmp, output);
}

main().catch((e) => {
  console.error(e.message);
  process.exit(2);
});
