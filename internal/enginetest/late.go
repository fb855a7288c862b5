package enginetest

import (
	"errors"
	"net/http"
	"slices"
	"sync"
)

// LateAnswers is an [http.RoundTripper] that lets the Engine act on the
// requests a [LateAnswer] matches, then holds its answers back from the
// client: an Engine whose answer arrives late, after the state it reports
// has changed. Use it as EngineWith(t, l.Wrap). The zero LateAnswers is
// ready.
type LateAnswers struct {
	mu    sync.Mutex
	next  http.RoundTripper
	holds []*LateAnswer
}

// LateAnswer is one hold of a [LateAnswers], in force until released.
type LateAnswer struct {
	l        *LateAnswers
	match    Match
	once     sync.Once
	held     chan struct{} // closed at the first answer held
	released chan struct{}
	mu       sync.Mutex
	paths    []string // the APIPath of each request whose answer it held
}

// Wrap makes l the transport in front of next and returns l.
func (l *LateAnswers) Wrap(next http.RoundTripper) http.RoundTripper {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.next = next
	return l
}

// Hold holds the Engine's answer to each request m matches until the hold
// is released.
func (l *LateAnswers) Hold(m Match) *LateAnswer {
	x := &LateAnswer{l: l, match: m, held: make(chan struct{}), released: make(chan struct{})}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.holds = append(l.holds, x)
	return x
}

// Held returns a channel closed once the Engine has answered a request x
// matches, whose answer x now holds.
func (x *LateAnswer) Held() <-chan struct{} { return x.held }

// Paths returns the [APIPath] of each request whose answer x held.
func (x *LateAnswer) Paths() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]string(nil), x.paths...)
}

// Release lets the answers x holds through, and ends x: it matches no
// later request. Releasing twice does nothing.
func (x *LateAnswer) Release() {
	x.l.mu.Lock()
	defer x.l.mu.Unlock()
	x.l.holds = slices.DeleteFunc(x.l.holds, func(h *LateAnswer) bool { return h == x })
	x.once.Do(func() { close(x.released) })
}

// RoundTrip sends r to the Engine; when a hold matches r, it then holds
// the answer until the hold is released.
func (l *LateAnswers) RoundTrip(r *http.Request) (*http.Response, error) {
	l.mu.Lock()
	next := l.next
	var x *LateAnswer
	for _, h := range l.holds {
		if h.match(r) {
			x = h
			break
		}
	}
	l.mu.Unlock()
	if next == nil {
		closeBody(r)
		return nil, errors.New("enginetest: LateAnswers has no transport: use EngineWith(t, l.Wrap)")
	}
	resp, err := next.RoundTrip(r)
	if x == nil {
		return resp, err
	}
	x.mu.Lock()
	if x.paths = append(x.paths, APIPath(r)); len(x.paths) == 1 {
		close(x.held)
	}
	x.mu.Unlock()
	<-x.released
	return resp, err
}
