package rewrite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asProgramEnv, set to a file's path, makes the test binary rewrite that
// file with pinned and exit, 2 when All fails: for a test that rewrites a
// file as another user (rewrite_linux_test.go).
const asProgramEnv = "KICI_PREFLIGHT_TEST_REWRITE"

func TestMain(m *testing.M) {
	if file := os.Getenv(asProgramEnv); file != "" {
		os.Exit(rewriteAs(file))
	}
	os.Exit(m.Run())
}

// rewriteAs pins the file's agent images with All, as kici-preflight
// -write does, and returns the exit status: 2, with the error on standard
// error, when All fails.
func rewriteAs(file string) int {
	old, err := os.ReadFile(file)
	if err == nil {
		err = All([]File{{Path: file, Shown: file, Old: old, New: pinned(old)}}, nil)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// pinned is the sample config with its moving agent image pinned.
func pinned(old []byte) []byte {
	return bytes.Replace(old, []byte("kici-agent:latest"), []byte("kici-agent:0.20.0"), 1)
}

// sample is the sample config kici-preflight's tests pin.
const sample = "../../sample/scalers.yaml"

// TestUnchanged: the last check before the rename compares the file's
// bytes with those the check read, whatever its metadata says.
func TestUnchanged(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "scalers.yaml")
	require.NoError(t, os.WriteFile(file, []byte("version: 1\n"), 0o644))
	meta, err := readMeta(file)
	require.NoError(t, err)
	tests := []struct{ name, read, want string }{
		{"the same bytes", "version: 1\n", ""},
		{"other bytes", "version: 2\n", "scalers.yaml changed since it was read (its bytes differ): check it again"},
		{"no bytes", "", "scalers.yaml changed since it was read (its bytes differ): check it again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &staged{file: &File{Shown: "scalers.yaml", Old: []byte(tt.read)}, target: file, meta: meta}
			err := s.unchanged()
			if tt.want == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, tt.want)
			}
		})
	}
}

// TestAll: the files get their new bytes and keep their mode; no
// temporary file is left.
func TestAll(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old, err := os.ReadFile(sample)
	require.NoError(t, err)
	file := filepath.Join(dir, "scalers.yaml")
	require.NoError(t, os.WriteFile(file, old, 0o640))
	require.NoError(t, os.Chmod(file, 0o640))
	require.NoError(t, All([]File{{Path: file, Shown: "scalers.yaml", Old: old, New: pinned(old)}}, nil))
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(pinned(old)), string(got))
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), info.Mode().Perm())
	assertNoTemporaryFiles(t, dir)
}

// copyFile copies the file from to the file to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o644))
}

// assertNoTemporaryFiles checks that no file All writes beside the ones
// it replaces is left in dir or its folders.
func assertNoTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		assert.NotContains(t, d.Name(), ".kici-preflight-", "a temporary file left")
		return err
	}))
}
