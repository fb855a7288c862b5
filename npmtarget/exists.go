package npmtarget

import "os"

// fileExists is the default of [Options.Exists], node's fs.existsSync: true
// when os.Stat, which follows symbolic links, succeeds. It is the package's
// only contact with the file system.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
