//go:build !linux

package containerscaler

import "errors"

// forwardLinkLocal sets the isolated bridge's group_fwd_mask: only on
// Linux, where the bridge is.
func forwardLinkLocal(string) error {
	return errors.New("setting a bridge's group_fwd_mask needs Linux")
}
