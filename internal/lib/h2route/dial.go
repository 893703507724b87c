// dial.go: the dial gate.

package h2route

import (
	"context"
	"crypto/tls"
	"net"
	"sync/atomic"
)

// waiting is a request's context, and whether the request has its answer.
type waiting struct {
	context.Context
	answered atomic.Bool
}

type waitingKey struct{}

func (w *waiting) Value(key any) any {
	if key == (waitingKey{}) {
		return w
	}
	return w.Context.Value(key)
}

// dial opens a connection, and with cfg its TLS handshake offering protos,
// in one of the gate's slots. net/http dials for every request that finds
// no idle connection, with the request's values but not its cancellation,
// and finishes a dial another connection made unnecessary: a dial whose
// request has its answer when its slot comes is skipped (64 goroutines,
// 3 200 calls on loopback: 249 connections without the skip, about 80
// with it; padapi's TestPoolNoChurn).
func (t *Router) dial(ctx context.Context, network, addr string, cfg *tls.Config, protos ...string) (net.Conn, error) {
	select {
	case t.slots <- struct{}{}:
		defer func() { <-t.slots }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if w, ok := ctx.Value(waitingKey{}).(*waiting); ok && w.answered.Load() {
		return nil, errUnwanted
	}
	var d net.Dialer
	raw, err := d.DialContext(ctx, network, addr)
	if err != nil || protos == nil {
		return raw, err
	}
	if cfg = cfg.Clone(); cfg == nil {
		cfg = &tls.Config{}
	}
	if cfg.ServerName == "" {
		cfg.ServerName, _, _ = net.SplitHostPort(addr)
	}
	cfg.NextProtos = protos
	conn := tls.Client(raw, cfg)
	hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	if err := conn.HandshakeContext(hctx); err != nil {
		_ = raw.Close()
		return nil, err
	}
	return conn, nil
}
