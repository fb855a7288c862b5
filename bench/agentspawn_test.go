package bench

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/scalerconfig"
)

// routeConfig is n container label sets over n/10 scalers, two labels
// each, none of which serves the job but the last: Route reads them all.
func routeConfig(n int) *scalerconfig.Config {
	cfg := &scalerconfig.Config{}
	for i := 0; i < n; i += 10 {
		s := scalerconfig.Scaler{Name: "pool-" + strconv.Itoa(i), Type: scalerconfig.TypeContainer, MaxAgents: 4}
		for j := range 10 {
			s.LabelSets = append(s.LabelSets, scalerconfig.LabelSet{
				Labels: []string{"linux", "set-" + strconv.Itoa(i+j)},
				Image:  "quay.io/kici-dev/kici-agent:0.20.0",
			})
		}
		cfg.Scalers = append(cfg.Scalers, s)
	}
	return cfg
}

// BenchmarkRoute: Route over 1,000 and 100,000 label sets, the time per
// label set; the job's runs-on matches only the last label set.
func BenchmarkRoute(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		cfg := routeConfig(n)
		in := agentspawn.RouteInput{Config: cfg, RunsOn: []string{"Linux", "set-" + strconv.Itoa(n-1)}}
		m, ok := agentspawn.Route(in)
		if !ok || m.ScalerIndex != len(cfg.Scalers)-1 || m.LabelSetIndex != 9 {
			b.Fatalf("n=%d: routed to %+v, %v", n, m, ok)
		}
		b.Run(fmt.Sprintf("n=%d/impl=kicikit", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				agentspawn.Route(in)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/labelset")
		})
		// scan reads what Route reads of each label set, its labels'
		// bytes, and nothing else: the memory's share of Route's time,
		// which grows once the label sets outgrow the caches.
		b.Run(fmt.Sprintf("n=%d/impl=scan", n), func(b *testing.B) {
			sum := 0
			for b.Loop() {
				for i := range cfg.Scalers {
					for _, ls := range cfg.Scalers[i].LabelSets {
						for _, l := range ls.Labels {
							sum += len(l) + int(l[len(l)-1])
						}
					}
				}
			}
			if sum == 0 {
				b.Fatal("read nothing")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/labelset")
		})
	}
}
