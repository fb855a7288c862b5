package npmtarget

import "testing"

func BenchmarkResolve(b *testing.B) {
	spec := LaunchSpec{
		ExecPath: `C:\Program Files\nodejs\node.exe`,
		Args:     []string{"--enable-source-maps", `C:\Users\kici\AppData\Roaming\npm\node_modules\@kici-dev\orchestrator\dist\server.js`},
	}
	opts := Options{Windows: true, Exists: func(string) bool { return false }}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Resolve(spec, "orchestrator", opts).(Resolved); !ok {
			b.Fatal("not resolved")
		}
	}
}

func BenchmarkCommand(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := winCmd.Command("install", "-g", "@kici-dev/orchestrator@0.20.0"); err != nil {
			b.Fatal(err)
		}
	}
}
