package hostconfig_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/jsstr"
)

// memoryGrammar is the package comment's grammar written independently of
// the parser: ASCII digits, JavaScript's white space, and the six unit
// letters spelled out (Go's (?i) would also fold the Kelvin sign U+212A
// into k).
var memoryGrammar = regexp.MustCompile(`^([0-9]+)(?:\.([0-9]+))?(` + jsSpaceClass() + `*)([kKmMgG])$`)

// jsSpaceClass returns a regular expression class of the code points
// jsstr.IsSpace reports.
func jsSpaceClass() string {
	var b strings.Builder
	b.WriteByte('[')
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if jsstr.IsSpace(r) {
			fmt.Fprintf(&b, `\x{%x}`, r)
		}
	}
	b.WriteByte(']')
	return b.String()
}

var fuzzSeeds = []string{
	"", "512m", "1.5g", "1k", "0.5K", "256 M", "1\tG", "1\u3000k", "1\ufeffk",
	"1\u0085k", "1\u212a", ".5g", "5.g", "-1k", "+1k", " 1k", "1k ", "512Mi",
	"1kb", "1e3k", "1.2.3g", "0.0009765625k", "1.9999999999999999999k",
	"9007199254740991k", "9007199254740992k", "8589934591.999999999g",
	"8589934592g", "99999999999999999999x", "0000001m", "1\xffk",
}

// oracle returns the exact byte count of a string memoryGrammar matched,
// with math/big: floor((whole + frac/10^len(frac)) × 2^shift).
func oracle(m []string) (*big.Int, uint) {
	shift := map[byte]uint{'k': 10, 'm': 20, 'g': 30}[m[4][0]|0x20]
	num, _ := new(big.Int).SetString(m[1]+m[2], 10)
	num.Lsh(num, shift)
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(m[2]))), nil)
	return num.Quo(num, den), shift
}

func decimalRat(whole, frac string) *big.Rat {
	r, _ := new(big.Rat).SetString(whole + "." + frac + "0")
	return r
}

func FuzzParseMemory(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	maxInt64 := big.NewInt(math.MaxInt64)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := hostconfig.ParseMemory(s)
		m := memoryGrammar.FindStringSubmatch(s)

		if err != nil {
			var pe *hostconfig.ParseError
			require.ErrorAs(t, err, &pe, "ParseMemory(%q)", s)
			require.Equal(t, s, pe.Input, "ParseMemory(%q)'s error", s)
			require.Zero(t, got, "ParseMemory(%q) with its error", s)
			if m == nil {
				require.NotErrorIs(t, err, hostconfig.ErrRange, "ParseMemory(%q): ErrRange for a string outside the grammar", s)
				return
			}
			want, _ := oracle(m)
			require.ErrorIs(t, err, hostconfig.ErrRange, "ParseMemory(%q) matches the grammar with value %v", s, want)
			require.Positive(t, want.Cmp(maxInt64), "ParseMemory(%q): %v, but the value %v fits", s, err, want)
			return
		}

		require.NotNil(t, m, "ParseMemory(%q) = %d, but the grammar does not match", s, got)
		want, shift := oracle(m)
		require.True(t, want.IsInt64(), "ParseMemory(%q) = %d, exact value %v", s, got, want)
		require.Equal(t, want.Int64(), got, "ParseMemory(%q)", s)
		checkFloat(t, s, got, m[1], m[2], shift)
		checkNeighbours(t, s, got, m, shift)
	})
}

// checkFloat compares with the float64 computation a JavaScript parser
// would do, floor(parseFloat(number) × multiple), below 2^53. The two agree
// whenever the number is exactly a float64; otherwise float64 rounding of
// the number may cross a multiple of 1/multiple, and then, and only then,
// the float64 answer is one off.
func checkFloat(t *testing.T, s string, got int64, whole, frac string, shift uint) {
	t.Helper()
	if got >= 1<<53 {
		return
	}
	num := whole
	if frac != "" {
		num += "." + frac
	}
	x, err := strconv.ParseFloat(num, 64)
	require.NoError(t, err, "ParseFloat(%q)", num)
	fl := math.Floor(math.Ldexp(x, int(shift)))
	exact := decimalRat(whole, frac)
	if exact.Cmp(new(big.Rat).SetFloat64(x)) == 0 {
		require.Equal(t, float64(got), fl, "ParseMemory(%q) against float64 for an exactly representable number", s)
		return
	}
	boundary := func(n int64) *big.Rat { // n / 2^shift
		return new(big.Rat).SetFrac(big.NewInt(n), new(big.Int).Lsh(big.NewInt(1), shift))
	}
	xr := new(big.Rat).SetFloat64(x)
	switch fl {
	case float64(got):
	case float64(got + 1): // x rounded up across (got+1)/2^shift
		b := boundary(got + 1)
		require.True(t, exact.Cmp(b) < 0 && xr.Cmp(b) >= 0, "ParseMemory(%q) = %d, float64 %v without a rounding crossing", s, got, fl)
	case float64(got - 1): // x rounded down across got/2^shift
		b := boundary(got)
		require.True(t, exact.Cmp(b) >= 0 && xr.Cmp(b) < 0, "ParseMemory(%q) = %d, float64 %v without a rounding crossing", s, got, fl)
	default:
		require.FailNow(t, "more than one off", "ParseMemory(%q) = %d, float64 %v", s, got, fl)
	}
}

// checkNeighbours checks that the result is monotone in the number for one
// unit, on strings derived from an accepted one: a larger integer part, a
// longer and a shorter fraction, and the same number written with the
// unit's other case and without white space.
func checkNeighbours(t *testing.T, s string, got int64, m []string, shift uint) {
	t.Helper()
	whole, frac, unit := m[1], m[2], m[4]
	parse := func(num, sp, u string) (int64, bool) {
		n, err := hostconfig.ParseMemory(num + sp + u)
		if err != nil {
			require.ErrorIs(t, err, hostconfig.ErrRange, "ParseMemory(%q), a neighbour of %q", num+sp+u, s)
			return 0, false
		}
		return n, true
	}
	withFrac := func(w, f string) string {
		if f == "" {
			return w
		}
		return w + "." + f
	}

	// Same number, other spelling: same result.
	other := strings.ToUpper(unit)
	if other == unit {
		other = strings.ToLower(unit)
	}
	n, _ := parse(withFrac(whole, frac), "", other)
	require.Equal(t, got, n, "ParseMemory(%q) against unit %s and no space", s, other)

	// One more in the integer part: exactly one multiple more.
	w, _ := new(big.Int).SetString(whole, 10)
	if n, ok := parse(withFrac(w.Add(w, big.NewInt(1)).String(), frac), "", unit); ok {
		require.Equal(t, got+1<<shift, n, "ParseMemory(%q) against one more %s", s, unit)
	}

	// A digit more of fraction: not less.
	for _, d := range []string{"0", "5", "9"} {
		if n, ok := parse(whole+"."+frac+d, "", unit); ok {
			require.GreaterOrEqual(t, n, got, "ParseMemory(%q) against %s.%s%s", s, whole, frac, d)
		}
	}

	// A digit less of fraction: not more.
	if frac != "" {
		n, _ := parse(withFrac(whole, frac[:len(frac)-1]), "", unit)
		require.LessOrEqual(t, n, got, "ParseMemory(%q) against the last digit cut", s)
	}
}

// FuzzParseMemoryMonotone checks that for two numbers with one unit, the
// larger number never gives fewer bytes.
func FuzzParseMemoryMonotone(f *testing.F) {
	f.Add("1.5", "2", byte('g'))
	f.Add("0.0009765625", "0.0009765624999", byte('k'))
	f.Add("8589934591.9", "8589934591.99", byte('G'))
	f.Add("1.9999999999999999999", "2", byte('k'))
	f.Fuzz(func(t *testing.T, a, b string, u byte) {
		unit := string("kmgKMG"[u%6])
		na, errA := hostconfig.ParseMemory(a + unit)
		nb, errB := hostconfig.ParseMemory(b + unit)
		ma := memoryGrammar.FindStringSubmatch(a + unit)
		mb := memoryGrammar.FindStringSubmatch(b + unit)
		if errA != nil || errB != nil || ma == nil || mb == nil || ma[3] != "" || mb[3] != "" {
			return
		}
		ra, rb := decimalRat(ma[1], ma[2]), decimalRat(mb[1], mb[2])
		switch ra.Cmp(rb) {
		case -1:
			require.LessOrEqual(t, na, nb, "%s%s < %s%s", a, unit, b, unit)
		case 0:
			require.Equal(t, na, nb, "%s%s = %s%s", a, unit, b, unit)
		case 1:
			require.GreaterOrEqual(t, na, nb, "%s%s > %s%s", a, unit, b, unit)
		}
	})
}

// FuzzBuild checks Build against its documentation, with Go's math.Round
// (halves away from zero, the same as Math.round for positive values) as
// the reference for NanoCPUs.
func FuzzBuild(f *testing.F) {
	f.Add(1.5, int64(2<<30), "/a:/a", "h:10.0.0.1", 1990)
	f.Add(math.NaN(), int64(-1), "", "", 0)
	f.Add(math.Inf(1), int64(math.MaxInt64), "x", "", -1)
	f.Add(5e-10, int64(0), "", "y", math.MaxInt)
	f.Add(9223372036.854775, int64(1), "", "", math.MinInt)
	f.Fuzz(func(t *testing.T, cpus float64, mem int64, bind, host string, gid int) {
		in := hostconfig.Input{Limits: hostconfig.Limits{CPUs: cpus, MemBytes: mem}}
		if bind != "" {
			in.Binds = []string{bind}
		}
		if host != "" {
			in.ExtraHosts = []string{host}
		}
		if gid != 0 {
			in.SupplementaryGroups = []int{gid}
		}
		hc := hostconfig.Build(in)

		require.NotNil(t, hc.PidsLimit, "Build: PidsLimit")
		require.Equal(t, int64(hostconfig.PidsLimit), *hc.PidsLimit, "Build: PidsLimit")
		require.False(t, hc.AutoRemove, "Build: AutoRemove")
		require.Equal(t, max(mem, 0), hc.Memory, "Build: Memory for MemBytes %d", mem)
		var want int64
		switch x := cpus * 1e9; {
		case !(cpus > 0):
		case x >= 1<<63:
			want = math.MaxInt64
		default:
			want = int64(math.Round(x))
		}
		require.Equal(t, want, hc.NanoCPUs, "Build: NanoCPUs for CPUs %v", cpus)
		require.Equal(t, bind != "", len(hc.Binds) == 1, "Build: Binds %q", hc.Binds)
		require.Equal(t, host != "", len(hc.ExtraHosts) == 1, "Build: ExtraHosts %q", hc.ExtraHosts)
		if gid != 0 {
			require.Equal(t, []string{strconv.Itoa(gid)}, hc.GroupAdd, "Build: GroupAdd for gid %d", gid)
		} else {
			require.Nil(t, hc.GroupAdd, "Build: GroupAdd without a gid")
		}
	})
}

// FuzzResolveSpawnLimits checks ResolveSpawnLimits against its
// documentation.
func FuzzResolveSpawnLimits(f *testing.F) {
	f.Add(0.0, int64(0), 1.5, "512m", true)
	f.Add(2.0, int64(0), 1.5, "512m", true)
	f.Add(math.NaN(), int64(0), math.NaN(), "1x", true)
	f.Add(-1.0, int64(-1), 0.0, "", false)
	f.Add(0.0, int64(0), 1e-12, "0.0001k", true)
	f.Add(0.0, int64(0), 5e-10, "0.0009765625k", true)
	f.Fuzz(func(t *testing.T, cpus float64, mem int64, rcpus float64, rmem string, withRes bool) {
		effective := hostconfig.Limits{CPUs: cpus, MemBytes: mem}
		var res *hostconfig.Resources
		if withRes {
			res = &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: rcpus, Memory: rmem}}
		}
		got, err := hostconfig.ResolveSpawnLimits(effective, res)

		same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
		if (cpus != 0 && !math.IsNaN(cpus)) || mem != 0 {
			require.NoError(t, err, "effective %+v", effective)
			require.True(t, same(got.CPUs, cpus), "effective %+v not returned whole: %+v", effective, got)
			require.Equal(t, mem, got.MemBytes, "effective %+v not returned whole", effective)
			return
		}
		if !withRes {
			require.NoError(t, err, "no resources")
			require.Equal(t, hostconfig.Limits{}, got, "no resources")
			return
		}
		want, wantErr := resolveResources(rcpus, rmem)
		if wantErr != nil {
			var le *hostconfig.LimitError
			require.ErrorAs(t, err, &le, "limits %v, %q", rcpus, rmem)
			require.ErrorIs(t, err, wantErr, "limits %v, %q", rcpus, rmem)
			require.Equal(t, hostconfig.Limits{}, got, "limits %v, %q with an error", rcpus, rmem)
			return
		}
		require.NoError(t, err, "limits %v, %q", rcpus, rmem)
		require.True(t, same(got.CPUs, want.CPUs), "got %+v; want %+v", got, want)
		require.Equal(t, want.MemBytes, got.MemBytes, "limits %v, %q", rcpus, rmem)
		// What ResolveSpawnLimits accepts from the resources, Build applies.
		hc := hostconfig.Build(hostconfig.Input{Limits: got})
		if rmem != "" {
			require.Positive(t, hc.Memory, "limits %v, %q resolved to %+v, which Build leaves unbounded", rcpus, rmem, got)
		}
		if rcpus > 0 {
			require.Positive(t, hc.NanoCPUs, "limits %v, %q resolved to %+v, which Build leaves unbounded", rcpus, rmem, got)
		}
	})
}

// resolveResources is the documented rule for resources.limits alone: the
// memory string parsed, and refused when ParseMemory refuses it (with its
// Reason) or reads 0;
// cpus copied when JavaScript reads them as true, and refused when positive
// but below half a nano-CPU, which math.Round (as Build rounds) makes 0.
func resolveResources(cpus float64, memory string) (hostconfig.Limits, error) {
	var want hostconfig.Limits
	if memory != "" {
		n, err := hostconfig.ParseMemory(memory)
		var pe *hostconfig.ParseError
		if errors.As(err, &pe) {
			return want, pe.Reason
		}
		if n == 0 {
			return want, hostconfig.ErrZeroLimit
		}
		want.MemBytes = n
	}
	if cpus != 0 && !math.IsNaN(cpus) {
		if cpus > 0 && math.Round(cpus*1e9) == 0 {
			return want, hostconfig.ErrZeroLimit
		}
		want.CPUs = cpus
	}
	return want, nil
}
