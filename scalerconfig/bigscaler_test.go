package scalerconfig

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// bigScalerConfig is a config whose second scaler, of the keys head, has
// n label sets, each set's text from set(i), and the keys tail after its
// labelSets.
func bigScalerConfig(head string, n int, set func(i int) string, tail string) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nscalers:\n  - {name: small, type: container, maxAgents: 1, labelSets: [{labels: [s], image: i}]}\n")
	b.WriteString("  - name: big\n" + head + "    labelSets:\n")
	for i := range n {
		b.WriteString(set(i))
	}
	b.WriteString(tail)
	b.WriteString("  - {name: last, type: container, maxAgents: 1, labelSets: [{labels: [l], image: i}]}\n")
	return []byte(b.String())
}

// TestLoadByItemBigScaler reads scalers long enough to be read by groups
// of label sets, of every kind the scaler's refinement reads otherwise,
// and checks that the Config, or the refusal, is the whole config's.
func TestLoadByItemBigScaler(t *testing.T) {
	t.Parallel()
	container := "    type: container\n    maxAgents: 2\n"
	image := func(i int) string {
		return fmt.Sprintf("      - labels: [Docker, 'L%d']\n        image: reg/kici-agent:0.20.%d\n", i, i%5)
	}
	platformSet := func(bad int) func(i int) string {
		return func(i int) string {
			if i == bad {
				return "      - labels: [Linux, ' ARM64 ']\n        image: r/i:1\n"
			}
			return image(i)
		}
	}
	bareMetal := "    type: bare-metal\n    maxAgents: 2\n"
	batch := func(i int) string {
		if i == 120 {
			return "      - labels: [w]\n        binaryPath: 'C:\\a&b\\kici-agent.cmd'\n"
		}
		return fmt.Sprintf("      - labels: [w%d]\n        binaryPath: 'C:\\kici\\kici-agent.cmd'\n", i)
	}
	windows := reading{windows: true}
	for _, c := range []struct {
		name   string
		src    []byte
		read   reading // the reading; zero: the newest rules, not on Windows
		byItem bool    // read by item: valid, and read so
	}{
		{"container", bigScalerConfig(container, 300, image, "    runtime: docker\n"), reading{}, true},
		{"flow label sets", bigScalerConfig(container, 300, func(i int) string {
			return fmt.Sprintf("      - {labels: [x%d], image: 'r/i:%d', env: {A: b}}\n", i, i)
		}, ""), reading{}, true},
		{"bare-metal", bigScalerConfig("    type: bare-metal\n    maxAgents: 2\n", 300, func(i int) string {
			if i%2 == 0 {
				return fmt.Sprintf("      - labels: [m%d]\n        binaryPath: /opt/kici\n", i)
			}
			return image(i)
		}, ""), reading{}, true},
		{"firecracker", bigScalerConfig("    type: firecracker\n    maxAgents: 2\n    firecrackerPath: /f\n    jailerPath: /j\n    kernelPath: /k\n    uid: 1\n    gid: 1\n", 300, func(i int) string {
			return fmt.Sprintf("      - labels: [vm%d]\n        rootfsPath: /r%d\n", i, i)
		}, "    extraHosts: [\"a.example:10.0.0.1\"]\n"), reading{}, true},
		{"mandatory labels, each set reaches them", bigScalerConfig(container+"    mandatoryLabels: [Docker]\n", 300, image, ""), reading{}, true},
		{"mandatory labels after the sets", bigScalerConfig(container, 300, image, "    mandatoryLabels: [docker]\n    platform: {os: linux, arch: x64}\n"), reading{}, true},
		{"a gate one set misses", bigScalerConfig(container, 300, func(i int) string {
			if i == 150 {
				return "      - labels: [other]\n        image: r/i:1\n"
			}
			return image(i)
		}, "    mandatoryLabels: [docker]\n"), reading{}, false},
		{"plain platform labels with a platform", bigScalerConfig(container+"    platform: {os: linux, arch: arm64}\n", 300, platformSet(10), ""), reading{}, true},
		{"a plain platform label", bigScalerConfig(container, 300, platformSet(150), ""), reading{}, false},
		{"a plain platform label by 0.12.0's rules", bigScalerConfig(container, 300, platformSet(150), ""), reading{rules: Rules012}, true},
		{"a plain platform label among mandatory labels", bigScalerConfig(container+"    mandatoryLabels: [docker]\n", 300, platformSet(150), ""), reading{}, false},
		{"a batch path on a Windows host", bigScalerConfig(bareMetal, 300, batch, ""), windows, false},
		{"a batch path by 0.12.0's rules on a Windows host", bigScalerConfig(bareMetal, 300, batch, ""), reading{rules: Rules012, windows: true}, true},
		{"a batch path on a Linux host", bigScalerConfig(bareMetal, 300, batch, ""), reading{}, true},
		{"safe batch paths on a Windows host", bigScalerConfig(bareMetal, 300, func(i int) string { return batch(i + 300) }, ""), windows, true},
		{"a set without an image", bigScalerConfig(container, 300, func(i int) string {
			if i == 299 {
				return "      - labels: [x]\n"
			}
			return image(i)
		}, ""), reading{}, false},
		{"a set with an unknown key", bigScalerConfig(container, 300, func(i int) string {
			return image(i) + map[bool]string{true: "        nope: 1\n"}[i == 7]
		}, ""), reading{}, false},
		{"a YAML error in a set", bigScalerConfig(container, 300, func(i int) string {
			return image(i) + map[bool]string{true: "        image: twice\n"}[i == 200]
		}, ""), reading{}, false},
		{"an issue outside the sets", bigScalerConfig("    type: container\n    maxAgents: 0\n", 300, image, ""), reading{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			const group = 64 // the big scaler, over 32 groups, is read by groups of label sets
			require.Greater(t, len(c.src), 32*group)
			items, ok := yamljs.SplitItems(c.src, "scalers")
			require.True(t, ok)
			_, ok = yamljs.SplitNestedItems(c.src, items.Items[1], int(items.Items[2].Offset), "labelSets")
			require.True(t, ok, "the big scaler's label sets split")
			got, _, ok, _ := loadByItem(files{}, "s.yaml", c.src, "", c.read, group, nil)
			opts := ScanOptions{Rules: c.read.rules}
			if c.read.windows {
				opts.Host.OS = "win32"
			}
			want, err := scan(files{fsys: fstest.MapFS{"s.yaml": {Data: c.src}}}, "s.yaml", "", yamljs.Parse, false, opts, nil)
			assert.Equal(t, c.byItem, ok, "read by item")
			if ok {
				require.NoError(t, err)
				require.Equal(t, unstamped(want), got)
				require.Len(t, got.Scalers[1].LabelSets, 300)
			}
			checkScan(t, fstest.MapFS{"s.yaml": {Data: c.src}}, "s.yaml", "")
		})
	}
}
