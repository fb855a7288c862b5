//go:build !unix

package rewrite

import "os"

// sysMetaOf says nothing: the system has no owners -write could keep.
func sysMetaOf(os.FileInfo) sysMeta { return sysMeta{} }
