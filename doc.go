// Package padapi is a typed client for the Pad Interview Service HTTP API:
// coding-interview pads, the question library, the organization, and the
// monthly pad quota.
//
// # Getting started
//
// Create one Client and share it; it is safe for concurrent use:
//
//	c, err := padapi.NewClient("https://app.coderpad.io", os.Getenv("PAD_API_KEY"))
//	if err != nil { ... }
//	defer c.Close()
//	q, err := c.Quota.Get(ctx)
//
// FromEnv builds the same client from PAD_BASE_URL (DefaultBaseURL when
// unset) and PAD_API_KEY. Close releases the idle connections of the
// transport the client built; a caller's *http.Client (WithHTTPClient) is
// left alone.
//
// The client's fields are the API's resources: c.Quota, c.Pads, c.Questions
// and c.Organization. Every method takes a context.Context first and returns
// (*T, error), or just error for Delete. Get reads one item, List one page,
// All iterates over every page; a service that lists more than one kind has
// ListX and AllX (Pads.ListEvents, Organization.ListPads).
//
// The base URL may carry a path prefix (https://gateway.example.com/pad):
// every request goes below it, so the client works behind a gateway.
//
// # Any endpoint: Do
//
// Client.Do sends a request the typed methods do not cover yet through the
// same pipeline (auth, retries, the size cap, the key scrub, create
// safety), and decodes the answer into any value, or keeps the service's
// bytes as they came in a *json.RawMessage:
//
//	var raw json.RawMessage
//	err := c.Do(ctx, http.MethodGet, "/api/pads/"+url.PathEscape(id), nil, &raw)
//
// # JSON
//
// Every decode and encode uses github.com/go-json-experiment/json, the code
// Go 1.27 ships as encoding/json/v2. Field names match exactly, unknown
// fields are ignored, and a timestamp may be RFC 3339 or any ISO 8601 form
// the service writes (+0000, +00, fractional seconds of any length). The
// models are plain structs with JSON tags: encoding/json decodes them too,
// but reads only RFC 3339 timestamps; Pad, Quota and Organization, whose
// wire has two shapes, read every form either way.
//
// # Authentication
//
// Every request carries the header Authorization: Token token="<API key>",
// set on the request itself. The key must be printable ASCII without '"' or
// '\'. It is sent only to the base URL's host: the base URL must be https
// (loopback hosts and WithInsecureHTTP aside), redirects are never followed,
// and next_page links are never requested as given. The key never appears in
// an error, a log line or fmt output of the client.
//
// # IDs and params
//
// Every ID field and ID parameter has the one type ID, a string. The
// service sends some IDs as JSON numbers and some as strings; an ID decodes
// from either, so an ID read from one response passes to the next call as
// it is:
//
//	env, err := c.Pads.Environment(ctx, pad.PadEnvironmentIDs[0])
//
// An ID that is empty, "." or ".." is refused before any request.
//
// Each method that writes has its own params type (PadCreateParams,
// QuestionUpdateParams, ...) and each list its own options type
// (PadListOptions, OrganizationUserListOptions, ...); the paged lists'
// options are all defined from ListOptions {Sort, Page, Cursor}, which one
// encoder turns into the query. Their fields are
// pointers or slices, and a nil field is not sent at all, so an update
// changes only what it names. Ptr fills a pointer field from a value:
//
//	c.Pads.Update(ctx, id, &padapi.PadUpdateParams{Ended: padapi.Ptr(true)})
//
// Each params type encodes itself as the service takes it: pads as a flat
// form, questions with nested keys (question[title]), a multi-file
// question's files as JSON, a zip as a multipart upload.
//
// # Errors
//
// A failure the service reported is an *APIError with the HTTP status code,
// the service's message and code, the method and API path, and how many
// attempts were made. Match kinds with errors.Is: ErrBadRequest,
// ErrUnauthorized, ErrForbidden, ErrNotFound, ErrOverQuota (a pad create
// refused for the quota), ErrRateLimited (any other 429), ErrServer,
// ErrResponseTooLarge. A call refused before anything was sent (an invalid
// ID, a nil context, params that contradict each other) matches
// ErrInvalidArgument.
// A body that is not the service's JSON (a proxy's HTML page) still gives an
// *APIError with the right status code. Context errors stay visible:
// errors.Is(err, context.DeadlineExceeded) holds when the deadline ended the
// call.
//
// # Retries and creates
//
// GET, PUT and DELETE are retried on connection errors and on 500, 502, 503
// and 504, with capped, jittered backoff, and a 429 when its Retry-After
// fits under the cap (WithRetry says how). A create (POST) is retried only
// when its request was certainly never written: the service has no
// idempotency keys, so a create that may have reached it without a definite
// answer fails with ErrOutcomeUnknown ("outcome unknown": the pad may
// exist). One Create call never makes two pads.
//
// # Quota
//
// Quota.Get returns the organization's quota (or the user's own when it has
// no organization). Checking it before a create is advisory: another process
// can spend the last pad in between, and the create's ErrOverQuota is the real
// answer. The live service often leaves both counts out of a limited plan:
// Quota.Remaining and Quota.Limit then report ok == false, and
// Quota.CanCreate answers true, since only the create can tell.
//
// # Pagination
//
// Lists come 50 items a page as a *Page; Page.Next gives the options of
// the next call. Every All method returns an iter.Seq2 that fetches ahead
// while the loop reads (WithConcurrentPages), follows next_page only below
// the base URL, and ends with an error on a repeated link, past the
// first page's total, or past WithListLimit items:
//
//	for pad, err := range c.Pads.All(ctx, &padapi.PadListOptions{Sort: padapi.SortUpdatedDesc}) {
//		if err != nil { ... }
//		fmt.Println(pad.Title)
//	}
//
// # After the interview
//
// Pads.Transcript returns a pad with its whole event log and every
// environment (the final code of each file). An edit-history link (in
// Pad.History and each file's History) names a document on another host:
// Pads.History fetches it without the API key, and History.Replay rebuilds
// the file's text from its operations, counting positions in UTF-16 code
// units as the service's editor does, in time linear in the operations
// (History.ReplayContext stops when a context ends).
//
// # Connections
//
// Without WithHTTPClient the client builds its own transport (see
// NewClient). There is no default timeout: the caller's context bounds
// every call, dial, TLS, headers, body and decode included.
//
// # Testing code that uses padapi
//
// Package padapitest runs an in-memory fake of the whole service on
// loopback, with real state, quota accounting, paging and fault injection:
//
//	srv := padapitest.NewServer(t)
//	c := srv.Client()
//
// Code that prefers github.com/jarcoal/httpmock can pass its own
// *http.Client with WithHTTPClient; the client sends everything, retries
// included, through that client's Transport. Pass WithRetry(0, 0, 0) too:
// httpmock answers an unregistered route with a connection error, which the
// client would otherwise retry with backoff. Code that depends on a single
// method can take a one-method interface, such as
// interface{ Get(context.Context) (*padapi.Quota, error) }, and be given
// c.Quota or a stub.
package padapi
