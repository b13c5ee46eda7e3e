package train

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// sourceColumns are the columns that name the inputs, which differ
// between a folder and an archive of the same files.
var sourceColumns = []string{"games.source", "duplicates.source", "rejects.source", "runs.inputs"}

// withoutMeta removes the row of meta key from a dumpDB dump.
func withoutMeta(dump, key string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(dump, "\n") {
		if !strings.HasPrefix(line, key+"\t") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// readArrow returns the bytes of the two Arrow files in dir.
func readArrow(t testing.TB, dir string) (positions, counts []byte) {
	t.Helper()
	var err error
	if positions, err = os.ReadFile(filepath.Join(dir, PositionsFile)); err != nil {
		t.Fatal(err)
	}
	if counts, err = os.ReadFile(filepath.Join(dir, CountsFile)); err != nil {
		t.Fatal(err)
	}
	return positions, counts
}

// TestWorkersSameOutput trains on the whole corpus with 1 and 8 workers:
// the database dumps (but for the run timestamps) and the Arrow files
// are identical.
func TestWorkersSameOutput(t *testing.T) {
	dir := t.TempDir()
	in := kifutest.SharedDir(t)
	var dumps []string
	var pos, cnt [][]byte
	for _, workers := range []int{1, 8} {
		sub := filepath.Join(dir, "w"+string(rune('0'+workers)))
		db := filepath.Join(sub, "rp.sqlite")
		train(t, db, Options{Ingest: includeAll(workers), ArrowDir: filepath.Join(sub, "arrow")}, in)
		dumps = append(dumps, dumpDB(t, db))
		p, c := readArrow(t, filepath.Join(sub, "arrow"))
		pos, cnt = append(pos, p), append(cnt, c)
	}
	if dumps[0] != dumps[1] {
		t.Errorf("1 and 8 workers give different databases:\n%s", firstDiff(dumps[0], dumps[1]))
	}
	if !bytes.Equal(pos[0], pos[1]) || !bytes.Equal(cnt[0], cnt[1]) {
		t.Errorf("1 and 8 workers give different Arrow files (%d/%d and %d/%d bytes)", len(pos[0]), len(pos[1]), len(cnt[0]), len(cnt[1]))
	}
	if len(pos[0]) < 1<<20 || strings.Count(dumps[0], "\n") < 100_000 {
		t.Errorf("too little output: %d bytes of positions, %d dump lines", len(pos[0]), strings.Count(dumps[0], "\n"))
	}
}

// TestFolderArchiveSameOutput trains on the same files as a folder, a
// zip and a tar.gz: the same databases but for the names of the inputs,
// and byte-identical Arrow files.
func TestFolderArchiveSameOutput(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{}
	shared := kifutest.SharedDir(t)
	for _, p := range corpusPaths(t, "pro", "amateur", "pro-vs-computer", "fixture") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(shared, p)
		files["corpus/"+filepath.ToSlash(rel)] = b
	}
	gen := filepath.Join(dir, "gen")
	writeRandomGames(t, gen, 500, 120)
	for name, b := range readTree(t, gen) {
		files["random/"+name] = b
	}
	folder := filepath.Join(dir, "folder")
	for name, b := range files {
		writeFile(t, folder, name, b)
	}
	writeZip(t, filepath.Join(dir, "c.zip"), files)
	writeTarGz(t, filepath.Join(dir, "c.tar.gz"), files)
	var wantDump string
	var wantPos, wantCnt []byte
	for i, in := range []string{folder, filepath.Join(dir, "c.zip"), filepath.Join(dir, "c.tar.gz")} {
		sub := filepath.Join(dir, "out", string(rune('a'+i)))
		db := filepath.Join(sub, "rp.sqlite")
		res := train(t, db, Options{Ingest: includeAll(2), ArrowDir: sub}, in)
		if res.Report.Rejected == 0 || res.Report.Duplicates == 0 || res.Games < 200 {
			t.Fatalf("%s: the inputs should give games, duplicates and rejects: %+v", in, res.Report)
		}
		// games.parquet holds the games' sources, which name the inputs
		// (as games.source does): its digest differs too.
		dump := withoutMeta(dumpDB(t, db, sourceColumns...), MetaParquetGames)
		p, c := readArrow(t, sub)
		if i == 0 {
			wantDump, wantPos, wantCnt = dump, p, c
			continue
		}
		if dump != wantDump {
			t.Errorf("%s: the database differs from the folder's:\n%s", in, firstDiff(wantDump, dump))
		}
		if !bytes.Equal(p, wantPos) || !bytes.Equal(c, wantCnt) {
			t.Errorf("%s: the Arrow files differ from the folder's", in)
		}
	}
}
