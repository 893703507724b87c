// Package padenv connects the example programs to a Pad Interview Service:
// the one that PAD_BASE_URL and PAD_API_KEY name or, when neither is set, an
// in-process fake (padapitest), so that the examples run anywhere.
package padenv

import (
	"errors"
	"fmt"
	"io"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// ErrUsage marks an environment with only one of the two variables set. The
// examples exit with status 2 on it, as for a bad flag.
var ErrUsage = errors.New("set both PAD_BASE_URL and PAD_API_KEY, or neither to use an in-process fake service")

// Connect returns a client for the service the environment names, read
// through getenv (os.Getenv in a program, a map in a test), and a function
// to call when done. With neither variable set it starts a fake, lets setup
// (if not nil) prepare it, and says so in one line on stderr.
func Connect(getenv func(string) string, stderr io.Writer, setup func(*padapitest.Server)) (*padapi.Client, func(), error) {
	base, key := getenv("PAD_BASE_URL"), getenv("PAD_API_KEY")
	switch {
	case base == "" && key == "":
		srv := padapitest.Start()
		if setup != nil {
			setup(srv)
		}
		fmt.Fprintf(stderr, "PAD_BASE_URL and PAD_API_KEY are not set: using an in-process fake service at %s\n", srv.URL)
		return srv.Client(), srv.Close, nil
	case key == "":
		return nil, nil, fmt.Errorf("PAD_API_KEY is not set: %w", ErrUsage)
	case base == "":
		return nil, nil, fmt.Errorf("PAD_BASE_URL is not set: %w", ErrUsage)
	}
	c, err := padapi.NewClient(base, key)
	if err != nil {
		return nil, nil, err
	}
	return c, func() {}, nil
}
