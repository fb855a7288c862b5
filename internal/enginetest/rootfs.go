package enginetest

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// fakeAgentPackage is the program an [Agent] image runs as its node.
const fakeAgentPackage = "github.com/kicikit/kicikit/internal/enginetest/fakeagent"

// hostFiles are the files every image is built from, read once per test
// binary: building the fake agent takes seconds, and none of them changes
// during a run. With skipped, it is one of the package's two variables.
var hostFiles = sync.OnceValues(readHostFiles)

type files struct {
	busybox, tini, agent []byte
	applets              []string // busybox --list
}

func readHostFiles() (*files, error) {
	var in files
	var err error
	if in.busybox, err = staticBinary("/bin/busybox", "busybox-static"); err != nil {
		return nil, err
	}
	if in.tini, err = staticBinary("/usr/bin/tini-static", "tini"); err != nil {
		return nil, err
	}
	list, err := exec.Command("/bin/busybox", "--list").Output()
	if err != nil {
		return nil, fmt.Errorf("/bin/busybox --list: %v", err)
	}
	for _, a := range strings.Fields(string(list)) {
		if a != "busybox" {
			in.applets = append(in.applets, a)
		}
	}
	if in.agent, err = buildFakeAgent(); err != nil {
		return nil, err
	}
	return &in, nil
}

// staticBinary reads a statically linked program, which runs in an image
// that holds no C library.
func staticBinary(name, debianPackage string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%v (Debian's %s has it)", err, debianPackage)
	}
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return nil, fmt.Errorf("%s is dynamically linked (Debian's %s has it static)", name, debianPackage)
		}
	}
	return b, nil
}

// buildFakeAgent builds the fake agent, static, for the Engine's Linux.
func buildFakeAgent() ([]byte, error) {
	dir, err := os.MkdirTemp("", "enginetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "node")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, fakeAgentPackage)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build %s: %v\n%s", fakeAgentPackage, err, msg)
	}
	return os.ReadFile(out)
}

// rootfs returns the root filesystem of layout l as a tar archive.
func rootfs(l Layout) ([]byte, error) {
	in, err := hostFiles()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := &tarball{tw: tar.NewWriter(&buf)}
	for _, d := range []string{"bin", "dev", "etc", "proc", "sys", "root"} {
		w.add(tar.TypeDir, d, 0o755, nil)
	}
	w.add(tar.TypeDir, "tmp", 0o1777, nil)
	w.add(tar.TypeReg, "bin/busybox", 0o755, in.busybox)
	for _, a := range in.applets {
		w.link("bin/"+a, "busybox")
	}
	w.add(tar.TypeReg, "etc/passwd", 0o644, []byte("root:x:0:0:root:/root:/bin/sh\n"))
	w.add(tar.TypeReg, "etc/group", 0o644, []byte("root:x:0:\n"))
	if l != Job {
		w.add(tar.TypeReg, AgentNode[1:], 0o755, in.agent)
		w.add(tar.TypeReg, AgentTini[1:], 0o755, in.tini)
	}
	if l == Agent {
		w.add(tar.TypeReg, AgentScript[1:], 0o644, []byte("// the fake agent ignores this script\n"))
	}
	if w.err == nil {
		w.err = w.tw.Close()
	}
	return buf.Bytes(), w.err
}

// tarball writes a tar archive, keeping its first error.
type tarball struct {
	tw   *tar.Writer
	dirs map[string]bool
	err  error
}

// add writes an entry, after the directories above it.
func (w *tarball) add(kind byte, name string, mode int64, data []byte) {
	if dir := path.Dir(name); dir != "." && !w.dirs[dir] {
		w.add(tar.TypeDir, dir, 0o755, nil)
	}
	if kind == tar.TypeDir {
		if w.dirs == nil {
			w.dirs = map[string]bool{}
		}
		w.dirs[name] = true
	}
	// Every entry has the time 0, so that an archive depends on its files only.
	h := &tar.Header{Typeflag: kind, Name: name, Mode: mode, Size: int64(len(data)), ModTime: time.Unix(0, 0)}
	if w.err == nil {
		w.err = w.tw.WriteHeader(h)
	}
	if w.err == nil && len(data) > 0 {
		_, w.err = w.tw.Write(data)
	}
}

func (w *tarball) link(name, target string) {
	if w.err == nil {
		w.err = w.tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: target, Mode: 0o777, ModTime: time.Unix(0, 0)})
	}
}
