//go:build unix

package containerscaler

import "syscall"

// accessible reports whether this process may read and write path, as
// node's fs.access with R_OK | W_OK answers.
func accessible(path string) bool {
	const rOK, wOK = 4, 2
	return syscall.Access(path, rOK|wOK) == nil
}
