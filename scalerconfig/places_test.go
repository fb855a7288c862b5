package scalerconfig

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

const placesMain = `version: 1
defaults:
  resources: {limits: {cpus: 2, memory: 4GB}}
globalResourceCap: {maxCpu: 64, maxMemory: 256g}
machinePools:
  - name: big
    cap: {maxMemory: 1g}
scalers:
  - name: local
    type: container
    maxAgents: 2
    extraHosts: [registry.local:host-gateway]
    machinePool: big
    platform: {os: linux, arch: arm64}
    roles: [builder]
    warmPool: {enabled: true, size: 1}
    labelSets:
      - labels: [Docker, arm64]
        image: "reg/kici-agent:0.20.0"
        resources:
          requests: {cpus: 1}
          limits:
            memory: 512m
        volumes:
          - /cache:/cache
          - /data:/data:ro
        env:
          HOME: /home/kici
          "MY VAR": "1"
        networkPolicy:
          hostAccess: ["*:443"]
      - {labels: [flat, arm64], image: i, resources: {cpus: 0.5, memory: 1g}}
firecracker:
  cidr: 10.1.0.0/24
`

const placesDrop = "scalers:\n- name: b\n  type: bare-metal\n  maxAgents: 1\n  labelSets:\n  - labels: [z]\n    binaryPath: /opt/kici\n"

// placesRules are the rules placesMain is read by: 0.12.0's, which read
// its flat resources.
var placesRules = ScanOptions{Rules: Rules012}

// TestPosOf asks Load's config where values are, below each kind of
// struct, and checks each against the file's text.
func TestPosOf(t *testing.T) {
	t.Parallel()
	src := map[string]string{"etc/s.yaml": placesMain, "etc/s.d/b.yaml": placesDrop}
	cfg, err := placesRules.Load(fstest.MapFS{"etc/s.yaml": {Data: []byte(placesMain)}, "etc/s.d/b.yaml": {Data: []byte(placesDrop)}}, "etc/s.yaml", "etc/s.d")
	require.NoError(t, err)
	s, ls := &cfg.Scalers[0], &cfg.Scalers[0].LabelSets[0]
	tests := []struct {
		at   func(string) (Pos, bool)
		path string
		want string // the file's text there, up to the line's end
		line int
	}{
		{cfg.PosOf, "version", "1", 1},
		{cfg.PosOf, "defaults", "resources: {limits: {cpus: 2, memory: 4GB}}", 3},
		{cfg.PosOf, "defaults.resources.limits.memory", "4GB}}", 3},
		{cfg.PosOf, "defaults.resources.limits.cpus", "2, memory: 4GB}}", 3},
		{cfg.PosOf, "globalResourceCap.maxMemory", "256g}", 4},
		{cfg.PosOf, "machinePools", "- name: big", 6},
		{cfg.PosOf, "machinePools[0]", "name: big", 6},
		{cfg.PosOf, "machinePools[0].cap.maxMemory", "1g}", 7},
		{cfg.MachinePools[0].PosOf, "name", "big", 6},
		{cfg.PosOf, "firecracker.cidr", "10.1.0.0/24", 34},
		{cfg.PosOf, "scalers[0].labelSets[1].resources.limits.memory", "1g}}", 32},
		{cfg.PosOf, "scalers[1].labelSets[0].binaryPath", "/opt/kici", 7},
		{s.PosOf, "maxAgents", "2", 11},
		{s.PosOf, "extraHosts[0]", "registry.local:host-gateway]", 12},
		{s.PosOf, "machinePool", "big", 13},
		{s.PosOf, "platform.arch", "arm64}", 14},
		{s.PosOf, "roles", "[builder]", 15},
		{s.PosOf, "roles[0]", "builder]", 15},
		{s.PosOf, "warmPool.size", "1}", 16},
		{s.PosOf, "labelSets[0]", "labels: [Docker, arm64]", 18},
		{s.PosOf, "labelSets[0].labels[0]", "Docker, arm64]", 18},
		{ls.PosOf, "labels", "[Docker, arm64]", 18},
		{ls.PosOf, "labels[1]", "arm64]", 18},
		{ls.PosOf, "image", `"reg/kici-agent:0.20.0"`, 19},
		{ls.PosOf, "resources.requests.cpus", "1}", 21},
		{ls.PosOf, "resources.limits", "memory: 512m", 23},
		{ls.PosOf, "resources.limits.memory", "512m", 23},
		{ls.PosOf, "volumes[1]", "/data:/data:ro", 26},
		{ls.PosOf, "env.HOME", "/home/kici", 28},
		{ls.PosOf, `env["MY VAR"]`, `"1"`, 29},
		{ls.PosOf, "networkPolicy.hostAccess[0]", `"*:443"]`, 31},
		{s.LabelSets[1].PosOf, "resources.requests.memory", "1g}}", 32},
		{cfg.Scalers[1].PosOf, "type", "bare-metal", 3},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			pos, ok := tt.at(tt.path)
			require.True(t, ok)
			text := src[pos.File][pos.Offset:]
			text, _, _ = strings.Cut(text, "\n")
			assert.Equal(t, tt.want, text)
			assert.Equal(t, tt.line, pos.Line)
			assert.Equal(t, pos.Offset-strings.LastIndexByte(src[pos.File][:pos.Offset], '\n'), pos.Column)
		})
	}
}

// TestPosOfNone: no position for a value the file leaves out, a default,
// a path of another form, or a config without places.
func TestPosOfNone(t *testing.T) {
	t.Parallel()
	cfg, err := placesRules.Load(fstest.MapFS{"s.yaml": {Data: []byte(placesMain)}}, "s.yaml", "")
	require.NoError(t, err)
	for _, path := range []string{
		"", "globalMaxAgents", "scalers[0].runtime", "scalers[0].labelSets[0].imagePullPolicy", // defaults
		"scalers[0].host", "scalers[0].labelSets[0].env.USER", "scalers[0].labelSets[0].volumes[2]",
		"scalers[5]", "scalers[-1]", "scalers[+0]", "scalers[x]", "scalers[0", "scalers.0", "scalers[0]name",
		".version", "version.", "version..x", "nope", "version.x", "scalers[0].labelSets[0].labels.x",
		`scalers[0].labelSets[0].env["MY VAR"`, `scalers[0].labelSets[0].env["MY VAR"x]`, `scalers[0].labelSets[0].env[`,
		"scalers[0].labelSets[0].resources.memory", // the flat form is read as requests and limits
		"defaults.resources.limits.memory.x", "machinePools[0].cap.maxMemoryBytes",
		// An index near the int's range must not overflow the item's offset.
		"scalers[0].labelSets[0].labels[9223372036854775807]", "scalers[0].labelSets[0].volumes[9223372036854775806]",
		"scalers[0].extraHosts[9223372036854775807]", "scalers[9223372036854775807]", "scalers[0].labelSets[9223372036854775807].image",
	} {
		_, ok := cfg.PosOf(path)
		assert.False(t, ok, "%q", path)
	}
	literal := Config{Version: 1, Scalers: []Scaler{{Name: "a", LabelSets: []LabelSet{{Labels: []string{"x"}}}}}}
	for _, path := range []string{"version", "scalers[0]", "scalers[0].name", "scalers[0].labelSets[0].labels[0]"} {
		_, ok := literal.PosOf(path)
		assert.False(t, ok, "a literal: %q", path)
	}
	scanned, err := Location{Path: "s.yaml"}.Scan(fstest.MapFS{"s.yaml": {Data: []byte(placesMain)}}, placesRules, func(int, *Scaler) {})
	require.NoError(t, err)
	_, ok := scanned.PosOf("scalers[0].name")
	assert.False(t, ok, "Scan's config holds no scalers")
	pos, ok := scanned.PosOf("defaults.resources.limits.memory")
	assert.True(t, ok)
	assert.Equal(t, 3, pos.Line)
}

// TestPosOfEveryValue walks the file of every load case the orchestrator
// accepts (and larger generated configs), by the newest rules and by
// 0.12.0's: each value the schema knows has the position of its node in
// the file's tree, and each it does not know (a key a stripping object
// drops) none.
func TestPosOfEveryValue(t *testing.T) {
	t.Parallel()
	type source struct {
		src   []byte
		rules Rules
	}
	sources := map[string]source{"rich": {richConfig(30), Rules016}, "by item": {byItemConfig(60), Rules016}, "places": {[]byte(placesMain), Rules012}}
	for _, c := range readLoadCases(t) {
		for _, r := range []Rules{Rules016, Rules012} {
			if c.wantBy(r).Config != nil && c.Dir == "" {
				sources[r.String()+"/"+c.Name] = source{[]byte(c.Files[c.Main]), r}
			}
		}
	}
	for name, s := range sources {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root, src := configSchema(reading{rules: s.rules}), s.src
			cfg, err := ScanOptions{Rules: s.rules}.Load(fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "")
			require.NoError(t, err)
			tree, err := yamljs.Parse(src)
			require.NoError(t, err)
			n := 0
			eachNode(tree, nil, func(path []zod.Seg, node *yamljs.Node) {
				if len(path) >= 3 && path[2].Key == "roles" && listsAll(tree, path[:3]) {
					return // roles listing all are no list at all
				}
				if node.Kind == yamljs.Undefined {
					// yaml's undefined (a merged set member) is a key left
					// out to the schema: it has no value in the config.
					for _, p := range decodedPaths(path) {
						_, ok := cfg.PosOf(pathString(p))
						assert.False(t, ok, "%s is undefined", pathString(p))
					}
					return
				}
				for _, p := range decodedPaths(path) {
					pos, ok := cfg.PosOf(pathString(p))
					if !schemaKnows(root, p) {
						assert.False(t, ok, "%s is not a value of the config", pathString(p))
						continue
					}
					n++
					if assert.True(t, ok, "%s has no position", pathString(p)) {
						assert.Equal(t, int(node.Pos.Offset), pos.Offset, pathString(p))
						assert.Equal(t, int(node.Pos.Line), pos.Line, pathString(p))
					}
				}
			})
			assert.Positive(t, n)
		})
	}
}

// listsAll reports whether the list at path below n has the item "all".
func listsAll(n *yamljs.Node, path []zod.Seg) bool {
	for _, s := range path {
		if n = child(n, s); n == nil {
			return false // a key left out, or yaml's undefined
		}
	}
	for _, item := range n.Items {
		if item.Str == "all" {
			return true
		}
	}
	return false
}

// eachNode calls f with every node below n (n included) and its path.
func eachNode(n *yamljs.Node, path []zod.Seg, f func([]zod.Seg, *yamljs.Node)) {
	if len(path) > 0 {
		f(path, n)
	}
	switch n.Kind {
	case yamljs.Map:
		for _, p := range n.Pairs {
			eachNode(p.Value, append(path[:len(path):len(path)], zod.Key(p.Key)), f)
		}
	case yamljs.Seq:
		for i, item := range n.Items {
			eachNode(item, append(path[:len(path):len(path)], zod.Seg{Index: i}), f)
		}
	}
}

// decodedPaths are the paths of the values Load makes of the node at path:
// a flat resources form's cpus and memory are both the requests' and the
// limits'.
func decodedPaths(path []zod.Seg) [][]zod.Seg {
	for i := 0; i+1 < len(path); i++ {
		if path[i].Key == "resources" && (path[i+1].Key == "cpus" || path[i+1].Key == "memory") && path[i+1].Index < 0 {
			var out [][]zod.Seg
			for _, side := range []string{"requests", "limits"} {
				p := append(append(append([]zod.Seg(nil), path[:i+1]...), zod.Key(side)), path[i+1:]...)
				out = append(out, p)
			}
			return out
		}
	}
	return [][]zod.Seg{path}
}

// schemaKnows reports whether the schema has a value at path: every key a
// key of its object, an env's entry any key but __proto__, which the
// record drops.
func schemaKnows(s *zod.Schema, path []zod.Seg) bool {
	if n := len(path); n > 0 && path[n-1].Key == "__proto__" {
		return false
	}
	return schemaAt(s, path, func(*zod.Schema) bool { return true }) != nil
}

func TestParsePath(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"a", "a.b", "a[0]", "a[0].b[12]", `a["x y"]`, `a["é\"]"].b`, "scalers[0].labelSets[1].env.HOME", "env."} {
		segs, ok := parsePath(path)
		require.True(t, ok, path)
		assert.Equal(t, path, pathString(segs), "round trip")
	}
	segs, ok := parsePath(`a["\u00e9\"]"]`)
	require.True(t, ok)
	assert.Equal(t, []zod.Seg{zod.Key("a"), zod.Key("é\"]")}, segs)
	assert.Equal(t, fmt.Sprint([]zod.Seg{zod.Key("a"), {Index: 3}}), fmt.Sprint(must(parsePath("a[3]"))))
}

func must(segs []zod.Seg, ok bool) []zod.Seg {
	if !ok {
		panic("not a path")
	}
	return segs
}

// FuzzPosOf: PosOf never panics on any path, below any struct, and a
// position it gives is in the file it names.
func FuzzPosOf(f *testing.F) {
	for _, p := range []string{"version", "scalers[0].labelSets[0].labels[1]", `scalers[0].labelSets[0].env["MY VAR"]`,
		"scalers[0].labelSets[0].labels[9223372036854775807]", "defaults.resources.limits.memory", "[0]", `["a"]`} {
		f.Add(p)
	}
	fsys := fstest.MapFS{"s.yaml": {Data: []byte(placesMain)}}
	cfg, err := placesRules.Load(fsys, "s.yaml", "")
	require.NoError(f, err)
	s, ls, mp := &cfg.Scalers[0], &cfg.Scalers[0].LabelSets[0], &cfg.MachinePools[0]
	f.Fuzz(func(t *testing.T, path string) {
		for _, at := range []func(string) (Pos, bool){cfg.PosOf, s.PosOf, ls.PosOf, mp.PosOf} {
			if pos, ok := at(path); ok {
				require.Equal(t, "s.yaml", pos.File)
				require.Less(t, pos.Offset, len(placesMain))
			}
		}
	})
}
