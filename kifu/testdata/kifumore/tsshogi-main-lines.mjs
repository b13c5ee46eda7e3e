// tsshogi-main-lines.mjs prints tsshogi's reading of the main line of every
// record under a folder (default ../shared/data/kifu-more), one TSV row per
// file, sorted by path:
//
//	path  format  moves  end  usi_sha1  error
//
// moves is the number of main-line moves (special moves not counted), end
// the special move that ends the main line (tsshogi's SpecialMoveType, or
// the name of an unknown one, or "" when there is none), usi_sha1 the first
// 12 hex digits of the SHA-1 of the USI moves joined by single spaces, and
// error the text of the Error tsshogi returned (then the other columns are
// "-").
//
// The bytes are decoded independently of rpshogi: UTF-8 (with or without a
// BOM) when valid, else Shift_JIS (WHATWG's, i.e. CP932). The reader is
// chosen by the extension (.kif/.kifu → importKIF, .ki2/.ki2u → importKI2,
// .csa → importCSA, .jkf → importJKFString), else by detectRecordFormat.
//
// Usage (tsshogi from npm, outside the repository):
//
//	mkdir -p /tmp/tsshogi && cd /tmp/tsshogi && npm init -y && npm install tsshogi@2.2.0
//	NODE_PATH=/tmp/tsshogi/node_modules node \
//	  kifu/testdata/kifumore/tsshogi-main-lines.mjs ../shared/data/kifu-more > kifu/testdata/kifumore/tsshogi.tsv
//
// kifu's TestCorpusMore compares this output with what kifu reads (see
// docs/records.md); go test does not run node.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, extname } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(process.env.NODE_PATH ? join(process.env.NODE_PATH, "x.js") : import.meta.url);
const ts = require("tsshogi");

const root = process.argv[2] ?? "../shared/data/kifu-more";

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

function decode(buf) {
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    return new TextDecoder("utf-8").decode(buf.subarray(3));
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch {
    return new TextDecoder("shift_jis").decode(buf);
  }
}

function read(ext, text) {
  switch (ext) {
    case ".kif":
    case ".kifu":
      return ["kif", ts.importKIF(text)];
    case ".ki2":
    case ".ki2u":
      return ["ki2", ts.importKI2(text)];
    case ".csa":
      return ["csa", ts.importCSA(text)];
    case ".jkf":
      return ["jkf", ts.importJKFString(text)];
  }
  const f = ts.detectRecordFormat(text);
  switch (f) {
    case ts.RecordFormatType.KIF:
      return ["kif", ts.importKIF(text)];
    case ts.RecordFormatType.KI2:
      return ["ki2", ts.importKI2(text)];
    case ts.RecordFormatType.CSA:
      return ["csa", ts.importCSA(text)];
    case ts.RecordFormatType.JKF:
      return ["jkf", ts.importJKFString(text)];
  }
  return ["unknown", new Error("no reader for format " + f)];
}

const clean = (s) => String(s).replace(/[\t\r\n]+/g, " ");
const rows = [];
for (const file of walk(root, [])) {
  const rel = relative(root, file).split("\\").join("/");
  const ext = extname(file).toLowerCase();
  if (rel === "MANIFEST.tsv" || rel === "SOURCES.md") continue;
  const [format, rec] = read(ext, decode(readFileSync(file)));
  if (rec instanceof Error) {
    rows.push([rel, format, "-", "-", "-", clean(rec.message)]);
    continue;
  }
  const usi = [];
  let end = "";
  for (const node of rec.moves) {
    const m = node.move;
    if (m instanceof ts.Move) usi.push(m.usi);
    else if (m.type === "any") end = "any:" + m.name;
    else if (m.type !== ts.SpecialMoveType.START) end = m.type;
  }
  const sha = createHash("sha1").update(usi.join(" ")).digest("hex").slice(0, 12);
  rows.push([rel, format, String(usi.length), end, sha, ""]);
}
rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
process.stdout.write("path\tformat\tmoves\tend\tusi_sha1\terror\n");
for (const r of rows) process.stdout.write(r.join("\t") + "\n");
