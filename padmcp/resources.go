// resources.go: the resources pad://quota and pad://organization, and the template pad://pads/{id}/transcript.

package padmcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/advice"
)

// The resources' addresses.
const (
	quotaURI        = "pad://quota"
	organizationURI = "pad://organization"
	transcriptURI   = "pad://pads/{id}/transcript"
)

// AddResources adds padmcp's resources over c to s: pad://quota (pads
// used and the limit), pad://organization (the organization, by name) and
// the template pad://pads/{id}/transcript (a pad with its events and final
// code). They are read-only, and each is capped at
// Options.MaxResultBytes; text written by people comes as a data block.
// c may be nil, as for NewServer.
func AddResources(s *mcp.Server, c *padapi.Client, opts Options) {
	newToolset(c, opts).addResources(s)
}

// addResources adds the resources to s.
func (ts *toolset) addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: quotaURI, Name: "quota", Title: "Pad quota", MIMEType: "application/json",
		Description: "The monthly pad quota: pads used, the limit and pads remaining."},
		ts.resourceHandler(true, func(ctx context.Context, _ string) (any, error) { return ts.quotaView(ctx) }))
	s.AddResource(&mcp.Resource{URI: organizationURI, Name: "organization", Title: "Organization", MIMEType: "text/plain",
		Description: "The caller's organization: its name, default language, teams and first users (needs an owner's key)."},
		ts.resourceHandler(false, func(ctx context.Context, _ string) (any, error) { return ts.organizationView(ctx) }))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: transcriptURI, Name: "pad-transcript", Title: "A pad's transcript", MIMEType: "text/plain",
		Description: "One interview: the pad, its event log (oldest first) and the final code of its files, cut to fit."},
		ts.resourceHandler(false, func(ctx context.Context, uri string) (any, error) {
			id, err := transcriptID(uri)
			if err != nil {
				return nil, err
			}
			return ts.transcriptData(ctx, id, ts.opts.MaxResultBytes-reserve-blockOverhead)
		}))
}

// errNoResource is a resource address that names no resource.
var errNoResource = errors.New("no such resource")

// transcriptID is the pad ID in a transcript resource's address.
func transcriptID(uri string) (string, error) {
	rest, ok := strings.CutPrefix(uri, "pad://pads/")
	id, ok2 := strings.CutSuffix(rest, "/transcript")
	if !ok || !ok2 || id == "" || strings.Contains(id, "/") {
		return "", errNoResource
	}
	if u, err := url.PathUnescape(id); err == nil {
		id = u
	}
	return id, nil
}

// resourceHandler reads a resource through view under the per-call
// timeout: plain (no text from people) as JSON, otherwise as a data
// block, redacted and within Options.MaxResultBytes. A pad that does not
// exist is the protocol's resource-not-found error.
func (ts *toolset) resourceHandler(plain bool, view func(context.Context, string) (any, error)) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (res *mcp.ReadResourceResult, err error) {
		uri := req.Params.URI
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, fmt.Errorf("padmcp failed to read %s (a bug in padmcp): %v", uri, r)
			}
		}()
		if ts.client(ctx) == nil {
			return nil, errNoClient
		}
		if ts.opts.CallTimeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, ts.opts.CallTimeout)
			defer cancel()
		}
		v, err := view(ctx, uri)
		switch {
		case err == nil:
		case errors.Is(err, errNoResource) || advice.Of(err) == advice.NotFound:
			return nil, mcp.ResourceNotFoundError(uri)
		default:
			return nil, errors.New(ts.fit(errorText("read "+uri, err), ts.opts.MaxResultBytes, "\n[error text truncated]"))
		}
		n := ts.opts.MaxResultBytes
		if !plain {
			n -= blockOverhead
		}
		text, _ := ts.render(v, !plain, n)
		mime := "application/json"
		if !plain {
			text, mime = dataBlock(text), "text/plain"
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}, nil
	}
}
