package enginebuild

import (
	"archive/zip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestInstalledVersion(t *testing.T) {
	info := func(path, version string, settings ...debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: path, Version: version}, Settings: settings}
	}
	for _, tt := range []struct {
		name string
		bi   *debug.BuildInfo
		want string // "" = built in a checkout
	}{
		{"no build info", nil, ""},
		{"go install @version", info(ModulePath, "v0.3.0"), "v0.3.0"},
		{"go install @pseudo-version", info(ModulePath, "v0.0.0-20261129033414-eabbe03a1b2c"), "v0.0.0-20261129033414-eabbe03a1b2c"},
		{"go build in a checkout", info(ModulePath, "(devel)"), ""},
		{"checkout, VCS-stamped", info(ModulePath, "v0.0.0-20261129033414-eabbe03a1b2c", debug.BuildSetting{Key: "vcs.revision", Value: "eabbe03a1b2c"}), ""},
		{"checkout, modified", info(ModulePath, "v0.3.1-0.20261129033414-eabbe03a1b2c+dirty"), ""},
		{"another module's binary", info("example.com/other", "v1.0.0"), ""},
	} {
		got, ok := installedVersion(tt.bi)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s: installedVersion = %q, %v; want %q", tt.name, got, ok, tt.want)
		}
	}
}

// TestSourceRootEnv: $RPSHOGI_SRC wins, and must hold the rpshogi module.
func TestSourceRootEnv(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	repo, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // outside any checkout
	t.Setenv(SourceEnv, repo)
	if got, err := SourceRoot(goBin); err != nil || got != repo {
		t.Errorf("with $%s=%s: %q, %v", SourceEnv, repo, got, err)
	}
	other := t.TempDir()
	t.Setenv(SourceEnv, other)
	if _, err := SourceRoot(goBin); err == nil || !strings.Contains(err.Error(), SourceEnv) {
		t.Errorf("with $%s=%s (no rpshogi there): %v", SourceEnv, other, err)
	}
	t.Setenv(SourceEnv, "")
	if _, err := SourceRoot(goBin); err == nil || !strings.Contains(err.Error(), "go install "+ModulePath) {
		t.Errorf("outside a checkout, not installed: %v", err)
	}
}

// TestModuleSource finds an installed version's source in the module
// cache, downloading it through the module proxy when it is not there
// (a file:// proxy holding a small stand-in of the module).
func TestModuleSource(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	const version = "v0.1.0"
	tmp := t.TempDir()
	proxy, cache := filepath.Join(tmp, "proxy"), filepath.Join(tmp, "modcache")
	writeProxy(t, proxy, version, map[string]string{
		"go.mod":          "module " + ModulePath + "\n\ngo 1.26\n",
		"tables/stand.go": "package tables\n",
	})
	// The test's module cache is read-only: make it writable for
	// t.TempDir's removal. Only that folder is touched (never "go clean
	// -modcache", which would clear whatever GOMODCACHE is when it runs).
	t.Cleanup(func() { makeWritable(cache) })
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "")
	want := filepath.Join(cache, ModulePath+"@"+version)

	dir, err := moduleSource(goBin, version)
	if err != nil || dir != want {
		t.Fatalf("download: %q, %v; want %q", dir, err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "tables", "stand.go")); err != nil {
		t.Errorf("the downloaded source lacks its files: %v", err)
	}
	// Now in the cache: found without the proxy.
	t.Setenv("GOPROXY", "off")
	if dir, err := moduleSource(goBin, version); err != nil || dir != want {
		t.Errorf("from the cache: %q, %v; want %q", dir, err, want)
	}
	// A version the proxy does not have: an error that says what to do.
	if _, err := moduleSource(goBin, "v0.2.0"); err == nil || !strings.Contains(err.Error(), SourceEnv) {
		t.Errorf("a missing version: %v", err)
	}
}

// makeWritable makes every folder under dir writable by its owner.
func makeWritable(dir string) {
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
}

// writeProxy writes a GOPROXY folder holding ModulePath at version with
// the given files.
func writeProxy(t *testing.T, proxy, version string, files map[string]string) {
	t.Helper()
	dir := filepath.Join(proxy, ModulePath, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("list", version+"\n")
	write(version+".info", `{"Version":"`+version+`","Time":"2026-11-29T00:00:00Z"}`)
	write(version+".mod", files["go.mod"])
	f, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, text := range files {
		w, err := zw.Create(ModulePath + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(text))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBuildFromModuleCache builds a stand-in of the module whose source
// is beneath GOMODCACHE, as an installed CLI's is, with a generated file
// laid over: go build refuses overlays of files in the module cache, so
// Build copies the source out first. The binary has the new file's
// value, and the cache is left as it was.
func TestBuildFromModuleCache(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	cache := filepath.Join(t.TempDir(), "modcache")
	root := filepath.Join(cache, ModulePath+"@v0.1.0")
	files := map[string]string{
		"go.mod":                     "module " + ModulePath + "\n\ngo 1.26\n",
		"tables/" + TableFile:        "package tables\n\nconst X = \"committed\"\n",
		"tables/tables_test.go":      "package tables\n",
		"tables/testdata/big.txt":    "left out",
		"cmd/rpshogi-engine/main.go": "package main\n\nimport \"" + ModulePath + "/tables\"\n\nfunc main() { println(tables.X) }\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { makeWritable(cache) })
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv(SourceEnv, root)
	out := filepath.Join(t.TempDir(), "engine")
	table := []byte("package tables\n\nconst X = \"generated\"\n")
	if err := Build(context.Background(), table, nil, out); err != nil {
		t.Fatalf("Build from the module cache: %v", err)
	}
	b, err := exec.Command(out).CombinedOutput()
	if err != nil || strings.TrimSpace(string(b)) != "generated" {
		t.Errorf("the engine printed %q (%v), want the laid-over table's value", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "tables", TableFile)); !strings.Contains(string(b), "committed") {
		t.Errorf("the module cache's file changed: %s", b)
	}
}

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		dir, path string
		want      bool
	}{
		{"/c", "/c/m@v1", true}, {"/c", "/c", true}, {"/c", "/cache/m", false}, {"/c", "/", false}, {"", "/c", false},
	} {
		if got := within(tt.dir, tt.path); got != tt.want {
			t.Errorf("within(%q, %q) = %v, want %v", tt.dir, tt.path, got, tt.want)
		}
	}
}
