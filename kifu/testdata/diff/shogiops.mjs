// shogiops.mjs answers rpshogi's differential test (kifu/differential_test.go)
// with the independent move generator of the npm package shogiops.
//
//	SHOGIOPS_DIR=/work/difftools/node_modules/shogiops node shogiops.mjs moves   < sfens
//	SHOGIOPS_DIR=/work/difftools/node_modules/shogiops node shogiops.mjs perft 2 < sfens
//	SHOGIOPS_DIR=/work/difftools/node_modules/shogiops node shogiops.mjs counters 3 < sfens
//
// For every SFEN read on stdin (one a line) it prints one line: the sorted
// legal moves in USI separated by spaces (mode "moves"), or the perft count
// of the given depth (mode "perft"), or the perft counters "nodes captures
// promotions drops checks" of the given depth (mode "counters"), or
// "error <reason>".
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const dir = process.env.SHOGIOPS_DIR;
if (!dir) {
  console.error('set SHOGIOPS_DIR to the shogiops package directory');
  process.exit(2);
}
const load = (f) => import(pathToFileURL(`${dir}/dist/${f}`).href);
const { parseSfen } = await load('sfen.js');
const { makeUsi } = await load('util.js');
const { pieceCanPromote, pieceForcePromote } = await load('variant/util.js');

// moves returns every legal move of pos, promotions expanded.
function moves(pos) {
  const out = [];
  const canPromote = pieceCanPromote(pos.rules);
  const mustPromote = pieceForcePromote(pos.rules);
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (canPromote(piece, from, to, pos.board.get(to))) {
        out.push({ from, to, promotion: true });
        if (!mustPromote(piece, to)) out.push({ from, to, promotion: false });
      } else {
        out.push({ from, to, promotion: false });
      }
    }
  }
  for (const [name, dests] of pos.allDropDests()) {
    const role = name.split(' ')[1];
    for (const to of dests) out.push({ role, to });
  }
  return out;
}

function perft(pos, depth) {
  const ms = moves(pos);
  if (depth <= 1) return ms.length;
  let n = 0;
  for (const m of ms) {
    const child = pos.clone();
    child.play(m);
    n += perft(child, depth - 1);
  }
  return n;
}

// counters returns the perft counters of depth (>= 1): leaf nodes and,
// of the last ply's moves, captures, promotions, drops and checks.
function counters(pos, depth) {
  const c = [0, 0, 0, 0, 0];
  for (const m of moves(pos)) {
    const child = pos.clone();
    child.play(m);
    if (depth > 1) {
      const sub = counters(child, depth - 1);
      for (let i = 0; i < 5; i++) c[i] += sub[i];
      continue;
    }
    c[0]++;
    if (m.from !== undefined && pos.board.get(m.to)) c[1]++;
    if (m.promotion) c[2]++;
    if (m.role !== undefined) c[3]++;
    if (child.isCheck()) c[4]++;
  }
  return c;
}

const [mode, depthArg] = process.argv.slice(2);
const depth = Number(depthArg ?? 1);
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  const sfen = line.trim();
  if (sfen === '') continue;
  const res = parseSfen('standard', sfen, false);
  if (res.isErr) {
    console.log(`error ${res.error.message}`);
    continue;
  }
  const pos = res.value;
  if (mode === 'counters') {
    console.log(counters(pos, depth).join(' '));
  } else if (mode === 'perft') {
    console.log(String(perft(pos, depth)));
  } else {
    console.log(moves(pos).map(makeUsi).sort().join(' '));
  }
}
