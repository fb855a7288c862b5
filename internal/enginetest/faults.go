package enginetest

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

// Faults is an [http.RoundTripper] that records a client's Engine requests
// and holds or fails the ones a [Fault] matches. Every other request reaches
// the Engine. Use it as EngineWith(t, f.Wrap). The zero Faults is ready.
type Faults struct {
	mu       sync.Mutex
	next     http.RoundTripper
	requests []string
	faults   []*Fault
}

// Match reports whether a fault applies to a request. A nil Match applies
// to every request.
type Match func(r *http.Request) bool

// On returns a Match of the requests with method ("": any) whose
// [APIPath] matches pattern, as [path.Match] matches: "/containers/*/start".
func On(method, pattern string) Match {
	return func(r *http.Request) bool {
		ok, _ := path.Match(pattern, APIPath(r))
		return ok && (method == "" || r.Method == method)
	}
}

// APIPath returns the path of an Engine request without its version
// prefix: "/containers/create" for "/v1.41/containers/create".
func APIPath(r *http.Request) string {
	p := r.URL.Path
	if !strings.HasPrefix(p, "/v") {
		return p
	}
	version, rest, _ := strings.Cut(p[2:], "/")
	if _, err := strconv.ParseFloat(version, 64); err != nil {
		return p
	}
	return "/" + rest
}

// Wrap makes f the transport in front of next and returns f.
func (f *Faults) Wrap(next http.RoundTripper) http.RoundTripper {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next = next
	return f
}

// Requests returns the requests made so far, in order, each as its method
// and [APIPath]: "POST /containers/create".
func (f *Faults) Requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.requests...)
}

// Fault is one fault of a [Faults], in force until removed.
type Fault struct {
	f       *Faults
	match   Match
	hold    bool
	stall   bool   // hold past the end of the request's context
	status  int    // the response's status; 0: fail with err
	message string // the response's message
	err     error
	hits    int           // requests matched; guarded by f.mu
	arrived chan struct{} // closed at the first request matched
	removed chan struct{} // closed by Remove
}

// Hold holds each request m matches until the fault is removed or the
// request's context ends (its error is then the context's).
func (f *Faults) Hold(m Match) *Fault { return f.add(&Fault{match: m, hold: true}) }

// Stall holds each request m matches until the fault is removed, even
// past the end of its context: an Engine call that ignores its context.
func (f *Faults) Stall(m Match) *Fault { return f.add(&Fault{match: m, hold: true, stall: true}) }

// Fail answers each request m matches with status and an Engine error
// body carrying message.
func (f *Faults) Fail(m Match, status int, message string) *Fault {
	return f.add(&Fault{match: m, status: status, message: message})
}

// FailWith fails each request m matches with err, as a transport failure.
// A nil err is an error of its own.
func (f *Faults) FailWith(m Match, err error) *Fault {
	if err == nil {
		err = errors.New("enginetest: injected transport failure")
	}
	return f.add(&Fault{match: m, err: err})
}

func (f *Faults) add(x *Fault) *Fault {
	if x.match == nil {
		x.match = func(*http.Request) bool { return true }
	}
	x.f, x.arrived, x.removed = f, make(chan struct{}), make(chan struct{})
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, x)
	return x
}

// Arrived returns a channel closed when a request first matched x.
func (x *Fault) Arrived() <-chan struct{} { return x.arrived }

// Hits returns how many requests x matched.
func (x *Fault) Hits() int {
	x.f.mu.Lock()
	defer x.f.mu.Unlock()
	return x.hits
}

// Remove ends x: the requests it holds go on to the Engine, and it matches
// no later request. Removing twice does nothing.
func (x *Fault) Remove() {
	x.f.mu.Lock()
	defer x.f.mu.Unlock()
	for i, y := range x.f.faults {
		if y == x {
			x.f.faults = append(x.f.faults[:i:i], x.f.faults[i+1:]...)
			close(x.removed)
			return
		}
	}
}

// RoundTrip records r, then applies the first fault that matches it,
// else sends it to the Engine.
func (f *Faults) RoundTrip(r *http.Request) (*http.Response, error) {
	x, next := f.record(r)
	if next == nil {
		closeBody(r)
		return nil, errors.New("enginetest: Faults has no transport: use EngineWith(t, f.Wrap)")
	}
	switch {
	case x == nil:
	case x.hold:
		done := r.Context().Done()
		if x.stall {
			done = nil
		}
		select {
		case <-x.removed:
		case <-done:
			closeBody(r)
			return nil, r.Context().Err()
		}
	case x.status == 0:
		closeBody(r)
		return nil, x.err
	default:
		closeBody(r)
		return x.response(r), nil
	}
	return next.RoundTrip(r)
}

// record logs r and returns the fault that matches it, if any, and the
// transport behind f.
func (f *Faults) record(r *http.Request) (*Fault, http.RoundTripper) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.Method+" "+APIPath(r))
	for _, x := range f.faults {
		if x.match(r) {
			if x.hits++; x.hits == 1 {
				close(x.arrived)
			}
			return x, f.next
		}
	}
	return nil, f.next
}

// response returns the Engine's error response for x.
func (x *Fault) response(r *http.Request) *http.Response {
	body, _ := json.Marshal(struct {
		Message string `json:"message"`
	}{x.message})
	return &http.Response{
		Status:        strconv.Itoa(x.status) + " " + http.StatusText(x.status),
		StatusCode:    x.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(strings.NewReader(string(body))),
		ContentLength: int64(len(body)),
		Request:       r,
	}
}

// closeBody closes a request's body, as a RoundTripper must even when it
// fails.
func closeBody(r *http.Request) {
	if r.Body != nil {
		_ = r.Body.Close()
	}
}
