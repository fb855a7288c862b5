package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// writeGitHub writes each diag as a GitHub Actions workflow command, which
// annotates the file in the run and in the pull request: a file inside
// root by its path relative to it, as GitHub names a repository's files.
func writeGitHub(w *bufio.Writer, diags []*diag, root string) error {
	for _, d := range diags {
		level := "warning"
		if d.severity == "error" {
			level = "error"
		}
		w.WriteString("::" + level + " file=" + ghProperty(escape(annotationFile(d.shownFile, root))))
		if d.pos.IsValid() {
			w.WriteString(",line=" + strconv.Itoa(d.pos.Line) + ",col=" + strconv.Itoa(d.pos.Column))
		}
		if d.end.IsValid() {
			w.WriteString(",endLine=" + strconv.Itoa(d.end.Line) + ",endColumn=" + strconv.Itoa(d.end.Column))
		}
		w.WriteString(",title=" + ghProperty("kici-preflight "+d.code) + "::" + ghData(escape(d.message())+" ["+d.code+"]") + "\n")
	}
	return w.Flush()
}

// annotationFile is how a GitHub annotation names file, as the output
// names it: by its path relative to root, with slashes, when it lies
// inside root; else by its absolute path, which GitHub attaches to no file
// of a pull request but a reader can still open. root is absolute, or ""
// for none; a relative file is relative to the working folder.
func annotationFile(file, root string) string {
	if file == stdinName {
		return file
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	if rel, err := filepath.Rel(root, abs); err == nil && root != "" && rel != "." && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return abs
}

// ghData escapes a workflow command's message as the Actions runner reads it.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// annotationRoot is the folder GitHub annotations name files relative to:
// GITHUB_WORKSPACE, the folder a workflow checks the repository out to,
// else the working folder; "" when neither is known.
func annotationRoot() string {
	root := os.Getenv("GITHUB_WORKSPACE")
	if root == "" {
		root, _ = os.Getwd()
	}
	if root != "" {
		root, _ = filepath.Abs(root)
	}
	return root
}
