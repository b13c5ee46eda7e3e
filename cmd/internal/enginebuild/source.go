package enginebuild

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// ModulePath is the rpshogi module's path.
const ModulePath = "github.com/rpshogi/rpshogi"

// SourceEnv names the environment variable that gives the rpshogi source
// tree to build the engine from, before any other (SourceRoot).
const SourceEnv = "RPSHOGI_SRC"

// SourceRoot returns the rpshogi source tree the engine is built from:
//
//  1. the folder $RPSHOGI_SRC, if set (it must hold the rpshogi module);
//  2. for a CLI installed with "go install
//     github.com/rpshogi/rpshogi/cmd/rpshogi@VERSION", the source of that
//     very version in the module cache ($(go env GOMODCACHE)), which "go
//     mod download" fetches when it is not there: the engine is then
//     built from the sources the CLI was built from, so the table and the
//     model it writes fit;
//  3. a source checkout at or above the current folder (a CLI built in
//     one: go build, go run).
//
// goBin is the go command.
func SourceRoot(goBin string) (string, error) {
	if dir := os.Getenv(SourceEnv); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		if !isModuleRoot(abs) {
			return "", fmt.Errorf("build-engine: $%s=%s does not hold the rpshogi source (no go.mod of module %s there)", SourceEnv, dir, ModulePath)
		}
		return abs, nil
	}
	bi, _ := debug.ReadBuildInfo()
	if v, ok := installedVersion(bi); ok {
		return moduleSource(goBin, v)
	}
	return ModuleRoot()
}

// installedVersion returns the module version the running binary was
// installed at ("go install ...@VERSION"), and false for a binary built
// in a source checkout: version "(devel)", a VCS-stamped build (vcs.*
// settings) or a modified tree ("+dirty").
func installedVersion(bi *debug.BuildInfo) (string, bool) {
	if bi == nil || bi.Main.Path != ModulePath {
		return "", false
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" || strings.Contains(v, "+dirty") {
		return "", false
	}
	for _, s := range bi.Settings {
		if strings.HasPrefix(s.Key, "vcs.") {
			return "", false
		}
	}
	return v, true
}

// moduleSource returns the folder of the rpshogi module at version in the
// module cache, downloading it with "go mod download" if absent.
func moduleSource(goBin, version string) (string, error) {
	cache, err := goEnv(goBin, "GOMODCACHE")
	if err != nil {
		return "", err
	}
	if cache != "" {
		dir := filepath.Join(cache, escapePath(ModulePath)+"@"+version)
		if isModuleRoot(dir) {
			return dir, nil
		}
	}
	// Not in the cache: download it (outside any module or workspace, so
	// that a go.mod around the current folder does not matter).
	tmp, err := os.MkdirTemp("", "rpshogi-download-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(goBin, "mod", "download", "-json", ModulePath+"@"+version)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(stdout.Bytes(), &info); err != nil && runErr == nil {
		return "", fmt.Errorf("build-engine: go mod download %s@%s: %v", ModulePath, version, err)
	}
	switch {
	case info.Error != "":
		return "", fmt.Errorf("build-engine: the engine is built from the source of this rpshogi (%s@%s), which go mod download could not fetch: %s; "+
			"or point $%s at an rpshogi source tree", ModulePath, version, info.Error, SourceEnv)
	case runErr != nil:
		return "", fmt.Errorf("build-engine: go mod download %s@%s: %v\n%s", ModulePath, version, runErr, stderr.String())
	case !isModuleRoot(info.Dir):
		return "", fmt.Errorf("build-engine: go mod download %s@%s gave %q, which does not hold the rpshogi source", ModulePath, version, info.Dir)
	}
	return info.Dir, nil
}

// goEnv returns the value of the Go environment variable key.
func goEnv(goBin, key string) (string, error) {
	out, err := exec.Command(goBin, "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("build-engine: go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// escapePath escapes a module path as the module cache does: each upper
// case letter becomes "!" and its lower case.
func escapePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isModuleRoot reports whether dir holds the go.mod of the rpshogi
// module.
func isModuleRoot(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	return err == nil && strings.HasPrefix(string(b), "module "+ModulePath+"\n")
}

// within reports whether path is dir or beneath it.
func within(dir, path string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// copySource copies the source tree src (a module in the module cache,
// read-only) to dst, writable, leaving out what a build does not read:
// tests (_test.go) and testdata folders.
func copySource(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case strings.HasSuffix(d.Name(), "_test.go") || !d.Type().IsRegular():
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// errNoGo is Tools' error without a go command.
var errNoGo = errors.New("build-engine needs the Go toolchain (go) on PATH")
