package npmtarget

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seedVectors is testdata/seed.json: what the orchestrator 0.20.0 and node's
// path module answer, made by testdata/seed.mjs, a JavaScript transcription
// of the orchestrator's behaviour that calls node's path module itself.
type seedVectors struct {
	Node    string `json:"node"`
	Dirname []struct {
		Windows bool   `json:"windows"`
		In      string `json:"in"`
		Out     string `json:"out"`
	} `json:"dirname"`
	Join []struct {
		Windows bool     `json:"windows"`
		In      []string `json:"in"`
		Out     string   `json:"out"`
	} `json:"join"`
	GlobalPrefix []struct {
		Windows bool    `json:"windows"`
		Entry   string  `json:"entry"`
		Out     *string `json:"out"`
	} `json:"globalPrefix"`
	FirstPackage []struct {
		Entry string  `json:"entry"`
		Out   *string `json:"out"`
	} `json:"firstPackage"`
	Resolve []struct {
		Spec struct {
			ExecPath string   `json:"execPath"`
			Args     []string `json:"args"`
		} `json:"spec"`
		Component string   `json:"component"`
		Windows   bool     `json:"windows"`
		Exists    bool     `json:"exists"`
		Asked     []string `json:"asked"`
		Result    struct {
			OK     bool   `json:"ok"`
			Reason string `json:"reason"`
			Entry  string `json:"entry"`
			Target struct {
				NodeExecPath  string `json:"nodeExecPath"`
				NpmPath       string `json:"npmPath"`
				OwningPackage string `json:"owningPackage"`
				GlobalPrefix  string `json:"globalPrefix"`
				NpmInvocation struct {
					Cmd     string   `json:"cmd"`
					PreArgs []string `json:"preArgs"`
				} `json:"npmInvocation"`
			} `json:"target"`
		} `json:"result"`
		Args         []string   `json:"args"`
		PrefixViaEnv bool       `json:"prefixViaEnv"`
		Env          orderedEnv `json:"env"`
	} `json:"resolve"`
	Shell []struct {
		Cmd   string   `json:"cmd"`
		Args  []string `json:"args"`
		Line  string   `json:"line"`
		Error string   `json:"error"`
	} `json:"shell"`
}

// orderedEnv is a JSON object read as "name=value" entries in its order, as
// an environment built by spreading process.env is passed to a child.
type orderedEnv []string

func (e *orderedEnv) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytesReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*e = append(*e, k.(string)+"="+v)
	}
	return nil
}

func loadSeed(t *testing.T) seedVectors {
	t.Helper()
	b, err := os.ReadFile("testdata/seed.json")
	require.NoError(t, err)
	var v seedVectors
	require.NoError(t, json.Unmarshal(b, &v))
	require.NotEmpty(t, v.Resolve)
	return v
}

func TestSeedPaths(t *testing.T) {
	t.Parallel()
	v := loadSeed(t)
	for _, tc := range v.Dirname {
		assert.Equal(t, tc.Out, dirname(tc.Windows, tc.In), "dirname(windows=%v, %q), node %s", tc.Windows, tc.In, v.Node)
	}
	for _, tc := range v.Join {
		assert.Equal(t, tc.Out, join(tc.Windows, tc.In...), "join(windows=%v, %q), node %s", tc.Windows, tc.In, v.Node)
	}
}

// ourPrefix is the global prefix GlobalPrefix gives where the orchestrator
// gives prefix: the same, except that a Windows drive alone ("C:") is its
// root ("C:\\").
func ourPrefix(prefix string, windows bool) string {
	if windows && len(prefix) == 2 && hasDrive(prefix) {
		return prefix + `\`
	}
	return prefix
}

func TestSeedGlobalPrefixAndPackage(t *testing.T) {
	t.Parallel()
	v := loadSeed(t)
	driveRoots := 0
	for _, tc := range v.GlobalPrefix {
		got, ok := GlobalPrefix(tc.Entry, tc.Windows)
		if tc.Out == nil {
			assert.False(t, ok, "GlobalPrefix(%q, %v) = %q", tc.Entry, tc.Windows, got)
			assert.Empty(t, got)
		} else {
			assert.True(t, ok, "GlobalPrefix(%q, %v)", tc.Entry, tc.Windows)
			assert.Equal(t, ourPrefix(*tc.Out, tc.Windows), got, "GlobalPrefix(%q, %v)", tc.Entry, tc.Windows)
			if got != *tc.Out {
				driveRoots++
			}
		}
	}
	assert.Positive(t, driveRoots, "the vectors hold a drive root")
	for _, tc := range v.FirstPackage {
		got, ok := FirstGlobalPackage(tc.Entry)
		if tc.Out == nil {
			assert.False(t, ok, "FirstGlobalPackage(%q) = %q", tc.Entry, got)
		} else {
			assert.Equal(t, *tc.Out, got, "FirstGlobalPackage(%q)", tc.Entry)
		}
	}
}

func TestSeedResolve(t *testing.T) {
	t.Parallel()
	v := loadSeed(t)
	kinds := map[string]int{}
	for _, tc := range v.Resolve {
		var asked []string
		opts := Options{Windows: tc.Windows, Exists: func(p string) bool { asked = append(asked, p); return tc.Exists }}
		got := Resolve(LaunchSpec{ExecPath: tc.Spec.ExecPath, Args: tc.Spec.Args}, tc.Component, opts)
		name := tc.Spec.ExecPath + " " + strconv.Quote(tc.Component) + " windows=" + strconv.FormatBool(tc.Windows) + " exists=" + strconv.FormatBool(tc.Exists)
		if len(tc.Asked) == 0 {
			assert.Empty(t, asked, name)
		} else {
			assert.Equal(t, tc.Asked, asked, name)
		}
		r := tc.Result
		switch {
		case r.OK:
			kinds["resolved"]++
			want := Target{
				NodeExecPath:  r.Target.NodeExecPath,
				NpmPath:       r.Target.NpmPath,
				OwningPackage: r.Target.OwningPackage,
				GlobalPrefix:  ourPrefix(r.Target.GlobalPrefix, tc.Windows),
				Invocation:    Invocation{Cmd: r.Target.NpmInvocation.Cmd},
				Windows:       tc.Windows,
			}
			if len(r.Target.NpmInvocation.PreArgs) > 0 {
				want.Invocation.PreArgs = r.Target.NpmInvocation.PreArgs
			}
			if field, value, reason := refusedBeyond(want); reason != 0 {
				kinds["unsafe"]++
				if assert.IsType(t, Unsafe{}, got, name) {
					assert.Equal(t, &FieldError{Func: "Resolve", Field: field, Value: value, Reason: reason}, got.(Unsafe).Err, name)
				}
			} else {
				assert.Equal(t, Resolved{Target: want}, got, name)
			}
			target := want
			assert.Equal(t, tc.PrefixViaEnv, target.PrefixViaEnv(), name)
			wantArgs := slices.Clone(tc.Args)
			if last := len(wantArgs) - 1; !tc.PrefixViaEnv {
				wantArgs[last] = "--prefix=" + ourPrefix(strings.TrimPrefix(wantArgs[last], "--prefix="), tc.Windows)
			}
			assert.Equal(t, wantArgs, target.Args("install", "-g", target.OwningPackage+"@0.20.0"), name)
			if tc.Env != nil {
				environ := []string{"HOME=/home/k", "PATH=/usr/bin:/bin", "NPM_CONFIG_PREFIX=/elsewhere", "npm_config_registry=https://r.example"}
				assert.Equal(t, []string(tc.Env), target.Env(environ), name)
			}
		case r.Reason == "not-global":
			kinds["not-global"]++
			assert.Equal(t, NotGlobal{Entry: r.Entry}, got, name)
		default:
			kinds[r.Reason]++
			assert.Equal(t, NoEntry{}, got, name)
		}
	}
	// The vectors reach every outcome.
	assert.Positive(t, kinds["resolved"])
	assert.Positive(t, kinds["not-global"])
	assert.Positive(t, kinds["no-entry"])
	assert.Positive(t, kinds["unsafe"])
}

// absolutePath matches a path Windows reads without a working directory:
// a drive and a separator, or two separators.
var absolutePath = regexp.MustCompile(`^(?:[A-Za-z]:[/\\\\]|[/\\\\]{2})`)

// npmPackageName is validate-npm-package-name's rule for a name valid for
// old packages, but for the two names it excludes: an unscoped name of
// characters encodeURIComponent keeps, not starting with ".", "-" or "_",
// or @scope/name of such characters, the name not starting with ".".
var npmPackageName = regexp.MustCompile(`^(?:[A-Za-z0-9!~*'()][A-Za-z0-9!~*'()._-]*|@[A-Za-z0-9!~*'()._-]+/[A-Za-z0-9!~*'()_-][A-Za-z0-9!~*'()._-]*)$`)

// refusedBeyond is the refusal Resolve and Command make of a target the
// orchestrator accepts, as the field, its value and the reason, or a zero
// Reason; it is worked out independently of the package's own checks.
func refusedBeyond(tg Target) (field, value string, reason Reason) {
	if !npmPackageName.MatchString(tg.OwningPackage) || regexp.MustCompile(`(?i)^(node_modules|favicon\.ico)$|^[^@].*\.(tgz|tar|tar\.gz)$`).MatchString(tg.OwningPackage) {
		return "OwningPackage", tg.OwningPackage, ErrPackageName
	}
	node := tg.NodeExecPath
	if tg.Windows && !absolutePath.MatchString(node) || !tg.Windows && !strings.HasPrefix(node, "/") {
		return "NodeExecPath", node, ErrRelativeNode
	}
	sep := map[bool]string{true: ";", false: ":"}[tg.Windows]
	if strings.Contains(dirname(tg.Windows, node), sep) {
		return "NodeExecPath", node, ErrListSeparator
	}
	cmd := strings.TrimRight(tg.Invocation.Cmd, ". ")
	if !tg.Windows || !(strings.HasSuffix(strings.ToLower(cmd), ".cmd") || strings.HasSuffix(strings.ToLower(cmd), ".bat")) {
		return "", "", 0
	}
	switch {
	case misreadByNpmCmd(tg.GlobalPrefix):
		return "GlobalPrefix", tg.GlobalPrefix, ErrBatchPath
	case misreadByNpmCmd(dirname(true, node)):
		return "NodeExecPath", node, ErrBatchPath
	case misreadByNpmCmd(dirname(true, tg.Invocation.Cmd)):
		return "Invocation.Cmd", tg.Invocation.Cmd, ErrBatchPath
	}
	return "", "", 0
}

// misreadByNpmCmd reports whether npm.cmd would hand cmd.exe a folder p
// that it misreads, or that no Windows file name can be.
func misreadByNpmCmd(p string) bool {
	if !utf8.ValidString(p) || strings.ContainsAny(p, "\"%!^<>|?*\x7f") || strings.IndexFunc(p, func(r rune) bool { return r < 0x20 }) >= 0 {
		return true
	}
	if len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z') {
		p = p[2:]
	}
	return strings.Contains(p, ":")
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
