//go:build unix && !linux

package main

import (
	"os"
	"syscall"
)

// sysMetaOf reads a file's owner, group, device and inode. The change time
// is not read: its field's name differs from one system to the next.
func sysMetaOf(info os.FileInfo) sysMeta {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return sysMeta{}
	}
	return sysMeta{owned: true, uid: int(st.Uid), gid: int(st.Gid), dev: uint64(st.Dev), ino: uint64(st.Ino)}
}
