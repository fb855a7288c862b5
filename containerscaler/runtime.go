package containerscaler

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/agentspawn"
	"github.com/moby/moby/client"
)

// runtime readies the KiCI runtime a job's image runs the agent from, as
// ensureRuntimeVolume does (container-runtime.ts, at 221047e): it pulls the
// agent image when missing, and fills the runtime volume named for the
// image's id from it. It sets l's AgentImageID, and its Init from the
// image's kici.runtime.init label.
func (b *Backend) runtime(ctx context.Context, agentImage, agentID string, l *agentspawn.Learned) error {
	if err := b.pull(ctx, agentspawn.PullIfMissing{Image: agentImage}, ""); err != nil {
		return err
	}
	img, err := b.engine.ImageInspect(ctx, agentImage)
	if err != nil {
		return step("inspect image "+agentImage, err)
	}
	id := img.ID
	if id == "" {
		id = agentImage
	}
	l.AgentImageID = id
	if img.Config != nil {
		l.Init = agentspawn.RuntimeInit(img.Config.Labels)
	}
	name := agentspawn.RuntimeVolumeName(id)
	// The volume is the image id's: fill it from that id, which a pull of
	// the tag meanwhile cannot move.
	return volumeFills.await(ctx, b.engine.DaemonHost()+"\x00"+name, func(ctx context.Context) error {
		return b.fill(ctx, fillOf{image: agentImage, id: id, volume: name, agent: agentID})
	})
}

// fillOf is a runtime volume to fill: the agent image, as the label set
// names it and by its id, the volume, and the spawn that asked first.
type fillOf struct {
	image, id, volume, agent string
}

// fills are the runtime volumes being filled, by Engine and name: one fill
// a volume, however many spawns need it at once.
type fills struct {
	mu sync.Mutex
	m  map[string]*fill
}

// fill is one volume's fill. It runs until it ends or every spawn waiting
// on it has given up.
type fill struct {
	done      chan struct{}
	err       error // set before done is closed
	waiters   int
	abandoned bool // every waiter gave up; the fill is being unwound
	cancel    context.CancelCauseFunc
}

// await waits for the fill of name, starting it with run when none is under
// way. When ctx ends it stops waiting; the fill goes on for the spawns
// still waiting, and is cancelled when none is left: the last spawn to
// leave then waits for the fill to unwind, so that a spawn that ends has
// left nothing behind.
func (f *fills) await(ctx context.Context, name string, run func(context.Context) error) error {
	for {
		c := f.join(ctx, name, run)
		select {
		case <-c.done:
			if c.abandoned && c.err != nil && ctx.Err() == nil {
				continue // others gave up on it; fill afresh
			}
			return c.err
		case <-ctx.Done():
			if f.leave(c, context.Cause(ctx)) {
				<-c.done
			}
			return context.Cause(ctx)
		}
	}
}

// join returns the fill of name, started if none is under way, counting ctx
// among its waiters. An abandoned fill is only waited for.
func (f *fills) join(ctx context.Context, name string, run func(context.Context) error) *fill {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c := f.m[name]; c != nil {
		if !c.abandoned {
			c.waiters++
		}
		return c
	}
	fctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	c := &fill{done: make(chan struct{}), waiters: 1, cancel: cancel}
	if f.m == nil {
		f.m = map[string]*fill{}
	}
	f.m[name] = c
	go func() {
		err := run(fctx)
		f.mu.Lock()
		delete(f.m, name)
		c.err = err
		f.mu.Unlock()
		cancel(nil)
		close(c.done)
	}()
	return c
}

// leave stops counting one waiter, and cancels the fill when none is left;
// it reports whether it did.
func (f *fills) leave(c *fill, cause error) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c.abandoned {
		return false
	}
	if c.waiters--; c.waiters > 0 {
		return false
	}
	c.abandoned = true
	c.cancel(cause)
	return true
}

// fill fills the runtime volume from the agent image, unless a probe finds
// it complete. A fill that fails or is cancelled removes its populator,
// and the volume too when it made it and the volume is not complete: no
// spawn mounts a half-filled volume. What it cannot remove is an
// [EventCleanupFailed] of the spawn that asked first, and joins its error.
func (b *Backend) fill(ctx context.Context, f fillOf) error {
	_, err := b.engine.VolumeInspect(ctx, f.volume, client.VolumeInspectOptions{})
	existed := err == nil
	switch {
	case err != nil && !cerrdefs.IsNotFound(err):
		return step("inspect volume "+f.volume, err) // an Engine that cannot tell: not a volume to fill over
	case existed && b.populated(ctx, f):
		return nil
	}
	if err := context.Cause(ctx); err != nil {
		return err
	}
	b.emit(f.agent, EventProvisioning, "materializing the KiCI runtime from "+f.image)
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), createTimeout)
	defer cancel()
	_, err = b.engine.VolumeCreate(cctx, client.VolumeCreateOptions{
		Name: f.volume, Labels: map[string]string{agentspawn.LabelManaged: "true"},
	})
	if err != nil {
		return step("create volume "+f.volume, err)
	}
	id, err := b.createHelper(ctx, f, agentspawn.RuntimePopulator(f.id, f.volume))
	if err == nil {
		err = b.populate(ctx, id)
	}
	if err == nil {
		return b.reportCleanup(f.agent, b.removeHelper(ctx, id))
	}
	if id != "" && ctx.Err() == nil {
		err = &Error{Reason: ErrRuntimeVolume, Scaler: b.name, Agent: f.agent, Image: f.image, Err: err}
	}
	if cleanup := b.unfill(ctx, f, id, existed); cleanup != nil {
		return errors.Join(err, cleanup)
	}
	return err
}

// populate runs the populator id and fails when it exits non-zero, with
// what it printed last.
func (b *Backend) populate(ctx context.Context, id string) error {
	code, err := b.runToExit(ctx, id)
	if err != nil || code == 0 {
		return err
	}
	out := b.output(ctx, id, 20)
	if out == "" {
		return errors.New("runtime copy exited " + strconv.FormatInt(code, 10) + " with no output")
	}
	return errors.New("runtime copy exited " + strconv.FormatInt(code, 10) + ": " + out)
}

// unfill removes a failed fill's populator, then its volume when the fill
// made it and a fresh probe finds it incomplete: another process may have
// filled it meanwhile. It returns what it could not remove.
func (b *Backend) unfill(ctx context.Context, f fillOf, populator string, existed bool) error {
	errs := []error{b.removeHelper(ctx, populator)}
	if !existed {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if !b.populated(cctx, f) {
			_, err := b.engine.VolumeRemove(cctx, f.volume, client.VolumeRemoveOptions{Force: true})
			if err != nil && !cerrdefs.IsNotFound(err) {
				errs = append(errs, step("remove volume "+f.volume, err))
			}
		}
	}
	return b.reportCleanup(f.agent, errs...)
}

// populated reports whether f's volume holds a complete runtime, by a
// probe container; any failure to tell reads as not complete.
func (b *Backend) populated(ctx context.Context, f fillOf) bool {
	id, err := b.createHelper(ctx, f, agentspawn.RuntimeProbe(f.id, f.volume))
	if err != nil {
		return false
	}
	defer func() { _ = b.reportCleanup(f.agent, b.removeHelper(ctx, id)) }()
	code, err := b.runToExit(ctx, id)
	return err == nil && code == 0
}

// createHelper creates a populator or probe container, running the
// request to its answer. It names the container, so that a create whose
// answer is lost still finds it, to remove it.
func (b *Backend) createHelper(ctx context.Context, f fillOf, c agentspawn.RuntimeContainer) (string, error) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), createTimeout)
	defer cancel()
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	name := "kici-runtime-helper-" + hex.EncodeToString(nonce[:])
	res, err := b.engine.ContainerCreate(cctx, client.ContainerCreateOptions{Config: &c.Config, HostConfig: &c.HostConfig, Name: name})
	if err != nil {
		_ = b.reportCleanup(f.agent, b.removeHelper(ctx, name))
		return "", step("create container "+name, err)
	}
	return res.ID, nil
}

// removeHelper removes a populator or probe container, if there is one;
// one already gone is no error.
func (b *Backend) removeHelper(ctx context.Context, id string) error {
	if id == "" {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	return b.remove(cctx, id)
}

// runToExit starts a container and waits for it to exit, returning its
// status.
func (b *Backend) runToExit(ctx context.Context, id string) (int64, error) {
	if _, err := b.engine.ContainerStart(ctx, id, client.ContainerStartOptions{}); err != nil {
		return 0, step("start container "+shortID(id), err)
	}
	wait := b.engine.ContainerWait(ctx, id, client.ContainerWaitOptions{})
	select {
	case res := <-wait.Result:
		if res.Error != nil && res.Error.Message != "" {
			return 0, step("wait for container "+shortID(id), errors.New(res.Error.Message))
		}
		return res.StatusCode, nil
	case err := <-wait.Error:
		return 0, step("wait for container "+shortID(id), err)
	}
}
