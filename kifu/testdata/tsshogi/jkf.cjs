// jkf.cjs reads JKF files with tsshogi (npm) and prints, for each, the
// main line as tsshogi reads it: "sfen <start> moves <usi>..." (a line),
// then the black and white player names (a line each).
//
//   NODE_PATH=/tmp/rpshogi-node/node_modules node kifu/testdata/tsshogi/jkf.cjs FILE...
//
// kifu's TestJKFTsshogi compares it with ParseJKF.
const fs = require('fs');
const { importJKFString, getBlackPlayerName, getWhitePlayerName } = require('tsshogi');

for (const file of process.argv.slice(2)) {
  const rec = importJKFString(fs.readFileSync(file, 'utf8'));
  if (rec instanceof Error) {
    process.stderr.write(file + ': ' + rec.message + '\n');
    process.exit(1);
  }
  const usi = rec.getUSI({ startpos: false, allMoves: true }).replace(/^position /, '');
  process.stdout.write(usi + '\n' + (getBlackPlayerName(rec.metadata) || '') + '\n' + (getWhitePlayerName(rec.metadata) || '') + '\n');
}
