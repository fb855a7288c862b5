//go:build unix

package rewrite

import (
	"os"
	"syscall"
)

// sysMetaOf reads a file's owner, group, device, inode and, where the
// system's stat names it so that it can be read (changeTime), its change
// time.
func sysMetaOf(info os.FileInfo) sysMeta {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return sysMeta{}
	}
	return sysMeta{owned: true, uid: int(st.Uid), gid: int(st.Gid), dev: uint64(st.Dev), ino: uint64(st.Ino), ctime: changeTime(st)}
}
