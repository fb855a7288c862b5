package rewrite

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nobody returns the uid and gid of the user nobody, for a test that needs
// another user than root; it skips the test unless it runs as root.
func nobody(t *testing.T) (uid, gid int) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give a file to another user")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody: %v", err)
	}
	uid, err = strconv.Atoi(u.Uid)
	require.NoError(t, err)
	gid, err = strconv.Atoi(u.Gid)
	require.NoError(t, err)
	return uid, gid
}

// accessACL is a POSIX access ACL as Linux stores it in the extended
// attribute system.posix_acl_access: the owner rw, user uid r, the group r,
// the mask r, others nothing.
func accessACL(uid int) []byte {
	const (
		version                                          = 2
		userObj, namedUser, groupObj, mask, other        = 0x01, 0x02, 0x04, 0x10, 0x20
		undefinedID                                      = 0xFFFFFFFF
		read, write                               uint16 = 4, 2
	)
	b := binary.LittleEndian.AppendUint32(nil, version)
	for _, e := range []struct {
		tag, perm uint16
		id        uint32
	}{{userObj, read | write, undefinedID}, {namedUser, read, uint32(uid)}, {groupObj, read, undefinedID}, {mask, read, undefinedID}, {other, 0, undefinedID}} {
		b = binary.LittleEndian.AppendUint16(b, e.tag)
		b = binary.LittleEndian.AppendUint16(b, e.perm)
		b = binary.LittleEndian.AppendUint32(b, e.id)
	}
	return b
}

// TestKeepsOwnerModeXattrs: All run by root on a file of another user
// keeps its owner, group, mode (setuid, setgid and sticky bits included)
// and extended attributes, a POSIX ACL among them, though the file it
// renames over the old one is a new one.
func TestKeepsOwnerModeXattrs(t *testing.T) {
	t.Parallel()
	uid, gid := nobody(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "scalers.yaml")
	copyFile(t, sample, file)
	const mode = os.ModeSetuid | os.ModeSetgid | os.ModeSticky | 0o640
	require.NoError(t, os.Chown(file, uid, gid))
	attrs := map[string][]byte{"user.kici-preflight.test": []byte("kept\x00 as is"), "system.posix_acl_access": accessACL(1234)}
	for name, value := range attrs {
		if err := syscall.Setxattr(file, name, value, 0); err != nil {
			t.Skipf("the file system of %s takes no extended attribute %s: %v", dir, name, err)
		}
	}
	require.NoError(t, os.Chmod(file, mode))
	before, err := readMeta(file)
	require.NoError(t, err)
	require.Len(t, before.xattrs, 2)

	old, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, All([]File{{Path: file, Shown: file, Old: old, New: pinned(old)}}, nil))

	after, err := readMeta(file)
	require.NoError(t, err)
	assert.NotEqual(t, before.sys.ino, after.sys.ino, "a new file was renamed over the old one")
	assert.Equal(t, mode, after.mode)
	assert.Equal(t, [2]int{uid, gid}, [2]int{after.sys.uid, after.sys.gid})
	assert.ElementsMatch(t, before.xattrs, after.xattrs)
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(got), "image: quay.io/kici-dev/kici-agent:0.20.0")
	assertNoTemporaryFiles(t, dir)
}

// TestCannotKeepOwner: All run by a user who cannot give the new file the
// old one's owner (nobody, on root's file in a folder anyone may write)
// changes nothing and says why.
func TestCannotKeepOwner(t *testing.T) {
	t.Parallel()
	uid, gid := nobody(t)
	dir := t.TempDir()
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o755)) // t.TempDir's parent is 0700
	require.NoError(t, os.Chmod(dir, 0o777))
	file := filepath.Join(dir, "scalers.yaml")
	copyFile(t, sample, file)
	want, err := os.ReadFile(file)
	require.NoError(t, err)
	before, err := readMeta(file)
	require.NoError(t, err)
	self, err := os.Executable()
	require.NoError(t, err)
	prog := filepath.Join(dir, "kici-preflight")
	copyFile(t, self, prog)
	require.NoError(t, os.Chmod(prog, 0o755))

	cmd := exec.Command(prog)
	// Under -cover the copy writes coverage data, and says on standard
	// error that it cannot when the folder is not the other user's to
	// write: it gets one that is.
	cmd.Env = append(os.Environ(), asProgramEnv+"="+file, "GOCOVERDIR="+dir)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "stderr: %s", stderr.String())
	assert.Equal(t, 2, exit.ExitCode())
	assert.Empty(t, stdout.String())
	assert.Equal(t, "nothing written: cannot keep the owner of "+file+" (uid 0, gid 0): a file written here belongs to uid "+
		strconv.Itoa(uid)+", gid "+strconv.Itoa(gid)+", and chown says operation not permitted; run kici-preflight as the file's owner or as root, or pin with -diff\n", stderr.String())

	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
	after, err := readMeta(file)
	require.NoError(t, err)
	assert.Empty(t, before.differs(after), "the file is as it was")
	os.Remove(prog)
	assertNoTemporaryFiles(t, dir)
}
