package containerscaler

import (
	"context"
	"errors"
)

// check fails a spawn that Destroy ended or whose ctx ended.
func (b *Backend) check(ctx context.Context, a *agent) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.checkLocked(ctx, a)
}

func (b *Backend) checkLocked(ctx context.Context, a *agent) error {
	if a.destroyed {
		return b.errTornDown(a)
	}
	return context.Cause(ctx)
}

// commit marks a spawn done unless check fails it, in one step with the
// check: Spawn, at its deadline, reads the mark to learn which won.
func (b *Backend) commit(ctx context.Context, a *agent) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.checkLocked(ctx, a); err != nil {
		return err
	}
	a.running = true
	return nil
}

// errTornDown is the error of a spawn that Destroy ended.
func (b *Backend) errTornDown(a *agent) error {
	return &Error{Reason: ErrTornDown, Scaler: b.name, Agent: a.id}
}

// failure is the error a failed spawn returns: torn down, else its ctx's
// cause once ctx ended, else the step's own.
func (b *Backend) failure(ctx context.Context, a *agent, err error) error {
	if cause := b.check(ctx, a); cause != nil {
		return cause
	}
	return err
}

// unwind reports a failed spawn, removes what it made, and ends the agent.
// It returns what it could not remove, each also reported as an event.
// Rules stay while their container does: it must not run unfiltered.
func (b *Backend) unwind(a *agent, m *made, err error) error {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	msg := err.Error()
	if m.container != "" {
		if out := b.output(ctx, m.container, 50); out != "" {
			msg += "\n--- captured output ---\n" + out
		}
	}
	b.emit(a.id, EventFailed, msg)
	var removeErr error
	switch {
	case m.container != "":
		removeErr = b.remove(ctx, m.container)
	case m.name != "":
		removeErr = b.removeNamed(ctx, a.id, m.name)
	}
	errs := []error{removeErr}
	if m.bound.addr.IsValid() && removeErr == nil {
		errs = append(errs, b.release(m.container, m.bound))
	}
	cleanup := b.reportCleanup(a.id, errs...)
	b.end(a, cleanup)
	return cleanup
}

// end ends an agent: it stops counting it, unless its spawn succeeded
// and no Destroy ended it, and lets those waiting for it go on. err is
// what could not be removed.
func (b *Backend) end(a *agent, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if (!a.running || a.destroyed) && b.agents[a.id] == a {
		delete(b.agents, a.id)
	}
	delete(b.leaving, a)
	a.err = err
	close(a.gone)
}

// reportCleanup sends an [EventCleanupFailed] for each failed removal, and
// returns them joined; nil when none failed.
func (b *Backend) reportCleanup(agentID string, errs ...error) error {
	for _, err := range errs {
		if err != nil {
			b.emit(agentID, EventCleanupFailed, err.Error())
		}
	}
	return errors.Join(errs...)
}
